package zkspinal.field

import spinal.core._
import spinal.lib._

/** x*c mod p where c changes from operation to operation but comes from a known set (a ROM): the operand is c
  * already expanded into its digit multiples, so the core needs no reduction multipliers ([[ConstMul]]'s method
  * with the constant at run time):
  *
  *   operand 0:      x < 2^n
  *   operands 1..K:  C_0 .. C_{K-1},  C_k = c * 2^(d*k) mod p,  d = tileA, K = ceil(n/d)
  *                   ([[ExpandedConstMul.expand]]; K ROM words of n bits per constant)
  *   S = sum_k x_k * C_k  (x_k the d-bit digits of x: a d x n product on ceil(n/tileB) DSP tiles each),
  *   then [[TableFold]].
  *
  * K * ceil(n/tileB) DSP tiles (150 for 255 bits, 345 for 377) against 240 / 441 for a [[MontgomeryMul]], and one
  * bit heap instead of three; the price is K*n ROM bits per constant (2,550 for 255-bit p, 5,655 for 377-bit).
  */
class ExpandedConstMul(val field: FieldConfig, cfg: ArithConfig = ArithConfig())
    extends FlowCore(field.width, 1 + ExpandedConstMul.digits(field, cfg), field.width) {
  import Karatsuba._
  private val n = field.width
  private val digits = TableFold.digits(n, cfg.tileA)
  private val x = new Source(operand(0), n)
  private val sMax = digits.map { case (_, w) => ((BigInt(1) << w) - 1) * (field.p - 1) }.sum

  private val h1 = new BitHeap(sMax.bitLength, cfg)
  val dspTiles: Int = digits.zipWithIndex.map { case ((lo, w), k) =>
    addProduct(h1, new SliceNode(x, lo, w), new Source(operand(1 + k), n), w, Seq(), cfg)
  }.sum
  private val result = TableFold(h1, sMax, field, cfg)
  drive(result)
  val latency = result.at
}

object ExpandedConstMul {
  /** K: the n-bit words of an expanded constant */
  def digits(field: FieldConfig, cfg: ArithConfig): Int = TableFold.digits(field.width, cfg.tileA).size
  /** the expanded operand of constant c (c < p): C_0 .. C_{K-1} */
  def expand(field: FieldConfig, c: BigInt, cfg: ArithConfig): Seq[BigInt] = {
    require(c >= 0 && c < field.p, "the constant must be a canonical field element")
    TableFold.expand(field, c, cfg.tileA)
  }
}

/** x * constants(i) mod p: operand 0 is x (< p), operand 1 the index i (< constants.size, checked by
  * [[FieldStream]] like an operand >= p).  The expanded constants sit in a ROM read one stage after the operands
  * arrive; the product is an [[ExpandedConstMul]].  The form the Poseidon engines use (one ROM word per beat).
  */
class RomConstMul(val field: FieldConfig, val constants: Seq[BigInt], cfg: ArithConfig = ArithConfig())
    extends FlowCore(field.width, 2, field.width) {
  require(constants.nonEmpty, "a ROM constant multiplier needs at least one constant")
  private val idxBits = log2Up(constants.size) max 1
  private val K = ExpandedConstMul.digits(field, cfg)
  private val expanded = constants.map(ExpandedConstMul.expand(field, _, cfg))
  // one ROM per digit multiple C_k (K words of n bits per constant)
  private val roms = (0 until K).map { k =>
    val m = Mem(UInt(field.width bits), constants.size)
    m.initBigInt(expanded.map(_(k)))
    m
  }
  private val x = operand(0)
  private val idx = operand(1).value(idxBits - 1 downto 0)
  private val mul = new ExpandedConstMul(field, cfg)
  mul.io.input.valid := Delay(io.input.valid, 2, init = False)
  mul.io.input.payload(0) := x.to(2)
  for (k <- 0 until K) mul.io.input.payload(1 + k) := roms(k).readSync(idx) // stage 2
  val dspTiles: Int = mul.dspTiles
  val latency: Int = 2 + mul.latency
  drive(Timed(mul.io.output.payload, latency))
  override def operandBounds: Option[Seq[BigInt]] = Some(Seq(field.p, BigInt(constants.size)))
}
