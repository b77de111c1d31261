package zkspinal.poseidon

import spinal.core._
import spinal.lib._
import zkspinal.field._

case class EngineJob(arityIdxBits: Int, seqBits: Int, lanes: Int, n: Int) extends Bundle {
  val arityIdx = UInt(arityIdxBits bits)
  val seq = UInt(seqBits bits)
  val state = Vec(UInt(n bits), lanes)
}

case class EngineResult(seqBits: Int, n: Int) extends Bundle {
  val seq = UInt(seqBits bits)
  val digest = UInt(n bits)
}

/** A ring of `slots` hash contexts around one fully pipelined beat datapath (one beat per cycle).
  *
  * Every slot of the ring holds one hash; it executes one beat ([[Beat]]) per revolution, so a hash of B beats
  * takes B * slots cycles and a full ring finishes one hash per B cycles.  The datapath, stage by stage:
  *   0        program ROM S and the state (old) read at the slot's address
  *   1        e = old[sLane] + pre                                         (ModAdd)
  *   sA       x^2, x^4, x^5 (three Montgomery multipliers), or e          (sbox)
  *   sB+1     y = that + post                                              (ModAdd; ROM P read at sB)
  *   sY+1     operand_m = fromOld_m ? old[src_m] : y                       (ROM M and old read at sY);
  *            idx_m leaves for the constant tables ([[PoseidonConstRom]], outside: two engines share them)
  *   sK       the expanded constant c_m arrives (sK = sY + 1 + the tables' latency)
  *   sP       product_m = operand_m * c_m                                   ([[ExpandedConstMul]])
  *   sP+1..sE lane sums: lane 0 by a ModAdd tree over every product routed to it, lanes >= 1 one ModAdd
  *   sE       acc and (on commit) old written back; a finished hash leaves, a new one may take its slot
  * The state lives in two memories of `slots` words (old, acc: lanes x n bits), addressed by ring position; the
  * ring itself only carries valid, pc (program address) and seq.  slots = sE + 1 follows from the latencies.
  */
class PoseidonEngine(val cfg: PoseidonConfig, val programs: Seq[Seq[Beat]], val seqBits: Int, val tables: ConstTables,
                     romLatency: Int) extends Component {
  private val f = cfg.field
  private val n = f.width
  private val lanes = cfg.lanes
  private val C = cfg.multipliers
  val layout: BeatLayout = BeatLayout(lanes, n, C, tables.idxBits)
  private val K = tables.digits
  private val flat = programs.flatten
  val bases: Seq[Int] = programs.scanLeft(0)(_ + _.size).init
  private val pcBits = log2Up(flat.size) max 1
  private val arityIdxBits = log2Up(programs.size) max 1

  val io = new Bundle {
    val insert = slave(Stream(EngineJob(arityIdxBits, seqBits, lanes, n)))
    val result = master(Flow(EngineResult(seqBits, n)))
    val hashes = out(UInt(16 bits)) // hashes in the ring
    /** constant table lookups: an index per multiplier at stage sY + 1, its expanded constant back at sK */
    val constIdx = out(Vec(UInt(tables.idxBits bits), C))
    val constWords = in(Vec(Vec(UInt(n bits), K), C))
  }

  // ---- arithmetic units first: their latencies fix the stage numbers
  private def run(core: FlowCore, ops: UInt*): UInt = {
    core.io.input.valid := True
    for ((o, i) <- ops.zipWithIndex) core.io.input.payload(i) := o
    core.io.output.payload
  }
  private val sboxMuls = Seq.fill(3)(MontgomeryMulModel.make(f, cfg.arith, cfg.mulModel))
  private val constMuls = Seq.fill(C)(MontgomeryMulModel.makeExpanded(f, cfg.arith, cfg.mulModel))
  private val addPre = new ModAdd(f, cfg.arith)
  private val addPost = new ModAdd(f, cfg.arith)
  private val treeLevels = log2Up(C + 1)
  private val laneAdds = Seq.fill(lanes - 1)(new ModAdd(f, cfg.arith))
  private val lane0Adds = Seq.fill(C)(new ModAdd(f, cfg.arith)) // a tree over C + 1 terms has C adders
  val Lm: Int = sboxMuls.head.latency
  val Lc: Int = constMuls.head.latency
  val La: Int = addPre.latency

  val sA: Int = 1 + La
  val sB: Int = sA + 3 * Lm
  val sY: Int = sB + 1 + La
  val sK: Int = sY + 1 + romLatency
  val sP: Int = sK + Lc
  val sE: Int = sP + 1 + treeLevels * La
  /** ring slots = hashes in flight = cycles per revolution */
  val slots: Int = sE + 1
  /** beats of one hash per arity (in the order of cfg.arities) */
  val beatsPerHash: Seq[Int] = programs.map(_.size)
  val dspTiles: Int = (sboxMuls ++ constMuls).map(_.dspTiles).sum

  // ---- ring bookkeeping: valid / pc / seq circulate, the slot address is the ring position
  private val valid0 = RegInit(False)
  private val pc0 = Reg(UInt(pcBits bits))
  private val seq0 = Reg(UInt(seqBits bits))
  private val slotCnt = Reg(UInt(log2Up(slots) bits)) init (0)
  slotCnt := Mux(slotCnt === slots - 1, U(0), slotCnt + 1)
  /** memory address of the context at stage k (it passed stage 0 k cycles ago): (slotCnt - k) mod slots, kept in a
    * wrap counter of its own that starts at -k mod slots (one increment per path, not an adder and a compare in
    * series) */
  private val stageAddrs = scala.collection.mutable.Map[Int, UInt]()
  private def addrAt(k: Int): UInt = if (k % slots == 0) slotCnt else stageAddrs.getOrElseUpdate(k % slots, {
    val a = Reg(UInt(slotCnt.getWidth bits)) init (slots - k % slots)
    a := Mux(a === slots - 1, U(0), a + 1)
    a.setName(s"slotAddr_${k % slots}")
  })
  private def pcAt(k: Int): UInt = Delay(pc0, k)

  private val romS = Mem(Bits(layout.widthS bits), flat.size)
  romS.initBigInt(flat.map(layout.encodeS))
  private val romP = Mem(Bits(layout.widthP bits), flat.size)
  romP.initBigInt(flat.map(layout.encodeP))
  private val romM = Mem(Bits(layout.widthM bits), flat.size)
  romM.initBigInt(flat.map(layout.encodeM(_, tables)))
  private val oldMem = Mem(Vec(UInt(n bits), lanes), slots)
  private val accMem = Mem(Vec(UInt(n bits), lanes), slots)

  // ---- stage 1: S-box operand
  private val s1 = layout.decodeS(romS.readSync(pc0))
  private val oldA = oldMem.readSync(addrAt(0))
  private val ePre = run(addPre, oldA(s1.sLane), s1.pre) // stage sA
  // optimized programs raise every beat's S-box: then the flag is a constant, not a delay line of sB - 1 registers
  private val sboxEn = if (flat.forall(_.sbox)) True else Delay(s1.sbox, sB - 1)
  private val x2 = run(sboxMuls(0), ePre, ePre)
  private val x4 = run(sboxMuls(1), x2, x2)
  private val x5 = run(sboxMuls(2), x4, Delay(ePre, 2 * Lm))
  private val y0 = RegNext(Mux(sboxEn, x5, Delay(ePre, 3 * Lm))) // stage sB + 1
  private val post = romP.readSync(pcAt(sB)).asUInt
  private val y = run(addPost, y0, post) // stage sY

  // ---- multipliers
  private val m = layout.decodeM(romM.readSync(pcAt(sY))) // stage sY + 1
  private val oldB = oldMem.readSync(addrAt(sY))
  private val yReg = RegNext(y)
  io.constIdx := m.idx
  private val products = (0 until C).map { i =>
    val operand = Delay(Mux(m.fromOld(i), oldB(m.src(i)), yReg), romLatency) // stage sK
    run(constMuls(i), (operand +: io.constWords(i).toSeq): _*) // stage sP
  }
  /** the control fields the lane sums and the write back need (the constants stay behind) */
  case class LaneCtrl() extends Bundle {
    val done, commit, partial, first = Bool()
    val en = Vec(Bool(), C)
    val dst = Vec(UInt(layout.laneBits bits), C)
  }
  private val mCtrl = LaneCtrl()
  mCtrl.assignSomeByName(m)
  private val mP = Delay(mCtrl, sP - (sY + 1)) // stage sP

  // ---- lane sums
  private val accR = accMem.readSync(addrAt(sP - 1))
  private val oldC = oldMem.readSync(addrAt(sP - 1))
  private def routed(lane: Int, i: Int): Bool = mP.en(i) && mP.dst(i) === lane
  private val base = Vec((0 until lanes).map { j =>
    val init = if (j == 0) U(0, n bits) else Mux(mP.partial, oldC(j), U(0, n bits))
    RegNext(Mux(mP.first, init, accR(j)))
  }) // stage sP + 1
  private val lane0Terms = base(0) +: (0 until C).map(i => RegNext(Mux(routed(0, i), products(i), U(0, n bits))))
  private var adderIdx = 0
  private def tree(terms: Seq[UInt]): UInt = if (terms.size == 1) terms.head else {
    val next = terms.grouped(2).map {
      case Seq(a, b) => val s = run(lane0Adds(adderIdx), a, b); adderIdx += 1; s
      case Seq(a)    => Delay(a, La)
    }.toSeq
    tree(next)
  }
  private val lane0 = tree(lane0Terms)
  require(adderIdx == C)
  private val laneOthers = (1 until lanes).map { j =>
    val prod = RegNext((0 until C).map(i => Mux(routed(j, i), products(i), U(0, n bits))).reduce(_ | _))
    Delay(run(laneAdds(j - 1), base(j), prod), (treeLevels - 1) * La)
  }
  private val accNew = Vec(lane0 +: laneOthers) // stage sE
  private val ctrlE = Delay(mP, sE - sP)
  private val validE = Delay(valid0, sE, init = False)
  private val pcE = pcAt(sE)
  private val seqE = Delay(seq0, sE)
  private val addrE = addrAt(sE)

  // ---- write back, retire, insert
  private val doneE = validE && ctrlE.done
  io.insert.ready := !validE || ctrlE.done
  accMem.write(addrE, accNew, enable = validE)
  private val commitState = Mux(io.insert.fire, io.insert.state, accNew)
  oldMem.write(addrE, commitState, enable = io.insert.fire || (validE && ctrlE.commit))
  io.result.valid := doneE
  io.result.seq := seqE
  io.result.digest := accNew(1)
  private val baseRom = Vec(bases.map(b => U(b, pcBits bits)))
  valid0 := io.insert.fire || (validE && !ctrlE.done)
  pc0 := Mux(io.insert.fire, baseRom(io.insert.arityIdx), pcE + 1)
  seq0 := Mux(io.insert.fire, io.insert.seq, seqE)
  private val inRing = Reg(UInt(16 bits)) init (0)
  inRing := inRing + U(io.insert.fire).resize(16) - U(doneE).resize(16)
  io.hashes := inRing
}
