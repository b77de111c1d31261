package zkspinal.poseidon

import spinal.core._
import spinal.lib._
import zkspinal.contract.Contract

case class CoreJob(arityIdxBits: Int, lanes: Int, n: Int) extends Bundle {
  val arityIdx = UInt(arityIdxBits bits)
  /** initial state: domain tag, preimage, zero padding (canonical) */
  val state = Vec(UInt(n bits), lanes)
  /** non-zero: a rejected frame; it takes its place in the output order with this code and no digest */
  val error = Bits(PoseidonErrors.bits bits)
}

case class CoreResult(n: Int) extends Bundle {
  val digest = UInt(n bits)
  val error = Bits(PoseidonErrors.bits bits)
}

/** Error codes of rejected frames (one bit each; the output beat's TUSER carries them). */
object PoseidonErrors extends Contract("poseidon_error", "PoseidonAxis error codes: the TUSER of a rejected " +
    "frame's output beat is the OR of them", "hw/src/zkspinal/poseidon/PoseidonCore.scala") {
  val bits = 3
  val range = bit("range", 1, "an element (or the header's tag) is not below p")
  val arity = bit("arity", 2, "the arity (frame length, or the header's arity) is not built in")
  val length = bit("length", 4, "the frame is longer than the widest arity, or a header frame has no element or " +
    "more than its arity")
}

/** Collects jobs of one arity into groups of up to `members` (the hashes that share a ring position of a
  * [[PoseidonGroupEngine]]).  A group leaves when it is full, when the next job has another arity, or `wait` cycles
  * after its last job arrived (the input ran dry): so a full-rate stream of one arity fills every group, and a lone
  * job waits at most `wait` cycles. */
class PoseidonGroupBuilder(arityIdxBits: Int, seqBits: Int, members: Int, lanes: Int, n: Int, wait: Int)
    extends Component {
  require(wait >= 1)
  val io = new Bundle {
    val input = slave(Stream(EngineJob(arityIdxBits, seqBits, lanes, n)))
    val output = master(Stream(GroupJob(arityIdxBits, seqBits, members, lanes, n)))
  }
  private val count = Reg(UInt(log2Up(members + 1) bits)) init (0)
  private val arity = Reg(UInt(arityIdxBits bits))
  private val live = Reg(Bits(members bits)) init (0)
  private val seqs = Reg(Vec(UInt(seqBits bits), members))
  private val states = Reg(Vec(Vec(UInt(n bits), lanes), members))
  private val idle = Reg(UInt(log2Up(wait + 1) bits)) init (0)
  private val open = count =/= 0
  io.output.valid := open && (count === members || idle === wait ||
    (io.input.valid && io.input.arityIdx =/= arity))
  io.output.arityIdx := arity
  io.output.live := live
  io.output.seq := seqs
  io.output.state := states
  io.input.ready := !io.output.valid && count < members
  when(open && idle =/= wait) { idle := idle + 1 }
  when(io.input.fire) {
    for (g <- 0 until members) when(count === g) {
      seqs(g) := io.input.seq; states(g) := io.input.state; live(g) := True
    }
    arity := io.input.arityIdx
    count := count + 1
    idle := 0
  }
  when(io.output.fire) { count := 0; live := 0; idle := 0 }
}

/** `engines` [[PoseidonGroupEngine]]s behind a reorder buffer: jobs in, digests out in job order; each pair of
  * engines shares one copy of the constant tables ([[PoseidonConstRom]]).
  *
  * A job takes the next reorder-buffer entry; a good one joins a group of its arity ([[PoseidonGroupBuilder]]) that
  * goes to the first engine with a free ring position, a rejected one (error != 0) is complete at once.  Each member
  * of each engine writes digests into a bank of its own (no write conflicts), the head entry leaves when complete.
  * Input stalls only when every entry is in use.
  */
class PoseidonCore(val cfg: PoseidonConfig) extends Component {
  private val f = cfg.field
  private val n = f.width
  private val G = cfg.members
  val constants: Seq[PoseidonConstants] = cfg.arities.map(a => PoseidonConstants(a, f.p))
  /** one group program per arity ([[PoseidonSchedule]]), products placed on the slots by affinity
    * ([[PoseidonSlotAffinity]]: the programs share the datapath, so they are placed together) */
  val programs: Seq[Seq[GroupBeat]] = PoseidonSlotAffinity.assign(
    constants.map(c => PoseidonSchedule.compile(c, f, cfg.optimized, cfg.shape)), cfg.multipliers)
  val arityIdxBits: Int = log2Up(cfg.arities.size) max 1
  private val seqBits = 16

  val io = new Bundle {
    val input = slave(Stream(CoreJob(arityIdxBits, cfg.lanes, n)))
    val output = master(Stream(CoreResult(n)))
    val inFlight = out(UInt(16 bits))
  }

  /** the constant multipliers' tables (the constants each product slot meets), one ROM per pair of engines */
  val tables: ConstTables = ConstTables.forGroups(f, cfg.arith, programs, cfg.multipliers)
  val roms: Seq[PoseidonConstRom] = (0 until cfg.engines by 2).map(e => new PoseidonConstRom(tables, 2 min (cfg.engines - e)))
  val engines: Seq[PoseidonGroupEngine] =
    Seq.fill(cfg.engines)(new PoseidonGroupEngine(cfg, programs, seqBits, tables, roms.head.latency))
  for ((e, i) <- engines.zipWithIndex) {
    roms(i / 2).io.idx(i % 2) := e.io.constIdx
    e.io.constWords := roms(i / 2).io.words(i % 2)
  }
  val slots: Int = engines.head.slots
  /** hashes the rings hold when full */
  val ringHashes: Int = cfg.engines * slots * G
  val robDepth: Int = if (cfg.robDepth > 0) cfg.robDepth else 1 << log2Up(ringHashes + 16 + 2 * G)
  require(robDepth <= (1 << seqBits))
  val beatsPerGroup: Seq[Int] = programs.map(_.size)
  /** steady-state cycles per hash with every ring position full of full groups */
  val cyclesPerHash: Seq[Double] = beatsPerGroup.map(_.toDouble / (G * cfg.engines))
  /** cycles from a group entering an engine to its last digest leaving it */
  val engineLatency: Seq[Int] = beatsPerGroup.map(b => (b - 1) * slots + engines.head.sE + 1)
  val dspTiles: Int = engines.map(_.dspTiles).sum
  /** modular products one hash of each arity takes on this hardware: 3 per S-box evaluation and every constant
    * product issued (the last round computes only the digest's column) */
  val productsPerHash: Seq[Int] = constants.map(c => PoseidonProgram.beats(c, f, cfg.optimized, Int.MaxValue)
    .map(b => (if (b.sbox) 3 else 0) + b.products.size).sum)
  /** cycles a group waits for more jobs of its arity once the input stops */
  val groupWait: Int = 32

  private val idxBits = log2Up(robDepth)
  private val alloc = Reg(UInt(idxBits + 1 bits)) init (0)
  private val head = Reg(UInt(idxBits + 1 bits)) init (0)
  private val used = alloc - head
  private val full = used === robDepth
  io.inFlight := used.resize(16)

  private val nBanks = cfg.engines * G
  private val banks = Seq.fill(nBanks)(Mem(UInt(n bits), robDepth))
  /** Completion without a register file of many writers: every writer (result bank b, and writer nBanks, the input
    * for rejected frames) flips its own bit of an entry when it completes it, and the retire port keeps a snapshot of
    * the writers' bits per entry.  An entry is complete when exactly one writer's bit differs from the snapshot (each
    * entry completes once per lap of the buffer), and that writer is the bank to read.  After a reset the snapshot
    * is copied from the toggles, one entry per cycle, before the first job is taken (`robDepth` cycles). */
  private val nWriters = nBanks + 1
  private val toggles = Seq.fill(nWriters)(Mem(Bool(), robDepth) init (Seq.fill(robDepth)(False)))
  private val snapshot = Mem(Bits(nWriters bits), robDepth) init (Seq.fill(robDepth)(B(0, nWriters bits)))
  private val clearing = RegInit(True)
  private val clearIdx = Reg(UInt(idxBits bits)) init (0)
  when(clearing) {
    clearIdx := clearIdx + 1
    when(clearIdx === robDepth - 1) { clearing := False }
  }
  private val errorOf = Mem(Bits(PoseidonErrors.bits bits), robDepth)
  private def complete(w: Int, idx: UInt, valid: Bool): Unit =
    toggles(w).write(idx, !toggles(w).readAsync(idx), enable = valid)

  // ---- input: entry allocation; good jobs form groups for an engine
  private val toEngines = Stream(EngineJob(arityIdxBits, seqBits, cfg.lanes, n))
  private val builder = new PoseidonGroupBuilder(arityIdxBits, seqBits, G, cfg.lanes, n, groupWait)
  builder.io.input << toEngines.queue(2)
  private val groups = builder.io.output
  private val isBad = io.input.error =/= 0
  io.input.ready := !clearing && !full && (isBad || toEngines.ready)
  toEngines.valid := io.input.valid && !clearing && !full && !isBad
  toEngines.arityIdx := io.input.arityIdx
  toEngines.state := io.input.state
  toEngines.seq := alloc(idxBits - 1 downto 0).resize(seqBits)
  private val allocIdx = alloc(idxBits - 1 downto 0)
  when(io.input.fire) { alloc := alloc + 1 }
  complete(nBanks, allocIdx, io.input.fire && isBad)
  errorOf.write(allocIdx, io.input.error, enable = io.input.fire && isBad)

  // ---- dispatch: the first engine with a free ring position takes the group
  private val grant = OHMasking.first(Cat(engines.map(_.io.insert.ready)))
  for ((e, g) <- engines.zip(grant.asBools)) {
    e.io.insert.valid := groups.valid && g
    e.io.insert.payload := groups.payload
  }
  groups.ready := engines.map(_.io.insert.ready).orR

  // ---- results: bank e * members + g for member g of engine e
  for ((e, ei) <- engines.zipWithIndex; (r, g) <- e.io.result.zipWithIndex) {
    val b = ei * G + g
    val idx = r.seq(idxBits - 1 downto 0)
    banks(b).write(idx, r.digest, enable = r.valid)
    complete(b, idx, r.valid)
  }

  // ---- output in order: the head entry once complete, read from the bank that completed it
  private val headIdx = head(idxBits - 1 downto 0)
  private val lookIdx = clearing ? clearIdx | headIdx
  private val seen = snapshot.readAsync(lookIdx)
  private val changed = Cat(toggles.map(_.readAsync(lookIdx))) ^ seen
  private val outValid = RegInit(False)
  private val outError = Reg(Bits(PoseidonErrors.bits bits))
  private val outBank = Reg(UInt(log2Up(nBanks) max 1 bits))
  private val take = !outValid || io.output.ready
  private val headReady = !clearing && changed.orR && head =/= alloc
  when(take) {
    outValid := headReady
    outError := Mux(changed(nBanks), errorOf.readAsync(headIdx), B(0, PoseidonErrors.bits bits))
    outBank := OHToUInt(changed.resize(nBanks)).resized
  }
  // registered write port: the retired entry is read again only a lap of the buffer later (and the port stays a
  // dual-port LUT RAM, the read address being the next entry's)
  snapshot.write(RegNext(lookIdx), RegNext(seen ^ changed), enable = RegNext(clearing || (take && headReady), False))
  when(take && headReady) { head := head + 1 }
  private val read = Vec(banks.map(_.readSync(headIdx, enable = take)))
  io.output.valid := outValid
  io.output.error := outError
  private val digest = if (nBanks == 1) read(0) else read(outBank.resize(log2Up(nBanks)))
  io.output.digest := Mux(outError =/= 0, U(0, n bits), digest)
}
