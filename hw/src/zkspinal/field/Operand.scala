package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._
import scala.collection.mutable

/** An integer operand of the multiplier generators: a runtime value or a constant, with the exact range
  * [lo, hi] of values it can take.  Ranges are what the generators prove their port widths and DSP accumulators
  * with; hardware is built only when a DSP link or a heap asks for the value (`at`), and delay registers are
  * shared by every user of the same operand.
  */
sealed abstract class Operand {
  def lo: BigInt
  def hi: BigInt
  def constant: Option[BigInt]
  /** first stage at which the value exists */
  def ready: Int
  /** the value at stage `stage` >= ready, as a two's complement SInt of `width` bits */
  def at(stage: Int): SInt
  def signed: Boolean = lo < 0
  /** two's complement bits that hold every value of the range */
  def width: Int = Operand.signedWidth(lo, hi)
  /** bits above which the value is sign (or zero) extension: the span the digits must cover */
  def span: Int = if (signed) width - 1 else hi.bitLength
  def isZero: Boolean = constant.contains(BigInt(0))
}

object Operand {
  /** two's complement width of the range [lo, hi] */
  def signedWidth(lo: BigInt, hi: BigInt): Int = {
    val w = (if (hi >= 0) hi.bitLength else (-hi - 1).bitLength) max (if (lo >= 0) lo.bitLength else (-lo - 1).bitLength)
    w + 1
  }
  def floorDiv(x: BigInt, d: BigInt): BigInt = { val (q, r) = x /% d; if (r < 0) q - 1 else q }

  /** A runtime value (unsigned UInt or two's complement SInt) built on first use. */
  final class Var(build: => Timed[SInt], val lo: BigInt, val hi: BigInt, val isDiff: Boolean = false) extends Operand {
    private lazy val src = build
    private val delayed = mutable.Map[Int, SInt]()
    def constant = None
    def ready: Int = src.at
    def at(stage: Int): SInt = {
      require(stage >= src.at, s"operand needed at stage $stage, exists from ${src.at}")
      if (stage == src.at) src.value.resize(width) else delayed.getOrElseUpdate(stage, RegNext(at(stage - 1)))
    }
  }
  /** an unsigned runtime value of `bits` bits: the range [0, bound - 1] (bound defaults to 2^bits) */
  def unsigned(t: => Timed[UInt], bits: Int, bound: Option[BigInt] = None): Operand =
    new Var(t.map(v => v.resize(bits + 1).asSInt), 0, bound.map(_ - 1).getOrElse((BigInt(1) << bits) - 1))

  final class Const(v: BigInt) extends Operand {
    def lo = v
    def hi = v
    def constant = Some(v)
    def ready = 0
    def at(stage: Int): SInt = S(v, width bits)
  }
  def const(v: BigInt): Operand = new Const(v)

  /** Bits [from, from + bits) of x as an integer: unsigned, or (top = true) the signed rest of x from `from` up. */
  final class Slice(x: Operand, from: Int, bits: Int, top: Boolean) extends Operand {
    private val d = BigInt(1) << from
    val (lo, hi) =
      if (top) (floorDiv(x.lo, d), floorDiv(x.hi, d))
      else if (x.lo >= 0 && (x.hi >> from) < (BigInt(1) << bits)) (BigInt(0), x.hi >> from)
      else (BigInt(0), (BigInt(1) << bits) - 1)
    def constant = None
    def ready = x.ready
    def at(stage: Int): SInt = {
      val v = x.at(stage)
      val ext = v.resize(v.getWidth max (from + bits + 1)) // sign extension up to the slice
      if (top) (ext >> from).resize(width)
      else ext(from + bits - 1 downto from).asBits.asUInt.resize(width).asSInt
    }
  }

  /** Bits [from, from + bits) of x (the signed rest of x when `top`); constants stay constants. */
  def slice(x: Operand, from: Int, bits: Int, top: Boolean): Operand = x.constant match {
    case Some(c) =>
      val shifted = floorDiv(c, BigInt(1) << from)
      const(if (top) shifted else shifted & ((BigInt(1) << bits) - 1))
    case None if from >= x.span => if (x.signed && top) new Slice(x, from, bits, top) else const(0)
    case None => new Slice(x, from, bits, top)
  }

  /** x split at the given bit positions: pieces [cut_i, cut_{i+1}), the last one the signed rest of x. */
  def split(x: Operand, cuts: Seq[Int]): Seq[Operand] =
    cuts.indices.map { i =>
      val last = i == cuts.size - 1
      slice(x, cuts(i), if (last) (x.span - cuts(i)) max 1 else cuts(i + 1) - cuts(i), top = last)
    }

  /** x - y with the full carry: a subtractor of at most `carryChunk` bits per stage ([[WideAdder]]). */
  def diff(x: Operand, y: Operand, cfg: ArithConfig): Operand = (x.constant, y.constant) match {
    case (Some(a), Some(b)) => const(a - b)
    case (_, Some(b)) if b == 0 => x
    case _ =>
      val lo = x.lo - y.hi
      val hi = x.hi - y.lo
      val w = signedWidth(lo, hi)
      new Var({
        val t = x.ready max y.ready
        val xs = Timed(x.at(t).resize(w).asUInt, t)
        val ys = Timed((~y.at(t).resize(w)).asUInt, t)
        WideAdder(xs, ys, w, cfg, cin = True).map(_.asSInt) // x + ~y + 1
      }, lo, hi, isDiff = true)
  }
}
