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
  * (window, slot), read asynchronously at the head.
  */
class StallFifos(windows: Int, depth: Int, tagBits: Int, dataBits: Int) extends Component {
  val io = new Bundle {
    val window = in(UInt(log2Up(windows) bits))
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

  private val w = io.window
  private val rdW = rd(w)
  io.headValid := count(w) =/= 0
  io.headTag := tags(w)(rdW)
  io.headData := data.readAsync(w @@ rdW)
  io.full := count(w) === depth
  io.probeHit := valid(w).zip(tags(w)).map { case (v, t) => v && t === io.probeTag }.orR
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
    rd.foreach(_ := 0); wr.foreach(_ := 0); count.foreach(_ := 0)
  }
}
