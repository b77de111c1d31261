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
  io.stalls := RegNext(lanes.map(_.io.stalls).reduce(_ + _)) init (0)
  io.deferred := RegNext(lanes.map(_.io.deferred).reduce(_ + _)) init (0)
  io.starved := RegNext(lanes.map(_.io.starved).reduce(_ + _)) init (0)
  io.spilled := RegNext(lanes.map(_.io.spilled).reduce(_ + _)) init (0)

  private val accumulating = phase === MsmPhase.ACCUMULATE
  private val due = accumulating && consumed =/= countR
  private val startNow = io.start && phase === MsmPhase.IDLE

  // ---- one point to every lane's queue at once
  private val admitted = io.jobs.continueWhen(due)
  private val forks = StreamFork(admitted, N, synchronous = true)
  // point i's digits of the shared windows go to lane i mod N
  private val turn = Reg(UInt(log2Up(N) max 1 bits)) init (0)
  when(admitted.fire) { turn := (if (N == 1) U(0) else Mux(turn === N - 1, U(0), turn + 1)) }
  when(startNow) { turn := 0 }
  for ((lane, l) <- lanes.zipWithIndex) {
    val digits = Vec(lane.windows.map { j =>
      val src = io.jobs.payload.digits(j)
      val d = Digit(cfg.addrBits)
      d.negative := src.negative
      d.bucket := src.bucket
      d.nonZero := (if (cfg.isShared(j)) src.nonZero && turn === l else src.nonZero)
      d
    })
    lane.io.jobs << forks(l).throwWhen(!digits.map(_.nonZero).orR).translateWith {
      val j = LaneJob(cfg, lane.windows.size)
      j.digits := digits
      j.q := io.jobs.payload.q
      j
    }
    lane.io.start := startNow
    lane.io.due := due
    lane.io.abort := io.abort
  }
  io.waiting := due && !io.jobs.valid
  when(admitted.fire) { consumed := consumed + 1 }
  when(accumulating || phase === MsmPhase.FLUSH) { accCycles := accCycles + 1 }
  busyCycles := lanes.map(_.io.busyCycles).reduce(_ + _)

  // ---- clear
  private val maxBuckets = (0 until W).map(cfg.buckets).max
  private val clr = Reg(UInt(cfg.addrBits + 1 bits)) init (0)
  lanes.foreach { l => l.io.clear.valid := phase === MsmPhase.CLEAR; l.io.clear.payload := clr }

  // ---- read-out: segment by segment (a window of one lane), then the partial buckets.  Segments: every window j
  // in order (a shared one from lane 0's copy), then lanes 1.. copies of the shared windows.
  private case class Segment(lane: Int, local: Int, window: Int) { def buckets: Int = cfg.buckets(window) }
  private val segments: Seq[Segment] =
    (0 until W).map { j => val l = if (cfg.isShared(j)) 0 else (0 until N).find(cfg.laneWindows(_).contains(j)).get
      Segment(l, cfg.laneWindows(l).indexOf(j), j) } ++
      (1 until N).flatMap(l => (0 until cfg.shared).map(j => Segment(l, j, j)))
  private val localBits = log2Up(lanes.map(_.windows.size).max)
  private val segLane = Vec(segments.map(g => U(g.lane, log2Up(N) max 1 bits)))
  private val segLocal = Vec(segments.map(g => U(g.local, localBits bits)))
  private val segWindow = Vec(segments.map(g => U(g.window, 7 bits)))
  private val segLast = Vec(segments.map(g => U(g.buckets - 1, cfg.addrBits bits)))
  private val roSeg = Reg(UInt(log2Up(segments.size) bits)) init (0)
  private val roAddr = Reg(UInt(cfg.addrBits bits)) init (0)
  private val roPending = RegInit(False)
  private val roBuckets = RegInit(False)    // every segment issued: the partial buckets follow
  private val roFinished = RegInit(False)
  private val S = cfg.partialSlots
  private val roPart = Reg(UInt(log2Up(N * S) bits)) init (0) // partial record: lane roPart / S, slot roPart % S
  private val roPartLane = roPart / S
  private val roPartSlot = (roPart % S).resize(log2Up(S))
  private val roPartP = RegNext(roPart)
  private val roFromPartial = RegNext(roBuckets)
  private val outValid = RegInit(False)
  private val outRec = Reg(BucketRecord(cfg))
  private val roIssue = phase === MsmPhase.READOUT && !roPending && !outValid && !roFinished
  private val roLane = segLane(roSeg)
  private val roSegP = RegNext(roSeg)
  private val roLaneP = RegNext(roLane)
  private val roLocalP = RegNext(segLocal(roSeg))
  private val roAddrP = RegNext(roAddr)
  for ((lane, l) <- lanes.zipWithIndex) {
    lane.io.roRead.valid := roIssue && !roBuckets && roLane === l
    lane.io.roRead.window := segLocal(roSeg).resized
    lane.io.roRead.addr := roAddr
    lane.io.roWrite.valid := roPending && !roFromPartial && roLaneP === l
    lane.io.roWrite.window := roLocalP.resized
    lane.io.roWrite.addr := roAddrP
    lane.io.partialRead.valid := roIssue && roBuckets && roPartLane === l
    lane.io.partialRead.payload := roPartSlot
  }

  private val lastPartial = roPart === N * S - 1
  when(roIssue) {
    roPending := True
    when(roBuckets) {
      roPart := roPart + 1
      when(lastPartial) { roFinished := True }
    } otherwise {
      val lastInSegment = roAddr === segLast(roSeg)
      roAddr := Mux(lastInSegment, U(0), roAddr + 1)
      when(lastInSegment) {
        when(roSeg === segments.size - 1) { roBuckets := True } otherwise { roSeg := roSeg + 1 }
      }
    }
  }
  private def ofLane[T <: Data](f: MsmLane => T, l: UInt): T = if (N == 1) f(lanes.head) else Vec(lanes.map(f))(l)
  private val partLaneP = (roPartP / S).resize(log2Up(N) max 1)
  when(roPending) {
    roPending := False
    outValid := True
    when(roFromPartial) {
      outRec.value := ofLane(_.io.partialData, partLaneP)
      outRec.window := ofLane(_.io.partialWindow, partLaneP)
      outRec.bucket := ofLane(_.io.partialBucket, partLaneP)
      outRec.last := roPartP === N * S - 1
    } otherwise {
      outRec.value := ofLane(_.io.roData, roLaneP)
      outRec.window := segWindow(roSegP)
      outRec.bucket := roAddrP.resize(21) + 1
      outRec.last := False
    }
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
        cycles := 0; accCycles := 0
        consumed := 0; countR := io.count; doneR := False
        clr := 0
        roSeg := 0; roAddr := 0; roBuckets := False; roPart := 0; roFinished := False
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
      when(lanes.map(_.io.idle).andR) { phase := MsmPhase.READOUT }
    }
  }
  when(io.abort) {
    phase := MsmPhase.IDLE
    outValid := False
    roPending := False
  }
}
