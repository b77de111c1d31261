package zkspinal.msm

import spinal.core._
import spinal.lib._

/** One point and its digits, every window. */
case class MsmJob(cfg: MsmConfig) extends Bundle {
  val digits = Vec(Digit(cfg.addrBits), cfg.numWindows)
  val q = Bits(3 * cfg.curve.field.width bits)
}

/** One bucket on the way out: (U, V, W, T) and its (window, k) tag. */
case class BucketRecord(cfg: MsmConfig) extends Bundle {
  val value = Bits(4 * cfg.curve.field.width bits)
  val window = UInt(7 bits)
  val bucket = UInt(21 bits)
  val last = Bool()
}

case class InFlightTag(windowBits: Int, addrBits: Int) extends Bundle {
  val valid = Bool()
  val window = UInt(windowBits bits)
  val addr = UInt(addrBits bits)
}

object MsmPhase extends SpinalEnum {
  val IDLE, CLEAR, ACCUMULATE, FLUSH, READOUT = newElement()
}

/** The bucket engine: every point's digit of window j is added into bucket |d| of window j (sign -> -Q).
  *
  * Schedule (Hardcaml's): a slot counter gives cycle t to window t mod W, forever, so window j issues at most one
  * addition every W cycles and a point is consumed in W consecutive slots.  In its slot a window issues:
  *   1. the head of its stall FIFO, if that bucket is not in flight; the point's digit then joins the FIFO;
  *   2. else the point's digit, if its bucket is neither in flight nor waiting in the FIFO (bucket order);
  *   3. else the digit is deferred into the FIFO (a bubble), or, with the FIFO full, the point waits for its
  *      window's next slot (a stall of one round).
  * Hazard detection needs no per-bucket state: an addition issued d cycles ago is in flight while
  * d <= adder latency + 1 (the write-back reaches memory before a later read only after that), and because slots
  * are round-robin the additions of the same window sit exactly at d = W, 2W, ... in the tag pipeline, so the
  * check is (latency + 2) / W comparators on the bucket address.  Every bucket receives its points in input
  * order, so the buckets are bit-for-bit those of reference_model/msm.py accumulate_buckets.
  *
  * Phases: CLEAR (identity into every bucket, only when the memories are dirty: after reset or an aborted job;
  * read-out leaves them clean), ACCUMULATE (until `count` points are consumed), FLUSH (stall FIFOs and
  * pipeline drained), READOUT (every bucket, window 0 first, k ascending, written back as identity).
  */
class MsmCore(val cfg: MsmConfig) extends Component {
  private val n = cfg.curve.field.width
  private val W = cfg.numWindows
  private val f = cfg.curve.field
  val io = new Bundle {
    val start = in(Bool())
    val count = in(UInt(32 bits))
    val abort = in(Bool())
    val jobs = slave(Stream(MsmJob(cfg)))
    val buckets = master(Stream(BucketRecord(cfg)))
    val phase = out(MsmPhase())
    val consumed = out(UInt(32 bits))
    val done = out(Bool())
    val waiting = out(Bool()) // accumulating and the next point has not arrived
    val cycles, accCycles, busyCycles = out(UInt(64 bits))
    val stalls, deferred, starved = out(UInt(32 bits))
  }
  val adder = new TwistedEdwardsAdder(f, cfg.arith, cfg.mulModel)
  val latency: Int = adder.latency
  /** tag pipeline: stage 0 = issue register (memory read), stage 1 = adder input, stage 1 + latency = write-back */
  val writeStage: Int = 1 + latency
  val hazardTaps: Seq[Int] = (0 to latency).filter(i => (i + 1) % W == 0)

  private val identity: Bits = {
    val v = Seq(f.toMont(2), f.toMont(2), f.toMont(4), BigInt(0))
    B(v.zipWithIndex.map { case (x, i) => x << (n * i) }.sum, 4 * n bits)
  }
  val memories = (0 until W).map(j => new BucketMemory(cfg.buckets(j), 4 * n, cfg.addrBits))
  val fifos = new StallFifos(W, cfg.stallDepth, cfg.addrBits, 3 * n + 1)

  private val phase = RegInit(MsmPhase.IDLE)
  io.phase := phase
  private val dirty = RegInit(True)
  private val doneR = RegInit(False)
  io.done := doneR
  private val countR = Reg(UInt(32 bits)) init (0)
  private val consumed = Reg(UInt(32 bits)) init (0)
  io.consumed := consumed
  private val counters = Seq.fill(3)(Reg(UInt(64 bits)) init (0))
  private val Seq(cycles, accCycles, busyCycles) = counters
  private val small = Seq.fill(3)(Reg(UInt(32 bits)) init (0))
  private val Seq(stalls, deferred, starved) = small
  io.cycles := cycles; io.accCycles := accCycles; io.busyCycles := busyCycles
  io.stalls := stalls; io.deferred := deferred; io.starved := starved

  // ---- slots and the current point
  private val slot = Reg(UInt(log2Up(W) bits)) init (0)
  private val cursor = Reg(UInt(log2Up(W) bits)) init (0)
  private val accumulating = phase === MsmPhase.ACCUMULATE
  private val slotting = accumulating || phase === MsmPhase.FLUSH
  private val digit = io.jobs.payload.digits(slot)
  private val newActive = accumulating && consumed =/= countR && io.jobs.valid && cursor === slot
  private val newNonZero = digit.nonZero
  private val newTag = digit.bucket

  // ---- tag pipeline (valid, window, bucket address), shared by hazard checks and write-back
  private val tags = Vec.fill(writeStage + 1)(Reg(InFlightTag(log2Up(W), cfg.addrBits)))
  tags.foreach(_.valid.init(False))
  private def inFlight(a: UInt): Bool = hazardTaps.map(i => tags(i).valid && tags(i).addr === a).orR

  // ---- the slot's decision
  fifos.io.window := slot
  fifos.io.nextWindow := slot.getAheadValue()
  fifos.io.probeTag := newTag
  private val headReady = slotting && fifos.io.headValid && !inFlight(fifos.io.headTag)
  private val newFree = newNonZero && !inFlight(newTag) && !fifos.io.probeHit
  private val issueHead = headReady
  private val issueNew = !headReady && newActive && newFree
  private val pushNew = newActive && newNonZero && !issueNew && (!fifos.io.full || issueHead)
  private val advance = newActive && (!newNonZero || issueNew || pushNew)
  fifos.io.pop := issueHead
  fifos.io.push := pushNew
  fifos.io.pushTag := newTag
  fifos.io.pushData := digit.negative ## io.jobs.payload.q
  fifos.io.clear := io.abort || io.start && phase === MsmPhase.IDLE
  io.jobs.ready := advance && cursor === W - 1
  io.waiting := accumulating && consumed =/= countR && !io.jobs.valid

  private val issueQ = Reg(Bits(3 * n bits))
  private val issueNeg = Reg(Bool())
  tags(0).valid := issueHead || issueNew
  tags(0).window := slot
  tags(0).addr := Mux(issueHead, fifos.io.headTag, newTag)
  issueQ := Mux(issueHead, fifos.io.headData(3 * n - 1 downto 0), io.jobs.payload.q)
  issueNeg := Mux(issueHead, fifos.io.headData.msb, digit.negative)
  for (i <- 1 to writeStage) tags(i) := tags(i - 1)

  when(slotting) {
    slot := Mux(slot === W - 1, U(0), slot + 1)
    accCycles := accCycles + 1
    when(issueHead || issueNew) { busyCycles := busyCycles + 1 }
    when(pushNew) { deferred := deferred + 1 }
    when(newActive && !advance) { stalls := stalls + 1 }
    when(accumulating && cursor === slot && !io.jobs.valid && consumed =/= countR) { starved := starved + 1 }
  }
  when(advance) { cursor := Mux(cursor === W - 1, U(0), cursor + 1) }
  when(io.jobs.fire) { consumed := consumed + 1 }

  // ---- adder: bucket read one cycle after issue
  private val win1 = tags(1).window
  private val readData = Vec(memories.map(_.io.readData))(win1)
  adder.io.input.valid := tags(1).valid
  for (i <- 0 until 4) adder.io.input.payload.s(i) := readData(n * i, n bits).asUInt
  for (i <- 0 until 3) adder.io.input.payload.q(i) := RegNext(issueQ(n * i, n bits)).asUInt
  adder.io.input.payload.negate := RegNext(issueNeg)
  private val wb = tags(writeStage)
  private val wbData = adder.io.output.payload.asBits

  // ---- clear and read-out state
  private val maxBuckets = (0 until W).map(cfg.buckets).max
  private val clr = Reg(UInt(log2Up(maxBuckets + 1) bits)) init (0)
  private val roWin = Reg(UInt(log2Up(W) bits)) init (0)
  private val roAddr = Reg(UInt(cfg.addrBits bits)) init (0)
  private val roPending = RegInit(False)
  private val roFinished = RegInit(False)
  private val outValid = RegInit(False)
  private val outRec = Reg(BucketRecord(cfg))
  private val lastAddr = Vec((0 until W).map(j => U(cfg.buckets(j) - 1, cfg.addrBits bits)))
  private val roIssue = phase === MsmPhase.READOUT && !roPending && !outValid && !roFinished
  private val roWinP = RegNext(roWin)
  private val roAddrP = RegNext(roAddr)

  for ((m, j) <- memories.zipWithIndex) {
    m.io.read.valid := (tags(0).valid && tags(0).window === j) || (roIssue && roWin === j)
    m.io.read.payload := Mux(phase === MsmPhase.READOUT, roAddr, tags(0).addr)
    val wbHere = wb.valid && wb.window === j
    val clearHere = phase === MsmPhase.CLEAR && clr < cfg.buckets(j)
    val roHere = roPending && roWinP === j
    m.io.write.valid := wbHere || clearHere || roHere
    m.io.write.payload.address := Mux(wbHere, wb.addr, Mux(clearHere, clr.resize(cfg.addrBits), roAddrP))
    m.io.write.payload.data := Mux(wbHere, wbData, identity)
  }

  when(roIssue) {
    roPending := True
    val lastInWindow = roAddr === lastAddr(roWin)
    roAddr := Mux(lastInWindow, U(0), roAddr + 1)
    when(lastInWindow) {
      when(roWin === W - 1) { roFinished := True } otherwise { roWin := roWin + 1 }
    }
  }
  when(roPending) {
    roPending := False
    outValid := True
    outRec.value := Vec(memories.map(_.io.readData))(roWinP)
    outRec.window := roWinP.resized
    outRec.bucket := roAddrP.resize(21) + 1
    outRec.last := roWinP === W - 1 && roAddrP === lastAddr(W - 1)
  }
  io.buckets.valid := outValid
  io.buckets.payload := outRec
  when(io.buckets.fire) {
    outValid := False
    when(outRec.last) {
      phase := MsmPhase.IDLE
      doneR := True
      dirty := False
    }
  }

  // ---- phases
  when(phase =/= MsmPhase.IDLE) { cycles := cycles + 1 }
  switch(phase) {
    is(MsmPhase.IDLE) {
      when(io.start) {
        counters.foreach(_ := 0); small.foreach(_ := 0)
        consumed := 0; countR := io.count; doneR := False
        slot := 0; cursor := 0; clr := 0
        roWin := 0; roAddr := 0; roFinished := False
        phase := Mux(dirty, MsmPhase.CLEAR, MsmPhase.ACCUMULATE)
      }
    }
    is(MsmPhase.CLEAR) {
      clr := clr + 1
      when(clr === maxBuckets - 1) { phase := MsmPhase.ACCUMULATE }
    }
    is(MsmPhase.ACCUMULATE) {
      dirty := True
      when(consumed === countR) { phase := MsmPhase.FLUSH }
    }
    is(MsmPhase.FLUSH) {
      when(fifos.io.empty && !tags.map(_.valid).orR) { phase := MsmPhase.READOUT }
    }
  }
  when(io.abort) {
    phase := MsmPhase.IDLE
    tags.foreach(_.valid := False)
    outValid := False
    roPending := False
  }
}
