package zkspinal.keccak

import spinal.core._
import spinal.lib._

/** Keccak-f[1600] with valid/ready streams (see [[KeccakConfig]] for the two structures).
  *
  * Each input carries an optional tag (tagWidth bits, returned with the result) and an optional repeat count
  * (repeatWidth bits): the output is the state after max(repeat, 1) permutations applied back to back inside
  * the core (test_speed's loop), without passing through the input again.
  *
  * Iterative core: the input is loaded into the state register as is (the load multiplexer sits after the round
  * logic, so each round output bit stays one 6-input function of the register), then 24 / roundsPerCycle cycles
  * per permutation.  Pipelined core: a permutation whose repeats are not done re-enters stage 0 instead of a new
  * input.
  *
  * Contract the sponge and the speed units rely on: whenever `output` fires, `input` is ready in the same cycle.
  * `input.ready` may depend combinationally on `output.ready`; `output.valid` never depends on `input`.
  */
class KeccakF1600(val cfg: KeccakConfig, val tagWidth: Int = 0, val repeatWidth: Int = 0) extends Component {
  val io = new Bundle {
    val input = slave(Stream(KeccakWork(tagWidth, repeatWidth)))
    val output = master(Stream(KeccakWork(tagWidth, 0)))
    /** a permutation finished in the core this cycle (repeats included) */
    val permuted = out Bool ()
  }

  /** register stages a state passes per permutation */
  val stepsPerPermutation: Int = cfg.steps
  /** cycles from an input handshake to the output valid for repeat = 1 */
  val latency: Int = if (cfg.unrolled) cfg.steps else cfg.steps + 1
  /** cycles between accepted inputs at full rate, repeat = 1 */
  val initiationInterval: Int = if (cfg.unrolled) 1 else cfg.steps + 1
  /** independent permutations in flight at full rate */
  val slots: Int = if (cfg.unrolled) cfg.steps else 1

  private def repeatOf(w: KeccakWork): UInt =
    if (repeatWidth > 0) Mux(w.repeat === 0, U(1, repeatWidth bits), w.repeat) else U(1, 1 bits)

  private def result(state: Vec[Bits], tag: Bits): KeccakWork = {
    val w = KeccakWork(tagWidth, 0)
    w.state := state
    if (tagWidth > 0) w.tag := tag
    w
  }

  val body = if (cfg.unrolled) new Area {
    // one register stage per `roundsPerStep` rounds; everything advances unless the output is stalled
    val advance = Bool()
    val lastValid = Bool()
    val last = KeccakWork(tagWidth, repeatWidth)
    val lastRemaining = repeatOf(last)
    val recirculate = lastValid && lastRemaining =/= 1
    io.input.ready := advance && !recirculate
    val entry = KeccakWork(tagWidth, repeatWidth)
    entry.state := Mux(recirculate, last.state, io.input.payload.state)
    if (tagWidth > 0) entry.tag := Mux(recirculate, last.tag, io.input.payload.tag)
    if (repeatWidth > 0) entry.repeat := Mux(recirculate, lastRemaining - 1, repeatOf(io.input.payload))
    var valid: Bool = recirculate || io.input.valid
    var work: KeccakWork = entry
    for (s <- 0 until cfg.steps) {
      val next = KeccakWork(tagWidth, repeatWidth)
      next.state := KeccakRound.fixed(work.state, s * cfg.roundsPerStep, cfg.roundsPerStep)
      if (tagWidth > 0) next.tag := work.tag
      if (repeatWidth > 0) next.repeat := work.repeat
      valid = RegNextWhen(valid, advance) init (False)
      work = RegNextWhen(next, advance)
      valid.setName(s"stage${s}_valid"); work.setName(s"stage${s}_work")
    }
    lastValid := valid
    last := work
    io.output.valid := lastValid && lastRemaining === 1
    io.output.payload := result(last.state, last.tag)
    advance := !io.output.valid || io.output.ready
    io.permuted := lastValid && advance
  } else new Area {
    val steps = cfg.steps
    val state = Reg(KeccakState())
    val tag = (tagWidth > 0) generate Reg(Bits(tagWidth bits))
    val remaining = (repeatWidth > 0) generate Reg(UInt(repeatWidth bits))
    val step = Reg(UInt(log2Up(steps) max 1 bits)) init (0) // round block applied next
    val busy = RegInit(False) // holds a state, in progress or finished
    val finished = RegInit(False)
    io.output.valid := finished
    io.output.payload := result(state, tag)
    io.input.ready := !busy || io.output.fire
    val lastStep = step === steps - 1
    val next = KeccakRound.indexed(state, step, cfg.roundsPerStep)
    io.permuted := busy && !finished && lastStep
    when(io.input.fire) {
      state := io.input.payload.state
      if (tagWidth > 0) tag := io.input.payload.tag
      if (repeatWidth > 0) remaining := repeatOf(io.input.payload)
      step := 0
      busy := True
      finished := False
    } elsewhen (busy && !finished) {
      state := next
      step := Mux(lastStep, U(0, step.getWidth bits), step + 1)
      when(lastStep) {
        if (repeatWidth > 0) {
          remaining := remaining - 1
          finished := remaining === 1
        } else finished := True
      }
    } elsewhen (io.output.fire) {
      busy := False
      finished := False
    }
  }
}
