package zkspinal.keccak

import spinal.core._
import spinal.lib._

/** The 64-bit sum of the 25 lanes of a state (test_speed's return value).
  *
  * lanesPerCycle = 1: one adder, the lanes read through a 25:1 multiplexer over 25 cycles while the input
  *   stream holds the state (input.ready on the 25th); result one cycle later.
  * lanesPerCycle = 25: an adder tree, a register after every `levelsPerStage` adder levels, always ready.
  */
class LaneSummer(val lanesPerCycle: Int, levelsPerStage: Int = 2) extends Component {
  require(lanesPerCycle == 1 || lanesPerCycle == KeccakConstants.lanes, "lanesPerCycle must be 1 or 25")
  val io = new Bundle {
    val input = slave(Stream(KeccakState()))
    val result = master(Flow(UInt(64 bits)))
  }
  private val lanes: Seq[UInt] = io.input.payload.map(_.asUInt).toSeq

  /** cycles from the first cycle an input is valid to its result */
  val latency: Int = if (lanesPerCycle == 1) {
    val index = Reg(UInt(log2Up(KeccakConstants.lanes) bits)) init (0)
    val acc = Reg(UInt(64 bits)) init (0)
    val lastLane = index === KeccakConstants.lanes - 1
    val sum = acc + io.input.payload(index).asUInt
    io.input.ready := lastLane
    when(io.input.valid) {
      index := Mux(lastLane, U(0, index.getWidth bits), index + 1)
      acc := Mux(lastLane, U(0, 64 bits), sum)
    }
    io.result.valid := RegNext(io.input.valid && lastLane) init (False)
    io.result.payload := RegNext(sum)
    KeccakConstants.lanes
  } else {
    io.input.ready := True
    var level: Seq[UInt] = lanes
    var valid: Bool = io.input.valid
    var depth = 0
    var stages = 0
    while (level.length > 1) {
      level = level.grouped(2).map(p => if (p.length == 2) p(0) + p(1) else p(0)).toSeq
      depth += 1
      if (depth % levelsPerStage == 0 || level.length == 1) {
        level = level.map(RegNext(_))
        valid = RegNext(valid) init (False)
        stages += 1
      }
    }
    io.result.valid := valid
    io.result.payload := level.head
    stages
  }
}

/** One test_speed engine: a [[KeccakF1600]] core that applies NB_ROUNDS permutations to each run it accepts
  * (its repeat count), then a [[LaneSummer]].  Every slot of the core (1 iterative, 24 / stage pipelined) holds
  * its own run.
  */
class KeccakSpeedUnit(val cfg: KeccakConfig, val sumLanesPerCycle: Int) extends Component {
  val io = new Bundle {
    /** the initial state of a new run (lanes i + run) */
    val job = slave(Stream(KeccakState()))
    /** NB_ROUNDS (>= 1), held while the unit works */
    val nbRounds = in UInt (32 bits)
    /** test_speed of a finished run */
    val result = master(Flow(UInt(64 bits)))
    /** a permutation finished this cycle */
    val permuted = out Bool ()
  }
  val core = new KeccakF1600(cfg, tagWidth = 0, repeatWidth = 32)
  val summer = new LaneSummer(sumLanesPerCycle)
  val slots: Int = core.slots

  core.io.input.valid := io.job.valid
  core.io.input.payload.state := io.job.payload
  core.io.input.payload.repeat := io.nbRounds
  io.job.ready := core.io.input.ready
  summer.io.input << core.io.output.translateWith(core.io.output.payload.state)
  io.result << summer.io.result
  io.permuted := core.io.permuted
}
