package zkspinal.field

import spinal.core._
import spinal.lib._

/** A fully pipelined arithmetic core: `arity` operands in, one result out `latency` cycles later, one
  * operation accepted every cycle, no back-pressure (Flow).  [[FieldStream]] adds valid/ready.
  */
abstract class FlowCore(val inWidth: Int, val arity: Int, val outWidth: Int) extends Component {
  val io = new Bundle {
    val input = slave(Flow(Vec(UInt(inWidth bits), arity)))
    val output = master(Flow(UInt(outWidth bits)))
  }
  /** Cycles from input to output: the stage of the result, known once the subclass has built it. */
  def latency: Int
  /** DSP48E2 tiles instantiated. */
  def dspTiles: Int
  /** Exclusive upper bound of each operand, checked by [[FieldStream]]; None: every operand < p. */
  def operandBounds: Option[Seq[BigInt]] = None
  /** Operands registered at the core's input (stage 1). */
  protected def operand(i: Int): Timed[UInt] = Timed(RegNext(io.input.payload(i)), 1)
  /** Connects the result and the valid pipeline. */
  protected def drive(result: Timed[UInt]): Unit = {
    io.output.payload := result.value.resize(outWidth)
    io.output.valid := Delay(io.input.valid, result.at, init = False)
  }
}

/** Conditional subtractions that bring a small multiple of p back below p. */
object Reduce {
  /** x mod p for 0 <= x < bound: all x - j*p (j = 1..J) in parallel, the largest non-negative one wins. */
  def small(x: Timed[UInt], bound: BigInt, p: BigInt, cfg: ArithConfig): Timed[UInt] = {
    val n = p.bitLength
    val w = (bound - 1).bitLength max n
    val jMax = ((bound - 1) / p).toInt
    if (jMax == 0) return x.map(_.resize(n))
    val xw = x.map(_.resize(w + 1))
    val diffs = (1 to jMax).map(j => WideAdder.addConst(xw, -(p * j), w + 1, cfg)) // msb set: x < j*p
    val at = diffs.head.at
    val xs = xw.to(at)
    // x - j*p >= 0 implies x - (j-1)*p >= 0: the last (largest j) non-negative difference is outermost
    val pick = diffs.foldLeft(xs(n - 1 downto 0)) { (acc, d) => Mux(!d.value.msb, d.value(n - 1 downto 0), acc) }
    Timed(RegNext(pick), at + 1)
  }
}
