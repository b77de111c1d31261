package zkspinal.field

import zkspinal.lib.Timed

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
  /** LUTs the generator's model expects ([[LutModel]]), to print beside a synthesis result. */
  def estimatedLuts: Int = LutModel.of(this)
  /** Exclusive upper bound of each operand, checked by [[FieldStream]]; None: every operand < p. */
  def operandBounds: Option[Seq[BigInt]] = None
  /** Stages after the others at which operand i is read: a user presents it that many cycles after the rest of
    * its operation (a core whose DSP chains take an operand word by word reads each word when its link needs it). */
  def operandLag(i: Int): Int = 0
  /** Operands registered at the core's input (stage 1, operand i at 1 + operandLag(i)). */
  protected def operand(i: Int): Timed[UInt] = Timed(RegNext(io.input.payload(i)), 1 + operandLag(i))
  /** Connects the result and the valid pipeline. */
  protected def drive(result: Timed[UInt]): Unit = {
    io.output.payload := result.value.resize(outWidth)
    io.output.valid := Delay(io.input.valid, result.at, init = False)
  }
}
