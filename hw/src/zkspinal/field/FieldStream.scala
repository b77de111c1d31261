package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._

case class FieldResult(width: Int) extends Bundle {
  val value = UInt(width bits)
  /** an operand was out of range (>= p): value is 0 */
  val error = Bool()
}

/** Stream (valid/ready) wrapper around a [[FlowCore]] with back-pressure and an operand range check.
  *
  * Credits: an output FIFO of `streamLatency + slack` entries; the input is ready only while the operations in
  * the pipeline plus those in the FIFO leave room, so a stalled output never loses a result and an open output
  * sustains one operation per cycle (at full rate `streamLatency` operations are in flight).
  *
  * Bad input: when `checkRange` and an operand is >= p (or the core's own `operandBounds`), the result carries error = 1 and value = 0, and
  * `errors` counts it; the pipeline goes on with the next operation.
  */
class FieldStream(makeCore: => FlowCore, field: FieldConfig, checkRange: Boolean, slack: Int = 2) extends Component {
  val core: FlowCore = makeCore
  val io = new Bundle {
    val input = slave(Stream(Vec(UInt(core.inWidth bits), core.arity)))
    val output = master(Stream(FieldResult(core.outWidth)))
    val errors = out(UInt(32 bits))
  }
  val latency: Int = core.latency
  val fifoLatency = 2
  /** input handshake to output valid when nothing stalls */
  val streamLatency: Int = latency + fifoLatency
  /** one more than the operations in flight at full rate, plus slack */
  val depth: Int = streamLatency + slack

  private val fifo = StreamFifo(FieldResult(core.outWidth), depth, fifoLatency)
  private val pending = Reg(UInt(log2Up(depth + 1) bits)) init (0) // in the pipeline or in the FIFO
  io.input.ready := pending < depth
  pending := pending + U(io.input.fire) - U(fifo.io.pop.fire)

  core.io.input.valid := io.input.fire
  // an operand the core reads late (operandLag) follows the others by that many cycles
  for (i <- 0 until core.arity) core.io.input.payload(i) := Delay(io.input.payload(i), core.operandLag(i))

  private val bad: Bool =
    if (!checkRange) False
    else {
      // operand - bound borrows exactly when operand < bound (the bound is p unless the core says otherwise)
      val bounds = core.operandBounds.getOrElse(Seq.fill(core.arity)(field.p))
      val borrows = io.input.payload.zip(bounds).map { case (x, b) =>
        WideAdder.addConst(Timed(x.resize(core.inWidth + 1), 0), -b, core.inWidth + 1, ArithConfig()) }
      val at = borrows.map(_.at).max
      require(at <= latency, "range check slower than the core")
      Delay(!borrows.map(_.to(at).msb).reduce(_ & _), latency - at)
    }
  fifo.io.push.valid := core.io.output.valid
  fifo.io.push.value := Mux(bad, U(0, core.outWidth bits), core.io.output.payload)
  fifo.io.push.error := bad
  io.output << fifo.io.pop

  private val errorCount = Reg(UInt(32 bits)) init (0)
  when(core.io.output.valid && bad && errorCount =/= errorCount.maxValue) { errorCount := errorCount + 1 }
  io.errors := errorCount
}
