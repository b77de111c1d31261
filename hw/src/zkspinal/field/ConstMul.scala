package zkspinal.field

import spinal.core._
import spinal.lib._

/** x*c mod p for a constant c and any n-bit x (the result is in whichever domain x is: multiplying by a
  * canonical constant keeps Montgomery form).  No reduction multipliers:
  *
  *   S = sum_k x_k * C_k,   x_k the tileB-bit digits of x,  C_k = c * 2^(tileB*k) mod p   (DSP tiles)
  *   then [[TableFold]] brings S below p.
  *
  * About ceil(n/tileB)*ceil(n/tileA) DSPs (150 for 255 bits) against ~243 for a [[MontgomeryMul]].
  */
class ConstMul(val field: FieldConfig, val constant: BigInt, cfg: ArithConfig = ArithConfig()) extends FlowCore(field.width, 1, field.width) {
  import Karatsuba._
  require(constant >= 0 && constant < field.p, "the constant must be a canonical field element")
  private val n = field.width
  private val x = new Source(operand(0), n)
  private val digits = TableFold.digits(n, cfg.tileB)
  private val coeffs = TableFold.expand(field, constant, cfg.tileB)
  private val sMax = digits.zip(coeffs).map { case ((_, w), ck) => ((BigInt(1) << w) - 1) * ck }.sum

  private val h1 = new BitHeap(sMax.bitLength max 1, cfg)
  val dspTiles: Int = digits.zip(coeffs).map { case ((lo, w), ck) =>
    addProduct(h1, new SliceNode(x, lo, w), new ConstNode(ck, n), w, Seq(), cfg)
  }.sum
  private val result = TableFold(h1, sMax, field, cfg)
  drive(result)
  val latency = result.at
}

/** Conversion into (x*R mod p) or out of (x*R^-1 mod p) the Montgomery domain: a [[ConstMul]] by R or R^-1. */
class MontConvert(field: FieldConfig, val toMont: Boolean, cfg: ArithConfig = ArithConfig())
    extends ConstMul(field, if (toMont) field.rModP else field.rInv, cfg)

/** The tail of the constant multipliers: a heap whose value is below `bound` brought below p without multipliers.
  *
  *   fold: each row r of the compressed heap is r_lo + r_hi*2^n, and r_hi*2^n mod p is read from tables of
  *         v * 2^(n + 6j) mod p per 6-bit chunk v of r_hi (one LUT6 per bit), repeated while it shrinks
  *   the last sum Z < J*p is reduced by J parallel subtractions ([[Reduce.small]]).
  */
object TableFold {
  private val chunk = 6

  /** (low bit, width) of the `digit`-bit digits of an n-bit value */
  def digits(n: Int, digit: Int): Seq[(Int, Int)] = (0 until n by digit).map(lo => (lo, digit min (n - lo)))

  /** C_k = c * 2^(digit*k) mod p, one per digit of an n-bit multiplicand: sum_k x_k C_k = x*c mod p */
  def expand(field: FieldConfig, c: BigInt, digit: Int): Seq[BigInt] =
    digits(field.width, digit).map { case (lo, _) => (c << lo).mod(field.p) }

  def apply(heap: BitHeap, bound: BigInt, field: FieldConfig, cfg: ArithConfig): Timed[UInt] = {
    val n = field.width
    val p = field.p
    def chunks(width: Int) = (n until width by chunk).map(c => (c, chunk min (width - c)))
    def table(c: Int, w: Int) = (0 until (1 << w)).map(v => (BigInt(v) << c).mod(p))
    /** Largest sum after folding `count` rows of `width` bits. */
    def foldBound(count: Int, width: Int): BigInt =
      count * (((BigInt(1) << n) - 1) + chunks(width).map { case (c, w) => table(c, w).max }.sum)
    /** Folds the bits above n of each row back below n through tables. */
    def fold(rows: Seq[UInt], at: Int, bound: BigInt): (Seq[UInt], Int) = {
      val h = new BitHeap(bound.bitLength, cfg)
      for (r <- rows) {
        h.add(Timed(r(n - 1 downto 0), at))
        for ((c, w) <- chunks(r.getWidth))
          h.add(Timed(RegNext(Vec(table(c, w).map(e => U(e, n bits)))(r(c + w - 1 downto c))), at + 1))
      }
      h.compress()
    }
    var (rows, at) = heap.compress()
    var b = bound
    while (rows.head.getWidth > n + 1 && foldBound(rows.size, rows.head.getWidth) < b) {
      b = foldBound(rows.size, rows.head.getWidth)
      val (r2, at2) = fold(rows, at, b)
      rows = r2; at = at2
    }
    val z =
      if (rows.size == 1) Timed(rows(0), at)
      else WideAdder(Timed(rows(0), at), Timed(rows(1), at), rows(0).getWidth, cfg)
    Reduce.small(z, b + 1, p, cfg)
  }
}
