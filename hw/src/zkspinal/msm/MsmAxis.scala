package zkspinal.msm

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axilite._
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}
import zkspinal.keccak.{AxiClocked, AxiStreamNames}
import zkspinal.system.{CoreIdentity, CoreKind, IdentifiedCore}

/** Register map (AXI4-Lite, 32-bit registers, byte addresses):
  *   0x00 CONTROL   write: bit 0 start (taken when idle and no error), bit 1 soft reset (aborts a running job,
  *                  clears the error flags, empties the input FIFOs).  read: bit 0 busy, bit 1 done (the last job
  *                  returned every bucket), bit 2 error, bit 3 idle
  *   0x04 ERROR     sticky until soft reset; any of bits 0..6 aborts the job and from then on both input streams
  *                  are drained (tready = 1, data discarded) until soft reset:
  *                  bit 0 a scalar >= the bound (r)           bit 1 scalar stream: tlast before scalar COUNT-1
  *                  bit 2 scalar stream: no tlast on the beat holding scalar COUNT-1 (longer than COUNT)
  *                  bit 3 point stream: tlast before the last beat of point COUNT-1
  *                  bit 4 point stream: no tlast on the last beat of point COUNT-1
  *                  bit 5 a point record with non-zero bits above 1131
  *                  bit 6 watchdog: points still due and no input for TIMEOUT cycles (a stream that stopped)
  *                  bit 7 a start arrived while busy or with an error pending (ignored; does not abort)
  *   0x08 COUNT     points (= scalars) of the next job; written while idle
  *   0x0C TIMEOUT   watchdog cycles (reset 2^24)
  *   0x10 CYCLES    start to done (lo, 0x14 hi)       0x18 BUSY   additions issued, every adder (lo, 0x1C hi)
  *   0x20 ACC_CYCLES accumulate + flush cycles (lo, 0x24 hi)
  *   0x28 STALLS    cycles an addition waited for room in the retry queue   0x2C DEFERRED  additions sent to the
  *                  retry queue (their bucket was busy)
  *   0x30 STARVED   cycles an adder idled with points due and none queued    0x34 ERROR_INDEX  index of the first error
  *                  (STALLS, DEFERRED, STARVED, SPILLED: summed over the adders)
  *   0x38 INFO      [7:0] windows, [15:8] retry queue depth, [31:16] adder latency
  *   0x3C PHASE     [2:0] core phase (0 idle, 1 clear, 2 accumulate, 3 flush, 4 read-out)
  *   0x40 CONSUMED  points accumulated so far
  *   0x44 FRAMING   bit 0 packets: a stream may carry tlast before its last element (error bits 1 and 3 are not
  *                  raised), as it does when the host writes it in chunks through XDMA, which ends every write
  *                  with tlast; the element count alone frames the job (a stream that stops early ends in the
  *                  watchdog, bit 6).  0 after reset: tlast exactly on each stream's last element.  Written while idle.
  *   0x48 ADDERS    number of bucket adders A (window j belongs to adder j mod A)
  *   0x4C PARTIALS  partial bucket records that follow the buckets in the read-out (A x partial buckets per adder)
  *   0x50 + 8a      BUSY of adder a (lo, +4 hi), a < A: cycles adder a took an addition
  *   0x90 SPILLED   additions into partial buckets (a hot bucket's additions spread while it was busy)
  * Streams: s_axis_scalars (two 256-bit scalars per 512-bit beat), s_axis_points (three beats per point),
  * m_axis_buckets (three beats per record: the buckets, then the PARTIALS partial buckets; tlast on the last beat):
  * reference_model/msm_formats.md.
  */
object MsmAxisRegs {
  val control = 0x00; val error = 0x04; val count = 0x08; val timeout = 0x0C; val cycles = 0x10; val busy = 0x18
  val accCycles = 0x20; val stalls = 0x28; val deferred = 0x2C; val starved = 0x30; val errorIndex = 0x34
  val framing = 0x44; val adders = 0x48; val partials = 0x4C; val spilled = 0x90
  /** BUSY of adder a (lo; hi at + 4) */
  def adderBusy(a: Int): Int = 0x50 + 8 * a
  val info = 0x38; val phase = 0x3C; val consumed = 0x40
}

case class Beat() extends Bundle {
  val data = Bits(512 bits)
  val last = Bool()
}

class MsmAxis(val cfg: MsmConfig) extends Component with AxiClocked with IdentifiedCore {
  import MsmAxisRegs._
  val identity = CoreIdentity(CoreKind.Msm, cfg.name)
  identityOutputs()
  private val n = cfg.curve.field.width
  val s_axil = slave(AxiLite4(AxiLite4Config(addressWidth = 8, dataWidth = 32)))
  AxiLite4SpecRenamer(s_axil)
  private val axisCfg = Axi4StreamConfig(dataWidth = 64, useLast = true)
  val s_axis_scalars = slave(Axi4Stream(axisCfg))
  val s_axis_points = slave(Axi4Stream(axisCfg))
  val m_axis_buckets = master(Axi4Stream(axisCfg))
  AxiStreamNames(s_axis_scalars, "s_axis_scalars")
  AxiStreamNames(s_axis_points, "s_axis_points")
  AxiStreamNames(m_axis_buckets, "m_axis_buckets")

  val core: MsmCore = axiDomain(new MsmCore(cfg))
  val slicer: ScalarSlicer = axiDomain(new ScalarSlicer(cfg))

  val logic = new ClockingArea(axiDomain) {
    val bus = AxiLite4SlaveFactory(s_axil)
    val writeData = Bits(32 bits)
    bus.nonStopWrite(writeData)

    val errors = Reg(Bits(8 bits)) init (0)
    val fatal = errors(6 downto 0).orR
    val raise = Bits(8 bits)
    raise := 0
    val errorIndex = Reg(UInt(32 bits)) init (0)
    val countR = Reg(UInt(32 bits)) init (0)
    val timeoutR = Reg(UInt(32 bits)) init (BigInt(1) << 24)
    val packets = Reg(UInt(1 bits)) init (0)
    val running = core.io.phase =/= MsmPhase.IDLE
    val softReset = Bool()
    softReset := False
    val start = Bool()
    start := False

    // ---- input FIFOs (flushed by soft reset)
    def fifoOf(s: Axi4Stream.Axi4Stream, depth: Int): Stream[Beat] = {
      val beats = Stream(Beat())
      beats.arbitrationFrom(s)
      beats.payload.data := s.payload.data
      beats.payload.last := s.payload.last
      val fifo = StreamFifo(Beat(), depth)
      fifo.io.flush := softReset
      fifo.io.push << beats
      fifo.io.pop
    }
    slicer.io.flush := softReset
    val scalarBeats = fifoOf(s_axis_scalars, cfg.scalarFifoDepth)
    val pointBeats = fifoOf(s_axis_points, 3 * cfg.pointFifoDepth)

    // ---- scalars: two per beat
    val sIdx = Reg(UInt(32 bits)) init (0)
    val half = RegInit(False)
    val scalarsDue = running && !fatal && sIdx =/= countR
    slicer.io.input.valid := scalarBeats.valid && scalarsDue
    slicer.io.input.payload := Mux(half, scalarBeats.data(511 downto 256), scalarBeats.data(255 downto 0)).asUInt
    val lastScalar = sIdx === countR - 1
    val scalarBeatDone = slicer.io.input.fire && (half || lastScalar)
    scalarBeats.ready := scalarBeatDone || fatal
    when(slicer.io.input.fire) {
      sIdx := sIdx + 1
      half := !half
    }
    when(scalarBeatDone && scalarBeats.last && !lastScalar && !packets(0)) { raise(1) := True }
    when(scalarBeatDone && !scalarBeats.last && lastScalar) { raise(2) := True }

    // ---- points: three beats per record
    val pIdx = Reg(UInt(32 bits)) init (0)
    val beat = Reg(UInt(2 bits)) init (0)
    val held = Vec.fill(2)(Reg(Bits(512 bits)))
    val pointsDue = running && !fatal && pIdx =/= countR
    val records = Stream(Bits(3 * n bits))
    records.valid := pointBeats.valid && pointsDue && beat === 2
    records.payload := (pointBeats.data ## held(1) ## held(0)).resize(3 * n)
    val padding = pointBeats.data(511 downto 3 * n - 1024).orR
    val pointBeatTaken = pointsDue && pointBeats.valid && (beat =/= 2 || records.ready)
    pointBeats.ready := pointBeatTaken || fatal
    val lastPointBeat = pIdx === countR - 1 && beat === 2
    when(pointBeatTaken) {
      when(beat =/= 2) { held(beat.resize(1)) := pointBeats.data }
      beat := Mux(beat === 2, U(0), beat + 1)
      when(beat === 2) { pIdx := pIdx + 1 }
      when(pointBeats.last && !lastPointBeat && !packets(0)) { raise(3) := True }
      when(!pointBeats.last && lastPointBeat) { raise(4) := True }
    }

    // ---- jobs: a scalar and its point; a bad element raises an error instead of entering the core.  The s2mPipe
    // registers the ready the core's scheduler computes, so it does not run on through the join into the slicer.
    val joined = StreamJoin(slicer.io.output, records.translateWith(padding ## records.payload).m2sPipe(flush = softReset))
      .s2mPipe(flush = softReset)
    val pointBits = joined.payload._2
    val bad = joined.payload._1.outOfRange || pointBits.msb
    core.io.jobs.valid := joined.valid && !bad && !fatal
    core.io.jobs.payload.digits := joined.payload._1.digits
    core.io.jobs.payload.q := pointBits(3 * n - 1 downto 0)
    joined.ready := core.io.jobs.ready || bad || fatal
    when(joined.valid && !fatal) {
      when(joined.payload._1.outOfRange) { raise(0) := True }
      when(pointBits.msb) { raise(5) := True }
    }

    // ---- watchdog: points due and nothing arriving
    val idleInput = Reg(UInt(32 bits)) init (0)
    when(core.io.waiting && !fatal) {
      idleInput := idleInput + 1
      when(idleInput >= timeoutR) { raise(6) := True }
    } otherwise { idleInput := 0 }

    // ---- errors, abort
    when(raise(6 downto 0).orR && !fatal) {
      errorIndex := Mux(raise(0) || raise(5), core.io.consumed,
        Mux(raise(1) || raise(2), sIdx, Mux(raise(6), core.io.consumed, pIdx)))
    }
    errors := errors | raise
    core.io.abort := (raise(6 downto 0).orR && !fatal) || softReset
    core.io.start := start
    core.io.count := countR

    // ---- bucket read-out: three beats per record
    val outRec = Reg(Bits(1536 bits))
    val outLast = Reg(Bool())
    val outHolding = RegInit(False)
    val outBeat = Reg(UInt(2 bits)) init (0)
    core.io.buckets.ready := !outHolding
    when(core.io.buckets.fire) {
      val r = core.io.buckets.payload
      outRec := r.bucket ## r.window ## r.value
      outLast := r.last
      outHolding := True
      outBeat := 0
    }
    m_axis_buckets.valid := outHolding
    m_axis_buckets.payload.data := outRec.subdivideIn(3 slices)(outBeat)
    m_axis_buckets.payload.last := outLast && outBeat === 2
    when(m_axis_buckets.fire) {
      outBeat := outBeat + 1
      when(outBeat === 2) { outHolding := False }
    }

    // ---- registers
    bus.onWrite(control) {
      when(writeData(1)) {
        softReset := True
      } elsewhen (writeData(0)) {
        when(running || fatal) {
          raise(7) := True
        } otherwise {
          start := True
          sIdx := 0; half := False; pIdx := 0; beat := 0; idleInput := 0
          errors(7) := False
        }
      }
    }
    when(softReset) {
      errors := 0
      errorIndex := 0
      outHolding := False
      sIdx := 0; half := False; pIdx := 0; beat := 0; idleInput := 0
    }
    def param(address: Int, r: UInt): Unit = {
      bus.read(r, address)
      bus.onWrite(address) { when(!running) { r := writeData.asUInt.resized } }
    }
    param(count, countR)
    param(timeout, timeoutR)
    param(framing, packets)
    bus.read(B(0, 28 bits) ## (!running) ## fatal ## core.io.done ## running, control)
    bus.read(errors, error)
    def read64(address: Int, v: UInt): Unit = { bus.read(v(31 downto 0), address); bus.read(v(63 downto 32), address + 4) }
    read64(cycles, core.io.cycles)
    read64(busy, core.io.busyCycles)
    read64(accCycles, core.io.accCycles)
    bus.read(U(cfg.adders, 32 bits), MsmAxisRegs.adders)
    for (a <- 0 until cfg.adders) read64(adderBusy(a), core.io.laneBusy(a))
    bus.read(core.io.stalls, stalls)
    bus.read(core.io.deferred, deferred)
    bus.read(core.io.spilled, MsmAxisRegs.spilled)
    bus.read(U(cfg.partialRecords, 32 bits), MsmAxisRegs.partials)
    bus.read(core.io.starved, starved)
    bus.read(errorIndex, MsmAxisRegs.errorIndex)
    bus.read(U(core.latency, 16 bits) ## U(cfg.retryDepth, 8 bits) ## U(cfg.numWindows, 8 bits), info)
    bus.read(core.io.phase.asBits.resize(32), phase)
    bus.read(core.io.consumed, consumed)
  }
}
