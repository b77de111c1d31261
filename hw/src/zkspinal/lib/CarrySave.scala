package zkspinal.lib

import spinal.core._

/** A sum of several operands through one carry chain: full-adder layers (3:2, sum = a XOR b XOR c and the
  * majority one bit up, LUTs only) reduce the operands to two, and one adder adds those.  Written as a chain of
  * `+`, synthesis builds one carry chain per `+`, in series on the same path. */
object CarrySave {
  /** One full-adder layer: three rows to two with the same sum mod 2^width, (a XOR b XOR c, the majorities one bit
    * up); one LUT level, no carry. */
  def step(a: UInt, b: UInt, c: UInt, width: Int): (UInt, UInt) = {
    val maj = (a & b) | (a & c) | (b & c)
    (a ^ b ^ c, (maj << 1).resize(width))
  }

  /** (Σ terms) mod 2^width, combinational; ceil(log_{3/2}(terms / 2)) LUT levels, then one carry chain */
  def sum(terms: Seq[UInt], width: Int): UInt = {
    require(terms.nonEmpty, "CarrySave.sum of no operands")
    var rows = terms.map(_.resize(width))
    while (rows.size > 2) {
      rows = rows.grouped(3).flatMap {
        case Seq(a, b, c) => val (s, k) = step(a, b, c, width); Seq(s, k)
        case rest         => rest
      }.toSeq
    }
    rows.reduce(_ + _)
  }
}
