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

/** The bucket engine: every point's digit of window j is added into bucket |d| of window j (sign -> -Q), by
  * cfg.adders lanes ([[MsmLane]]), each an adder with the windows it owns (window j in lane j mod adders).  A point
  * enters every lane's queue at once (a synchronous fork: the engine takes it when every queue has room); each
  * lane then runs its own slot schedule over its windows, so the engine consumes a point every
  * ceil(windows / adders) cycles when nothing stalls.
  *
  * Phases: CLEAR (identity into every bucket, only when the memories are dirty: after reset or an aborted job;
  * read-out leaves them clean), ACCUMULATE (until `count` points are consumed), FLUSH (every lane's queue, stall
  * FIFOs and pipeline drained), READOUT (every bucket, window 0 first, k ascending, written back as identity): the
  * read-out order does not depend on the number of lanes.
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
    val stalls, deferred, starved = out(UInt(32 bits))
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

  private val accumulating = phase === MsmPhase.ACCUMULATE
  private val slotting = accumulating || phase === MsmPhase.FLUSH
  private val due = accumulating && consumed =/= countR
  private val startNow = io.start && phase === MsmPhase.IDLE

  // ---- one point to every lane's queue at once
  private val admitted = io.jobs.continueWhen(due)
  private val forks = StreamFork(admitted, N, synchronous = true)
  for ((lane, l) <- lanes.zipWithIndex) {
    lane.io.jobs << forks(l).translateWith {
      val j = LaneJob(cfg, lane.windows.size)
      j.digits := Vec(lane.windows.map(io.jobs.payload.digits(_)))
      j.q := io.jobs.payload.q
      j
    }
    lane.io.start := startNow
    lane.io.slotting := slotting
    lane.io.due := due
    lane.io.abort := io.abort
  }
  io.waiting := due && !io.jobs.valid
  when(admitted.fire) { consumed := consumed + 1 }
  when(slotting) { accCycles := accCycles + 1 }
  busyCycles := lanes.map(_.io.busyCycles).reduce(_ + _)

  // ---- clear
  private val maxBuckets = (0 until W).map(cfg.buckets).max
  private val clr = Reg(UInt(cfg.addrBits + 1 bits)) init (0)
  lanes.foreach { l => l.io.clear.valid := phase === MsmPhase.CLEAR; l.io.clear.payload := clr }

  // ---- read-out: window roWin = roLocal * N + roLane, address roAddr
  private val roWin = Reg(UInt(log2Up(W) bits)) init (0)
  private val roLane = Reg(UInt(log2Up(N) max 1 bits)) init (0)
  private val roLocal = Reg(UInt(log2Up((W + N - 1) / N) bits)) init (0)
  private val roAddr = Reg(UInt(cfg.addrBits bits)) init (0)
  private val roPending = RegInit(False)
  private val roFinished = RegInit(False)
  private val outValid = RegInit(False)
  private val outRec = Reg(BucketRecord(cfg))
  private val lastAddr = Vec((0 until W).map(j => U(cfg.buckets(j) - 1, cfg.addrBits bits)))
  private val roIssue = phase === MsmPhase.READOUT && !roPending && !outValid && !roFinished
  private val roWinP = RegNext(roWin)
  private val roLaneP = RegNext(roLane)
  private val roLocalP = RegNext(roLocal)
  private val roAddrP = RegNext(roAddr)
  for ((lane, l) <- lanes.zipWithIndex) {
    lane.io.roRead.valid := roIssue && roLane === l
    lane.io.roRead.window := roLocal.resized
    lane.io.roRead.addr := roAddr
    lane.io.roWrite.valid := roPending && roLaneP === l
    lane.io.roWrite.window := roLocalP.resized
    lane.io.roWrite.addr := roAddrP
  }

  when(roIssue) {
    roPending := True
    val lastInWindow = roAddr === lastAddr(roWin)
    roAddr := Mux(lastInWindow, U(0), roAddr + 1)
    when(lastInWindow) {
      when(roWin === W - 1) {
        roFinished := True
      } otherwise {
        roWin := roWin + 1
        if (N == 1) roLocal := roLocal + 1
        else when(roLane === N - 1) { roLane := 0; roLocal := roLocal + 1 } otherwise { roLane := roLane + 1 }
      }
    }
  }
  when(roPending) {
    roPending := False
    outValid := True
    outRec.value := (if (N == 1) lanes.head.io.roData else Vec(lanes.map(_.io.roData))(roLaneP))
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
        cycles := 0; accCycles := 0
        consumed := 0; countR := io.count; doneR := False
        clr := 0
        roWin := 0; roLane := 0; roLocal := 0; roAddr := 0; roFinished := False
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
