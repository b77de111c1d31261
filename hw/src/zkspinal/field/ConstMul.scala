package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._

/** x*c mod p for a constant c and any n-bit x (the result is in whichever domain x is: multiplying by a
  * canonical constant keeps Montgomery form).  No reduction multipliers:
  *
  *   S = sum_k x_k C_k,   x_k the 17-bit digits of x,  C_k = c 2^(17k) mod p      ([[DigitSum]], DSP chains)
  *   then [[TableFold]] brings S (< K 2^17 p) below p.
  *
  * The C_k are constants on the DSPs' A ports: the chain of A-digit position i sums x_k C_k,i over k, so S leaves
  * the DSPs as one 47-bit value per 26 bits of p.  ceil(n/17) ceil(n/26) DSP48E2 (150 for 255 bits).
  */
class ConstMul(val field: FieldConfig, val constant: BigInt, cfg: ArithConfig = ArithConfig()) extends FlowCore(field.width, 1, field.width) {
  require(constant >= 0 && constant < field.p, "the constant must be a canonical field element")
  private val n = field.width
  private val x = Operand.unsigned(operand(0), n)
  private val xs = DigitSum.digits(n, Dsp48e2.shift).map { case (lo, w) => Operand.slice(x, lo, w, top = false) }
  private val cs = TableFold.expand(field, constant, Dsp48e2.shift).map(Operand.const)
  private val sMax = DigitSum.bound(xs, cs)
  private val heap = new BitHeap(sMax.bitLength max 1, cfg)
  val dspTiles: Int = DigitSum.add(heap, xs, cs, xOnA = false, cfg)
  private val result = TableFold(heap, sMax, field, cfg)
  drive(result)
  val latency: Int = result.at
}

/** Conversion into (x*R mod p) or out of (x*R^-1 mod p) the Montgomery domain: a [[ConstMul]] by R or R^-1. */
class MontConvert(field: FieldConfig, val toMont: Boolean, cfg: ArithConfig = ArithConfig())
    extends ConstMul(field, if (toMont) field.rModP else field.rInv, cfg)

/** S = sum_k x_k C_k on DSP chains.  The C_k are cut into digits for the port the x_k do not take (17-bit B
  * digits when x_k is on A, `tileA`-bit A digits when x_k is on B); every link of one C-digit position has the same
  * weight, so a chain adds them with Z = PCIN and S leaves the DSPs as one value per digit position
  * ([[DspChainPack]] starts a new chain before the 48-bit accumulator could overflow). */
object DigitSum {
  /** (low bit, width) of the `digit`-bit digits of an n-bit value */
  def digits(n: Int, digit: Int): Seq[(Int, Int)] = (0 until n by digit).map(lo => (lo, digit min (n - lo)))
  def bound(xs: Seq[Operand], cs: Seq[Operand]): BigInt = xs.zip(cs).map { case (x, c) => x.hi * c.hi }.sum

  /** Adds S to `heap`; returns the DSPs built. */
  def add(heap: BitHeap, xs: Seq[Operand], cs: Seq[Operand], xOnA: Boolean, cfg: ArithConfig): Int = {
    val cBits = cs.map(_.span).max
    val size = if (xOnA) Dsp48e2.shift else cfg.tileA
    val links = for { (lo, w) <- digits(cBits, size) } yield
      xs.zip(cs).map { case (x, c) =>
        val d = Operand.slice(c, lo, w, top = false)
        if (xOnA) Link(x, d, lo) else Link(d, x, lo)
      }.filterNot(l => l.a.isZero || l.b.isZero)
    val chains = links.filter(_.nonEmpty).flatMap(DspChainPack(_, cfg))
    for (c <- chains; (seg, v) <- c.build(cfg)) heap.addTerm(v, seg.offset, seg.signed, negative = false)
    chains.map(_.links.size).sum
  }
}

/** The tail of the constant multipliers: a heap whose value S is below `bound` brought below p without multipliers.
  *
  *   S is added up (one adder); its bits from n up, in 6-bit chunks v_j, are replaced by table words
  *   v_j 2^(n + 6j) mod p (one LUT6 per bit), giving Z = S mod 2^n + sum_j T_j < 2^n + J p; [[Reduce.small]] takes
  *   Z below p.
  */
object TableFold {
  private val chunk = 6

  /** C_k = c 2^(digit k) mod p, one per digit of an n-bit multiplicand: sum_k x_k C_k = x c mod p */
  def expand(field: FieldConfig, c: BigInt, digit: Int): Seq[BigInt] =
    DigitSum.digits(field.width, digit).map { case (lo, _) => (c << lo).mod(field.p) }

  def apply(heap: BitHeap, bound: BigInt, field: FieldConfig, cfg: ArithConfig): Timed[UInt] = {
    val n = field.width
    val p = field.p
    val s = heap.sum()
    val w = s.value.getWidth
    if (w <= n) return Reduce.small(s, bound, p, cfg)
    val chunks = (n until w by chunk).map(c => (c, chunk min (w - c)))
    def table(c: Int, cw: Int) = (0 until (1 << cw)).map(v => (BigInt(v) << c).mod(p))
    val h = new BitHeap((((BigInt(1) << n) - 1) + chunks.map { case (c, cw) => table(c, cw).max }.sum).bitLength, cfg)
    h.add(s.map(_(n - 1 downto 0)))
    LutModel.add(chunks.size * n)
    for ((c, cw) <- chunks)
      h.add(Timed(RegNext(Vec(table(c, cw).map(e => U(e, n bits)))(s.value(c + cw - 1 downto c))), s.at + 1))
    val zBound = (BigInt(1) << n) + chunks.map { case (c, cw) => table(c, cw).max }.sum
    Reduce.small(h.sum(), zBound, p, cfg)
  }
}
