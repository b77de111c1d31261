package zkspinal.poseidon

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi.Axi4SpecRenamer
import spinal.lib.bus.amba4.axilite._
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}
import zkspinal.contract.{Contract, FieldPack, Pos}
import zkspinal.field._
import zkspinal.axi.AxiClocked
import zkspinal.contract.{CoreIdentity, CoreKind, IdentifiedCore}

/** Register map of [[PoseidonAxis]] (AXI4-Lite, 32-bit registers, byte addresses; unmapped addresses read 0). */
object PoseidonRegs extends Contract("poseidon", "PoseidonAxis status registers (AXI4-Lite, 32-bit, byte offsets; " +
    "unmapped offsets read 0)", "hw/src/zkspinal/poseidon/PoseidonAxis.scala") {
  val info = reg("info", 0x00, "read: [15:0] built-in arities (bit a = arity a), [23:16] engines, " +
    "[31:24] constant multipliers per engine")
  val info2 = reg("info2", 0x04, "read: [15:0] ring slots per engine, [30:16] reorder-buffer entries, " +
    "[31] optimized schedule")
  val infoArities = field("arities", "info", 0, 16, "built-in arities: bit a = arity a")
  val infoEngines = field("engines", "info", 16, 8, "engines")
  val infoMultipliers = field("multipliers", "info", 24, 8, "constant multipliers per engine")
  val info2Slots = field("slots", "info2", 0, 16, "ring slots per engine")
  val info2Rob = field("rob_entries", "info2", 16, 15, "reorder-buffer entries")
  val info2Optimized = field("optimized", "info2", 31, 1, "the optimized (sparse-matrix) schedule")
  val control = reg("control", 0x08, "write bit 0 = 1: clear every counter below", host = false)
  val framesIn = reg("frames_in", 0x10, "frames accepted (good and rejected)")
  val digestsOut = reg("digests_out", 0x14, "output beats with a digest (TUSER = 0)")
  val flaggedOut = reg("flagged_out", 0x18, "output beats of rejected frames (TUSER != 0)")
  val errRange = reg("err_range", 0x1C, "frames with an element (or header tag) >= p")
  val errArity = reg("err_arity", 0x20, "frames whose arity is not built in")
  val errLength = reg("err_length", 0x24, "frames too long, or header frames with no element or more than their arity")
  val inFlight = reg("in_flight", 0x28, "frames accepted whose output beat has not left yet (live)")
  val cycles = reg("cycles", 0x2C, "clock cycles since the last clear")
}

/** The AXI4-Stream beats of [[PoseidonAxis]] for a field of n bits (n <= MAX_N): TDATA one field element per beat
  * (canonical, little-endian), TUSER 32 bits. */
object PoseidonFrame extends Contract("poseidon_frame", "PoseidonAxis stream beats (TDATA, TUSER)",
    "hw/src/zkspinal/poseidon/PoseidonAxis.scala") {
  import Pos._
  val beatBits = 256
  val userBits = 32
  val beat = record("beat", beatBits, beatBits, beatBits - 1, "TDATA of a beat in or out: one field element; in a stream " +
    "the host sends many frames in one DMA write, the top bit marks a frame's last element (InbandLast)")
  val element = recordField("element", beat, 0, N, "the field element, canonical (< p); out: the digest, or 0 " +
    "for a rejected frame")
  val last = recordField("last", beat, beatBits - 1, 1, "in-band end of frame: set on a frame's last element (free: " +
    "elements are < 2^n); InbandLast clears it and sets TLAST")
  val inUser = record("in_user", userBits, userBits, beat.maxN, "TUSER of an input frame's first beat (ignored on the others)")
  val arity = recordField("arity", inUser, 0, 8, "0: a MerkleTree hash (arity = frame length, tag 2^arity - 1); " +
    "A != 0: a header frame of arity A whose first beat is the domain tag")
  val outUser = record("out_user", userBits, userBits, beat.maxN, "TUSER of an output beat")
  val error = recordField("error", outUser, 0, PoseidonErrors.bits, "0 for a digest; for a rejected frame the OR " +
    "of the PoseidonErrors codes")
}

/** Poseidon over AXI4-Stream (256-bit beats) with an AXI4-Lite status slave.
  *
  * Input: one frame per hash, one field element per beat, canonical (not Montgomery form), little-endian in
  * TDATA; TLAST on the last element.  TKEEP is not used (every beat carries 32 bytes).
  *   TUSER (32 bits) bits 7..0 on the first beat = 0: MerkleTree hash.  The arity is the frame length, the domain tag 2^arity - 1 is
  *     inserted by the hardware.
  *   TUSER = A != 0 on the first beat: a header frame.  The first beat carries the domain tag (any field element:
  *     ConstantLength(L) = L * 2^64, Custom(id) = id * 2^40, Encryption 2^32, Sponge 0), the hash has arity A,
  *     and the 1..A elements that follow are zero-padded to A (ConstantLength sends L elements, the others A).
  *   TUSER of the other beats is ignored.
  * Output: one beat per input frame, in input order, TLAST set: TDATA = the digest (canonical, little-endian),
  *   TUSER = 0; or, for a rejected frame, TDATA = 0 and TUSER = the OR of PoseidonErrors codes:
  *   1 an element or the tag >= p, 2 the arity is not built in, 4 the frame has more elements than the widest
  *   arity, or a header frame has no element or more than A.
  *   A rejected frame is consumed up to its TLAST, counted, and answered by its flagged beat, so every later
  *   frame keeps its place; nothing stalls.
  * Montgomery conversion: none is needed at run time: the Montgomery factors are folded into the ROM constants
  * (see [[PoseidonProgram]]), so canonical values enter and leave the multipliers' domain for free.
  */
class PoseidonAxis(val cfg: PoseidonConfig) extends Component with AxiClocked with IdentifiedCore {
  val identity = CoreIdentity(CoreKind.Poseidon, cfg.name)
  identityOutputs()
  private val axisCfg = Axi4StreamConfig(dataWidth = PoseidonFrame.beat.beatBytes, useLast = true, useUser = true,
    userWidth = PoseidonFrame.userBits / PoseidonFrame.beat.beatBytes) // TUSER: userWidth bits per byte
  val s_axis = slave(Axi4Stream(axisCfg))
  val m_axis = master(Axi4Stream(axisCfg))
  val s_axil = slave(AxiLite4(AxiLite4Config(addressWidth = 8, dataWidth = 32)))
  Axi4SpecRenamer(s_axis)
  Axi4SpecRenamer(m_axis)
  AxiLite4SpecRenamer(s_axil)

  val core: PoseidonCore = axiDomain(new PoseidonCore(cfg))
  private val f = cfg.field
  private val n = f.width
  private val lanes = cfg.lanes
  require(n <= PoseidonFrame.beat.maxN && PoseidonFrame.error.lsb.at(n) == 0, "PoseidonFrame: the element and the error bits")

  val logic = new ClockingArea(axiDomain) {
    // ---- range check (x < p: x - p borrows) in a short pipeline; credits keep its FIFO from overflowing
    case class Beat() extends Bundle {
      val data = UInt(PoseidonFrame.beatBits bits)
      val user = Bits(PoseidonFrame.arity.width.at(n) bits)
      val last = Bool()
      val inRange = Bool()
    }
    // the beat registered (stage 1), then beside its range check until the check's result
    val inData = Timed(RegNext(s_axis.data.asUInt), 1)
    val inUser = Timed(RegNext(PoseidonFrame.arity.of(s_axis.user, n)), 1)
    val inLast = Timed(RegNext(s_axis.last), 1)
    val inValid = Timed(RegNext(s_axis.fire) init (False), 1)
    val diff = WideAdder.addConst(inData.map(_.resize(PoseidonFrame.beatBits + 1)), -f.p, PoseidonFrame.beatBits + 1, cfg.arith)
    val checkLatency = diff.at
    val fifoDepth = checkLatency + 3
    val fifo = StreamFifo(Beat(), fifoDepth)
    fifo.io.push.valid := inValid.to(checkLatency, init = False)
    fifo.io.push.data := inData.to(checkLatency)
    fifo.io.push.user := inUser.to(checkLatency)
    fifo.io.push.last := inLast.to(checkLatency)
    fifo.io.push.inRange := diff.value.msb
    val pending = Reg(UInt(log2Up(fifoDepth + 1) bits)) init (0)
    pending := pending + U(s_axis.fire) - U(fifo.io.pop.fire)
    s_axis.ready := pending < fifoDepth

    // ---- frame assembly
    val cntBits = log2Up(lanes + 1)
    val buf = Vec.fill(lanes)(Reg(UInt(n bits)))
    val inFrame = RegInit(False)
    val header = Reg(Bool())
    val declared = Reg(UInt(PoseidonFrame.arity.width.at(n) bits))
    val count = Reg(UInt(cntBits bits)) // elements after the tag, saturating at `lanes` (= too many)
    val rangeErr = Reg(Bool())
    val jobValid = RegInit(False)
    val pop = fifo.io.pop
    pop.ready := !jobValid
    when(pop.fire) {
      val first = !inFrame
      val value = pop.data.resize(n)
      val lane = Mux(first, U(1, cntBits bits), count + 1)
      val isHeader = first && pop.user =/= 0
      when(first) {
        header := isHeader
        declared := pop.user.asUInt
        rangeErr := !pop.inRange
        for (l <- 0 until lanes) buf(l) := 0
        when(isHeader) { buf(0) := value; count := 0 } otherwise { buf(1) := value; count := 1 }
      } otherwise {
        rangeErr := rangeErr || !pop.inRange
        for (l <- 1 until lanes) when(lane === l) { buf(l) := value }
        when(count =/= lanes) { count := count + 1 }
      }
      inFrame := !pop.last
      jobValid := pop.last
    }

    // the finished frame: arity, tag, error code
    val arityNow = Mux(header, declared, count.resize(8))
    val hits = cfg.arities.map(a => arityNow === a)
    val built = hits.reduce(_ || _)
    val arityIdx = OHToUInt(Cat(hits)).resize(core.arityIdxBits) // Cat of a Seq: first element is the LSB
    val tooLong = count === lanes || (header && (count === 0 || count.resize(8) > declared))
    val merkleTag = Vec((0 until lanes + 1).map(a => U((BigInt(1) << a) - 1, n bits)))(count)
    val err = Bits(PoseidonErrors.bits bits)
    err := 0
    when(rangeErr) { err(0) := True }
    when(!built) { err(1) := True }
    when(tooLong) { err(2) := True }
    core.io.input.valid := jobValid
    core.io.input.arityIdx := arityIdx
    core.io.input.state := buf
    when(!header) { core.io.input.state(0) := merkleTag }
    core.io.input.error := err
    when(core.io.input.fire) { jobValid := False }

    // ---- output
    m_axis.valid := core.io.output.valid
    m_axis.data := core.io.output.digest.resize(PoseidonFrame.beatBits).asBits
    m_axis.user := core.io.output.error.resize(m_axis.user.getWidth)
    m_axis.last := True
    core.io.output.ready := m_axis.ready

    // ---- status
    val bus = AxiLite4SlaveFactory(s_axil)
    val writeData = Bits(32 bits)
    bus.nonStopWrite(writeData)
    val clear = False
    bus.onWrite(PoseidonRegs.control) { when(writeData(0)) { clear := True } }
    def counter(address: Int, inc: Bool): UInt = {
      val c = Reg(UInt(32 bits)) init (0)
      when(clear) { c := 0 } elsewhen (inc) { c := c + 1 }
      bus.read(c, address)
      c
    }
    val inFire = core.io.input.fire
    val outFire = m_axis.fire
    counter(PoseidonRegs.framesIn, inFire)
    counter(PoseidonRegs.digestsOut, outFire && core.io.output.error === 0)
    counter(PoseidonRegs.flaggedOut, outFire && core.io.output.error =/= 0)
    counter(PoseidonRegs.errRange, inFire && err(0))
    counter(PoseidonRegs.errArity, inFire && err(1))
    counter(PoseidonRegs.errLength, inFire && err(2))
    counter(PoseidonRegs.cycles, True)
    bus.read(core.io.inFlight.resize(32), PoseidonRegs.inFlight)
    val arityMask = cfg.arities.map(a => BigInt(1) << a).sum
    import PoseidonRegs._
    bus.read(FieldPack(32, FieldPack.const(infoMultipliers, cfg.multipliers), FieldPack.const(infoEngines, cfg.engines),
      FieldPack.const(infoArities, arityMask)), PoseidonRegs.info)
    bus.read(FieldPack(32, FieldPack.const(info2Optimized, if (cfg.optimized) 1 else 0),
      FieldPack.const(info2Rob, core.robDepth), FieldPack.const(info2Slots, core.slots)), PoseidonRegs.info2)
  }
}
