package zkspinal.keccak

import spinal.core._
import spinal.lib._
import zkspinal.axi.AxiClocked
import zkspinal.contract.{Contract, CoreIdentity, CoreKind, FieldPack, IdentifiedCore, Show}
import spinal.lib.bus.amba4.axilite._

/** KeccakSpeed: `units` test_speed engines of one core configuration.  sumLanesPerCycle: see [[LaneSummer]]
  * (the default sums in one cycle for pipelined cores, whose runs finish back to back, and over 25 cycles for
  * iterative ones, which finish a run every NB_ROUNDS permutations). */
case class KeccakSpeedConfig(core: KeccakConfig = KeccakConfig.default, units: Int = 1, sumLanesPerCycle: Int = 0) {
  require(units >= 1 && units <= 255, "units must be 1..255 (the INFO register holds 8 bits)")
  val lanesPerCycle: Int = if (sumLanesPerCycle > 0) sumLanesPerCycle else if (core.unrolled) 25 else 1
  require(lanesPerCycle == 1 || lanesPerCycle == 25, "sumLanesPerCycle must be 1 or 25")
  def name: String = s"${core.name}_u$units"
}

/** Register map (AXI4-Lite, 32-bit registers, byte addresses).  The job registers sit where the SNAP hls_sponge
  * action keeps its checksum_job_t fields (action registers from 0x100).  Parameter writes while busy are ignored
  * (ERROR bit 3).  Unmapped addresses read 0 and ignore writes.
  */
object KeccakSpeedRegs extends Contract("keccak_speed", "KeccakSpeed registers (AXI4-Lite, 32-bit, byte offsets; " +
    "the SNAP hls_sponge action's checksum_job_t places)", "hw/src/zkspinal/keccak/KeccakSpeed.scala") {
  val control = reg("control", 0x000, "write bit 0 = 1: start.  read: the KeccakSpeedStatus bits")
  val retc = reg("retc", 0x004, "0x102 success, 0x104 failure (SNAP return codes); 0 before the first start")
  val error = reg("error", 0x008, "the KeccakSpeedErrors bits: why the last start was refused (bit 3 sticky until " +
    "the next accepted start)")
  val info = reg("info", 0x010, "read-only: [7:0] units, [15:8] rounds per cycle, [23:16] core slots per unit, " +
    "[31:24] lanes summed per cycle")
  val infoUnits = field("units", "info", 0, 8, "test_speed units")
  val infoRounds = field("rounds", "info", 8, 8, "Keccak rounds per cycle")
  val infoSlots = field("slots", "info", 16, 8, "core slots per unit")
  val infoLanes = field("lanes", "info", 24, 8, "lanes summed per cycle")
  val chkOut = reg("checksum", 0x128, "the checksum (0 after a refused start)", words = 2, show = Show.Hex64)
  val testChoice = reg("test_choice", 0x134, "0 = SPEED (the only test this engine runs)")
  val nbElmts = reg("nb_elmts", 0x138, "run r is computed when nb_elmts > r % freq (reset 1)")
  val freq = reg("freq", 0x13C, ">= 1 (reset 65536)")
  val nbTestRuns = reg("nb_test_runs", 0x140, "runs 0 .. NB_TEST_RUNS - 1 (reset 65536)")
  val nbRounds = reg("nb_rounds", 0x144, "permutations per run, >= 1 (reset 65536)")
  val cycles = reg("cycles", 0x148, "clock cycles from start to done", words = 2, show = Show.Dec)
  val perms = reg("perms", 0x150, "permutations performed", words = 2, show = Show.Dec)
  val calls = reg("calls", 0x158, "test_speed runs computed")
  val retcSuccess = code("retc_success", 0x102, "RETC after a finished job").toInt
  val retcFailure = code("retc_failure", 0x104, "RETC after a refused start").toInt
}

/** KeccakSpeed's CONTROL read bits. */
object KeccakSpeedStatus extends Contract("keccak_speed_status", "KeccakSpeed CONTROL read bits",
    "hw/src/zkspinal/keccak/KeccakSpeed.scala") {
  val busy = flag("busy", 0, "a job runs")
  val done = flag("done", 1, "the last job finished (until the next start)")
  val idle = flag("idle", 2, "no job runs")
  val refused = flag("refused", 3, "the last start was refused")
}

/** KeccakSpeed's ERROR bits. */
object KeccakSpeedErrors extends Contract("keccak_speed_error", "KeccakSpeed ERROR bits",
    "hw/src/zkspinal/keccak/KeccakSpeed.scala") {
  val freqZero = flag("freq_zero", 0, "FREQ = 0")
  val roundsZero = flag("rounds_zero", 1, "NB_ROUNDS = 0")
  val testChoice = flag("test_choice", 2, "TEST_CHOICE is not 0 (SPEED)")
  val busyWrite = flag("busy_write", 3, "a start or a parameter write arrived while busy and was ignored")
}

class KeccakSpeed(val cfg: KeccakSpeedConfig = KeccakSpeedConfig()) extends Component with AxiClocked with IdentifiedCore {
  val identity = CoreIdentity(CoreKind.KeccakSpeed, cfg.name)
  identityOutputs()
  import KeccakSpeedRegs._
  val s_axil = slave(AxiLite4(AxiLite4Config(addressWidth = 12, dataWidth = 32)))
  AxiLite4SpecRenamer(s_axil)

  val units: Seq[KeccakSpeedUnit] = axiDomain(Seq.fill(cfg.units)(new KeccakSpeedUnit(cfg.core, cfg.lanesPerCycle)))
  val slotsPerUnit: Int = units.head.slots

  val logic = new ClockingArea(axiDomain) {
    val bus = AxiLite4SlaveFactory(s_axil)
    val busy = RegInit(False)

    // ---- parameters: written only while idle
    val writeData = Bits(32 bits)
    bus.nonStopWrite(writeData)
    val busyWrite = RegInit(False)
    def parameter(address: Int, init: BigInt): UInt = {
      val r = Reg(UInt(32 bits)) init (init)
      bus.read(r, address)
      bus.onWrite(address) { when(busy) { busyWrite := True } otherwise { r := writeData.asUInt } }
      r
    }
    val testChoiceR = parameter(testChoice, 0)
    val nbElmtsR = parameter(nbElmts, 1)
    val freqR = parameter(freq, 65536)
    val nbTestRunsR = parameter(nbTestRuns, 65536)
    val nbRoundsR = parameter(nbRounds, 65536)

    // ---- results
    val checksum = Reg(UInt(64 bits)) init (0)
    val cycles = Reg(UInt(64 bits)) init (0)
    val perms = Reg(UInt(64 bits)) init (0)
    val callsR = Reg(UInt(32 bits)) init (0)
    val done = RegInit(False)
    val refused = RegInit(False)
    val retcR = Reg(UInt(32 bits)) init (0)
    val reasons = Reg(Bits(3 bits)) init (0)
    bus.read(checksum(31 downto 0), chkOut); bus.read(checksum(63 downto 32), chkOut + 4)
    bus.read(cycles(31 downto 0), KeccakSpeedRegs.cycles); bus.read(cycles(63 downto 32), KeccakSpeedRegs.cycles + 4)
    bus.read(perms(31 downto 0), KeccakSpeedRegs.perms); bus.read(perms(63 downto 32), KeccakSpeedRegs.perms + 4)
    bus.read(callsR, calls)
    bus.read(retcR, retc)
    val errorBits = Bits(32 bits)
    errorBits := 0
    errorBits(KeccakSpeedErrors.freqZero) := reasons(0)
    errorBits(KeccakSpeedErrors.roundsZero) := reasons(1)
    errorBits(KeccakSpeedErrors.testChoice) := reasons(2)
    errorBits(KeccakSpeedErrors.busyWrite) := busyWrite
    bus.read(errorBits, error)
    val status = Bits(32 bits)
    status := 0
    status(KeccakSpeedStatus.busy) := busy
    status(KeccakSpeedStatus.done) := done
    status(KeccakSpeedStatus.idle) := !busy
    status(KeccakSpeedStatus.refused) := refused
    bus.read(status, control)
    bus.read(FieldPack(32, FieldPack.const(infoLanes, cfg.lanesPerCycle), FieldPack.const(infoSlots, slotsPerUnit),
      FieldPack.const(infoRounds, cfg.core.roundsPerCycle), FieldPack.const(infoUnits, cfg.units)), info)

    // ---- dispatcher: the selected runs in order, skipping to the next multiple of freq past nb_elmts
    val run = Reg(UInt(33 bits)) init (0)
    val phase = Reg(UInt(32 bits)) init (0) // run % freq
    // nb_elmts = 0 selects nothing: done at once instead of skipping through every multiple of freq
    val pending = busy && nbElmtsR =/= 0 && run < nbTestRunsR.resize(33)
    val selected = phase < nbElmtsR
    val runs = Stream(UInt(32 bits))
    runs.valid := pending && selected
    runs.payload := run(31 downto 0)
    when(pending && !selected) {
      run := run + (freqR - phase).resize(33)
      phase := 0
    } elsewhen (runs.fire) {
      run := run + 1
      phase := Mux(phase + 1 === freqR, U(0, 32 bits), phase + 1)
    }
    // st[i] = i + run, registered once and offered to every unit; the first ready unit takes it
    val jobs = runs.map(r => Vec((0 until KeccakConstants.lanes).map(i => (r.resize(64) + i).asBits))).m2sPipe()
    val grant = OHMasking.first(Cat(units.map(_.io.job.ready))) // Cat(Seq): unit 0 = bit 0, served first
    for ((u, g) <- units.zip(grant.asBools)) {
      u.io.job.valid := jobs.valid && g
      u.io.job.payload := jobs.payload
      u.io.nbRounds := nbRoundsR
    }
    jobs.ready := units.map(_.io.job.ready).orR

    // ---- results: XOR of every finished run, in any order
    val maxInFlight = cfg.units * (slotsPerUnit + 1) + 2
    val inFlight = Reg(UInt(log2Up(maxInFlight + 1) bits)) init (0)
    val finished = units.map(_.io.result.valid)
    inFlight := inFlight + U(runs.fire) - CountOne(finished).resize(inFlight.getWidth)
    val finishedXor = units.map(u => Mux(u.io.result.valid, u.io.result.payload, U(0, 64 bits))).reduce(_ ^ _)
    val permutedNow = CountOne(units.map(_.io.permuted))

    when(busy) {
      cycles := cycles + 1
      checksum := checksum ^ finishedXor
      perms := perms + permutedNow.resize(64)
      when(runs.fire) { callsR := callsR + 1 }
      when(!pending && inFlight === 0) {
        busy := False
        done := True
        retcR := retcSuccess
      }
    }

    // ---- start
    bus.onWrite(control) {
      when(writeData(0)) {
        when(busy) {
          busyWrite := True
        } otherwise {
          val why = (testChoiceR =/= 0) ## (nbRoundsR === 0) ## (freqR === 0)
          reasons := why
          checksum := 0; cycles := 0; perms := 0; callsR := 0
          done := False
          run := 0
          phase := 0
          when(why =/= 0) {
            refused := True
            done := True
            retcR := retcFailure
          } otherwise {
            refused := False
            busyWrite := False
            retcR := 0
            busy := True
          }
        }
      }
    }
  }
}
