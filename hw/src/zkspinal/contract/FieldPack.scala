package zkspinal.contract

import spinal.core._

/** A register word built from its [[Field]]s: each value at its field's bits, zero elsewhere. */
object FieldPack {
  def apply(width: Int, parts: (Field, UInt)*): Bits = {
    val w = B(0, width bits)
    for ((f, v) <- parts) {
      require(f.end <= width && v.getWidth <= f.width, s"${f.name}: ${v.getWidth} bits into [${f.lsb}, ${f.end}) of $width")
      w(f.end - 1 downto f.lsb) := v.resize(f.width).asBits
    }
    w
  }
  /** a constant at its field's bits (checked to fit) */
  def const(f: Field, v: BigInt): (Field, UInt) = {
    require(v >= 0 && v <= f.max, s"${f.name}: $v does not fit ${f.width} bits")
    f -> U(v, f.width bits)
  }
}
