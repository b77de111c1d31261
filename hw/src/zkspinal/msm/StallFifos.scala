package zkspinal.msm

import spinal.core._
import spinal.lib._

/** One small FIFO per window for operations whose bucket was busy (in the adder pipeline) when their window's
  * slot came.  All ports act on the window of the current slot (`window`): push and pop happen in that window's
  * FIFO, the head and the membership probe look at it.
  *
  * The probe (`probeTag` -> `probeHit`: some waiting entry targets this bucket) lets the scheduler keep every
  * bucket's additions in arrival order: a new operation whose bucket already waits here is queued behind it.
  * Tags sit in registers (the probe compares them all); the point data waits in one distributed-RAM array
  * (window, slot).
  *
  * The slot's view (head, full, the probe's tags) is registered: `nextWindow` is the window of the next cycle's slot,
  * and its FIFO is copied one cycle ahead, so no wide window multiplexer sits on the scheduler's decision path.
  * The copy is exact because push and pop act on `window`, which differs from `nextWindow` whenever they happen
  * (the slot moves to the next window every cycle it serves one, and there are at least two windows).
  */
class StallFifos(windows: Int, depth: Int, tagBits: Int, dataBits: Int) extends Component {
  val io = new Bundle {
    val window = in(UInt(log2Up(windows) bits))
    val nextWindow = in(UInt(log2Up(windows) bits))
    val headValid = out(Bool())
    val headTag = out(UInt(tagBits bits))
    val headData = out(Bits(dataBits bits))
    val pop = in(Bool())
    val push = in(Bool())
    val pushTag = in(UInt(tagBits bits))
    val pushData = in(Bits(dataBits bits))
    val full = out(Bool())
    val probeTag = in(UInt(tagBits bits))
    val probeHit = out(Bool())
    val empty = out(Bool()) // every window's FIFO
    val clear = in(Bool())
    val occupancy = out(UInt(log2Up(windows * depth + 1) bits))
  }
  private val ptrBits = log2Up(depth)
  private val valid = Vec.fill(windows)(Vec.fill(depth)(RegInit(False)))
  private val tags = Vec.fill(windows)(Vec.fill(depth)(Reg(UInt(tagBits bits))))
  private val rd = Vec.fill(windows)(RegInit(U(0, ptrBits bits)))
  private val wr = Vec.fill(windows)(RegInit(U(0, ptrBits bits)))
  private val count = Vec.fill(windows)(RegInit(U(0, ptrBits + 1 bits)))
  private val data = Mem(Bits(dataBits bits), windows * depth)

  require(windows >= 2, "the registered view needs the slot to leave the window it updates")
  private val w = io.window
  private val rdW = rd(w)

  // ---- the view of nextWindow's FIFO, registered (valid next cycle, when nextWindow is the slot's window)
  private val nw = io.nextWindow
  private val viewValid = Vec.fill(depth)(RegInit(False))
  private val viewTags = Vec.fill(depth)(Reg(UInt(tagBits bits)))
  private val headValidR = RegNext(count(nw) =/= 0) init (False)
  private val fullR = RegNext(count(nw) === depth) init (False)
  viewValid := valid(nw)
  viewTags := tags(nw)
  io.headValid := headValidR
  io.headTag := RegNext(tags(nw)(rd(nw)))
  io.headData := data.readSync(nw @@ rd(nw))
  io.full := fullR
  io.probeHit := viewValid.zip(viewTags).map { case (v, t) => v && t === io.probeTag }.orR
  assert(!(io.push || io.pop) || nw =/= w, "StallFifos: push or pop while the next slot stays in the same window")
  io.empty := count.map(_ === 0).andR
  io.occupancy := count.map(_.resize(io.occupancy.getWidth)).reduce(_ + _)

  data.write(w @@ wr(w), io.pushData, enable = io.push)
  when(io.pop) {
    valid(w)(rdW) := False
    rd(w) := rdW + 1
  }
  when(io.push) {
    valid(w)(wr(w)) := True
    tags(w)(wr(w)) := io.pushTag
    wr(w) := wr(w) + 1
  }
  count(w) := count(w) + U(io.push).resized - U(io.pop).resized
  when(io.clear) {
    valid.foreach(_.foreach(_ := False))
    viewValid.foreach(_ := False); headValidR := False; fullR := False
    rd.foreach(_ := 0); wr.foreach(_ := 0); count.foreach(_ := 0)
  }
}
