package zkspinal.poseidon

import zkspinal.lib.Timed

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

case class GroupJob(arityIdxBits: Int, seqBits: Int, members: Int, lanes: Int, n: Int) extends Bundle {
  val arityIdx = UInt(arityIdxBits bits)
  /** members that carry a hash (a group may be cut short when the input runs dry or changes arity) */
  val live = Bits(members bits)
  val seq = Vec(UInt(seqBits bits), members)
  val state = Vec(Vec(UInt(n bits), lanes), members)
}

/** What the datapath of a [[PoseidonGroupEngine]] needs to know of its programs, computed at elaboration: the
  * sources each product slot reads, the slots each lane sum takes, and the bit layout of the program words. */
case class GroupPlan(programs: Seq[Seq[GroupBeat]], members: Int, units: Int, slots: Int, lanes: Int, n: Int,
                     idxBits: Int) {
  private val flat = programs.flatten
  val laneBits: Int = log2Up(lanes) max 1
  val memberBits: Int = log2Up(members) max 1
  /** the operand sources of slot i over every program (its operand multiplexer), with their member (-1: a unit's
    * output, the same wire for every member) */
  val sources: IndexedSeq[IndexedSeq[(Int, SlotSource)]] =
    (0 until slots).map(i => flat.flatMap(_.slots(i)).map(PoseidonSlotAffinity.sourceKey).distinct.toIndexedSeq)
  /** per member, the slots that ever add into lane 0 (its tree) */
  val lane0: IndexedSeq[IndexedSeq[Int]] =
    (0 until members).map(g => (0 until slots).filter(i => flat.exists(_.slots(i).exists(s => s.member == g && s.dst == 0))))
  private def feeding(b: GroupBeat, g: Int, j: Int): Seq[Int] =
    b.slots.indices.filter(i => b.slots(i).exists(s => s.member == g && s.dst == j))
  /** inputs of lane j >= 1 of member g: the most slots one beat adds into it */
  def inputs(g: Int, j: Int): Int = flat.map(feeding(_, g, j).size).max
  /** feeds(g)(j - 1)(q): the slots that lane j's input q takes in some beat (the q-th of the slots feeding it) */
  val feeds: IndexedSeq[IndexedSeq[IndexedSeq[IndexedSeq[Int]]]] = (0 until members).map(g => (1 until lanes).map(j =>
    (0 until inputs(g, j)).map(q => flat.flatMap(b => feeding(b, g, j).lift(q)).distinct.sorted.toIndexedSeq)))
  /** per program, beat and member: the beat commits the member's round and its next round is a partial one (the
    * commit then leaves lanes j >= 1 in acc as the next round's base; otherwise acc restarts from 0) */
  val nextPartial: Seq[IndexedSeq[IndexedSeq[Boolean]]] = programs.map { p =>
    p.indices.map(b => (0 until members).map(g => p(b).members(g).commit &&
      p.indices.drop(b + 1).find(x => p(x).members(g).first).exists(x => p(x).members(g).partial)))
  }
  for (p <- programs; g <- 0 until members) {
    val firsts = p.filter(_.members(g).first)
    require(firsts.headOption.forall(!_.members(g).partial), "a hash starts with a full round (acc starts at 0)")
  }
  private def codeBits(choices: Int): Int = log2Up(choices + 1) max 1 // + 1: "none"
  val srcBits: IndexedSeq[Int] = sources.map(s => codeBits(s.size))
  val feedBits: IndexedSeq[IndexedSeq[IndexedSeq[Int]]] = feeds.map(_.map(_.map(f => codeBits(f.size))))

  /** word S (read at stage 0): per unit lane, member, pre; word P (after the S-box): per unit sbox, keep, post;
    * word M (at the slots): per slot source code; per member lane-0 mask, feed codes, flags */
  def encodeS(b: GroupBeat): BigInt = pack(b.units.flatMap { u =>
    Seq(BigInt(u.map(_.lane).getOrElse(0)) -> laneBits, BigInt(u.map(_.member).getOrElse(0)) -> memberBits,
      u.map(_.pre).getOrElse(BigInt(0)) -> n)
  })
  def encodeP(b: GroupBeat): BigInt = pack(b.units.flatMap { u =>
    Seq(BigInt(if (u.exists(_.sbox)) 1 else 0) -> 1, BigInt(if (u.exists(_.keep)) 1 else 0) -> 1,
      u.map(_.post).getOrElse(BigInt(0)) -> n)
  })
  def encodeM(b: GroupBeat, nextPartial: IndexedSeq[Boolean], tables: ConstTables): BigInt = {
    val fields = scala.collection.mutable.ArrayBuffer[(BigInt, Int)]()
    for (i <- 0 until slots) {
      val code = b.slots(i).map(s => sources(i).indexOf(PoseidonSlotAffinity.sourceKey(s)) + 1).getOrElse(0)
      fields += BigInt(code) -> srcBits(i)
      fields += BigInt(b.slots(i).map(s => tables.indexOf(i, s.k)).getOrElse(0)) -> idxBits
    }
    for (g <- 0 until members) {
      for (i <- lane0(g)) fields += BigInt(if (b.slots(i).exists(s => s.member == g && s.dst == 0)) 1 else 0) -> 1
      for (j <- 1 until lanes; (f, q) <- feeds(g)(j - 1).zipWithIndex) {
        val code = feeding(b, g, j).lift(q).map(i => f.indexOf(i) + 1).getOrElse(0)
        fields += BigInt(code) -> feedBits(g)(j - 1)(q)
      }
      val fl = b.members(g)
      for (x <- Seq(nextPartial(g), fl.commit, fl.done)) fields += BigInt(if (x) 1 else 0) -> 1
    }
    pack(fields.toSeq)
  }
  private def pack(fields: Seq[(BigInt, Int)]): BigInt = fields.foldRight(BigInt(0)) { case ((v, w), acc) =>
    require(v >= 0 && v.bitLength <= w); (acc << w) | v
  }
  def widthS: Int = units * (laneBits + memberBits + n)
  def widthP: Int = units * (2 + n)
  def widthM: Int = srcBits.sum + slots * idxBits + (0 until members).map(g => lane0(g).size + feedBits(g).flatten.sum + 3).sum
}

/** A ring of `slots` positions around one fully pipelined group-beat datapath ([[GroupBeat]]): each ring position
  * holds a group of `members` hashes of one arity and executes one group beat per revolution, so a group program of
  * B beats finishes `members` hashes every B cycles per full ring.  Stage by stage:
  *   0         program word S and the state (old, every member's lanes) read at the position's address
  *   1         unit u's operand old[member_u][lane_u] (multiplexer), registered
  *   sA        e_u = operand + pre_u                                      (ModAdd)
  *   sB        x^2, x^4, x^5 (three Montgomery multipliers per unit)       (word P read at sB)
  *   sY        y_u = (sbox_u ? x^5 : e_u) + post_u                          (ModAdd); kept[member] := y_u if keep_u
  *   sY+1      word M, old and kept read; slot i's operand from its sources (old lanes, units, kept); table index out
  *   sK        the expanded constant arrives; sP: product_i                  ([[ExpandedConstMul]])
  *   sP+1..sE  per member: lane 0 = a [[ModSum]] over its slots (masked), lane j >= 1 = acc + its inputs
  *   sE        acc written per member (on a commit: the next round's base, GroupPlan.nextPartial), old on commit;
  *             digests of members that are done leave
  * The multiplexers only take the sources the programs use ([[GroupPlan]]), so they are as wide as the schedule needs,
  * and the products sit on the slots by affinity ([[PoseidonSlotAffinity]]), so the programs need few of them.
  * Memories: old is read at two stages (two copies: S-box operands, slot operands), acc once; with
  * `cfg.stateInUram` both are UltraRAM.
  */
class PoseidonGroupEngine(val cfg: PoseidonConfig, val programs: Seq[Seq[GroupBeat]], val seqBits: Int,
                          val tables: ConstTables, romLatency: Int) extends Component {
  private val f = cfg.field
  private val n = f.width
  private val G = cfg.members
  private val nU = cfg.sboxUnits
  private val C = cfg.multipliers
  private val lanes = cfg.lanes
  val plan: GroupPlan = GroupPlan(programs, G, nU, C, lanes, n, tables.idxBits)
  private val K = tables.digits
  private val flat = programs.flatten
  val bases: Seq[Int] = programs.scanLeft(0)(_ + _.size).init
  private val pcBits = log2Up(flat.size) max 1
  private val arityIdxBits = log2Up(programs.size) max 1

  val io = new Bundle {
    val insert = slave(Stream(GroupJob(arityIdxBits, seqBits, G, lanes, n)))
    val result = Vec(master(Flow(EngineResult(seqBits, n))), G)
    val hashes = out(UInt(16 bits)) // hashes in the ring
    val constIdx = out(Vec(UInt(tables.idxBits bits), C))
    val constWords = in(Vec(Vec(UInt(n bits), K), C))
  }

  /** `core` on operands of any stages: each is delayed to the latest, the result is `core.latency` stages later */
  private def run(core: FlowCore, ops: Timed[UInt]*): Timed[UInt] = {
    val at = Timed.latest(ops)
    core.io.input.valid := True
    for ((o, i) <- ops.zipWithIndex) core.io.input.payload(i) := o.to(at)
    Timed(core.io.output.payload, at + core.latency)
  }
  private val unitMuls = Seq.fill(nU, 3)(MontgomeryMulModel.make(f, cfg.arith, cfg.mulModel))
  private val constMuls = Seq.fill(C)(MontgomeryMulModel.makeExpanded(f, cfg.arith, cfg.mulModel))
  private val addPre, addPost = Seq.fill(nU)(new ModAdd(f, cfg.arith))
  val Lm: Int = unitMuls.head.head.latency
  val Lc: Int = constMuls.head.latency
  val La: Int = addPre.head.latency
  /** terms of each member's lane sums: the base and, lane 0, every slot that ever adds into it; lane j >= 1, its
    * inputs */
  val laneTerms: Seq[Seq[Int]] = (0 until G).map(g => (plan.lane0(g).size + 1) +: (1 until lanes).map(j => plan.inputs(g, j) + 1))
  /** one [[ModSum]] per lane sum of more than one term */
  private val laneSums = laneTerms.map(_.map(k => if (k >= 2) Some(new ModSum(f, k, cfg.arith)) else None))
  private val sumLatency = laneSums.flatten.flatten.map(_.latency).foldLeft(0)(_ max _)

  // The stage plan (the ring length must be known before the datapath is built); the datapath below derives every
  // stage from its Timed values and checks that it lands on this plan.
  val sA: Int = 2 + La
  val sB: Int = sA + 3 * Lm
  val sY: Int = sB + 1 + La
  val sK: Int = sY + 1 + romLatency
  val sP: Int = sK + Lc
  val sE: Int = sP + 1 + sumLatency
  val slots: Int = sE + 1
  /** group beats per arity (in the order of cfg.arities) */
  val beatsPerGroup: Seq[Int] = programs.map(_.size)
  val dspTiles: Int = (unitMuls.flatten ++ constMuls).map(_.dspTiles).sum

  // ---- ring bookkeeping: valid / pc circulate, the slot address is the ring position
  private val valid0 = RegInit(False)
  private val pc0 = Reg(UInt(pcBits bits))
  private val slotCnt = Reg(UInt(log2Up(slots) bits)) init (0)
  slotCnt := Mux(slotCnt === slots - 1, U(0), slotCnt + 1)
  private val stageAddrs = scala.collection.mutable.Map[Int, UInt]()
  private def addrAt(k: Int): UInt = if (k % slots == 0) slotCnt else stageAddrs.getOrElseUpdate(k % slots, {
    val a = Reg(UInt(slotCnt.getWidth bits)) init (slots - k % slots)
    a := Mux(a === slots - 1, U(0), a + 1)
    a.setName(s"slotAddr_${k % slots}")
  })
  private val pc = Timed(pc0, 0)
  private def pcAt(k: Int): Timed[UInt] = pc.delayedTo(k)
  private def validAt(k: Int): Bool = Delay(valid0, k, init = False)

  private def rom(width: Int, words: Seq[BigInt]): Mem[Bits] = { val m = Mem(Bits(width bits), flat.size); m.initBigInt(words); m }
  private val romS = rom(plan.widthS, flat.map(plan.encodeS))
  private val romP = rom(plan.widthP, flat.map(plan.encodeP))
  private val romM = rom(plan.widthM, flat.zip(plan.nextPartial.flatten).map { case (b, np) => plan.encodeM(b, np, tables) })
  // state per member (a member commits on its own; a memory word holds one member's lanes)
  private val oldMems = Seq.fill(G)(Mem(Vec(UInt(n bits), lanes), slots))
  private val accMems = Seq.fill(G)(Mem(Vec(UInt(n bits), lanes), slots))
  if (cfg.stateInUram) for (m <- oldMems ++ accMems) m.addAttribute("ram_style", "ultra")
  private val keptMems = Seq.fill(G)(Mem(UInt(n bits), slots))
  /** the old state of every member, read at the ring position of stage k (data at stage k + 1) */
  private def readOld(k: Int): Timed[Vec[Vec[UInt]]] = Timed(Vec(oldMems.map(_.readSync(addrAt(k)))), k + 1)
  private val romLast = Mem(Bool(), flat.size)
  romLast.init(programs.flatMap(p => p.indices.map(i => Bool(i == p.size - 1))))
  // per position: which members hold a hash, and their sequence numbers (written at insert, read for the digests)
  private val seqMem = Mem(Vec(UInt(seqBits bits), G), slots)
  private val liveMem = Mem(Bits(G bits), slots)

  private class Taker(bits: Bits) { private var pos = 0
    def take(w: Int): Bits = { val s = bits(pos + w - 1 downto pos); pos += w; s }
  }

  // ---- S-box units
  private val romSWord = Timed.readSync(romS, pc)
  private val wordS = new Taker(romSWord.value)
  private val oldA = readOld(0)
  require(oldA.at == romSWord.at)
  private val unitY = (0 until nU).map { u =>
    val lane = wordS.take(plan.laneBits).asUInt
    val member = wordS.take(plan.memberBits).asUInt
    val pre = romSWord.map(_ => wordS.take(n).asUInt).reg
    val operand = oldA.map(old => if (G == 1) old(0)(lane) else old(member)(lane)).reg
    val e = run(addPre(u), operand, pre)
    val x2 = run(unitMuls(u)(0), e, e)
    val x4 = run(unitMuls(u)(1), x2, x2)
    val x5 = run(unitMuls(u)(2), x4, e)
    require(e.at == sA && x5.at == sB, s"S-box unit at stages ${e.at}, ${x5.at}: the plan says $sA, $sB")
    (e, x5)
  }
  // word P per unit: sbox, keep, post; the S-box flag where the multiplexer needs it (stage sB), post and keep one
  // stage later
  /** word P of the program beat at stage k: per unit (sbox, keep, post), at stage k + 1 */
  private def decodeP(k: Int): Seq[(Timed[Bool], Timed[Bool], Timed[UInt])] = {
    val word = Timed.readSync(romP, pcAt(k))
    val t = new Taker(word.value)
    (0 until nU).map(_ => (word.map(_ => t.take(1).asBool), word.map(_ => t.take(1).asBool), word.map(_ => t.take(n).asUInt)))
  }
  private val wordP0 = decodeP(sB - 1) // the S-box flag where the multiplexer needs it
  private val wordP1 = decodeP(sB)     // post and keep, one stage later
  private val y = (0 until nU).map { u =>
    val (e, x5) = unitY(u)
    val (sbox, _, _) = wordP0(u)
    require(sbox.at == x5.at)
    val y0 = x5.map(v => Mux(sbox.value, v, e.to(x5.at))).reg
    run(addPost(u), y0, wordP1(u)._3)
  }
  require(y.forall(_.at == sY), s"unit outputs at ${y.map(_.at)}: the plan says $sY")
  private val yReg = y.map(_.reg)
  private val keptAt = Timed.latest(yReg) // the stage kept values are written (sY + 1)
  private val keep = wordP1.map(_._2.to(keptAt))
  private val unitMember = {
    val word = Timed.readSync(romS, pcAt(keptAt - 1))
    require(word.at == keptAt)
    val again = new Taker(word.value)
    (0 until nU).map { _ => again.take(plan.laneBits); val m = again.take(plan.memberBits).asUInt; again.take(n); m }
  }
  // kept[member] := y of the unit whose op keeps it, written at sY + 1: after this beat's own read at sY (its
  // products read the value kept before), a revolution before the next one
  private val validKept = validAt(keptAt)
  for (g <- 0 until G) {
    val mine = (0 until nU).map(u => keep(u) && (if (G == 1) True else unitMember(u) === g))
    keptMems(g).write(addrAt(keptAt), MuxOH.or(Vec(mine), Vec(yReg.map(_.value))), enable = validKept && mine.reduce(_ || _))
  }

  // ---- product slots
  private val romMWord = Timed.readSync(romM, pcAt(keptAt - 1))
  private val wordM = new Taker(romMWord.value)
  private val oldB = readOld(keptAt - 1)
  private val keptB = Vec(keptMems.map(_.readSync(addrAt(keptAt - 1))))
  require(romMWord.at == keptAt && oldB.at == keptAt)
  private val idx = Vec(UInt(tables.idxBits bits), C)
  private val operands = (0 until C).map { i =>
    val code = wordM.take(plan.srcBits(i)).asUInt
    idx(i) := wordM.take(tables.idxBits).asUInt
    val choices = plan.sources(i).map {
      case (g, FromOld(l))  => oldB.value(g)(l)
      case (_, FromUnit(u)) => yReg(u).value
      case (g, FromKept)    => keptB(g)
    }
    Timed(if (choices.isEmpty) U(0, n bits) else Vec(U(0, n bits) +: choices)(code.resize(log2Up(choices.size + 1) max 1)), keptAt)
  }
  io.constIdx := idx
  // the table words answer the index romLatency stages later (sK); the operands wait for them in run
  private val constWords = (0 until C).map(i => io.constWords(i).toSeq.map(Timed(_, keptAt + romLatency)))
  private val products = (0 until C).map(i => run(constMuls(i), (operands(i) +: constWords(i)): _*))
  private val productAt = Timed.latest(products)
  require(productAt == sP, s"products at $productAt: the plan says $sP")

  /** the member fields of word M, carried from sY + 1 to sP */
  case class MemberCtl(g: Int) extends Bundle {
    val lane0 = Bits(plan.lane0(g).size max 1 bits)
    val feed = Vec(plan.feedBits(g).flatten.map(w => UInt(w bits)))
    val nextPartial, commit, done = Bool()
  }
  private val ctlM = (0 until G).map { g =>
    val c = MemberCtl(g)
    c.lane0 := (if (plan.lane0(g).isEmpty) B(0, 1 bits) else wordM.take(plan.lane0(g).size))
    for ((w, k) <- plan.feedBits(g).flatten.zipWithIndex) c.feed(k) := wordM.take(w).asUInt
    c.nextPartial := wordM.take(1).asBool; c.commit := wordM.take(1).asBool; c.done := wordM.take(1).asBool
    Timed(c, keptAt).to(productAt)
  }

  // ---- lane sums per member
  // acc holds the running sums, and after a commit the next round's base (GroupPlan.nextPartial), so the first beat of
  // a round reads its base like any other beat
  private val accR = Vec(accMems.map(_.readSync(addrAt(productAt - 1))))
  /** a lane's sum: its ModSum, or its one term */
  private def laneSum(core: Option[ModSum], terms: Seq[Timed[UInt]]): Timed[UInt] = core match {
    case Some(c) => require(c.terms == terms.size); run(c, terms: _*)
    case None    => terms.head
  }
  private val sums = (0 until G).map { g =>
    val c = ctlM(g)
    val base = (0 until lanes).map(j => Timed(accR(g)(j), productAt).reg)
    val lane0 = laneSum(laneSums(g)(0), base(0) +: plan.lane0(g).zipWithIndex.map { case (i, k) =>
      products(i).map(v => Mux(c.lane0(k), v, U(0, n bits))).reg
    })
    var feedAt = 0
    val others = (1 until lanes).map { j =>
      val ins = plan.feeds(g)(j - 1).map { f =>
        val code = c.feed(feedAt); feedAt += 1
        Timed(Vec(U(0, n bits) +: f.map(products(_).value))(code.resize(log2Up(f.size + 1) max 1)), productAt).reg
      }
      laneSum(laneSums(g)(j), base(j) +: ins)
    }
    lane0 +: others
  }
  /** the stage every lane sum is aligned to: the slowest ModSum's */
  private val sumAt = Timed.latest(sums.flatten)
  require(sumAt == sE, s"lane sums at $sumAt: the plan says $sE")
  private val accNew = Vec(sums.map(lanesOf => Vec(lanesOf.map(_.to(sumAt)))))
  private val ctlE = ctlM.map(c => Timed(c, productAt).to(sumAt))
  private val validE = validAt(sumAt)
  private val pcE = pcAt(sumAt).value
  private val addrE = addrAt(sumAt)
  private val lastE = Timed.readSync(romLast, pcAt(sumAt - 1)).value
  private val seqE = seqMem.readSync(addrAt(sumAt - 1))
  private val liveE = liveMem.readSync(addrAt(sumAt - 1))

  // ---- write back, retire, insert
  io.insert.ready := !validE || lastE
  // acc after a commit: lanes j >= 1 carry into a partial round, everything else restarts at 0 (so does a new group)
  for (g <- 0 until G) {
    val carry = (0 until lanes).map(j => if (j == 0) !ctlE(g).commit else !ctlE(g).commit || ctlE(g).nextPartial)
    val next = Vec((0 until lanes).map(j => Mux(carry(j) && !io.insert.fire, accNew(g)(j), U(0, n bits))))
    accMems(g).write(addrE, next, enable = validE || io.insert.fire)
  }
  for (g <- 0 until G)
    oldMems(g).write(addrE, Mux(io.insert.fire, io.insert.state(g), accNew(g)),
      enable = io.insert.fire || (validE && ctlE(g).commit))
  seqMem.write(addrE, io.insert.seq, enable = io.insert.fire)
  liveMem.write(addrE, io.insert.live, enable = io.insert.fire)
  for (g <- 0 until G) {
    io.result(g).valid := validE && ctlE(g).done && liveE(g)
    io.result(g).seq := seqE(g)
    io.result(g).digest := accNew(g)(1)
  }
  private val baseRom = Vec(bases.map(b => U(b, pcBits bits)))
  valid0 := io.insert.fire || (validE && !lastE)
  private val base = if (bases.size == 1) baseRom(0) else baseRom(io.insert.arityIdx)
  pc0 := Mux(io.insert.fire, base, pcE + 1)
  private val inRing = Reg(UInt(16 bits)) init (0)
  private val retired = (0 until G).map(g => U(validE && ctlE(g).done && liveE(g)).resize(16)).reduce(_ + _)
  inRing := inRing + Mux(io.insert.fire, CountOne(io.insert.live).resize(16), U(0, 16 bits)) - retired
  io.hashes := inRing
}
