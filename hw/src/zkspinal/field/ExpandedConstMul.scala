package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._

/** x*c mod p where c changes from operation to operation but comes from a known set (a ROM): the operand is c
  * already expanded into its digit multiples, so the core needs no reduction multipliers ([[ConstMul]]'s method
  * with the constant at run time):
  *
  *   operand 0:      x < 2^n
  *   operands 1..K:  C_0 .. C_{K-1},  C_k = c 2^(d k) mod p,  d = tileA, K = ceil(n/d)
  *                   ([[ExpandedConstMul.expand]]; K ROM words of n bits per constant)
  *   S = sum_k x_k C_k  ([[DigitSum]]: x_k, the d-bit digits of x, on the A ports; the 17-bit digits of C_k on
  *   the B ports; the chain of B-digit position j adds x_k C_k,j over k), then [[TableFold]].
  *
  * Word C_k is taken by link k of every chain, one stage after link k-1: the core reads operand 1 + k `operandLag`
  * = k stages after the others, so a ROM read with the index delayed by k feeds it without registers (255 bits:
  * 10 words; the 26-bit digits x_k are delayed inside, 26 bits per stage).  K ceil(n/17) DSP48E2 (150 for 255
  * bits, 345 for 377).
  */
class ExpandedConstMul(val field: FieldConfig, cfg: ArithConfig = ArithConfig())
    extends FlowCore(field.width, 1 + ExpandedConstMul.digits(field, cfg), field.width) {
  private val n = field.width
  private val K = ExpandedConstMul.digits(field, cfg)
  override def operandLag(i: Int): Int = ExpandedConstMul.operandLag(i)
  private val x = Operand.unsigned(operand(0), n)
  private val xs = DigitSum.digits(n, cfg.tileA).map { case (lo, w) => Operand.slice(x, lo, w, top = false) }
  private val cs = (0 until K).map(k => Operand.unsigned(operand(1 + k), n, Some(field.p)))
  private val sMax = DigitSum.bound(xs, cs)
  private val heap = new BitHeap(sMax.bitLength, cfg)
  val dspTiles: Int = DigitSum.add(heap, xs, cs, xOnA = true, cfg)
  private val result = TableFold(heap, sMax, field, cfg)
  drive(result)
  val latency: Int = result.at
}

object ExpandedConstMul {
  /** operand 0 (x) at the core's input, word C_k (operand 1 + k) k stages later: when link k of the chains takes it */
  def operandLag(i: Int): Int = if (i == 0) 0 else i - 1
  /** K: the n-bit words of an expanded constant */
  def digits(field: FieldConfig, cfg: ArithConfig): Int = DigitSum.digits(field.width, cfg.tileA).size
  /** the expanded operand of constant c (c < p): C_0 .. C_{K-1} */
  def expand(field: FieldConfig, c: BigInt, cfg: ArithConfig): Seq[BigInt] = {
    require(c >= 0 && c < field.p, "the constant must be a canonical field element")
    TableFold.expand(field, c, cfg.tileA)
  }
}

/** x * constants(i) mod p: operand 0 is x (< p), operand 1 the index i (< constants.size, checked by
  * [[FieldStream]] like an operand >= p).  The expanded constants sit in K ROMs, word k read with the index
  * delayed by the [[ExpandedConstMul]]'s lag for it; the form the Poseidon engines use (one ROM word per beat).
  */
class RomConstMul(val field: FieldConfig, val constants: Seq[BigInt], cfg: ArithConfig = ArithConfig())
    extends FlowCore(field.width, 2, field.width) {
  require(constants.nonEmpty, "a ROM constant multiplier needs at least one constant")
  private val idxBits = log2Up(constants.size) max 1
  private val K = ExpandedConstMul.digits(field, cfg)
  private val expanded = constants.map(ExpandedConstMul.expand(field, _, cfg))
  private val x = operand(0)
  private val idx = operand(1).map(_(idxBits - 1 downto 0))
  private val mul = new ExpandedConstMul(field, cfg)
  if (constants.size <= LutModel.lutTableWords) LutModel.add(K * field.width)
  // one ROM per digit multiple C_k (K words of n bits per constant), read when the multiplier takes word k: the
  // index delayed by the multiplier's lag for word k, then the ROM's read stage
  private val words = (0 until K).map { k =>
    val rom = Mem(UInt(field.width bits), constants.size)
    rom.initBigInt(expanded.map(_(k)))
    val lag = mul.operandLag(1 + k)
    Timed.readSync(rom, idx.delayedTo(idx.at + lag)) -> lag
  }
  /** the stage the multiplier starts at: word k arrives lag(k) stages after it */
  private val start = words.map { case (w, lag) => w.at - lag }.distinct.ensuring(_.size == 1).head
  mul.io.input.valid := Delay(io.input.valid, start, init = False)
  mul.io.input.payload(0) := x.to(start)
  for (((w, _), k) <- words.zipWithIndex) mul.io.input.payload(1 + k) := w.value
  val dspTiles: Int = mul.dspTiles
  val latency: Int = start + mul.latency
  drive(Timed(mul.io.output.payload, latency))
  override def operandBounds: Option[Seq[BigInt]] = Some(Seq(field.p, BigInt(constants.size)))
}
