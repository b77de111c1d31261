package zkspinal.poseidon

import spinal.core._
import spinal.lib._

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
object PoseidonErrors {
  val bits = 3
  /** an element (or the header's tag) is not below p */
  val range = 1
  /** the arity (frame length, or the header's arity) is not built in */
  val arity = 2
  /** the frame is longer than the widest arity, or a header frame has no element or more than its arity */
  val length = 4
}

/** `engines` [[PoseidonEngine]]s behind a reorder buffer: jobs in, digests out in job order; each pair of engines
  * shares one copy of the constant tables ([[PoseidonConstRom]]).
  *
  * A job takes the next reorder-buffer entry; a good one goes to the first engine with a free slot, a rejected one
  * (error != 0) is complete at once.  Engines write digests into their own bank of the buffer (no write
  * conflicts), the head entry leaves when complete.  Input stalls only when every entry is in use.
  */
class PoseidonCore(val cfg: PoseidonConfig) extends Component {
  private val f = cfg.field
  private val n = f.width
  val constants: Seq[PoseidonConstants] = cfg.arities.map(a => PoseidonConstants(a, f.p))
  val programs: Seq[Seq[Beat]] = constants.map(c => PoseidonProgram.beats(c, f, cfg.optimized, cfg.multipliers))
  val arityIdxBits: Int = log2Up(cfg.arities.size) max 1
  private val seqBits = 16

  val io = new Bundle {
    val input = slave(Stream(CoreJob(arityIdxBits, cfg.lanes, n)))
    val output = master(Stream(CoreResult(n)))
    val inFlight = out(UInt(16 bits))
  }

  /** the constant multipliers' tables, one ROM per pair of engines (the two ports of every block RAM) */
  val tables: ConstTables = ConstTables(f, cfg.arith, programs.flatten, cfg.multipliers)
  val roms: Seq[PoseidonConstRom] = (0 until cfg.engines by 2).map(e => new PoseidonConstRom(tables, 2 min (cfg.engines - e)))
  val engines: Seq[PoseidonEngine] =
    Seq.fill(cfg.engines)(new PoseidonEngine(cfg, programs, seqBits, tables, roms.head.latency))
  for ((e, i) <- engines.zipWithIndex) {
    roms(i / 2).io.idx(i % 2) := e.io.constIdx
    e.io.constWords := roms(i / 2).io.words(i % 2)
  }
  val slots: Int = engines.head.slots
  val robDepth: Int = if (cfg.robDepth > 0) cfg.robDepth else 1 << log2Up(cfg.engines * slots + 16)
  require(robDepth <= (1 << seqBits))
  val beatsPerHash: Seq[Int] = programs.map(_.size)
  /** steady-state cycles per hash with every ring full */
  val cyclesPerHash: Seq[Double] = beatsPerHash.map(_.toDouble / cfg.engines)
  /** cycles from a job entering an engine to its digest leaving it */
  val engineLatency: Seq[Int] = beatsPerHash.map(b => (b - 1) * slots + engines.head.sE + 1)
  val dspTiles: Int = engines.map(_.dspTiles).sum

  private val idxBits = log2Up(robDepth)
  private val alloc = Reg(UInt(idxBits + 1 bits)) init (0)
  private val head = Reg(UInt(idxBits + 1 bits)) init (0)
  private val used = alloc - head
  private val full = used === robDepth
  io.inFlight := used.resize(16)

  private val complete = Vec(Reg(Bool()) init (False), robDepth)
  private val errorOf = Vec(Reg(Bits(PoseidonErrors.bits bits)), robDepth)
  private val bankBits = log2Up(cfg.engines) max 1
  private val bankOf = Vec(Reg(UInt(bankBits bits)), robDepth)
  private val banks = Seq.fill(cfg.engines)(Mem(UInt(n bits), robDepth))

  // ---- input: entry allocation; good jobs queue for an engine
  private val toEngines = Stream(EngineJob(arityIdxBits, seqBits, cfg.lanes, n))
  private val queue = toEngines.queue(2)
  private val isBad = io.input.error =/= 0
  io.input.ready := !full && (isBad || toEngines.ready)
  toEngines.valid := io.input.valid && !full && !isBad
  toEngines.arityIdx := io.input.arityIdx
  toEngines.state := io.input.state
  toEngines.seq := alloc(idxBits - 1 downto 0).resize(seqBits)
  private val allocIdx = alloc(idxBits - 1 downto 0)
  when(io.input.fire) {
    alloc := alloc + 1
    when(isBad) {
      complete(allocIdx) := True
      errorOf(allocIdx) := io.input.error
    }
  }

  // ---- dispatch: the first engine with a free slot takes the job
  private val grant = OHMasking.first(Cat(engines.map(_.io.insert.ready)))
  for ((e, g) <- engines.zip(grant.asBools)) {
    e.io.insert.valid := queue.valid && g
    e.io.insert.payload := queue.payload
  }
  queue.ready := engines.map(_.io.insert.ready).orR

  // ---- results
  for ((e, b) <- engines.zipWithIndex) {
    val idx = e.io.result.seq(idxBits - 1 downto 0)
    banks(b).write(idx, e.io.result.digest, enable = e.io.result.valid)
    when(e.io.result.valid) {
      complete(idx) := True
      errorOf(idx) := B(0, PoseidonErrors.bits bits)
      bankOf(idx) := U(b, bankBits bits)
    }
  }

  // ---- output in order: the head entry once complete, read from its bank
  private val headIdx = head(idxBits - 1 downto 0)
  private val outValid = RegInit(False)
  private val outError = Reg(Bits(PoseidonErrors.bits bits))
  private val outBank = Reg(UInt(bankBits bits))
  private val take = !outValid || io.output.ready
  private val headReady = complete(headIdx) && head =/= alloc
  when(take) {
    outValid := headReady
    outError := errorOf(headIdx)
    outBank := bankOf(headIdx)
  }
  when(take && headReady) {
    complete(headIdx) := False
    head := head + 1
  }
  private val read = Vec(banks.map(_.readSync(headIdx, enable = take)))
  io.output.valid := outValid
  io.output.error := outError
  private val digest = if (cfg.engines == 1) read(0) else read(outBank.resize(log2Up(cfg.engines)))
  io.output.digest := Mux(outError =/= 0, U(0, n bits), digest)
}
