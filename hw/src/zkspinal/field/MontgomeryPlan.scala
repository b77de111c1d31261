package zkspinal.field

import spinal.core._

/** How a [[MontgomeryMul]] is built: the Karatsuba splits of its three products and the cut of its reduction
  * product, chosen by pricing DSPs and LUTs together (`ArithConfig.lutPerDsp`).
  *
  * With s = v2(p - 1), p = 1 + 2^s p_h, and p' = -p^-1 mod R = -1 + 2^s p'_h (p' = -1 mod 2^s because p = 1):
  *   T = a b                                                 exact, 2n bits
  *   m = T p' mod R = (-T_lo + 2^s ((T_lo p'_h) mod 2^(n-s))) mod R     an (n-s)-bit low product, not an n-bit one
  *   m p = m + 2^s m p_h
  *   U = (T + m p) / R = T_hi + [T_lo != 0] + floor(m p / R)  since T_lo + (m p mod R) is 0 or R
  * floor(m p / R) without the low half of m p: let H' be the sum of every term of m p from bit `cut` up, minus a
  * bias B1 (a multiple of 2^cut), so that the rest S = m p - H' (the links of m p_h not built, the bits of the
  * built rows below the cut, m's low bits, plus B1) lies in [0, R).  As (m p) mod R = L = (-T_lo) mod R is known,
  *   m p = H' + S, 0 <= S < R   =>   floor(m p / R) = floor(H' / R) + [L < H' mod R]
  * and H' mod R is zero below the cut, so the comparison takes bits [cut, n) of L and of H' only.  The bound on S
  * (interval arithmetic over every dropped part) is what decides the cut and which low links are left out.
  */
final class MontgomeryPlan private (val field: FieldConfig, val cfg: ArithConfig) {
  import Karatsuba._
  val n: Int = field.width
  /** the two-adic part of p - 1 (kept below n so the products stay non-empty) */
  val s: Int = field.p.-(1).lowestSetBit min (n - 1)
  val pH: BigInt = (field.p - 1) >> s
  val pInvH: BigInt = (field.pInvNeg + 1).mod(field.R) >> s
  require((field.pInvNeg + 1).mod(BigInt(1) << s) == 0, "p' = -1 mod 2^s")

  private def placeholder(bits: Int): Operand =
    Operand.unsigned(throw new IllegalStateException("planning only"), bits)
  def price(c: Cost): Long = Karatsuba.price(c, cfg)

  private def cheapest(plans: Seq[Seq[Int]], cost: Seq[Int] => Cost): Seq[Int] = plans.minBy(p => (price(cost(p)), p.size))

  // ---- T = a b, exact -----------------------------------------------------------------------------------------
  def tLeaves(a: Operand, b: Operand, splits: Seq[Int]): Seq[LeafChains] = plan(a, b, splits, cfg, 2 * n)
  val tSplits: Seq[Int] = Karatsuba.bestPlan(n, cfg)

  // ---- m = -T_lo + 2^s (T_lo p'_h mod 2^(n-s)) ------------------------------------------------------------------
  def mLeaves(tLo: Operand, splits: Seq[Int]): Seq[LeafChains] =
    plan(tLo, Operand.const(pInvH), splits, cfg, n, shift = s)
  val mSplits: Seq[Int] =
    cheapest(candidatePlans(n - s, cfg), sp => cost(mLeaves(placeholder(n - s), sp), 0, n))

  // ---- m p_h from the cut up --------------------------------------------------------------------------------------
  /** heap width of H': floor(H' / R) is needed modulo 2^(n+1) */
  val hWidth: Int = 2 * n + 1
  def yLeaves(m: Operand, splits: Seq[Int], dropped: Set[(Int, Int)]): Seq[LeafChains] =
    plan(m, Operand.const(pH), splits, cfg, hWidth, shift = s, keep = (i, w) => !dropped((i, w)))

  /** Range of S - B1 (everything left out of H'), or None past the bound. */
  def rest(leaves: Seq[LeafChains], all: Seq[LeafChains], dropped: Set[(Int, Int)], cut: Int): (BigInt, BigInt) = {
    var lo = BigInt(0)
    var hi = (BigInt(1) << cut) - 1 // m's bits below the cut (m is a term of m p)
    def addRange(l: BigInt, h: BigInt, negative: Boolean): Unit =
      if (negative) { lo -= h; hi -= l } else { lo += l; hi += h }
    // links not built: their whole product at each use
    for ((lc, i) <- all.zipWithIndex; c <- lc.chains; link <- c.links if dropped((i, link.weight)); u <- lc.leaf.uses) {
      val (pl, ph) = DspChain.productRange(link.a, link.b)
      addRange(pl << (u.shift + link.weight), ph << (u.shift + link.weight), u.negative)
    }
    // the built rows' bits below the cut: value mod 2^(cut - position) in [0, 2^min(bits, cut - position)) for an
    // unsigned part, [0, 2^(cut - position)) for a signed one
    for (lc <- leaves; c <- lc.chains; seg <- c.segments; u <- lc.leaf.uses) {
      val pos = u.shift + seg.offset
      if (pos < cut) {
        val bits = if (seg.signed) cut - pos else seg.bits min (cut - pos)
        addRange(0, ((BigInt(1) << bits) - 1) << pos, u.negative)
      }
    }
    (lo, hi)
  }
  def bias(lo: BigInt, cut: Int): BigInt = if (lo >= 0) 0 else ((-lo + (BigInt(1) << cut) - 1) >> cut) << cut
  def fits(range: (BigInt, BigInt), cut: Int): Boolean = bias(range._1, cut) + range._2 < field.R

  case class Reduction(splits: Seq[Int], cut: Int, dropped: Set[(Int, Int)], cost: Cost)
  val reduction: Reduction = {
    val m = placeholder(n)
    val plans = candidatePlans(n, cfg).map(sp => sp -> cost(yLeaves(m, sp, Set()), 0, hWidth))
      .sortBy { case (sp, c) => (price(c), sp.size) }.take(4).map(_._1)
    val options = for (sp <- plans; cut <- (n - 1) to (n - 64) by -1) yield {
      val all = yLeaves(m, sp, Set())
      // candidate links, lowest contribution first
      val links = (for ((lc, i) <- all.zipWithIndex; c <- lc.chains; l <- c.links) yield {
        val (pl, ph) = DspChain.productRange(l.a, l.b)
        val top = lc.leaf.uses.map(_.shift).max + l.weight + (pl.abs max ph.abs).bitLength
        (top, (i, l.weight))
      }).sortBy(_._1).map(_._2)
      def ok(k: Int): Option[Reduction] = {
        val d = links.take(k).toSet
        val leaves = yLeaves(m, sp, d)
        if (fits(rest(leaves, all, d, cut), cut)) Some(Reduction(sp, cut, d, cost(leaves, cut, hWidth))) else None
      }
      // the most links that can be left out (binary search over the sorted candidates)
      var (good, bad) = (0, links.size + 1)
      while (bad - good > 1) { val mid = (good + bad) / 2; if (ok(mid).isDefined) good = mid else bad = mid }
      ok(good)
    }
    options.flatten.minBy(r => (price(r.cost) + 3L * (n - r.cut), -r.cut))
  }

  /** the three products' costs as planned: T, m, and m p_h from the cut up */
  lazy val costs: Seq[Cost] = Seq(
    cost(tLeaves(placeholder(n), placeholder(n), tSplits), 0, 2 * n),
    cost(mLeaves(placeholder(n - s), mSplits), 0, n),
    reduction.cost)
  def dsps: Int = costs.map(_.dsps).sum
  /** what the products put into heaps and subtractors: the part of the LUTs the plan decides */
  def productBits: Int = costs.map(c => c.heapBits + c.diffBits).sum
}

object MontgomeryPlan {
  private val cache = scala.collection.mutable.Map[(FieldConfig, ArithConfig), MontgomeryPlan]()
  /** planning explores many layouts: once per field and configuration */
  def apply(field: FieldConfig, cfg: ArithConfig): MontgomeryPlan =
    cache.synchronized(cache.getOrElseUpdate((field, cfg), new MontgomeryPlan(field, cfg)))
}
