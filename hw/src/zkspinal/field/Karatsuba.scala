package zkspinal.field

import spinal.core._
import spinal.lib._
import scala.collection.mutable
import scala.collection.mutable.ArrayBuffer

/** Karatsuba-Ofman multiplication flattened onto DSP tiles and one bit heap.
  *
  * One level with split factor k cuts each n-bit operand into k pieces of w = ceil(n/k) bits and uses the
  * subtractive form (k(k+1)/2 products instead of k^2):
  *   a*b = sum_i D_i x^(2i) + sum_{i<j} (D_i + D_j - M_ij) x^(i+j),   x = 2^w,
  *   D_i = a_i b_i,   M_ij = (a_i - a_j)(b_i - b_j) = s_ij |a_i - a_j| |b_i - b_j|
  * where s_ij = +-1 is known only at run time, so every piece product stays w x w unsigned.  Recursing on
  * D_i and |..|x|..| down to the base case gives a list of DSP tiles (tileA x tileB schoolbook), each used at
  * one or more shifts with a sign that is the XOR of the s_ij on its path.  All uses go into one [[BitHeap]]:
  * no intermediate carry-propagate adders.  A product needed only modulo 2^m (Montgomery's m = T*p' mod R)
  * keeps just the tiles that reach below bit m.
  */
object Karatsuba {
  /** An operand of the tile tree: runtime value or constant, hardware built only when a kept tile uses it. */
  sealed abstract class Node(val width: Int) {
    def constant: Option[BigInt]
    /** first stage at which the value exists */
    def ready: Int
    /** the value at a later stage (delay registers shared by every user) */
    def at(stage: Int): UInt
  }
  final class Source(t: => Timed[UInt], width: Int) extends Node(width) {
    private lazy val src = t
    private val delayed = mutable.Map[Int, UInt]()
    def constant = None
    def ready = src.at
    def at(stage: Int): UInt = {
      require(stage >= src.at)
      if (stage == src.at) src.value else delayed.getOrElseUpdate(stage, RegNext(at(stage - 1)))
    }
  }
  final class ConstNode(v: BigInt, width: Int) extends Node(width) {
    require(v >= 0 && v.bitLength <= width)
    def constant = Some(v)
    def ready = 0
    def at(stage: Int) = U(v, width bits)
  }
  final class SliceNode(parent: Node, lo: Int, width: Int) extends Node(width) {
    def constant = None
    def ready = parent.ready
    def at(stage: Int) = parent.at(stage)(((lo + width) min parent.width) - 1 downto lo).resize(width)
  }
  private def slice(x: Node, lo: Int, w: Int): Node = x.constant match {
    case Some(c)                 => new ConstNode((c >> lo) & ((BigInt(1) << w) - 1), w)
    case None if lo >= x.width => new ConstNode(0, w)
    case None                    => new SliceNode(x, lo, w)
  }
  /** |x - y| and the runtime flag (x < y). */
  private final class AbsDiff(x: Node, y: Node, w: Int, cfg: ArithConfig) {
    val (mag: Node, borrow: Sign) = (x.constant, y.constant) match {
      case (Some(cx), Some(cy)) => (new ConstNode((cx - cy).abs, w), Sign(Nil, cx < cy))
      case _ =>
        lazy val hwPair: (Timed[UInt], Timed[Bool]) = {
          val t = x.ready max y.ready
          val xw = Timed(x.at(t).resize(w + 1), t); val yw = Timed(y.at(t).resize(w + 1), t)
          val d1 = WideAdder(xw, yw.map(v => ~v), w + 1, cfg, cin = True) // x - y, msb = borrow
          val d2 = WideAdder(yw, xw.map(v => ~v), w + 1, cfg, cin = True) // y - x
          val borrow = d1.map(_.msb)
          (Timed(RegNext(Mux(borrow.value, d2.value, d1.value)(w - 1 downto 0)), d1.at + 1), borrow)
        }
        (new Source(hwPair._1, w), Sign(List(() => hwPair._2), false))
    }
  }
  /** Sign of a tile use: negative when the XOR of the runtime flags and `const` is 1. */
  case class Sign(flags: List[() => Timed[Bool]], const: Boolean) {
    def ^(o: Sign): Sign = Sign(flags ++ o.flags, const ^ o.const)
  }
  final class Tile(val a: Node, val b: Node) {
    def constant: Option[BigInt] = for (x <- a.constant; y <- b.constant) yield x * y
  }
  case class Use(tile: Tile, shift: Int, sign: Sign)

  private def ceilDiv(a: Int, b: Int) = (a + b - 1) / b

  /** All tile uses of a*b (n-bit operands) under the given split plan. */
  def expand(a: Node, b: Node, n: Int, splits: Seq[Int], cfg: ArithConfig): Seq[Use] = splits match {
    case Seq() =>
      // schoolbook on DSP tiles, orientation with fewer tiles
      val (ta, tb) =
        if (ceilDiv(a.width, cfg.tileA) * ceilDiv(b.width, cfg.tileB) <= ceilDiv(a.width, cfg.tileB) * ceilDiv(b.width, cfg.tileA))
          (cfg.tileA, cfg.tileB) else (cfg.tileB, cfg.tileA)
      for {
        i <- 0 until ceilDiv(a.width, ta)
        j <- 0 until ceilDiv(b.width, tb)
        ai = slice(a, i * ta, ta min (a.width - i * ta))
        bj = slice(b, j * tb, tb min (b.width - j * tb))
        if !ai.constant.contains(BigInt(0)) && !bj.constant.contains(BigInt(0))
      } yield Use(new Tile(ai, bj), i * ta + j * tb, Sign(Nil, false))
    case k +: rest =>
      val w = ceilDiv(n, k)
      require((k - 1) * w < n, s"split $k leaves an empty piece of a $n-bit operand")
      val as = (0 until k).map(i => slice(a, i * w, w))
      val bs = (0 until k).map(i => slice(b, i * w, w))
      val d = (0 until k).map(i => expand(as(i), bs(i), w, rest, cfg))
      def at(uses: Seq[Use], shift: Int, sign: Sign) = uses.map(u => Use(u.tile, u.shift + shift, u.sign ^ sign))
      val plus = Sign(Nil, false)
      val direct = (0 until k).flatMap(i => at(d(i), 2 * i * w, plus))
      val cross = for { i <- 0 until k; j <- i + 1 until k; u <- {
        val da = new AbsDiff(as(i), as(j), w, cfg)
        val db = new AbsDiff(bs(i), bs(j), w, cfg)
        // D_i + D_j - M_ij, and -M_ij is negative exactly when both differences have the same sign
        val m = expand(da.mag, db.mag, w, rest, cfg)
        at(d(i), (i + j) * w, plus) ++ at(d(j), (i + j) * w, plus) ++ at(m, (i + j) * w, da.borrow ^ db.borrow ^ Sign(Nil, true))
      } } yield u
      direct ++ cross
  }

  /** Distinct DSP tiles of a*b mod 2^m. */
  def tileCount(n: Int, m: Int, splits: Seq[Int], cfg: ArithConfig, bConst: Option[BigInt] = None): Int = {
    def planningOnly = new Source(throw new IllegalStateException("planning only"), n)
    val a = planningOnly
    val b = bConst.map(c => new ConstNode(c, n)).getOrElse(planningOnly)
    expand(a, b, n, splits, cfg).filter(_.shift < m).map(_.tile).distinct.count(_.constant.isEmpty)
  }

  /** Split plans worth trying: up to three levels of factors 2..8. */
  def candidatePlans(n: Int, cfg: ArithConfig): Seq[Seq[Int]] = {
    def valid(w: Int, plan: Seq[Int]): Boolean = plan match {
      case Seq() => true
      case k +: r => val pw = ceilDiv(w, k); (k - 1) * pw < w && pw >= (cfg.tileB min cfg.tileA) && valid(pw, r)
    }
    val factors = 2 to 8
    val plans = Seq(Seq.empty[Int]) ++ factors.map(Seq(_)) ++
      (for (a <- factors; b <- factors) yield Seq(a, b)) ++
      (for (a <- 2 to 4; b <- 2 to 4; c <- 2 to 4) yield Seq(a, b, c))
    plans.filter(valid(n, _))
  }

  /** The plan with the fewest DSP tiles for a*b mod 2^m (fewer levels on ties). */
  def bestPlan(n: Int, m: Int, cfg: ArithConfig, bConst: Option[BigInt] = None): Seq[Int] =
    cfg.koSplits.getOrElse(candidatePlans(n, cfg).minBy(p => (tileCount(n, m, p, cfg, bConst), p.size)))

  /** Adds a*b*2^shift (tiles below bit `heap.width`) into `heap`; returns the number of DSP tiles built. */
  def addProduct(heap: BitHeap, a: Node, b: Node, n: Int, splits: Seq[Int], cfg: ArithConfig, shift: Int = 0): Int = {
    val uses = expand(a, b, n, splits, cfg).map(u => u.copy(shift = u.shift + shift)).filter(_.shift < heap.width)
    val tiles = uses.map(_.tile).distinct
    val varTiles = tiles.filter(_.constant.isEmpty)
    // tile operands are aligned to one stage so all products reach the heap together
    val ready = (varTiles.flatMap(t => Seq(t.a, t.b)).filter(_.constant.isEmpty).map(_.ready) :+ 0).max
    val out = mutable.LinkedHashMap[Tile, Timed[UInt]]()
    for (t <- tiles) out(t) = t.constant match {
      case Some(c) => Timed(U(c, (t.a.width + t.b.width) bits), 0)
      case None    => Timed(Delay(t.a.at(ready) * t.b.at(ready), cfg.tileLatency), ready + cfg.tileLatency)
    }
    // sign flags are shared by many uses: one delay chain per flag, one XOR per distinct flag set
    val flagValue = mutable.Map[() => Timed[Bool], Timed[Bool]]()
    val flagDelayed = mutable.Map[(() => Timed[Bool], Int), Bool]()
    def flagAt(f: () => Timed[Bool], stage: Int): Bool = {
      val t = flagValue.getOrElseUpdate(f, f())
      if (stage == t.at) t.value else flagDelayed.getOrElseUpdate((f, stage), RegNext(flagAt(f, stage - 1)))
    }
    val negOf = mutable.Map[(List[() => Timed[Bool]], Boolean, Int), Bool]()
    for (u <- uses) {
      val v = out(u.tile)
      u.sign.flags match {
        case Nil => if (u.sign.const) heap.sub(v, u.shift) else heap.add(v, u.shift)
        case fs =>
          val at = (fs.map(f => flagValue.getOrElseUpdate(f, f()).at) :+ v.at).max
          val neg = negOf.getOrElseUpdate((fs, u.sign.const, at), fs.map(flagAt(_, at)).reduce(_ ^ _) ^ Bool(u.sign.const))
          heap.addCondNeg(v, Timed(neg, at), u.shift)
      }
    }
    varTiles.size
  }
}
