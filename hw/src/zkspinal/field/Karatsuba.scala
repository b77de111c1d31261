package zkspinal.field

import spinal.core._
import scala.collection.mutable

/** Karatsuba-Ofman products on DSP cascades, summed in one [[BitHeap]].
  *
  * One level with split factor k cuts both operands at multiples of w = ceil(n/k) and uses the subtractive form
  * (k(k+1)/2 products instead of k^2):
  *   x*y = sum_i D_i 2^(2iw) + sum_{i<j} (D_i + D_j + N_ij) 2^((i+j)w),
  *   D_i = x_i y_i,   N_ij = (x_j - x_i)(y_i - y_j)   (= -M_ij of the textbook form, so every use adds)
  * The differences are carried through (full-width subtractors, [[Operand.diff]]): every operand is an ordinary
  * two's complement integer with a known range, its low digits unsigned and its top digit signed, so the DSP's
  * signed 27 x 18 multiplier takes the digits as they are; no runtime sign, no magnitude, no conditional negation.
  * Levels recurse down to leaf products x*y, each computed once and added to the heap at every place it is used.
  *
  * A leaf goes onto DSP chains ([[DspChain]]): x (the runtime operand when the other is a constant) is cut into
  * A digits of at most `tileA` bits, y into 17-bit B digits; A digit a gives one chain whose links are the B
  * digits, so the leaf reaches the heap as one row per A digit, not one row per DSP.  Links no use needs (a
  * product kept modulo 2^m, or dropped below a cut by [[MontgomeryMul]]) are not built.
  */
object Karatsuba {
  case class Use(shift: Int, negative: Boolean = false)
  final class Leaf(val x: Operand, val y: Operand, val uses: Seq[Use])

  private def ceilDiv(a: Int, b: Int) = (a + b - 1) / b

  /** x*y as leaf products with their uses (one Karatsuba level per split factor). */
  def expand(x: Operand, y: Operand, splits: Seq[Int], cfg: ArithConfig, uses: Seq[Use] = Seq(Use(0))): Seq[Leaf] =
    if (x.isZero || y.isZero) Nil
    else splits match {
      case Seq() => Seq(new Leaf(x, y, uses))
      case k +: rest =>
        val n = x.span max y.span
        val w = ceilDiv(n, k)
        val cuts = (0 until k).map(_ * w)
        val xs = Operand.split(x, cuts)
        val ys = Operand.split(y, cuts)
        def at(shift: Int) = uses.map(u => u.copy(shift = u.shift + shift))
        val direct = (0 until k).flatMap { i =>
          val places = (2 * i * w) +: (0 until k).filter(_ != i).map(j => (i + j) * w)
          expand(xs(i), ys(i), rest, cfg, places.flatMap(at))
        }
        val cross = for { i <- 0 until k; j <- i + 1 until k; leaf <-
          expand(Operand.diff(xs(j), xs(i), cfg), Operand.diff(ys(i), ys(j), cfg), rest, cfg, at((i + j) * w)) } yield leaf
        direct ++ cross
    }

  /** The chains of a leaf: which operand takes the A port, its digits, and the B digits. */
  final class LeafChains(val leaf: Leaf, cfg: ArithConfig, needed: Int => Boolean) {
    /** the runtime operand on A when the other is a constant (it then travels the A cascade); else the narrower */
    private val (a, b) = (leaf.x.constant, leaf.y.constant) match {
      case (Some(_), None) => (leaf.y, leaf.x)
      case (None, Some(_)) => (leaf.x, leaf.y)
      case _ => if (leaf.x.span <= leaf.y.span) (leaf.x, leaf.y) else (leaf.y, leaf.x)
    }
    val constant: Option[BigInt] = for (p <- a.constant; q <- b.constant) yield p * q
    private def digits(x: Operand, size: Int): Seq[(Int, Operand)] = {
      val count = ceilDiv(x.span max 1, size)
      val cuts = (0 until count).map(_ * ceilDiv(x.span max 1, count))
      cuts.zip(Operand.split(x, cuts))
    }
    private val aDigits = digits(a, cfg.tileA)
    private val bDigits = (0 until ceilDiv(b.span max 1, Dsp48e2.shift)).map(_ * Dsp48e2.shift).zip(
      Operand.split(b, (0 until ceilDiv(b.span max 1, Dsp48e2.shift)).map(_ * Dsp48e2.shift)))
    /** runs of needed links with a non-zero product, at most `maxChain` long */
    val chains: Seq[DspChain] = if (constant.isDefined) Nil else for {
      (ao, ad) <- aDigits if !ad.isZero
      run <- runs(bDigits.map { case (bo, bd) => if (bd.isZero || !needed(ao + bo)) None else Some(Link(ad, bd, ao + bo)) })
      part <- run.grouped(cfg.maxChain)
    } yield DspChain(part)
    private def runs(links: Seq[Option[Link]]): Seq[Seq[Link]] = {
      val out = mutable.ArrayBuffer(mutable.ArrayBuffer[Link]())
      links.foreach { case Some(l) => out.last += l; case None => out += mutable.ArrayBuffer() }
      out.filter(_.nonEmpty).map(_.toSeq).toSeq
    }
    def dsps: Int = chains.map(_.links.size).sum
    /** every link of the leaf is built: the rows add up to the exact product */
    private val complete = dsps == aDigits.count(!_._2.isZero) * bDigits.count(!_._2.isZero)
    val (lo, hi) = DspChain.productRange(leaf.x, leaf.y)
    /** bits of the exact product: two's complement when it can be negative */
    val productBits: Int = if (lo < 0) Operand.signedWidth(lo, hi) else hi.bitLength max 1
    private val rowBits = chains.flatMap(_.segments).map(_.bits).sum
    /** A leaf used at several places over several rows is added up once (one adder of productBits) and the sum goes
      * to the heap at every use: worth it when the uses save more heap bits than the adder costs. */
    val merged: Boolean = complete && chains.size >= 2 && leaf.uses.size * (rowBits - productBits) > productBits
  }

  /** What adding a product to a heap costs, before anything is built. */
  case class Cost(dsps: Int, heapBits: Int, diffBits: Int) {
    def +(o: Cost) = Cost(dsps + o.dsps, heapBits + o.heapBits, diffBits + o.diffBits)
  }

  /** Heap bits of the rows of `lc` at every use, within the heap window [from, width). */
  private def rowBits(lc: LeafChains, from: Int, width: Int): Int = {
    def clip(offset: Int, bits: Int) = ((offset + bits) min width) - (offset max from) max 0
    if (lc.merged) lc.productBits + lc.leaf.uses.map(u => clip(u.shift, lc.productBits)).sum
    else (for (u <- lc.leaf.uses; c <- lc.chains; s <- c.segments) yield clip(s.offset + u.shift, s.bits)).sum
  }

  /** The leaves of x*y (at `shift`) with the links a heap of `width` bits needs; `keep(leaf index, link weight)`
    * filters links further (the low links [[MontgomeryMul]] leaves out of its reduction product). */
  def plan(x: Operand, y: Operand, splits: Seq[Int], cfg: ArithConfig, width: Int, shift: Int = 0,
           keep: (Int, Int) => Boolean = (_, _) => true): Seq[LeafChains] =
    expand(x, y, splits, cfg, Seq(Use(shift))).zipWithIndex.map { case (leaf, i) =>
      new LeafChains(leaf, cfg, w => leaf.uses.exists(u => u.shift + w < width) && keep(i, w))
    }

  def cost(leaves: Seq[LeafChains], from: Int, width: Int): Cost =
    Cost(leaves.map(_.dsps).sum, leaves.map(rowBits(_, from, width)).sum, diffBits(leaves))

  /** bits of the carried differences the leaves' operands need (subtractors in LUTs) */
  private def diffBits(leaves: Seq[LeafChains]): Int = {
    val seen = mutable.Set[Operand]()
    def walk(o: Operand): Int = o match {
      case v: Operand.Var if v.isDiff && seen.add(v) => v.width
      case _ => 0
    }
    leaves.map(l => walk(l.leaf.x) + walk(l.leaf.y)).sum
  }

  /** Builds the chains of `leaves` and adds their rows to `heap` at every use; returns the DSPs built. */
  def build(heap: BitHeap, leaves: Seq[LeafChains], cfg: ArithConfig, from: Int = 0): Int = {
    for (lc <- leaves) {
      lc.constant.foreach(c => lc.leaf.uses.foreach(u => heap.addConst(if (u.negative) -(c << u.shift) else c << u.shift)))
      if (lc.merged) {
        val sum = new BitHeap(lc.productBits, cfg)
        for (chain <- lc.chains; (seg, v) <- chain.build(cfg)) sum.addTerm(v, seg.offset, seg.signed, negative = false)
        val v = sum.sum().map(_.asBits)
        for (u <- lc.leaf.uses) heap.addTerm(v, u.shift, lc.lo < 0, u.negative, from)
      } else for (chain <- lc.chains; (seg, v) <- chain.build(cfg); u <- lc.leaf.uses)
        heap.addTerm(v, u.shift + seg.offset, seg.signed, u.negative, from)
    }
    leaves.map(_.dsps).sum
  }

  /** a plan's price: DSPs at `lutPerDsp` LUTs each, plus the LUTs its heap bits and differences cost */
  def price(c: Cost, cfg: ArithConfig): Long = c.dsps.toLong * cfg.lutPerDsp + c.heapBits + c.diffBits

  private def planningOperand(bits: Int): Operand = Operand.unsigned(throw new IllegalStateException("planning only"), bits)

  /** The cheapest split plan of an exact n x n product (`koSplits` when given; fewer levels on ties). */
  def bestPlan(n: Int, cfg: ArithConfig): Seq[Int] = cfg.koSplits.getOrElse(candidatePlans(n, cfg).minBy { sp =>
    (price(cost(plan(planningOperand(n), planningOperand(n), sp, cfg, 2 * n), 0, 2 * n), cfg), sp.size)
  })

  /** Split plans worth trying: up to three levels of factors 2..8. */
  def candidatePlans(n: Int, cfg: ArithConfig): Seq[Seq[Int]] = {
    def valid(w: Int, plan: Seq[Int]): Boolean = plan match {
      case Seq() => true
      case k +: r => val pw = ceilDiv(w, k); (k - 1) * pw < w && pw >= Dsp48e2.shift && valid(pw, r)
    }
    val factors = 2 to 8
    val plans = Seq(Seq.empty[Int]) ++ factors.map(Seq(_)) ++
      (for (a <- factors; b <- factors) yield Seq(a, b)) ++
      (for (a <- 2 to 4; b <- 2 to 4; c <- 2 to 4) yield Seq(a, b, c))
    plans.filter(valid(n, _))
  }
}
