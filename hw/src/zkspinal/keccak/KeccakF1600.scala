package zkspinal.keccak

import spinal.core._
import spinal.lib._

/** Keccak-f[1600] with valid/ready streams (see [[KeccakConfig]] for the two structures).
  *
  * The tag (tagWidth bits, optional) leaves with its state.  Contract the sponge and the speed units rely on:
  * whenever `output` fires, `input` is ready in the same cycle, so a retiring permutation's slot can be refilled
  * (or the state fed straight back) without a bubble.  `input.ready` may depend combinationally on
  * `output.ready`; `output.valid` never depends on `input`.
  */
class KeccakF1600(val cfg: KeccakConfig, val tagWidth: Int = 0) extends Component {
  val io = new Bundle {
    val input = slave(Stream(KeccakWork(tagWidth)))
    val output = master(Stream(KeccakWork(tagWidth)))
  }

  /** cycles from an input handshake to the output valid */
  val latency: Int = cfg.steps
  /** cycles between accepted permutations at full rate */
  val initiationInterval: Int = if (cfg.unrolled) 1 else cfg.steps
  /** independent permutations in flight at full rate */
  val slots: Int = if (cfg.unrolled) cfg.steps else 1

  private def withTag(state: Vec[Bits], tag: Bits): KeccakWork = {
    val w = KeccakWork(tagWidth)
    w.state := state
    if (tagWidth > 0) w.tag := tag
    w
  }

  val body = if (cfg.unrolled) new Area {
    // one register stage per `roundsPerStep` rounds; the whole pipeline advances unless the output is stalled
    val advance = !io.output.valid || io.output.ready
    io.input.ready := advance
    var valid: Bool = io.input.valid
    var work: KeccakWork = io.input.payload
    for (s <- 0 until cfg.steps) {
      val next = withTag(KeccakRound.fixed(work.state, s * cfg.roundsPerStep, cfg.roundsPerStep), work.tag)
      valid = RegNextWhen(valid, advance) init (False)
      work = RegNextWhen(next, advance)
      valid.setName(s"stage${s}_valid"); work.setName(s"stage${s}_work")
    }
    io.output.valid := valid
    io.output.payload := work
  } else new Area {
    val state = Reg(KeccakWork(tagWidth))
    val busy = RegInit(False) // holds a permutation, in progress or finished
    val step = Reg(UInt(log2Up(cfg.steps + 1) bits)) // round blocks applied
    val finished = busy && step === cfg.steps
    io.output.valid := finished
    io.output.payload := state
    io.input.ready := !busy || io.output.fire
    // a new permutation applies its first block on the way into the register
    val source = Mux(io.input.fire, io.input.payload.state, state.state)
    val blockIndex = Mux(io.input.fire, U(0, step.getWidth bits), step)
    val next = KeccakRound.indexed(source, blockIndex, cfg.roundsPerStep)
    when(io.input.fire) {
      state := withTag(next, io.input.payload.tag)
      step := 1
      busy := True
    } elsewhen (busy && !finished) {
      state.state := next
      step := step + 1
    } elsewhen (io.output.fire) {
      busy := False
    }
  }
}
