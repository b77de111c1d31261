package zkspinal.poseidon

/** Which physical product slot runs each product of a group beat, chosen by affinity.
  *
  * Within a beat the products are independent, so any permutation of them over the slots computes the same digests
  * in the same beats; what the permutation decides is the hardware around the slots ([[GroupPlan]]): slot i's operand
  * multiplexer has one input per distinct source it ever reads, member g's lane-0 sum one term per slot that ever adds
  * into it, lane j >= 1 one multiplexer input per slot that feeds it, and slot i's constant table one word per
  * distinct constant.  The scheduler fills slots first-free, which spreads every kind of product over every slot.
  * Here each beat's products are matched to slots at the least cost of what they add to those sets (a minimum-cost
  * assignment per beat, [[Hungarian]]), then every beat is matched again against the sets the other beats need, until
  * a pass changes nothing.
  */
object PoseidonSlotAffinity {
  /** what an operand multiplexer input is: a unit's output is the same wire for every member */
  def sourceKey(s: SlotOp): (Int, SlotSource) = s.operand match {
    case u: FromUnit => (-1, u)
    case o           => (s.member, o)
  }

  // relative hardware cost of a new element in each set (about LUTs per 255-bit element / 100): a lane-0 sum term is a
  // masked addend in a multi-operand adder, a multiplexer input a quarter LUT per bit; a table word costs no logic
  private val costSource = 100L
  private val costLane0 = 300L
  private val costFeed = 100L
  private val costConst = 1L

  private class Sets(slots: Int) {
    val src = Array.fill(slots)(scala.collection.mutable.Map[(Int, SlotSource), Int]())
    val dst = Array.fill(slots)(scala.collection.mutable.Map[(Int, Int), Int]())
    val k = Array.fill(slots)(scala.collection.mutable.Map[BigInt, Int]())
    private def bump[K](m: scala.collection.mutable.Map[K, Int], key: K, d: Int): Unit = {
      val v = m.getOrElse(key, 0) + d
      if (v == 0) m.remove(key) else m(key) = v
    }
    def add(i: Int, s: SlotOp, d: Int): Unit = {
      bump(src(i), sourceKey(s), d); bump(dst(i), (s.member, s.dst), d); bump(k(i), s.k, d)
    }
    def cost(i: Int, s: SlotOp): Long =
      (if (src(i).contains(sourceKey(s))) 0L else costSource) +
        (if (dst(i).contains((s.member, s.dst))) 0L else if (s.dst == 0) costLane0 else costFeed) +
        (if (k(i).contains(s.k)) 0L else costConst)
  }

  /** The programs (one per arity, sharing one datapath) with every beat's products moved to their slots by affinity. */
  def assign(programs: Seq[Seq[GroupBeat]], slots: Int): Seq[IndexedSeq[GroupBeat]] = {
    val sets = new Sets(slots)
    val beats = programs.map(_.toArray).toArray
    def place(b: GroupBeat): GroupBeat = {
      val ops = b.slots.flatten
      if (ops.isEmpty) return b
      val to = Hungarian.solve(ops.map(s => (0 until slots).map(i => sets.cost(i, s)).toArray).toArray)
      val out = Array.fill[Option[SlotOp]](slots)(None)
      for ((s, i) <- ops.zip(to)) { out(i) = Some(s); sets.add(i, s, 1) }
      b.copy(slots = out.toIndexedSeq)
    }
    def unplace(b: GroupBeat): Unit = for ((s, i) <- b.slots.zipWithIndex; op <- s) sets.add(i, op, -1)
    for (p <- beats; i <- p.indices) p(i) = place(p(i))
    var pass = 0
    var changed = true
    while (changed && pass < 12) {
      changed = false
      pass += 1
      for (p <- beats; i <- p.indices) {
        unplace(p(i))
        val again = place(p(i))
        if (again.slots != p(i).slots) changed = true
        p(i) = again
      }
    }
    beats.map(_.toIndexedSeq).toSeq
  }
}

/** The multiplexers and sums the placement saves, first-free against affinity, for a named configuration (the
  * programs' digests checked equal):
  *   ./mill --no-daemon hw.runMain zkspinal.poseidon.PoseidonSlotAffinityReport pc2 */
object PoseidonSlotAffinityReport {
  private def figures(programs: Seq[Seq[GroupBeat]], cfg: PoseidonConfig): String = {
    val plan = GroupPlan(programs, cfg.members, cfg.sboxUnits, cfg.multipliers, cfg.lanes, cfg.field.width, 1)
    val tables = ConstTables.forGroups(cfg.field, cfg.arith, programs, cfg.multipliers)
    s"operand multiplexer inputs ${plan.sources.map(_.size).sum} (widest ${plan.sources.map(_.size).max}), " +
      s"lane-0 sum terms ${plan.lane0.map(_.size).sum}, lane input multiplexer inputs " +
      s"${plan.feeds.flatten.flatten.map(_.size).sum}, table words ${tables.columns.map(_.size).sum} (deepest " +
      s"${tables.columns.map(_.size).max})"
  }
  def main(args: Array[String]): Unit = for (name <- if (args.isEmpty) Seq("pc2", "arity2") else args.toSeq) {
    val cfg = PoseidonConfig.byName(name)
    val f = cfg.field
    val firstFree = cfg.arities.map(a => PoseidonSchedule.compile(PoseidonConstants(a, f.p), f, cfg.optimized, cfg.shape))
    val placed = PoseidonSlotAffinity.assign(firstFree, cfg.multipliers)
    for ((a, (p, q)) <- cfg.arities.zip(firstFree.zip(placed))) {
      val states = (0 until cfg.members).map(g => ((BigInt(1) << a) - 1 + g) +: (0 until a).map(BigInt(_)))
      require(PoseidonSchedule.run(p, states, f) == PoseidonSchedule.run(q, states, f), s"arity $a: digests differ")
    }
    println(s"$name first-free: ${figures(firstFree, cfg)}")
    println(s"$name affinity:   ${figures(placed, cfg)}")
  }
}

/** Minimum-cost assignment of n rows to m >= n columns (the Hungarian method with potentials, O(n^2 m)). */
object Hungarian {
  /** cost(r)(c); the column of each row */
  def solve(cost: Array[Array[Long]]): Array[Int] = {
    val n = cost.length
    val m = cost.head.length
    require(n <= m, s"$n rows for $m columns")
    val inf = Long.MaxValue / 4
    val u = Array.fill(n + 1)(0L)
    val v = Array.fill(m + 1)(0L)
    val rowOf = Array.fill(m + 1)(0) // column j's row (1-based; 0 = free)
    val way = Array.fill(m + 1)(0)
    for (r <- 1 to n) {
      rowOf(0) = r
      var j0 = 0
      val minv = Array.fill(m + 1)(inf)
      val used = Array.fill(m + 1)(false)
      while (rowOf(j0) != 0) {
        used(j0) = true
        val i0 = rowOf(j0)
        var delta = inf
        var j1 = 0
        for (j <- 1 to m if !used(j)) {
          val cur = cost(i0 - 1)(j - 1) - u(i0) - v(j)
          if (cur < minv(j)) { minv(j) = cur; way(j) = j0 }
          if (minv(j) < delta) { delta = minv(j); j1 = j }
        }
        for (j <- 0 to m) {
          if (used(j)) { u(rowOf(j)) += delta; v(j) -= delta } else minv(j) -= delta
        }
        j0 = j1
      }
      while (j0 != 0) { val j1 = way(j0); rowOf(j0) = rowOf(j1); j0 = j1 }
    }
    val colOf = Array.fill(n)(-1)
    for (j <- 1 to m if rowOf(j) != 0) colOf(rowOf(j) - 1) = j - 1
    colOf
  }
}
