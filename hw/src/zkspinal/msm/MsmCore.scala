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
  val window = UInt(MsmRecord.window.width bits)
  val bucket = UInt(MsmRecord.bucket.width bits)
  val last = Bool()
}

object MsmPhase extends SpinalEnum {
  val IDLE, CLEAR, ACCUMULATE, FLUSH, READOUT = newElement()
}

/** The bucket engine: every point's digit of window j is added into bucket |d| of window j (sign -> -Q), by
  * cfg.adders lanes ([[MsmLane]]), each an adder with the windows it holds (cfg.laneWindows: a copy of each shared
  * window, whose digits it takes for every N-th point, and its own share of the others).  A point
  * enters every lane's queue at once (a synchronous fork: the engine takes it when every queue has room; a lane
  * whose digits of the point are all zero drops it); each lane then issues one addition per cycle, so the engine
  * needs max over lanes of (the lane's non-zero digits) cycles per point when its input keeps up.
  *
  * Phases: CLEAR (identity into every bucket, only when the memories are dirty: after reset or an aborted job;
  * read-out leaves them clean), ACCUMULATE (until `count` points are consumed), FLUSH (every lane's queues and
  * pipeline drained), READOUT (every bucket, window 0 first, k ascending, a shared window from lane 0's copy; then
  * lanes 1.. copies of the shared windows, lane by lane, window and k ascending; then every lane's partial buckets,
  * lane 0 first, slot ascending, each tagged with its bucket or 0/0 when unclaimed; every record read is written
  * back as the identity): the read-out order does not depend on which buckets were hot.
  */
class MsmCore(val cfg: MsmConfig) extends Component {
  private val n = cfg.curve.field.width
  private val W = cfg.numWindows
  private val N = cfg.adders
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
    val laneBusy = out(Vec(UInt(64 bits), N))
    val stalls, deferred, starved, spilled = out(UInt(32 bits))
  }
  val lanes: Seq[MsmLane] = (0 until N).map(l => new MsmLane(cfg, l))
  /** the adder latency (every lane has the same adder) */
  val latency: Int = lanes.head.latency

  private val phase = RegInit(MsmPhase.IDLE)
  io.phase := phase
  private val dirty = RegInit(True)
  private val doneR = RegInit(False)
  io.done := doneR
  private val countR = Reg(UInt(32 bits)) init (0)
  private val consumed = Reg(UInt(32 bits)) init (0)
  io.consumed := consumed
  private val cycles, accCycles, busyCycles = Reg(UInt(64 bits)) init (0)
  io.cycles := cycles; io.accCycles := accCycles; io.busyCycles := busyCycles
  io.laneBusy := Vec(lanes.map(_.io.busyCycles))
  // sums of the lanes' event counters, registered (register reads only)
  private def laneSum(counter: MsmLane => UInt): UInt = RegNext(lanes.map(counter).reduce(_ + _)) init (0)
  io.stalls := laneSum(_.io.stalls)
  io.deferred := laneSum(_.io.deferred)
  io.starved := laneSum(_.io.starved)
  io.spilled := laneSum(_.io.spilled)

  private val accumulating = phase === MsmPhase.ACCUMULATE
  private val due = accumulating && consumed =/= countR
  private val startNow = io.start && phase === MsmPhase.IDLE

  // Every signal to a lane leaves a register here and every signal from a lane enters one (the lanes may sit in
  // other SLRs: flop-to-flop crossings).  Points travel on credits: a lane takes a point only into a free queue
  // entry, so no ready signal crosses.
  private def toLane[T <: Data](x: T): T = RegNext(x)
  private def fromLane[T <: Data](x: T): T = RegNext(x)
  private val abortR = RegNext(io.abort) init (False)

  // ---- one point to every lane's queue at once (a lane whose digits of it are all zero does not take it)
  // point i's digits of the shared windows go to lane i mod N
  private val turn = Reg(UInt(log2Up(N) max 1 bits)) init (0)
  private val credits = Vec.fill(N)(Reg(UInt(log2Up(cfg.laneQueueDepth + 1) bits)) init (cfg.laneQueueDepth))
  private val admitted = io.jobs.continueWhen(due && credits.map(_ =/= 0).andR)
  admitted.ready := True
  when(admitted.fire) { turn := (if (N == 1) U(0) else Mux(turn === N - 1, U(0), turn + 1)) }
  for ((lane, l) <- lanes.zipWithIndex) {
    val job = LaneJob(cfg, lane.windows.size)
    for ((j, k) <- lane.windows.zipWithIndex) {
      val src = io.jobs.payload.digits(j)
      job.digits(k).negative := src.negative
      job.digits(k).bucket := src.bucket
      job.digits(k).nonZero := (if (cfg.isShared(j)) src.nonZero && turn === l else src.nonZero)
    }
    job.q := io.jobs.payload.q
    val takes = admitted.fire && job.digits.map(_.nonZero).orR
    lane.io.jobs.valid := toLane(takes) init (False)
    lane.io.jobs.payload := toLane(job)
    val back = fromLane(lane.io.credit) init (False)
    credits(l) := credits(l) - U(takes) + U(back)
    lane.io.start := toLane(startNow) init (False)
    lane.io.due := toLane(due) init (False)
    lane.io.abort := abortR
  }
  when(startNow) {
    turn := 0
    credits.foreach(_ := cfg.laneQueueDepth)
  }
  private val allCredits = credits.map(_ === cfg.laneQueueDepth).andR
  private val lanesIdle = lanes.map(l => fromLane(l.io.idle) init (False)).andR
  io.waiting := due && !io.jobs.valid
  when(admitted.fire) { consumed := consumed + 1 }
  when(accumulating || phase === MsmPhase.FLUSH) { accCycles := accCycles + 1 }
  busyCycles := lanes.map(_.io.busyCycles).reduce(_ + _)

  // ---- clear
  private val maxBuckets = (0 until W).map(cfg.buckets).max
  private val clr = Reg(UInt(cfg.addrBits + 1 bits)) init (0)
  private val clearing = Flow(UInt(cfg.addrBits + 1 bits))
  clearing.valid := phase === MsmPhase.CLEAR
  clearing.payload := clr
  lanes.foreach { l => l.io.clear := toLane(clearing); l.io.clear.valid.init(False) }

  // ---- read-out: segment by segment (a window of one lane), then the partial buckets.  Segments: every window j
  // in order (a shared one from lane 0's copy), then lanes 1.. copies of the shared windows.  Requests go out one
  // per cycle while the record FIFO has room for every request in flight.
  private case class Segment(lane: Int, local: Int, window: Int) { def buckets: Int = cfg.buckets(window) }
  private val segments: Seq[Segment] =
    (0 until W).map { j => val l = if (cfg.isShared(j)) 0 else (0 until N).find(cfg.laneWindows(_).contains(j)).get
      Segment(l, cfg.laneWindows(l).indexOf(j), j) } ++
      (1 until N).flatMap(l => (0 until cfg.shared).map(j => Segment(l, j, j)))
  private val S = cfg.partialSlots
  /** records of a read-out: every segment's buckets, then every lane's partial buckets */
  val readOutRecords: Int = segments.map(_.buckets).sum + N * S
  assert(readOutRecords == cfg.totalBuckets + cfg.partialRecords)
  private val localBits = log2Up(lanes.map(_.windows.size).max)
  private val segLane = Vec(segments.map(g => U(g.lane, log2Up(N) max 1 bits)))
  private val segLocal = Vec(segments.map(g => U(g.local, localBits bits)))
  private val segLast = Vec(segments.map(g => U(g.buckets - 1, cfg.addrBits bits)))
  private val roSeg = Reg(UInt(log2Up(segments.size) bits)) init (0)
  private val roAddr = Reg(UInt(cfg.addrBits bits)) init (0)
  private val roBuckets = RegInit(False)    // every segment requested: the partial buckets follow
  private val roFinished = RegInit(False)   // every record requested
  private val roPart = Reg(UInt(log2Up(N * S) bits)) init (0) // partial record: lane roPart / S, slot roPart % S
  private val fifoDepth = 16
  require(isPow2(fifoDepth))
  private val records = StreamFifo(ReadOutRecord(cfg), fifoDepth)
  private val inFlight = Reg(UInt(log2Up(fifoDepth + 1) bits)) init (0)
  // requests in flight plus records in the FIFO, kept as one counter (<= fifoDepth) so that `room` is its top bit
  // (fifoDepth a power of two) and not a sum and a compare after the FIFO's pointer difference
  private val reserved = Reg(UInt(log2Up(fifoDepth + 1) bits)) init (0)
  private val room = !reserved.msb
  private val roIssue = phase === MsmPhase.READOUT && !roFinished && room
  private val reqLane = Mux(roBuckets, (roPart / S).resize(log2Up(N) max 1), segLane(roSeg))
  for ((lane, l) <- lanes.zipWithIndex) {
    val req = Flow(ReadOutRequest(cfg, lane.windows.size))
    req.valid := roIssue && reqLane === l
    req.partial := roBuckets
    req.bucket.window := segLocal(roSeg).resized
    req.bucket.addr := roAddr
    req.slot := (roPart % S).resize(log2Up(S))
    lane.io.readOut := toLane(req)
    lane.io.readOut.valid.init(False)
  }
  private val returned = lanes.map { l => val r = fromLane(l.io.readOutData); r.valid.init(False); r }
  records.io.push.valid := returned.map(_.valid).orR && phase === MsmPhase.READOUT
  records.io.push.payload := (if (N == 1) returned.head.payload else MuxOH(Vec(returned.map(_.valid)), Vec(returned.map(_.payload))))
  records.io.flush := io.abort || startNow
  import Tally.step
  private val inFlightNext = step(inFlight, roIssue, records.io.push.fire)
  inFlight := inFlightNext
  // a flush empties the FIFO (StreamFifo: the flush wins over that cycle's push and pop)
  reserved := Mux(records.io.flush, inFlightNext, step(reserved, roIssue, records.io.pop.fire))
  when(roIssue) {
    when(roBuckets) {
      roPart := roPart + 1
      when(roPart === N * S - 1) { roFinished := True }
    } otherwise {
      val lastInSegment = roAddr === segLast(roSeg)
      roAddr := Mux(lastInSegment, U(0), roAddr + 1)
      when(lastInSegment) {
        when(roSeg === segments.size - 1) { roBuckets := True } otherwise { roSeg := roSeg + 1 }
      }
    }
  }
  private val sent = Reg(UInt(log2Up(readOutRecords) bits)) init (0)
  io.buckets << records.io.pop.translateWith {
    val b = BucketRecord(cfg)
    b.value := records.io.pop.value
    b.window := records.io.pop.window
    b.bucket := records.io.pop.bucket
    b.last := sent === readOutRecords - 1
    b
  }
  when(io.buckets.fire) {
    sent := sent + 1
    when(io.buckets.last) {
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
        cycles := 0; accCycles := 0
        consumed := 0; countR := io.count; doneR := False
        clr := 0
        roSeg := 0; roAddr := 0; roBuckets := False; roPart := 0; roFinished := False; inFlight := 0; sent := 0
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
      // every point sent has left its lane's queue (all credits home: a credit is taken when the point is sent) and
      // every lane is idle after it
      when(allCredits && lanesIdle) { phase := MsmPhase.READOUT }
    }
  }
  when(io.abort) { phase := MsmPhase.IDLE }
}
