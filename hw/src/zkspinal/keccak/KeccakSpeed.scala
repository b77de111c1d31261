package zkspinal.keccak

import spinal.core._
import spinal.lib._
import zkspinal.system.{CoreIdentity, CoreKind, IdentifiedCore}
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
  * action keeps its checksum_job_t fields (action registers from 0x100).
  *   0x000 CONTROL   write bit 0 = 1: start.  read: bit 0 busy, bit 1 done (until the next start), bit 2 idle,
  *                   bit 3 error (the last start was refused)
  *   0x004 RETC      0x102 success, 0x104 failure (SNAP return codes); 0 before the first start
  *   0x008 ERROR     why the last start was refused: bit 0 freq = 0, bit 1 nb_rounds = 0, bit 2 test_choice is
  *                   not 0 (SPEED); bit 3 (sticky until the next accepted start): a start or a parameter write
  *                   arrived while busy and was ignored
  *   0x010 INFO      read-only: [7:0] units, [15:8] rounds per cycle, [23:16] core slots per unit,
  *                   [31:24] lanes summed per cycle
  *   0x128 CHK_OUT   checksum, low word; 0x12C high word (0 after a refused start)
  *   0x134 TEST_CHOICE  0 = SPEED (the only test this engine runs)
  *   0x138 NB_ELMTS  run r is computed when nb_elmts > r % freq       (reset 1)
  *   0x13C FREQ      >= 1                                              (reset 65536)
  *   0x140 NB_TEST_RUNS  runs 0 .. NB_TEST_RUNS - 1                    (reset 65536)
  *   0x144 NB_ROUNDS permutations per run, >= 1                        (reset 65536)
  *   0x148 CYCLES    clock cycles from start to done, low word; 0x14C high word
  *   0x150 PERMS     permutations performed, low word; 0x154 high word
  *   0x158 CALLS     test_speed runs computed
  * Parameter writes while busy are ignored (ERROR bit 3).  Unmapped addresses read 0 and ignore writes.
  */
object KeccakSpeedRegs {
  val control = 0x000; val retc = 0x004; val error = 0x008; val info = 0x010
  val chkOut = 0x128; val testChoice = 0x134; val nbElmts = 0x138; val freq = 0x13C
  val nbTestRuns = 0x140; val nbRounds = 0x144; val cycles = 0x148; val perms = 0x150; val calls = 0x158
  val retcSuccess = 0x102; val retcFailure = 0x104
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
    bus.read(busyWrite ## reasons, error)
    bus.read(refused ## !busy ## done ## busy, control)
    bus.read(U(cfg.lanesPerCycle, 8 bits) ## U(slotsPerUnit, 8 bits) ## U(cfg.core.roundsPerCycle, 8 bits) ##
      U(cfg.units, 8 bits), info)

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
