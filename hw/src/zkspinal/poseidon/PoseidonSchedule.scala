package zkspinal.poseidon

import zkspinal.field.FieldConfig

/** Where a product's operand comes from in a group beat. */
sealed trait SlotSource
/** the member's committed state, lane `lane` */
case class FromOld(lane: Int) extends SlotSource
/** this beat's S-box unit `unit` */
case class FromUnit(unit: Int) extends SlotSource
/** the S-box output the member kept from an earlier beat of the same row */
case object FromKept extends SlotSource

/** One S-box unit's work in a group beat: y = (sbox ? (old[lane] + pre)^5 : old[lane] + pre) + post, for `member`;
  * `keep` stores y as the member's kept value (the rest of the row's products follow in later beats). */
case class UnitOp(member: Int, lane: Int, sbox: Boolean, pre: BigInt, post: BigInt, keep: Boolean)

/** One constant product of a group beat: operand * k (Montgomery: operand * k * R^-1) into lane `dst` of `member`. */
case class SlotOp(member: Int, operand: SlotSource, k: BigInt, dst: Int)

/** A member's round bookkeeping in a beat (as [[Beat]]'s flags, per member). */
case class MemberFlags(first: Boolean = false, partial: Boolean = false, commit: Boolean = false,
                       done: Boolean = false)

/** One beat of a group of `members` hashes sharing one ring slot: every S-box unit and every product slot may work
  * for any member.  Per member g:
  *   acc'[g][j] = base + the products routed to (g, j),  base = first ? (partial && j > 0 ? old[g][j] : 0) : acc[g][j]
  *   commit: old[g] := acc'[g];  done: digest of g = acc'[g][1];  kept[g] := y of the unit whose op has keep
  */
case class GroupBeat(units: IndexedSeq[Option[UnitOp]], slots: IndexedSeq[Option[SlotOp]],
                     members: IndexedSeq[MemberFlags])

/** The shape the scheduler fills: per beat `units` S-box units, `slots` constant products, at most `laneInputs`
  * products into each lane >= 1 of a member (lane 0 sums any number: the partial rounds' dot product). */
case class GroupShape(members: Int, units: Int, slots: Int, laneInputs: Int) {
  require(members >= 1 && units >= 1 && slots >= 1 && laneInputs >= 1)
}

/** Compiles `members` hashes of one arity into one program of group beats (list scheduling at elaboration).
  *
  * A member's work is its single-hash program ([[PoseidonProgram]] with no product limit): rounds of rows, a row =
  * one S-box evaluation and the products that use it.  Each beat the scheduler walks the members in a priority
  * order and gives each what still fits: whole rows while a unit and the row's products fit, and a row split over
  * beats when only some of its products fit (its S-box output is kept: the later beats need no unit).  A round's
  * rows all finish before the member's next round starts (the next round reads the committed state).  Several
  * priority orders are tried and the shortest program is kept; the plan is fixed at elaboration, so every group of
  * that arity runs the same program.
  */
object PoseidonSchedule {
  private case class Row(b: Beat) {
    def products: Seq[Product] = b.products
  }

  private class Member(val rounds: IndexedSeq[IndexedSeq[Row]]) {
    var round = 0
    var rowsLeft: List[Row] = rounds(0).toList
    var split: Option[(Row, Seq[Product])] = None // the row in progress and its products still to issue
    var started = false // a beat of the current round was issued (first is set on the round's first beat)
    def finished: Boolean = round >= rounds.size
    /** rows still to issue, for the priority orders: rows of this round + rows of later rounds */
    def work: Int = if (finished) 0 else rowsLeft.size + split.size + rounds.drop(round + 1).map(_.size).sum
  }

  /** the single-hash program cut into rounds of rows (one [[Beat]] per row: no product limit) */
  def rowsOf(c: PoseidonConstants, f: FieldConfig, optimized: Boolean): IndexedSeq[IndexedSeq[Beat]] = {
    val beats = PoseidonProgram.beats(c, f, optimized, Int.MaxValue)
    val out = scala.collection.mutable.ArrayBuffer[IndexedSeq[Beat]]()
    var cur = scala.collection.mutable.ArrayBuffer[Beat]()
    for (b <- beats) { cur += b; if (b.commit) { out += cur.toIndexedSeq; cur = scala.collection.mutable.ArrayBuffer() } }
    require(cur.isEmpty, "a program ends on a commit")
    out.toIndexedSeq
  }

  private type Priority = (IndexedSeq[Member], Int) => Seq[Int]

  private val priorities: Seq[(String, Priority)] = Seq(
    "fixed" -> ((ms, _) => ms.indices),
    "partial-first" -> ((ms, _) => ms.indices.sortBy(g => (!ms(g).rowsLeft.headOption.orElse(ms(g).split.map(_._1)).exists(_.b.partial), g))),
    "full-first" -> ((ms, _) => ms.indices.sortBy(g => (ms(g).rowsLeft.headOption.orElse(ms(g).split.map(_._1)).exists(_.b.partial), g))),
    "most-work" -> ((ms, _) => ms.indices.sortBy(g => (-ms(g).work, g))),
    "rotate" -> ((ms, beat) => ms.indices.map(g => (g + beat) % ms.size)),
    "one-partial" -> ((ms, _) => onePartial(ms))
  )

  private def inPartial(m: Member): Boolean =
    !m.finished && m.rowsLeft.headOption.orElse(m.split.map(_._1)).exists(_.b.partial)

  /** One member at a time runs its partial rounds while the others run full rounds beside it: a partial row
    * (one S-box, 2t-1 products) and a full row (one S-box, t products) fill two units and 3t-1 slots, where two
    * partial rows would overflow the slots and leave a unit idle.  Order: the lowest member in its partial rounds,
    * then the members in their first full rounds (lowest first: the next to enter its partial rounds), then those
    * in their last full rounds, then the members waiting in their partial rounds. */
  private def onePartial(ms: IndexedSeq[Member]): Seq[Int] = {
    val lead = ms.indices.find(g => inPartial(ms(g)))
    def beforePartials(m: Member) = !m.rounds.take(m.round + 1).exists(_.head.b.partial)
    ms.indices.sortBy { g =>
      val m = ms(g)
      val rank = if (lead.contains(g)) 0 else if (m.finished) 4 else if (inPartial(m)) 3
        else if (beforePartials(m)) 1 else 2
      (rank, g)
    }
  }

  /** seeded random member orders, one per beat: a search over the choices the fixed orders do not make */
  private def shuffled(seed: Int): Priority = {
    val r = new scala.util.Random(seed)
    (ms, _) => r.shuffle(ms.indices.toList)
  }
  /** random orders tried beside the fixed ones (the scheduler runs at elaboration: milliseconds each) */
  val searchSeeds: Int = 24

  /** The group program of `shape.members` hashes of arity c.arity: the shortest over the priority orders. */
  def compile(c: PoseidonConstants, f: FieldConfig, optimized: Boolean, shape: GroupShape): IndexedSeq[GroupBeat] = {
    val rows = rowsOf(c, f, optimized)
    val orders = priorities.map(_._2) ++ (if (shape.members > 1) (1 to searchSeeds).map(shuffled) else Nil)
    // members held back g * stagger beats at the start, so that one member's partial rounds (one S-box, many
    // products) meet another's full rounds (many S-boxes, few products each) instead of its own kind
    val staggers = if (shape.members > 1) Seq(0) ++ staggerSteps else Seq(0)
    (for (pr <- orders; d <- staggers) yield compileWith(rows, shape, pr, d)).minBy(_.size)
  }
  /** start offsets tried between consecutive members, in beats */
  private val staggerSteps: Seq[Int] = Seq(4, 8, 12, 18, 24, 32, 48)

  private def compileWith(rounds: IndexedSeq[IndexedSeq[Beat]], shape: GroupShape, priority: Priority,
                          stagger: Int): IndexedSeq[GroupBeat] = {
    val ms = IndexedSeq.fill(shape.members)(new Member(rounds.map(_.map(Row))))
    val out = scala.collection.mutable.ArrayBuffer[GroupBeat]()
    while (!ms.forall(_.finished)) {
      require(out.size < 1000000, "the scheduler made no progress")
      val units = Array.fill[Option[UnitOp]](shape.units)(None)
      val slots = Array.fill[Option[SlotOp]](shape.slots)(None)
      val flags = Array.fill(shape.members)(MemberFlags())
      var freeUnits = shape.units
      var freeSlots = shape.slots
      def unitAt(): Int = units.indexWhere(_.isEmpty)
      for (g <- priority(ms, out.size) if !ms(g).finished && out.size >= g * stagger) {
        val m = ms(g)
        val perLane = Array.fill(16)(0) // products into each lane of this member in this beat
        var issued = false
        def fits(ps: Seq[Product]): Boolean = ps.forall(p => p.dst == 0 || perLane(p.dst) < shape.laneInputs)
        def issue(ps: Seq[Product], operandOfY: SlotSource): Unit = for (p <- ps) {
          val at = slots.indexWhere(_.isEmpty)
          slots(at) = Some(SlotOp(g, if (p.fromOld) FromOld(p.src) else operandOfY, p.k, p.dst))
          perLane(p.dst) += 1
          freeSlots -= 1
          issued = true
        }
        /** the longest prefix of `ps` that fits the free slots and the lane limits */
        def prefix(ps: Seq[Product]): Seq[Product] = {
          val take = scala.collection.mutable.ArrayBuffer[Product]()
          val lanes = perLane.clone()
          for (p <- ps if take.size < freeSlots && (p.dst == 0 || lanes(p.dst) < shape.laneInputs)) {
            take += p; lanes(p.dst) += 1
          }
          take.toSeq
        }
        // 1. the split row first (no unit: its y is kept)
        m.split.foreach { case (row, left) =>
          val part = prefix(left)
          if (part.nonEmpty) {
            issue(part, FromKept)
            val rest = left.filterNot(p => part.exists(_ eq p))
            m.split = if (rest.isEmpty) None else Some((row, rest))
          }
        }
        // 2. whole rows while a unit and their products fit; then one split row if none is in progress
        var go = true
        while (go && m.rowsLeft.nonEmpty && freeUnits > 0) {
          val row = m.rowsLeft.head
          val u = unitAt()
          if (row.products.size <= freeSlots && fits(row.products)) {
            units(u) = Some(UnitOp(g, row.b.sLane, row.b.sbox, row.b.pre, row.b.post, keep = false))
            freeUnits -= 1
            issue(row.products, FromUnit(u))
            m.rowsLeft = m.rowsLeft.tail
          } else if (m.split.isEmpty && prefix(row.products).nonEmpty) {
            val part = prefix(row.products)
            units(u) = Some(UnitOp(g, row.b.sLane, row.b.sbox, row.b.pre, row.b.post, keep = true))
            freeUnits -= 1
            issue(part, FromUnit(u))
            m.split = Some((row, row.products.filterNot(p => part.exists(_ eq p))))
            m.rowsLeft = m.rowsLeft.tail
            go = false
          } else go = false
        }
        if (issued) {
          val r = rounds(m.round)
          val last = m.rowsLeft.isEmpty && m.split.isEmpty
          flags(g) = MemberFlags(first = !m.started, partial = r.head.partial, commit = last,
            done = last && m.round == rounds.size - 1)
          m.started = true
          if (last) {
            m.round += 1
            m.started = false
            if (!m.finished) m.rowsLeft = rounds(m.round).map(Row).toList
          }
        }
      }
      out += GroupBeat(units.toIndexedSeq, slots.toIndexedSeq, flags.toIndexedSeq)
    }
    out.toIndexedSeq
  }

  /** Executes a group program with BigInt arithmetic exactly as a group beat is defined; the digests. */
  def run(program: Seq[GroupBeat], states: Seq[Seq[BigInt]], f: FieldConfig): Seq[BigInt] = {
    val p = f.p
    def mm(a: BigInt, b: BigInt) = a * b * f.rInv % p
    val lanes = states.head.size
    val old = states.map(_.toArray).toArray
    val acc = Array.fill(states.size)(Array.fill(lanes)(BigInt(0)))
    val kept = Array.fill(states.size)(BigInt(0))
    val digest = Array.fill[Option[BigInt]](states.size)(None)
    for (b <- program) {
      val y = b.units.map(_.map { u =>
        val e = (old(u.member)(u.lane) + u.pre) % p
        val y0 = if (u.sbox) { val x2 = mm(e, e); mm(mm(x2, x2), e) } else e
        (y0 + u.post) % p
      })
      val next = Array.tabulate(states.size, lanes) { (g, j) =>
        val fl = b.members(g)
        if (fl.first) (if (fl.partial && j > 0) old(g)(j) else BigInt(0)) else acc(g)(j)
      }
      for (s <- b.slots.flatten) {
        val operand = s.operand match {
          case FromOld(l)  => old(s.member)(l)
          case FromUnit(u) => y(u).get
          case FromKept    => kept(s.member)
        }
        next(s.member)(s.dst) = (next(s.member)(s.dst) + mm(operand, s.k)) % p
      }
      for ((u, i) <- b.units.zipWithIndex; op <- u if op.keep) kept(op.member) = y(i).get
      for (g <- states.indices) {
        acc(g) = next(g)
        if (b.members(g).commit) old(g) = next(g).clone()
        if (b.members(g).done) digest(g) = Some(next(g)(1))
      }
    }
    digest.map(_.getOrElse(sys.error("a member never finished")))
  }
}

/** Group programs against neptune's known answers, and their cycles per hash:
  *   ./mill --no-daemon hw.runMain zkspinal.poseidon.PoseidonScheduleCheck [members units slots laneInputs]...
  * (default: a grid of shapes).  Each member of a group hashes its own preimage; every digest is checked. */
object PoseidonScheduleCheck {
  def main(args: Array[String]): Unit = {
    val f = FieldConfig.bls12_381_fr
    val shapes = if (args.isEmpty) Seq(GroupShape(1, 1, 12, 1), GroupShape(2, 2, 27, 3), GroupShape(4, 2, 26, 3),
      GroupShape(3, 4, 16, 5)) else args.grouped(4).map(a => GroupShape(a(0).toInt, a(1).toInt, a(2).toInt, a(3).toInt)).toSeq
    var bad = 0
    for (shape <- shapes; a <- Seq(2, 4, 8, 11)) {
      val c = PoseidonConstants(a, f.p)
      val prog = PoseidonSchedule.compile(c, f, optimized = true, shape)
      val states = (0 until shape.members).map(g => ((BigInt(1) << a) - 1 + g) +: (0 until a).map(BigInt(_)))
      val single = PoseidonProgram.beats(c, f, true, Int.MaxValue)
      val want = states.map(s => PoseidonProgramCheck.run(single, s, f))
      val got = PoseidonSchedule.run(prog, states, f)
      val ok = got == want && PoseidonProgramCheck.known(a) == want.head.toString(16).reverse.padTo(64, '0').reverse
      if (!ok) bad += 1
      val cycles = prog.size.toDouble / shape.members
      val operandSets = (0 until shape.slots).map(i => prog.flatMap(_.slots(i)).map(s => (s.member, s.operand)).distinct.size)
      val feeds = (for (g <- 0 until shape.members; j <- 1 to a) yield
        prog.flatMap(b => b.slots.indices.filter(i => b.slots(i).exists(s => s.member == g && s.dst == j))).distinct.size)
      println(s"   operand sources per slot: max ${operandSets.max}; slots feeding a lane >= 1: max ${feeds.max}")
      println(f"${shape.members} x (${shape.units} units, ${shape.slots}%2d slots, ${shape.laneInputs} per lane) arity $a%2d: " +
        f"${prog.size}%4d beats, $cycles%6.1f cycles/hash, ${250 / cycles}%5.2f Mhash/s at 250 MHz  ${if (ok) "ok" else "MISMATCH"}")
    }
    if (bad > 0) sys.exit(1)
  }
}
