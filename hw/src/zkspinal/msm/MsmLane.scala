package zkspinal.msm

import spinal.core._
import spinal.lib._

/** A point and its digits of the windows one lane owns (window `cfg.laneWindows(lane)(k)` is digit k). */
case class LaneJob(cfg: MsmConfig, windows: Int) extends Bundle {
  val digits = Vec(Digit(cfg.addrBits), windows)
  val q = Bits(3 * cfg.curve.field.width bits)
}

/** A bucket address in one of a lane's windows (k = local window index). */
case class LaneAddress(cfg: MsmConfig, windows: Int) extends Bundle {
  val window = UInt(log2Up(windows) bits)
  val addr = UInt(cfg.addrBits bits)
}

/** One adder with the windows it owns (cfg.laneWindows(lane)): their bucket memories, stall FIFOs, slot schedule
  * and hazard check; every bucket lives in exactly one lane, so lanes never wait on each other.
  *
  * Schedule (Hardcaml's, per lane): a slot counter gives cycle t to local window t mod W_l, forever, so a window
  * issues at most one addition every W_l cycles and the lane consumes a point in W_l consecutive slots.  In its slot
  * a window issues:
  *   1. the head of its stall FIFO, if that bucket is not in flight; the point's digit then joins the FIFO;
  *   2. else the point's digit, if its bucket is neither in flight nor waiting in the FIFO (bucket order);
  *   3. else the digit is deferred into the FIFO (a bubble), or, with the FIFO full, the point waits for its
  *      window's next slot (a stall of one round).
  * Hazard detection needs no per-bucket state: an addition issued d cycles ago is in flight while
  * d <= adder latency + 1 (the write-back reaches memory before a later read only after that), and because slots
  * are round-robin the additions of the same window sit exactly at d = W_l, 2 W_l, ... in the tag pipeline, so the
  * check is (latency + 2) / W_l comparators on the bucket address.  Every bucket receives its points in input
  * order, so the buckets are bit-for-bit those of reference_model/msm.py accumulate_buckets.
  *
  * The jobs wait in a queue of cfg.laneQueueDepth points, so a lane that stalls a round does not hold up the others.
  */
class MsmLane(val cfg: MsmConfig, val lane: Int) extends Component {
  val windows: Seq[Int] = cfg.laneWindows(lane)
  private val W = windows.size
  private val n = cfg.curve.field.width
  private val f = cfg.curve.field
  val io = new Bundle {
    val jobs = slave(Stream(LaneJob(cfg, W)))
    val start = in(Bool())      // a job begins: slots and counters restart
    val slotting = in(Bool())   // accumulate or flush: the slots run
    val due = in(Bool())        // points are still due at the engine's input (the starved counter)
    val abort = in(Bool())      // drop the queue, the stall FIFOs and every addition in flight
    val clear = slave(Flow(UInt(cfg.addrBits + 1 bits))) // write the identity at this address of every window
    val roRead = slave(Flow(LaneAddress(cfg, W)))        // read-out: read ...
    val roData = out(Bits(4 * n bits))                    // ... returned one cycle later
    val roWrite = slave(Flow(LaneAddress(cfg, W)))       // read-out: the bucket read becomes the identity
    val idle = out(Bool())      // nothing queued, waiting or in flight
    val busyCycles = out(UInt(64 bits))
    val stalls, deferred, starved = out(UInt(32 bits))
  }
  val adder = new TwistedEdwardsAdder(f, cfg.arith, cfg.mulModel)
  val latency: Int = adder.latency
  /** tag pipeline: stage 0 = issue register (memory read), stage 1 = adder input, stage 1 + latency = write-back */
  val writeStage: Int = 1 + latency
  val hazardTaps: Seq[Int] = (0 to latency).filter(i => (i + 1) % W == 0)

  val memories = windows.map(j => new BucketMemory(cfg.buckets(j), 4 * n, cfg.addrBits))
  val fifos = new StallFifos(W, cfg.stallDepth, cfg.addrBits, 3 * n + 1)
  private val queue = StreamFifo(LaneJob(cfg, W), cfg.laneQueueDepth)
  queue.io.push << io.jobs
  queue.io.flush := io.abort
  private val job = queue.io.pop

  private val busyCycles = Reg(UInt(64 bits)) init (0)
  private val small = Seq.fill(3)(Reg(UInt(32 bits)) init (0))
  private val Seq(stalls, deferred, starved) = small
  io.busyCycles := busyCycles
  io.stalls := stalls; io.deferred := deferred; io.starved := starved

  // ---- slots and the current point
  private val slot = Reg(UInt(log2Up(W) bits)) init (0)
  private val cursor = Reg(UInt(log2Up(W) bits)) init (0)
  private val digit = job.payload.digits(slot)
  private val newActive = io.slotting && job.valid && cursor === slot
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
  private val headReady = io.slotting && fifos.io.headValid && !inFlight(fifos.io.headTag)
  private val newFree = newNonZero && !inFlight(newTag) && !fifos.io.probeHit
  private val issueHead = headReady
  private val issueNew = !headReady && newActive && newFree
  private val pushNew = newActive && newNonZero && !issueNew && (!fifos.io.full || issueHead)
  private val advance = newActive && (!newNonZero || issueNew || pushNew)
  fifos.io.pop := issueHead
  fifos.io.push := pushNew
  fifos.io.pushTag := newTag
  fifos.io.pushData := digit.negative ## job.payload.q
  fifos.io.clear := io.abort || io.start
  job.ready := advance && cursor === W - 1

  private val issueQ = Reg(Bits(3 * n bits))
  private val issueNeg = Reg(Bool())
  tags(0).valid := issueHead || issueNew
  tags(0).window := slot
  tags(0).addr := Mux(issueHead, fifos.io.headTag, newTag)
  issueQ := Mux(issueHead, fifos.io.headData(3 * n - 1 downto 0), job.payload.q)
  issueNeg := Mux(issueHead, fifos.io.headData.msb, digit.negative)
  for (i <- 1 to writeStage) tags(i) := tags(i - 1)

  when(io.slotting) {
    slot := Mux(slot === W - 1, U(0), slot + 1)
    when(issueHead || issueNew) { busyCycles := busyCycles + 1 }
    when(pushNew) { deferred := deferred + 1 }
    when(newActive && !advance) { stalls := stalls + 1 }
    when(io.due && cursor === slot && !job.valid) { starved := starved + 1 }
  }
  when(advance) { cursor := Mux(cursor === W - 1, U(0), cursor + 1) }
  when(io.start) {
    slot := 0; cursor := 0
    busyCycles := 0; small.foreach(_ := 0)
  }
  when(io.abort) { tags.foreach(_.valid := False) }
  io.idle := !job.valid && fifos.io.empty && !tags.map(_.valid).orR

  // ---- adder: bucket read one cycle after issue
  private val readData = Vec(memories.map(_.io.readData))
  adder.io.input.valid := tags(1).valid
  for (i <- 0 until 4) adder.io.input.payload.s(i) := readData(tags(1).window)(n * i, n bits).asUInt
  for (i <- 0 until 3) adder.io.input.payload.q(i) := RegNext(issueQ(n * i, n bits)).asUInt
  adder.io.input.payload.negate := RegNext(issueNeg)
  private val wb = tags(writeStage)
  private val wbData = adder.io.output.payload.asBits
  io.roData := readData(RegNext(io.roRead.window))

  private val identity: Bits = {
    val v = Seq(f.toMont(2), f.toMont(2), f.toMont(4), BigInt(0))
    B(v.zipWithIndex.map { case (x, i) => x << (n * i) }.sum, 4 * n bits)
  }
  for ((m, k) <- memories.zipWithIndex) {
    m.io.read.valid := (tags(0).valid && tags(0).window === k) || (io.roRead.valid && io.roRead.window === k)
    m.io.read.payload := Mux(io.roRead.valid, io.roRead.addr, tags(0).addr)
    val wbHere = wb.valid && wb.window === k
    val clearHere = io.clear.valid && io.clear.payload < m.buckets
    val roHere = io.roWrite.valid && io.roWrite.window === k
    m.io.write.valid := wbHere || clearHere || roHere
    m.io.write.payload.address := Mux(wbHere, wb.addr, Mux(clearHere, io.clear.payload.resize(cfg.addrBits),
      io.roWrite.addr))
    m.io.write.payload.data := Mux(wbHere, wbData, identity)
  }
}
