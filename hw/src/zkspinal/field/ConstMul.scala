package zkspinal.field

import spinal.core._
import spinal.lib._

/** x*c mod p for a constant c and any n-bit x (the result is in whichever domain x is: multiplying by a
  * canonical constant keeps Montgomery form).  No reduction multipliers:
  *
  *   S = sum_k x_k * C_k,   x_k the tileB-bit digits of x,  C_k = c * 2^(tileB*k) mod p   (DSP tiles)
  *   fold: each row r of the compressed heap is r_lo + r_hi*2^n, and r_hi*2^n mod p is read from tables of
  *         v * 2^(n + 6j) mod p per 6-bit chunk v of r_hi (one LUT6 per bit), repeated while it shrinks
  *   the last sum Z < J*p is reduced by J parallel subtractions ([[Reduce.small]]).
  *
  * About ceil(n/tileB)*ceil(n/tileA) DSPs (150 for 255 bits) against ~243 for a [[MontgomeryMul]].
  */
class ConstMul(val field: FieldConfig, val constant: BigInt, cfg: ArithConfig = ArithConfig()) extends FlowCore(field.width, 1, field.width) {
  import Karatsuba._
  require(constant >= 0 && constant < field.p, "the constant must be a canonical field element")
  private val n = field.width
  private val p = field.p
  private val digit = cfg.tileB
  private val x = new Source(operand(0), n)
  private val digits = (0 until n by digit).map(lo => (lo, digit min (n - lo)))
  private val coeffs = digits.map { case (lo, _) => (constant << lo).mod(p) }
  private val sMax = digits.zip(coeffs).map { case ((_, w), ck) => ((BigInt(1) << w) - 1) * ck }.sum

  private val h1 = new BitHeap(sMax.bitLength max 1, cfg)
  val dspTiles: Int = digits.zip(coeffs).map { case ((lo, w), ck) =>
    addProduct(h1, new SliceNode(x, lo, w), new ConstNode(ck, n), w, Seq(), cfg)
  }.sum

  private val chunk = 6
  private def chunks(width: Int) = (n until width by chunk).map(c => (c, chunk min (width - c)))
  private def table(c: Int, w: Int) = (0 until (1 << w)).map(v => (BigInt(v) << c).mod(p))
  /** Largest sum after folding `count` rows of `width` bits. */
  private def foldBound(count: Int, width: Int): BigInt =
    count * (((BigInt(1) << n) - 1) + chunks(width).map { case (c, w) => table(c, w).max }.sum)

  /** Folds the bits above n of each row back below n through tables. */
  private def fold(rows: Seq[UInt], at: Int, bound: BigInt): (Seq[UInt], Int) = {
    val heap = new BitHeap(bound.bitLength, cfg)
    for (r <- rows) {
      heap.add(Timed(r(n - 1 downto 0), at))
      for ((c, w) <- chunks(r.getWidth))
        heap.add(Timed(RegNext(Vec(table(c, w).map(e => U(e, n bits)))(r(c + w - 1 downto c))), at + 1))
    }
    heap.compress()
  }

  private var (rows, at) = h1.compress()
  private var bound = sMax
  while (rows.head.getWidth > n + 1 && foldBound(rows.size, rows.head.getWidth) < bound) {
    bound = foldBound(rows.size, rows.head.getWidth)
    val (r2, at2) = fold(rows, at, bound)
    rows = r2; at = at2
  }
  private val z =
    if (rows.size == 1) Timed(rows(0), at)
    else WideAdder(Timed(rows(0), at), Timed(rows(1), at), rows(0).getWidth, cfg)
  private val result = Reduce.small(z, bound + 1, p, cfg)
  drive(result)
  val latency = result.at
}

/** Conversion into (x*R mod p) or out of (x*R^-1 mod p) the Montgomery domain: a [[ConstMul]] by R or R^-1. */
class MontConvert(field: FieldConfig, val toMont: Boolean, cfg: ArithConfig = ArithConfig())
    extends ConstMul(field, if (toMont) field.rModP else field.rInv, cfg)
