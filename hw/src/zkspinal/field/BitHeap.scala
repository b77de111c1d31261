package zkspinal.field

import spinal.core._
import scala.collection.mutable.ArrayBuffer

/** A bit heap: a sum of many shifted (and possibly negated) terms, computed modulo 2^width.
  *
  * Terms are packed into as few rows as the column height allows (non-overlapping terms share a row); rows
  * are then reduced six to three by (6:3) counters: per column, the six bits' count s0 + 2 s1 + 4 s2, each
  * output a function of six inputs, so one LUT6 each (a Wallace tree on whole rows: one LUT level per layer,
  * `levelsPerStage` layers between registers).  A counter removes three bits with three LUTs, a 3:2 carry-save
  * adder one bit with two (sum and carry), so the tree costs about half the LUTs and halves the row count per
  * level instead of taking two thirds; a last 3:2 layer leaves two rows, which a [[WideAdder]] adds.  Whole-row
  * operations keep the emitted Verilog compact; bits that are constant zero cost nothing after synthesis.
  * Karatsuba recombination, Montgomery reduction and constant multiplication all end in one heap.
  *
  * Negation without sign extension: for a w-bit x at shift s, and a runtime flag neg,
  *   S = neg ? -x : x  satisfies  S + 2^w = (x XOR neg) + (!neg)*2^w + neg      (bitwise XOR with neg)
  * so a conditionally negated term costs its w bits, two single bits and the constant -2^(w+s).
  */
class BitHeap(val width: Int, cfg: ArithConfig) {
  require(width > 0)
  private sealed trait Term { def at: Int }
  private case class Plain(x: Timed[UInt], shift: Int) extends Term { def at = x.at }
  private case class CondNeg(x: Timed[UInt], neg: Timed[Bool], shift: Int) extends Term { def at = x.at max neg.at }
  private case class Bit(b: Timed[Bool], shift: Int) extends Term { def at = b.at }
  private val terms = ArrayBuffer[Term]()
  private var constant = BigInt(0)
  private val modulus = BigInt(1) << width

  def add(x: Timed[UInt], shift: Int = 0): this.type = { if (shift < width) terms += Plain(x, shift); this }
  def addBit(b: Timed[Bool], shift: Int = 0): this.type = { if (shift < width) terms += Bit(b, shift); this }
  def addConst(c: BigInt): this.type = { constant = (constant + c).mod(modulus); this }
  /** Adds (neg ? -x : x) * 2^shift. */
  def addCondNeg(x: Timed[UInt], neg: Timed[Bool], shift: Int = 0): this.type = {
    if (shift < width) {
      terms += CondNeg(x, neg, shift)
      addConst(-(BigInt(1) << (x.value.getWidth + shift)))
    }
    this
  }
  /** Subtracts x * 2^shift:  -x = ~x + 1 - 2^w  over w bits. */
  def sub(x: Timed[UInt], shift: Int = 0): this.type = {
    if (shift < width) {
      terms += Plain(x.map(v => ~v), shift)
      addConst((BigInt(1) << shift) - (BigInt(1) << (x.value.getWidth + shift)))
    }
    this
  }

  def isEmpty: Boolean = terms.isEmpty

  /** Compresses and adds everything (mod 2^width). */
  def sum(): Timed[UInt] = {
    val (rows, at) = compress()
    if (rows.size == 1) Timed(rows(0), at)
    else WideAdder(Timed(rows(0), at), Timed(rows(1), at), width, cfg)
  }

  /** Compresses to one or two rows whose sum is the heap's value mod 2^width.  Where every term is
    * non-negative and width covers the largest possible sum, no carry is dropped and the rows add up to the
    * exact value. */
  def compress(): (Seq[UInt], Int) = {
    val start = if (terms.isEmpty) 0 else terms.map(_.at).max
    // every term becomes one or more segments (value, offset) below `width`
    val segments = ArrayBuffer[BitHeap.Row]()
    def put(v: UInt, s: Int): Unit = if (s < width) segments += BitHeap.Row(v.resize((v.getWidth min (width - s)) max 1), s)
    // conditional negations get their XOR and a register of their own (one stage, every term delayed with them)
    // so that the first counter layer sees plain bits: a counter's six inputs fill a LUT6, six XORed inputs would
    // need twelve (measured on the 255-bit MontgomeryMul: 48.3k LUTs against 59.3k with the XOR merged)
    val negStage = if (terms.exists(_.isInstanceOf[CondNeg])) 1 else 0
    def late(u: UInt): UInt = if (negStage == 1) RegNext(u) else u
    terms.foreach {
      case Plain(x, s) => put(late(x.to(start)), s)
      case CondNeg(x, n, s) =>
        val v = x.to(start); val neg = n.to(start)
        put(late(v ^ B(v.getWidth bits, default -> neg).asUInt), s)
        put(late((!neg).asUInt), s + v.getWidth)
        put(late(neg.asUInt), s)
      case Bit(b, s) => put(late(b.to(start).asUInt), s)
    }
    for (i <- 0 until width if constant.testBit(i)) put(U(1, 1 bits), i)
    var rows = BitHeap.pack(segments.toSeq, width)
    var at = start + negStage
    var layers = 0
    while (rows.size > 2) {
      rows = BitHeap.counterLayer(rows, width)
      layers += 1
      if (layers % cfg.levelsPerStage == 0 || rows.size <= 2) {
        rows = rows.map(r => BitHeap.Row(RegNext(r.value), r.lo))
        at += 1
      }
    }
    if (sys.env.contains("ZK_DEBUG")) println(s"heap width=$width start=$start layers=$layers end=$at terms=${terms.size} segs=${segments.size} bits=${segments.map(_.value.getWidth).sum} rows0=${BitHeap.pack(segments.toSeq, width).size} delays=${terms.map(t => start - t.at).sum}")
    (rows.map(_.full(width)) match { case Seq() => Seq(U(0, width bits)); case rs => rs }, at)
  }
}

object BitHeap {
  /** A row of the heap: `value` occupies bits [lo, lo + width) of the heap, zeros elsewhere. */
  case class Row(value: UInt, lo: Int) {
    def hi: Int = lo + value.getWidth
    /** this row's bits over [from, to) */
    def span(from: Int, to: Int): UInt = {
      require(from <= lo && hi <= to)
      val below = if (lo > from) U(0, lo - from bits) else null
      val above = if (to > hi) U(0, to - hi bits) else null
      Cat(Seq(below, value, above).filter(_ != null)).asUInt // Cat of a Seq: first element is the LSB
    }
    def full(width: Int): UInt = span(0, width max hi).resize(width)
  }

  /** Packs segments into as few rows as possible (first fit by offset): the heap's column height. */
  def pack(segments: Seq[Row], width: Int): Seq[Row] = {
    val rows = ArrayBuffer[ArrayBuffer[Row]]()
    for (seg <- segments.sortBy(s => (s.lo, -s.value.getWidth))) {
      rows.find(_.last.hi <= seg.lo) match {
        case Some(r) => r += seg
        case None    => rows += ArrayBuffer(seg)
      }
    }
    rows.map { segs =>
      val lo = segs.head.lo
      val hi = segs.last.hi
      var pos = lo
      val parts = ArrayBuffer[UInt]()
      for (s <- segs) {
        if (s.lo > pos) parts += U(0, s.lo - pos bits)
        parts += s.value
        pos = s.hi
      }
      Row(Cat(parts).asUInt, lo)
    }.toSeq
  }

  /** One layer of counters (one LUT level): rows sorted by position, in sixes through (6:3) counters; a last
    * group of four or five also through a counter (its missing inputs are zero), of three through a 3:2
    * carry-save adder, of one or two passed on. */
  def counterLayer(rows: Seq[Row], width: Int): Seq[Row] = {
    val sorted = rows.sortBy(r => (r.lo, r.hi))
    sorted.grouped(6).toSeq.flatMap { g =>
      if (g.size >= 4) counter63(g, width)
      else if (g.size == 3) csa(g(0), g(1), g(2), width)
      else g
    }
  }

  private def maj(x: UInt, y: UInt, z: UInt): UInt = (x & y) | (x & z) | (y & z)

  /** Row of `bits` (spanning [lo, lo + bits.width)) cut to the columns [from, to) where it may be non-zero. */
  private def cut(bits: UInt, lo: Int, from: Int, to: Int, width: Int): Option[Row] = {
    val f = from max lo
    val t = to min (lo + bits.getWidth) min width
    if (t <= f) None else Some(Row(bits(t - lo - 1 downto f - lo), f))
  }

  /** Bits at column c: x1 + 2c1 = a + b + c, x2 + 2c2 = d + e + f, x1 + x2 = s0 + 2k, so the count is
    * s0 + 2(c1 + c2 + k) = s0 + 2 s1 + 4 s2 with s1 = c1 ^ c2 ^ k, s2 = maj(c1, c2, k). */
  private def counter63(g: Seq[Row], width: Int): Seq[Row] = {
    val lo = g.map(_.lo).min
    val hi = g.map(_.hi).max
    val in = g.map(_.span(lo, hi)) ++ Seq.fill(6 - g.size)(U(0, hi - lo bits))
    val (x1, c1) = (in(0) ^ in(1) ^ in(2), maj(in(0), in(1), in(2)))
    val (x2, c2) = (in(3) ^ in(4) ^ in(5), maj(in(3), in(4), in(5)))
    val k = x1 & x2
    // columns where two (four) rows overlap: only there can s1 (s2) be non-zero
    def overlap(n: Int): (Int, Int) = {
      val cols = (lo until hi).filter(c => g.count(r => r.lo <= c && c < r.hi) >= n)
      if (cols.isEmpty) (0, 0) else (cols.head, cols.last + 1)
    }
    val (o2lo, o2hi) = overlap(2)
    val (o4lo, o4hi) = overlap(4)
    Seq(
      cut(x1 ^ x2, lo, lo, hi, width),
      cut(c1 ^ c2 ^ k, lo + 1, o2lo + 1, o2hi + 1, width),
      cut(maj(c1, c2, k), lo + 2, o4lo + 2, o4hi + 2, width)
    ).flatten
  }

  /** 3:2 carry-save adder: sum row + carry row. */
  private def csa(a: Row, b: Row, c: Row, width: Int): Seq[Row] = {
    val lo = a.lo min b.lo min c.lo
    val hi = a.hi max b.hi max c.hi
    val (x, y, z) = (a.span(lo, hi), b.span(lo, hi), c.span(lo, hi))
    Seq(Some(Row(x ^ y ^ z, lo)), cut(maj(x, y, z), lo + 1, lo + 1, hi + 1, width)).flatten
  }
}
