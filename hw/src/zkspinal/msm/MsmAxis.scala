package zkspinal.msm

import spinal.core._
import zkspinal.lib.CarrySave
import spinal.lib._
import spinal.lib.bus.amba4.axi.{Axi4, Axi4SpecRenamer}
import spinal.lib.bus.amba4.axilite._
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}
import zkspinal.contract.{Contract, FieldPack, Pos, Show}
import zkspinal.axi.AxiClocked
import zkspinal.contract.{CoreIdentity, CoreKind, IdentifiedCore}

/** Register map (AXI4-Lite, 32-bit registers, byte addresses; a 64-bit counter: low word, high word at + 4).
  * Streams: s_axis_scalars (two 256-bit scalars per 512-bit beat), s_axis_points (a point record per point: the
  * beats that hold 3n bits), m_axis_buckets (a bucket record, the beats that hold 4n + 28 bits, per bucket: the
  * buckets, then the PARTIALS partial buckets; tlast on the last beat) (MsmRecord):
  * reference_model/msm_formats.md.
  */
object MsmAxisRegs extends Contract("msm", "MsmAxis registers (AXI4-Lite, 32-bit, byte offsets; a 64-bit counter: " +
    "low word, high word at + 4)", "hw/src/zkspinal/msm/MsmAxis.scala") {
  val control = reg("control", 0x00, "write: bit 0 start (taken when idle and no error), bit 1 soft reset (aborts " +
    "a running job or load, clears the error flags, empties the input FIFOs), bit 2 load (taken when idle and no " +
    "error: the next COUNT points of the point stream go into the point store as the set at BASE, store points " +
    "BASE·BLOCK .. BASE·BLOCK+COUNT-1; no scalars, no buckets).  read: the MsmStatus bits")
  val error = reg("error", 0x04, "the MsmErrors bits, sticky until soft reset; any but REFUSED aborts the job or " +
    "load and from then on both input streams are drained (tready = 1, data discarded) until soft reset")
  val count = reg("count", 0x08, "points (= scalars) of the next job; written while idle", show = Show.Dec)
  val timeout = reg("timeout", 0x0C, "watchdog cycles (reset 2^24)", show = Show.Dec)
  val cycles = reg("cycles", 0x10, "start to done", words = 2, show = Show.Dec)
  val busy = reg("busy", 0x18, "additions issued, every adder", words = 2, show = Show.Dec)
  val accCycles = reg("acc_cycles", 0x20, "accumulate + flush cycles", words = 2, show = Show.Dec)
  val stalls = reg("stalls", 0x28, "cycles an addition waited for room in the retry queue (summed over the adders)",
    show = Show.Dec)
  val deferred = reg("deferred", 0x2C, "additions sent to the retry queue: their bucket was busy (summed)",
    show = Show.Dec)
  val starved = reg("starved", 0x30, "cycles an adder idled with points due and none queued (summed)",
    show = Show.Dec)
  val errorIndex = reg("error_index", 0x34, "index of the element of the first error", show = Show.Dec)
  val info = reg("info", 0x38, "[7:0] windows, [15:8] retry queue depth, [31:16] adder latency")
  val infoWindows = field("windows", "info", 0, 8, "windows of the layout")
  val infoRetryDepth = field("retry_depth", "info", 8, 8, "entries of each adder's retry queue")
  val infoLatency = field("adder_latency", "info", 16, 16, "the adder's latency in cycles")
  val phase = reg("phase", 0x3C, "[2:0] core phase: 0 idle, 1 clear, 2 accumulate, 3 flush, 4 read-out")
  val consumed = reg("consumed", 0x40, "points accumulated so far", show = Show.Dec)
  val framing = reg("framing", 0x44, "bit 0 packets: a stream may carry tlast before its last element (error bits " +
    "1 and 3 are not raised), as it does when the host writes it in chunks through XDMA, which ends every write " +
    "with tlast; the element count alone frames the job (a stream that stops early ends in the watchdog).  0 after " +
    "reset: tlast exactly on each stream's last element.  Written while idle")
  val adders = reg("adders", 0x48, "number of bucket adders A (window j belongs to adder j mod A)", show = Show.Dec)
  val partials = reg("partials", 0x4C, "partial bucket records that follow the buckets in the read-out (A x partial " +
    "buckets per adder)", show = Show.Dec)
  val adderBusy0 = reg("adder_busy", 0x50, "BUSY of adder a at 0x50 + 8a (a < A, 8 at most): cycles adder a took " +
    "an addition", words = 2, show = Show.Dec, host = false)
  /** BUSY of adder a (lo; hi at + 4) */
  def adderBusy(a: Int): Int = adderBusy0 + 8 * a
  val maxAdders = code("max_adders", 8, "adders with a BUSY register (ADDER_BUSY + 8a, a < MAX_ADDERS)").toInt
  val spilled = reg("spilled", 0x90, "additions into partial buckets (a hot bucket's additions spread while it was " +
    "busy)", show = Show.Dec)
  require(adderBusy(maxAdders) <= spilled)
  val pointSource = reg("source", 0x94, "bit 0 resident: a job reads its points from the point store instead of the " +
    "point stream, the first COUNT points of the set at BASE (store points BASE·BLOCK .. BASE·BLOCK+COUNT-1; only " +
    "its scalars stream in).  Written while idle; 0 after reset")
  val stored = reg("stored", 0x98, "COUNT of the last load that completed (every write acknowledged), the set at " +
    "STORED_BASE; 0 while a load runs and after one failed.  Other sets the store holds are the host's to track",
    show = Show.Dec)
  val capacity = reg("capacity", 0x9C, "points the point store holds, all blocks: a whole number of BLOCKs (0: this " +
    "configuration has no point store)", show = Show.Dec)
  val storeBase = reg("base", 0xA0, "the block of the point store the next load writes or resident job reads: a load " +
    "writes its COUNT points as store points BASE·BLOCK .., a resident job reads store points BASE·BLOCK .. " +
    "BASE·BLOCK+COUNT-1 (block b is page b of every channel).  Written while idle; 0 after reset", show = Show.Dec)
  val storeBlock = reg("block", 0xA4, "points of a point-store block, BASE's unit: channels x point records per 4 KiB " +
    "page (0: this configuration has no point store)", show = Show.Dec)
  val storedBase = reg("stored_base", 0xA8, "BASE of the last load taken: STORED counts its points; 0 after reset",
    show = Show.Dec)
}

/** The MsmAxis stream records (512-bit beats, little-endian: bit i of a record is bit i % 512 of beat i / 512), for
  * a curve whose field elements are n bits wide (n <= MAX_N); a point or bucket record is the whole beats that hold
  * its fields (BLS12-377, n = 377: 3 and 3 beats; BN254, n = 254: 2 and 3; BLS12-381, n = 381: 3 and 4);
  * reference_model/msm_formats.md.  The field elements of point and bucket records are in the hardware Montgomery
  * domain (x*2^n mod p), reduced.  The adder gives the words their meaning: (QM, QP, QT) and (U, V, W, T) for the
  * twisted Edwards adder, (x, y, 3x^2) and (X, Y, ZZ, ZZZ) for the XYZZ adder. */
object MsmRecord extends Contract("msm_record", "MsmAxis stream records: scalar beats, point records, bucket records " +
    "and the bucket record's tag", "hw/src/zkspinal/msm/MsmAxis.scala") {
  import Pos._
  val window = field("window", "tag", 0, 7, "the window j (0 for a record past the buckets that carries nothing)")
  val bucket = field("bucket", "tag", 7, 21, "the bucket index k >= 1 (0: nothing)")
  val tagBits = code("tag_bits", bucket.end, "bits of the tag").toInt
  val beatBits = 512
  /** the widest field element the records serve (BLS12-381's 381 bits, BLS12-377's 377) */
  val maxN: Int = 384
  val scalars = record("scalars", beatBits, beatBits, maxN, "a beat of the scalar stream: two scalars (plain " +
    "unsigned integers < r), zero-padded to a whole beat when the count is odd")
  val scalarBits = 256
  val firstScalar = recordField("first", scalars, 0, scalarBits, "the scalar of the even index")
  val secondScalar = recordField("second", scalars, scalarBits, scalarBits, "the scalar of the odd index")
  val point = record("point", 3 * N, beatBits, maxN, "a point record of the point stream: the adder's three words " +
    "of the point, zero above 3n")
  val qm = recordField("qm", point, 0, N, "word 0: QM = y - x (twisted Edwards), x (XYZZ)")
  val qp = recordField("qp", point, N, N, "word 1: QP = y + x (twisted Edwards), y (XYZZ)")
  val qt = recordField("qt", point, 2 * N, N, "word 2: QT = 2d·x·y (twisted Edwards), 3x^2 (XYZZ)")
  val bucketRecord = record("bucket", 4 * N + tagBits, beatBits, maxN, "a bucket record of the read-out stream: " +
    "the adder's four words of the bucket and its tag, zero above; TLAST on the last beat of the last record")
  val u = recordField("u", bucketRecord, 0, N, "word 0: U (twisted Edwards), X (XYZZ)")
  val v = recordField("v", bucketRecord, N, N, "word 1: V (twisted Edwards), Y (XYZZ)")
  val w = recordField("w", bucketRecord, 2 * N, N, "word 2: W, non-zero (twisted Edwards), ZZ (XYZZ)")
  val t = recordField("t", bucketRecord, 3 * N, N, "word 3: T (twisted Edwards), ZZZ (XYZZ)")
  val tag = recordField("tag", bucketRecord, 4 * N, tagBits, "the tag: window and bucket index (MSM_RECORD_TAG_*)")
  require(point.beatBits == bucketRecord.beatBits && scalars.beatBits == point.beatBits, "the streams share a beat")
}

/** The CONTROL register's read bits. */
object MsmStatus extends Contract("msm_status", "MsmAxis CONTROL read bits", "hw/src/zkspinal/msm/MsmAxis.scala") {
  val busy = flag("busy", 0, "a job or a load runs")
  val done = flag("done", 1, "the last job returned every bucket")
  val error = flag("error", 2, "an error that aborts (any ERROR bit but REFUSED) is pending")
  val idle = flag("idle", 3, "no job or load runs")
}

/** The ERROR register's bits (the codes are their masks). */
object MsmErrors extends Contract("msm_error", "MsmAxis ERROR bits", "hw/src/zkspinal/msm/MsmAxis.scala") {
  val scalarRange = flag("scalar_range", 0, "a scalar >= the bound (r)")
  val scalarsShort = flag("scalars_short", 1, "scalar stream: TLAST before the last scalar")
  val scalarsLong = flag("scalars_long", 2, "scalar stream: no TLAST on the last scalar")
  val pointsShort = flag("points_short", 3, "point stream: TLAST before the last point")
  val pointsLong = flag("points_long", 4, "point stream: no TLAST on the last point")
  val padding = flag("padding", 5, "a point record with bits set above 3n (past QT)")
  val timeout = flag("timeout", 6, "watchdog: points still due and no input for TIMEOUT cycles (a stream stopped)")
  val refused = flag("refused", 7, "a start or load refused (ignored; does not abort): busy, an error pending, a " +
    "load of 0 points, a load or resident start with BASE·BLOCK + COUNT > CAPACITY, a resident start at BASE = " +
    "STORED_BASE with more points than STORED")
  val memory = flag("memory", 8, "the point store's memory answered with an error response (SLVERR or DECERR)")
  val strayPoints = flag("stray_points", 9, "a point beat arrived during a resident job (its points come from the " +
    "point store)")
  val width = 10
  /** the bits that abort a job or a load: all but `refused` */
  val fatalMask: BigInt = ((BigInt(1) << width) - 1) ^ (BigInt(1) << refused)
}

/** a beat of the three streams (MsmRecord) */
case class Beat() extends Bundle {
  val data = Bits(MsmRecord.beatBits bits)
  val last = Bool()
}

class MsmAxis(val cfg: MsmConfig) extends Component with AxiClocked with IdentifiedCore {
  import MsmAxisRegs._
  private val E = MsmErrors
  val identity = CoreIdentity(CoreKind.Msm, cfg.name, detail = cfg.curve.code)
  identityOutputs()
  private val n = cfg.curve.field.width
  /** a point's bits: the adder's three words (MsmRecord.point) */
  private val pointWidth = MsmRecord.qt.end(n)
  val s_axil = slave(AxiLite4(AxiLite4Config(addressWidth = 8, dataWidth = 32)))
  AxiLite4SpecRenamer(s_axil)
  private val axisCfg = Axi4StreamConfig(dataWidth = MsmRecord.beatBits / 8, useLast = true)
  val s_axis_scalars = slave(Axi4Stream(axisCfg))
  val s_axis_points = slave(Axi4Stream(axisCfg))
  val m_axis_buckets = master(Axi4Stream(axisCfg))
  Axi4SpecRenamer(s_axis_scalars)
  Axi4SpecRenamer(s_axis_points)
  Axi4SpecRenamer(m_axis_buckets)
  /** the point store's memory channels m_axi_mem<c> (configurations with a point store) */
  val m_axi_mem: Seq[Axi4] = cfg.pointStore.toSeq.flatMap(sc => (0 until sc.channels).map { c =>
    val m = master(Axi4(sc.axi)).setName(s"m_axi_mem$c")
    Axi4SpecRenamer(m)
    m
  })

  val core: MsmCore = axiDomain(new MsmCore(cfg))
  val slicer: ScalarSlicer = axiDomain(new ScalarSlicer(cfg))
  val store: Option[PointStore] = cfg.pointStore.map(sc => axiDomain(new PointStore(sc, n)))
  private val capacityPoints: Long = cfg.pointStore.map(_.capacity(n)).getOrElse(0L)
  private val blockPoints: Int = cfg.pointStore.map(_.block(n)).getOrElse(0)

  val logic = new ClockingArea(axiDomain) {
    val bus = AxiLite4SlaveFactory(s_axil)
    val writeData = Bits(32 bits)
    bus.nonStopWrite(writeData)

    val errors = Reg(Bits(E.width bits)) init (0)
    val fatalMask = B(E.fatalMask, E.width bits)
    val fatal = (errors & fatalMask).orR
    val raise = Bits(E.width bits)
    raise := 0
    val errorIndex = Reg(UInt(32 bits)) init (0)
    val countR = Reg(UInt(32 bits)) init (0)
    val timeoutR = Reg(UInt(32 bits)) init (BigInt(1) << 24)
    val packets = Reg(UInt(1 bits)) init (0)
    val running = core.io.phase =/= MsmPhase.IDLE
    // a load into the point store runs (no core phase: the points only go to memory)
    val loading = RegInit(False)
    val storedR = Reg(UInt(32 bits)) init (0)
    val source = Reg(UInt(1 bits)) init (0)
    val residentJob = RegInit(False) // the running job reads its points from the store (SOURCE at its start)
    // ---- point sets side by side: BASE and the room it leaves.  BASE·BLOCK is a constant multiple of BASE, so the
    // points from it to the end of the store, CAPACITY - BASE·BLOCK (negative past the end), are computed when BASE
    // is written, as shift-adds of the written value (no multiplier, no product in the start path); a load or a
    // resident start then compares COUNT with them, one comparator as with STORED
    val baseR = Reg(UInt(32 bits)) init (0)
    val storedBase = Reg(UInt(32 bits)) init (0) // BASE of the last load taken: STORED is its COUNT
    val roomBits = 32 + log2Up(blockPoints + 1) + 1
    val room = Reg(SInt(roomBits bits)) init (S(capacityPoints, roomBits bits))
    // CAPACITY - x·BLOCK = CAPACITY + k + Σ NOT(x << b) over BLOCK's k set bits b (-v = NOT v + 1, mod
    // 2^roomBits): one carry-save sum, so the write of BASE reaches `room` through one carry chain
    def roomAt(x: UInt): SInt = {
      val shifts = (0 until log2Up(blockPoints + 1)).filter(b => (blockPoints >> b & 1) == 1)
      val constant = (BigInt(capacityPoints) + shifts.size).mod(BigInt(1) << roomBits)
      CarrySave.sum(U(constant, roomBits bits) +: shifts.map(b => ~(x << b).resize(roomBits)), roomBits).asSInt
    }
    val pastStore = room.msb || countR > room.asUInt(31 downto 0) // BASE·BLOCK + COUNT > CAPACITY
    val active = running || loading
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
    slicer.io.input.payload := Mux(half, MsmRecord.secondScalar.of(scalarBeats.data, n),
      MsmRecord.firstScalar.of(scalarBeats.data, n)).asUInt
    val lastScalar = sIdx === countR - 1
    val scalarBeatDone = slicer.io.input.fire && (half || lastScalar)
    scalarBeats.ready := scalarBeatDone || fatal
    when(slicer.io.input.fire) {
      sIdx := sIdx + 1
      half := !half
    }
    when(scalarBeatDone && scalarBeats.last && !lastScalar && !packets(0)) { raise(E.scalarsShort) := True }
    when(scalarBeatDone && !scalarBeats.last && lastScalar) { raise(E.scalarsLong) := True }

    // ---- points: a record of P.beats(n) beats (MsmRecord.point: the adder's three words, zero above)
    val P = MsmRecord.point
    val lastBeat = P.beats(n) - 1
    val pIdx = Reg(UInt(32 bits)) init (0)
    val beat = Reg(UInt(log2Up(lastBeat + 1) max 1 bits)) init (0)
    val held = Vec.fill(lastBeat)(Reg(Bits(P.beatBits bits)))
    val pointsDue = (running && !residentJob || loading) && !fatal && pIdx =/= countR
    val records = Stream(Bits(pointWidth bits))
    records.valid := pointBeats.valid && pointsDue && beat === lastBeat
    val record = (held :+ pointBeats.data).reverse.reduce(_ ## _)
    records.payload := record.resize(pointWidth)
    val padding = MsmRecord.qt.above(record, n).orR // a record's bits above 3n are zero
    val pointBeatTaken = pointsDue && pointBeats.valid && (beat =/= lastBeat || records.ready)
    when(running && residentJob && pointBeats.valid && !fatal) { raise(E.strayPoints) := True }
    pointBeats.ready := pointBeatTaken || fatal
    val lastPointBeat = pIdx === countR - 1 && beat === lastBeat
    when(pointBeatTaken) {
      if (lastBeat > 0) when(beat =/= lastBeat) { held(beat.resize(log2Up(lastBeat))) := pointBeats.data }
      beat := Mux(beat === lastBeat, U(0), beat + 1)
      when(beat === lastBeat) { pIdx := pIdx + 1 }
      when(pointBeats.last && !lastPointBeat && !packets(0)) { raise(E.pointsShort) := True }
      when(!pointBeats.last && lastPointBeat) { raise(E.pointsLong) := True }
    }

    // ---- jobs: a scalar and its point; a bad element raises an error instead of entering the core.  The s2mPipe
    // registers the ready the core's scheduler computes, so it does not run on through the join into the slicer.
    // a job's points: from the point stream, or (resident job) from the store; a load's go into the store
    val portPoints = records.translateWith(padding ## records.payload)
    val jobPoints = Stream(Bits(pointWidth + 1 bits))
    store match {
      case Some(st) =>
        val split = StreamDemux(portPoints, U(loading), 2)
        st.io.store << split(1).throwWhen(split(1).payload.msb).translateWith(split(1).payload(pointWidth - 1 downto 0))
        when(split(1).fire && split(1).payload.msb && !fatal) { raise(E.padding) := True }
        jobPoints << StreamMux(U(residentJob), Seq(split(0), st.io.points.translateWith(False ## st.io.points.payload)))
        st.io.count := countR
        st.io.base := baseR.resized // a page of every channel; an operation past the store is refused (room)
        st.io.load := False
        st.io.fetch := False
        when(st.io.memError && !fatal) { raise(E.memory) := True }
        for ((port, c) <- m_axi_mem.zipWithIndex) port << st.io.mem(c)
        when(loading && st.io.written === countR) { loading := False; storedR := countR }
      case None => jobPoints << portPoints
    }
    val written = store.map(_.io.written).getOrElse(U(0, 32 bits))
    // an adder that must not see the point at infinity (XyzzAdder: its record is all zero) gets none of its digits
    val dropsInfinity = cfg.curve.form != CurveForm.TwistedEdwards
    val flagged = jobPoints.map(b => (Bool(dropsInfinity) && b(2 * n - 1 downto 0) === 0) ## b)
    val joined = StreamJoin(slicer.io.output, flagged.m2sPipe(flush = softReset)).s2mPipe(flush = softReset)
    val infinity = joined.payload._2.msb
    val pointBits = joined.payload._2(pointWidth downto 0)
    val bad = joined.payload._1.outOfRange || pointBits.msb
    core.io.jobs.valid := joined.valid && !bad && !fatal
    for ((dst, src) <- core.io.jobs.payload.digits.zip(joined.payload._1.digits)) {
      dst.negative := src.negative
      dst.bucket := src.bucket
      dst.nonZero := src.nonZero && !infinity
    }
    core.io.jobs.payload.q := pointBits(pointWidth - 1 downto 0)
    joined.ready := core.io.jobs.ready || bad || fatal
    when(joined.valid && !fatal) {
      when(joined.payload._1.outOfRange) { raise(E.scalarRange) := True }
      when(pointBits.msb) { raise(E.padding) := True }
    }

    // ---- watchdog: points due and nothing arriving, or a load making no progress (no beat in, no write acknowledged)
    val idleInput = Reg(UInt(32 bits)) init (0)
    val loadStalled = loading && !pointBeatTaken && written === RegNext(written)
    when((core.io.waiting || loadStalled) && !fatal) {
      idleInput := idleInput + 1
      when(idleInput >= timeoutR) { raise(E.timeout) := True }
    } otherwise { idleInput := 0 }

    // ---- errors, abort
    val aborting = (raise & fatalMask).orR && !fatal
    when(aborting) {
      // a load: the point taken (MEMORY: the points acknowledged); a job: the point or scalar concerned
      errorIndex := Mux(loading, Mux(raise(E.memory), written, pIdx),
        Mux(raise(E.scalarRange) || raise(E.padding) || raise(E.timeout) || raise(E.memory) || raise(E.strayPoints),
          core.io.consumed,
          Mux(raise(E.scalarsShort) || raise(E.scalarsLong), sIdx, pIdx)))
      loading := False
    }
    errors := errors | raise
    core.io.abort := aborting || softReset
    store.foreach(_.io.abort := aborting || softReset)
    core.io.start := start
    core.io.count := countR

    // ---- bucket read-out: a record of BR.beats(n) beats (MsmRecord.bucketRecord: four words, the tag at bit 4n)
    val BR = MsmRecord.bucketRecord
    require(n <= BR.maxN, s"a bucket record holds field elements of ${BR.maxN} bits at most")
    require(MsmRecord.tag.lsb.at(n) == 4 * n && MsmRecord.window.lsb == 0 && MsmRecord.bucket.lsb == MsmRecord.window.end,
      "the core's bucket value is U, V, W, T; the tag (window, then bucket) follows")
    val outBeats = BR.beats(n)
    val outRec = Reg(Bits(BR.bits(n) bits))
    val outLast = Reg(Bool())
    val outHolding = RegInit(False)
    val outBeat = Reg(UInt(log2Up(outBeats) max 1 bits)) init (0)
    core.io.buckets.ready := !outHolding
    when(core.io.buckets.fire) {
      val r = core.io.buckets.payload
      outRec := (r.bucket.asBits ## r.window.asBits ## r.value).resized
      outLast := r.last
      outHolding := True
      outBeat := 0
    }
    m_axis_buckets.valid := outHolding
    m_axis_buckets.payload.data := outRec.subdivideIn(outBeats slices)(outBeat.resized)
    m_axis_buckets.payload.last := outLast && outBeat === outBeats - 1
    when(m_axis_buckets.fire) {
      outBeat := outBeat + 1
      when(outBeat === outBeats - 1) { outHolding := False }
    }

    // ---- registers
    bus.onWrite(control) {
      when(writeData(1)) {
        softReset := True
      } elsewhen (writeData(0)) {
        // resident: within the store, and at the last load's base within what it stored (other bases: the host's)
        when(active || fatal || (source(0) && (pastStore || baseR === storedBase && countR > storedR))) {
          raise(E.refused) := True
        } otherwise {
          start := True
          residentJob := source(0)
          store.foreach(_.io.fetch := source(0))
          sIdx := 0; half := False; pIdx := 0; beat := 0; idleInput := 0
          errors(E.refused) := False
        }
      } elsewhen (writeData(2)) {
        when(active || fatal || countR === 0 || pastStore) {
          raise(E.refused) := True
        } otherwise {
          loading := True
          storedR := 0
          storedBase := baseR
          store.foreach(_.io.load := True)
          pIdx := 0; beat := 0; idleInput := 0
          errors(E.refused) := False
        }
      }
    }
    when(softReset) {
      loading := False
      errors := 0
      errorIndex := 0
      outHolding := False
      sIdx := 0; half := False; pIdx := 0; beat := 0; idleInput := 0
    }
    def param(address: Int, r: UInt): Unit = {
      bus.read(r, address)
      bus.onWrite(address) { when(!active) { r := writeData.asUInt.resized } }
    }
    param(count, countR)
    param(timeout, timeoutR)
    param(framing, packets)
    param(pointSource, source)
    bus.read(storedR, stored)
    bus.read(U(capacityPoints, 32 bits), capacity)
    bus.read(baseR, storeBase)
    bus.onWrite(storeBase) {
      when(!active) {
        baseR := writeData.asUInt
        room := roomAt(writeData.asUInt)
      }
    }
    bus.read(U(blockPoints, 32 bits), storeBlock)
    bus.read(storedBase, MsmAxisRegs.storedBase)
    val status = Bits(32 bits)
    status := 0
    status(MsmStatus.busy) := active
    status(MsmStatus.done) := core.io.done
    status(MsmStatus.error) := fatal
    status(MsmStatus.idle) := !active
    bus.read(status, control)
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
    bus.read(FieldPack(32, FieldPack.const(MsmAxisRegs.infoLatency, core.latency),
      FieldPack.const(MsmAxisRegs.infoRetryDepth, cfg.retryDepth), FieldPack.const(MsmAxisRegs.infoWindows,
      cfg.numWindows)), info)
    bus.read(core.io.phase.asBits.resize(32), phase)
    bus.read(core.io.consumed, consumed)
  }
}
