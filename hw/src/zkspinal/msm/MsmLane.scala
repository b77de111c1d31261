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

/** One addition waiting to be scheduled: bucket (local window, address), sign and point; `retried` = it comes
  * back from the retry queue. */
case class LaneOp(cfg: MsmConfig, windows: Int) extends Bundle {
  val bucket = LaneAddress(cfg, windows)
  val negative = Bool()
  val q = Bits(3 * cfg.curve.field.width bits)
  val retried = Bool()
}

/** An addition in the adder pipeline: its target is bucket (window, addr), or partial bucket `slot` when `partial`;
  * `fresh` = the partial bucket was just claimed (the adder starts from the identity instead of its contents). */
case class LaneTag(cfg: MsmConfig, windows: Int) extends Bundle {
  val valid = Bool()
  val partial = Bool()
  val fresh = Bool()
  val bucket = LaneAddress(cfg, windows)
  val slot = UInt(log2Up(cfg.partialSlots) bits)
  def sameBucket(b: LaneAddress): Bool = valid && !partial && bucket.window === b.window && bucket.addr === b.addr
}

/** One adder with the windows it holds (cfg.laneWindows(lane): a copy of each shared low window, for every adders-th
  * point, and its own share of the others) and their bucket memories; no bucket is written by two lanes.  It issues
  * one addition per cycle whenever one can go; every input lands in a register and every output leaves one, so the
  * lane can sit in an SLR of its own (points come on credits: no ready crosses).
  * Pipeline (one addition per cycle, no stage ever stalls):
  *   queue     cfg.laneQueueDepth points (the engine sends none whose digits are all zero in this lane)
  *   expand    the point's non-zero digits, lowest window first, one per cycle (registered)
  *   C         the retry queue's head when it has waited `retryDelay` cycles, else the next expanded addition;
  *             compared with every tag in flight (registered: the hazard check of stage D)
  *   D         the decision, one of
  *               main     the bucket is not in flight: add into it
  *               partial  it is in flight: add into a partial bucket this bucket owns that is not in flight, or
  *                        (the bucket is hot: a retried addition, or every partial bucket it owns is in flight)
  *                        claim a free partial bucket for it
  *               defer    else into the retry queue (always room: C admits a new addition only when the queue
  *                        could take every addition in C and D)
  *   tags      stage 0 issue (memory read), stage 1 adder input, stage 1 + latency write-back
  * A bucket is in flight while its tag sits in stages 0..latency (its write-back reaches memory before a read
  * decided one cycle later), so the hazard check compares those latency + 1 tags.  The cfg.partialSlots partial
  * buckets are claimed for the rest of the job; the read-out returns each after the buckets, tagged with the
  * bucket it belongs to, and the host adds it in (reference_model/msm_formats.md).  A bucket's additions may
  * happen in any order, so the engine's buckets equal the model's as curve points (every coordinate checked after
  * normalization), not word for word.
  */
class MsmLane(val cfg: MsmConfig, val lane: Int) extends Component {
  val windows: Seq[Int] = cfg.laneWindows(lane)
  private val W = windows.size
  private val S = cfg.partialSlots
  private val n = cfg.curve.field.width
  private val f = cfg.curve.field
  val io = new Bundle {
    // every input is registered here and every output leaves a register (the lane may sit in another SLR)
    val jobs = slave(Flow(LaneJob(cfg, W)))  // the engine sends a point only with a credit (a free queue entry)
    val credit = out(Bool())    // a queue entry was freed: one more credit
    val start = in(Bool())      // a job begins: queue emptied, partial buckets released, counters restart
    val due = in(Bool())        // points are still due at the engine's input (the starved counter)
    val abort = in(Bool())      // drop the queue, the retry queue and every addition in flight
    val clear = slave(Flow(UInt(cfg.addrBits + 1 bits))) // write the identity at this address of every window
    val readOut = slave(Flow(ReadOutRequest(cfg, W)))    // read a bucket (then cleared to the identity) or a
    val readOutData = master(Flow(ReadOutRecord(cfg)))   // partial bucket: its record, a few cycles later
    val idle = out(Bool())      // nothing queued, waiting or in flight
    val busyCycles = out(UInt(64 bits))
    val stalls, deferred, starved, spilled = out(UInt(32 bits))
  }
  val adder: BucketAdder = BucketAdder(cfg.curve, cfg.arith, cfg.mulModel, cfg.split)
  val latency: Int = adder.latency
  /** tag pipeline: stage 0 = issue register (memory read), readStage = adder input, readStage + latency = write-back */
  val writeStage: Int = readStage + latency
  /** stages whose tag makes its bucket busy for a decision (reads and write-backs reach a memory equally late) */
  val hazardStages: Int = writeStage
  /** a deferred addition retries after this many cycles: the addition that blocked it has written back */
  val retryDelay: Int = hazardStages + 1

  val memories = windows.map(j => new BucketMemory(cfg.buckets(j), 4 * n, cfg.addrBits))
  // ---- the inputs, registered
  private val jobIn = RegNext(io.jobs).setName("jobIn")
  jobIn.valid.init(False)
  private val start = RegNext(io.start) init (False)
  private val abort = RegNext(io.abort) init (False)
  private val due = RegNext(io.due) init (False)
  private val clear = RegNext(io.clear)
  clear.valid.init(False)
  private val ro = RegNext(io.readOut)
  ro.valid.init(False)

  private val queue = StreamFifo(LaneJob(cfg, W), cfg.laneQueueDepth)
  queue.io.push.valid := jobIn.valid
  queue.io.push.payload := jobIn.payload
  assert(!jobIn.valid || queue.io.push.ready, "MsmLane: a point arrived without a credit")
  queue.io.flush := abort || start
  private val job = queue.io.pop
  io.credit := RegNext(job.fire && !abort && !start) init (False)

  private val busyCycles = Reg(UInt(64 bits)) init (0)
  private val small = Seq.fill(4)(Reg(UInt(32 bits)) init (0))
  private val Seq(stalls, deferred, starved, spilled) = small
  io.busyCycles := busyCycles
  io.stalls := stalls; io.deferred := deferred; io.starved := starved; io.spilled := spilled

  // ---- expand: the head point's non-zero digits, one per cycle, lowest window first
  private val taken = Reg(Bits(W bits)) init (0)
  private val remaining = job.payload.digits.map(_.nonZero).asBits & ~taken
  private val pick = OHMasking.first(remaining)
  private val lastOfPoint = (remaining & ~pick) === 0
  private val expanded = Stream(LaneOp(cfg, W))
  private val pickedDigit = MuxOH(pick, job.payload.digits)
  expanded.valid := job.valid && remaining.orR
  expanded.bucket.window := OHToUInt(pick)
  expanded.bucket.addr := pickedDigit.bucket
  expanded.negative := pickedDigit.negative
  expanded.q := job.payload.q
  expanded.retried := False
  when(expanded.fire) { taken := Mux(lastOfPoint, B(0, W bits), taken | pick) }
  job.ready := (expanded.fire && lastOfPoint) || (job.valid && !remaining.orR)
  private val nextOp = expanded.s2mPipe(flush = abort).m2sPipe(flush = abort)

  // ---- retry queue
  private val retry = StreamFifo(LaneOp(cfg, W), cfg.retryDepth)
  retry.io.flush := abort
  // Every entry waits retryDelay cycles and they leave in the order they came, so the entries due are the oldest:
  // a delay line of the pushes marks each one due, and `matured` counts those in the queue (due = a register not 0,
  // no stamp compare).  An entry pushed in cycle t may leave in cycle t + retryDelay.
  private val maturing = Reg(Bits(retryDelay - 1 bits)) init (0)
  private val matured = Reg(UInt(log2Up(cfg.retryDepth + 1) bits)) init (0)
  private val retryDue = matured =/= 0

  // ---- tag pipeline
  private val tags = Vec.fill(writeStage + 1)(Reg(LaneTag(cfg, W)))
  tags.foreach(_.valid.init(False))

  // ---- partial buckets: owner (window, address) once claimed, busy while an addition to it is in flight
  private val owned = Vec.fill(S)(RegInit(False))
  private val owner = Vec.fill(S)(Reg(LaneAddress(cfg, W)))
  private val partialBusy = Vec.fill(S)(RegInit(False))

  // ---- stage C
  private val cValid = RegInit(False)
  private val c = Reg(LaneOp(cfg, W))
  private val dValid = RegInit(False)
  private val d = Reg(LaneOp(cfg, W))
  // room: the retry queue could take every addition in C and D and one more, kept as the slack
  // retryDepth - 1 - (occupancy + cValid + dValid), whose top bit is its sign (a register bit, not a sum and a compare)
  private val retrySlack = Reg(UInt(log2Up(cfg.retryDepth) + 1 bits)) init (cfg.retryDepth - 1)
  private val room = !retrySlack.msb
  private val takeRetry = retryDue
  private val takeNew = !retryDue && nextOp.valid && room
  retry.io.pop.ready := takeRetry
  nextOp.ready := takeNew
  cValid := takeRetry || takeNew
  c := Mux(takeRetry, retry.io.pop.payload, nextOp.payload)
  // hazards of stage D, one cycle early: stages 0..latency - 1 now are stages 1..latency then
  private val dHazard = Reg(Bool())
  dHazard := (0 until hazardStages - 1).map(i => tags(i).sameBucket(c.bucket)).orR
  private val dOwns = Reg(Bits(S bits))
  dOwns := Vec((0 until S).map(s => owned(s) && owner(s).window === c.bucket.window &&
    owner(s).addr === c.bucket.addr)).asBits
  // stage D's bucket equals the one decided the cycle before (that decision's issue or claim is not in the registers
  // compared above yet); a register compare here, so stage D only reads one bit
  private val cIsD = c.bucket === d.bucket // stage C holds the bucket stage D decides on now
  private val sameAsLast = RegNext(cIsD)

  // ---- stage D: the decision
  dValid := cValid
  d := c
  // Partial buckets are claimed in slot order and kept for the rest of the job, so the free ones are the slots from
  // `claims` up: the next free slot is a counter, not a priority encoder over the slots.
  private val claims = Reg(UInt(log2Up(S + 1) bits)) init (0)
  private val freeSlot = claims.resize(log2Up(S))
  private val exhausted = RegInit(False) // every partial bucket claimed
  private val anyFree = !exhausted
  // the partial bucket claimed last cycle for this very bucket (its owner is news to dOwns), one register per slot
  private val freshOwns = Reg(Bits(S bits)) init (0)
  private val owns = dOwns | freshOwns
  private val lastMain = tags(0).valid && !tags(0).partial   // tags(0) is last cycle's issue
  private val mainBusy = dHazard || (lastMain && sameAsLast)
  private val ownsIdle = owns & ~partialBusy.asBits
  // the lowest idle partial bucket this bucket owns: one-hot (x(s) and no lower x: a prefix OR, no carry chain) for
  // the busy flags, and its index from MsmLane.lowestSet's tree (an OR-encoder of the one-hot would add levels)
  private val ownedFirst = Vec((0 until S).map(s => ownsIdle(s) && !(if (s == 0) False else ownsIdle(s - 1 downto 0).orR)))
  private val (useOwned, ownedSlot) = MsmLane.lowestSet(ownsIdle)
  // a bucket is hot once it has come back from the retry queue or owns a partial bucket (all of them busy now): it
  // claims another instead of waiting a retry delay, which would leave this cycle's issue slot empty
  private val mayClaim = (d.retried || owns.orR) && anyFree
  private val issueMain = dValid && !mainBusy
  private val issuePartial = dValid && mainBusy && (useOwned || mayClaim)
  private val claim = issuePartial && !useOwned
  private val defer = dValid && mainBusy && !useOwned && !mayClaim
  private val slot = Mux(useOwned, ownedSlot.resize(log2Up(S)), freeSlot)

  retry.io.push.valid := defer
  retry.io.push.payload.bucket := d.bucket
  retry.io.push.payload.negative := d.negative
  retry.io.push.payload.q := d.q
  retry.io.push.payload.retried := True
  // the queue's occupancy + cValid + dValid moves by takeNew - (dValid && !defer)
  retrySlack := Tally.step(retrySlack, dValid && !defer, takeNew)
  maturing := (maturing ## defer).resize(retryDelay - 1)
  matured := Tally.step(matured, maturing.msb, takeRetry)
  freshOwns := UIntToOh(freeSlot, S) & B(S bits, default -> (claim && cIsD))
  when(claim) {
    owned(freeSlot) := True; owner(freeSlot) := d.bucket; claims := claims + 1
    when(claims === S - 1) { exhausted := True }
  }
  private val taking = Mux(useOwned, ownedFirst.asBits, UIntToOh(freeSlot, S)) // one-hot: the slot issued to
  private val wbSoon = tags(hazardStages - 1) // its bucket is free for the decision of the next cycle
  for (s <- 0 until S) {
    when(issuePartial && taking(s)) { partialBusy(s) := True }
  }
  when(wbSoon.valid && wbSoon.partial) { partialBusy(wbSoon.slot) := False }

  private val issueQ = Reg(Bits(3 * n bits))
  private val issueNeg = Reg(Bool())
  tags(0).valid := issueMain || issuePartial
  tags(0).partial := !issueMain
  tags(0).fresh := claim
  tags(0).bucket := d.bucket
  tags(0).slot := slot
  issueQ := d.q
  issueNeg := d.negative
  for (i <- 1 to writeStage) tags(i) := tags(i - 1)

  when(issueMain || issuePartial) { busyCycles := busyCycles + 1 }
  when(issuePartial) { spilled := spilled + 1 }
  when(defer) { deferred := deferred + 1 }
  when(nextOp.valid && !retryDue && !room) { stalls := stalls + 1 }
  when(due && !job.valid && !(issueMain || issuePartial)) { starved := starved + 1 }
  when(start) {
    busyCycles := 0; small.foreach(_ := 0)
    owned.foreach(_ := False); claims := 0; exhausted := False
  }
  when(abort) {
    tags.foreach(_.valid := False)
    cValid := False; dValid := False; freshOwns := 0
    taken := 0
    owned.foreach(_ := False); partialBusy.foreach(_ := False); claims := 0; exhausted := False
    retrySlack := U(cfg.retryDepth - 1, widthOf(retrySlack) bits); maturing := 0; matured := 0
  }
  io.idle := RegNext(!jobIn.valid && !job.valid && !nextOp.valid && !cValid && !dValid && !retry.io.pop.valid &&
    !tags.map(_.valid).orR) init (False)

  // ---- adder: bucket or partial bucket read one cycle after issue (the identity for a fresh partial bucket)
  private val identity: Bits = B(adder.identity.zipWithIndex.map { case (x, i) => x << (n * i) }.sum, 4 * n bits)
  private val partials = Mem(Bits(4 * n bits), S)
  private val roPartial = ro.valid && ro.partial
  private val partialAddr = Mux(roPartial, ro.slot, tags(0).slot)
  private val partialData = later(partials.readSync(partialAddr, enable = roPartial || tags(0).valid), 2 * crossing)
  // one window multiplexer for both readers of the memories: the adder (tags(readStage)) and the read-out (got),
  // never in the same cycle (the read-out runs once every lane is idle: MsmCore's READOUT phase)
  private val got = if (crossing == 0) RegNext(ro) else laterFlow(ro, readStage)
  got.valid.init(False)
  assert(!(got.valid && atAdder.valid), "MsmLane: a read-out while additions are in flight")
  private val readWindow = Mux(got.valid, got.bucket.window, atAdder.bucket.window)
  private val readData = Vec(memories.map(m => later(m.io.readData, crossing)))(readWindow)
  private val readHeld = Vec(memories.map(m => later(m.io.readHeld, crossing)))(readWindow)
  private val operand = Mux(Mux(atAdder.partial, atAdder.fresh, !readHeld), identity,
    Mux(atAdder.partial, partialData, readData))
  adder.input.valid := atAdder.valid
  for (i <- 0 until 4) adder.input.payload.s(i) := operand(n * i, n bits).asUInt
  for (i <- 0 until 3) adder.input.payload.q(i) := later(issueQ(n * i, n bits), readStage).asUInt
  adder.input.payload.negate := later(issueNeg, readStage)
  private val wb = tags(writeStage)
  private val wbData = adder.output.payload.asBits
  partials.write(wb.slot, wbData, enable = wb.valid && wb.partial)

  // ---- read-out: the request's record one cycle after the memory read; a bucket read becomes the identity
  private val claimed = owned(got.slot)
  private val record = ReadOutRecord(cfg)
  private val globalWindow = Vec(windows.map(j => U(j, MsmRecord.window.width bits)))
  when(got.partial) {
    record.value := Mux(claimed, partialData, identity)
    record.window := Mux(claimed, globalWindow(owner(got.slot).window), U(0))
    record.bucket := Mux(claimed, owner(got.slot).addr.resize(MsmRecord.bucket.width) + 1, U(0))
  } otherwise {
    record.value := Mux(readHeld, readData, identity)
    record.window := globalWindow(got.bucket.window)
    record.bucket := got.bucket.addr.resize(MsmRecord.bucket.width) + 1
  }
  io.readOutData := RegNext(got.translateWith(record))
  io.readOutData.valid.init(False)

  for ((m, k) <- memories.zipWithIndex) {
    // a split lane's ports reach the memory through one register each (crossing)
    val (readPort, writePort) = if (crossing == 0) (m.io.read, m.io.write) else {
      val r = Flow(UInt(cfg.addrBits bits)).setName(s"memRead_$k")
      val w = Flow(BucketWrite(cfg.addrBits, 4 * n)).setName(s"memWrite_$k")
      m.io.read := laterFlow(r, crossing)
      m.io.write := laterFlow(w, crossing)
      (r, w)
    }
    val roHere = ro.valid && !ro.partial && ro.bucket.window === k
    readPort.valid := (tags(0).valid && !tags(0).partial && tags(0).bucket.window === k) || roHere
    readPort.payload := Mux(roHere, ro.bucket.addr, tags(0).bucket.addr)
    val wbHere = wb.valid && !wb.partial && wb.bucket.window === k
    val clearHere = clear.valid && clear.payload < m.buckets
    val readHere = got.valid && !got.partial && got.bucket.window === k
    writePort.valid := wbHere || clearHere || readHere
    writePort.payload.address := Mux(wbHere, wb.bucket.addr, Mux(clearHere, clear.payload.resize(cfg.addrBits),
      got.bucket.addr))
    writePort.payload.data := wbData
    writePort.payload.held := wbHere
  }

  // ---- a split lane (cfg.split): the hub, its memories in the regions the board's floorplan places by these names
  if (cfg.split.isDefined) setName("hub")
  for (sp <- cfg.split; (m, k) <- memories.zipWithIndex) m.setName(s"far${sp.windowRegion(windows(k))}_memories_$k")
  /** registers on the lane's side of each bucket memory port when the memories sit in other SLRs (cfg.split): the
    * read address and the write leave one, the read data lands in one (the memory's own ports are the far side) */
  def crossing: Int = if (cfg.split.isDefined) 1 else 0
  /** tag stage at which a read issued at stage 0 reaches the adder: the address's crossing, the memory's synchronous
    * read, the data's crossing */
  def readStage: Int = 1 + 2 * crossing
  private def atAdder = tags(readStage)
  /** x through k registers */
  private def later[T <: Data](x: T, k: Int): T = (0 until k).foldLeft(x)((v, _) => RegNext(v))
  /** a flow through k registers, valid reset to false */
  private def laterFlow[T <: Data](x: Flow[T], k: Int): Flow[T] =
    (0 until k).foldLeft(x) { (v, _) => val r = RegNext(v); r.valid.init(False); r }
}

object MsmLane {
  /** (some bit of x is set, the index of the lowest set bit; any index when none is), as a tree of four-way
    * choices: a node takes its index's top two bits from which of its four parts is the first with a bit set (four
    * inputs) and the rest from that part (four flags and four index bits: a LUT6 and a MUXF7), so each node is
    * about one LUT level and 128 bits take four (a two-way node on top when the width is 2^odd). */
  def lowestSet(x: Bits): (Bool, UInt) = {
    val w = x.getWidth
    if (w == 1) return (x(0), U(0, 0 bits))
    val padded = 1 << log2Up(w)
    val parts = if (log2Up(padded) % 2 == 1) 2 else 4 // a two-way node at the top when the width is 2^odd
    val size = padded / parts
    val xs = x.resize(padded)
    val sub = (0 until parts).map(i => lowestSet(xs(i * size, size bits)))
    val anys = sub.map(_._1)
    // which part: a priority choice of constants (OHMasking.first subtracts, and a subtraction maps to a carry chain)
    val first = PriorityMux(anys.zip((0 until parts).map(U(_, log2Up(parts) bits))))
    val low = if (size == 1) U(0, 0 bits) else PriorityMux(anys.zip(sub.map(_._2))) // the last part's flag is not read
    (anys.reduce(_ || _), (first ## low).asUInt)
  }
}

/** A read-out request to a lane: bucket (local window, address), or partial bucket `slot` when `partial`. */
case class ReadOutRequest(cfg: MsmConfig, windows: Int) extends Bundle {
  val partial = Bool()
  val bucket = LaneAddress(cfg, windows)
  val slot = UInt(log2Up(cfg.partialSlots) bits)
}

/** A record of the read-out: (U, V, W, T) and the (window, k) tag it goes out with. */
case class ReadOutRecord(cfg: MsmConfig) extends Bundle {
  val value = Bits(4 * cfg.curve.field.width bits)
  val window = UInt(MsmRecord.window.width bits)
  val bucket = UInt(MsmRecord.bucket.width bits)
}
