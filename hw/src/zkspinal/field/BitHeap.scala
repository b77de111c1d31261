package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._
import scala.collection.mutable.ArrayBuffer

/** A bit heap: a sum of many shifted (and possibly negated) terms, computed modulo 2^width.
  *
  * The terms' bits are sorted into columns and reduced column by column, one LUT level per layer, until no column
  * holds more than three bits: six bits of a column go through a (6:3) counter (their count s0 + 2 s1 + 4 s2,
  * each output a function of six inputs: one LUT6, three LUTs for three bits removed), five through a (5:3)
  * counter, three or four through a full adder (3:2); one or two bits pass.  A layer roughly halves every column,
  * `levelsPerStage` layers between registers.  The three rows left go to a three-input adder ([[WideAdder.add3]]),
  * whose carry-save step shares the adder's LUTs.  Working on columns (not on whole rows) spends LUTs only where
  * bits overlap: the rows of DSP chains are ragged, and a counter over rows that barely overlap removes nothing.
  *
  * Negative and signed terms cost no sign extension: -x = ~x + 1 - 2^w over w bits, and a signed w-bit x is
  * (x XOR 2^(w-1)) - 2^(w-1); the constants add up into one constant of the heap.
  */
class BitHeap(val width: Int, cfg: ArithConfig) {
  require(width > 0)
  private sealed trait Term { def at: Int }
  private case class Plain(x: Timed[UInt], shift: Int) extends Term { def at = x.at }
  private case class Bit(b: Timed[Bool], shift: Int) extends Term { def at = b.at }
  private val terms = ArrayBuffer[Term]()
  private var constant = BigInt(0)
  private val modulus = BigInt(1) << width

  def add(x: Timed[UInt], shift: Int = 0): this.type = { if (shift < width) terms += Plain(x, shift); this }
  def addBit(b: Timed[Bool], shift: Int = 0): this.type = { if (shift < width) terms += Bit(b, shift); this }
  def addConst(c: BigInt): this.type = { constant = (constant + c).mod(modulus); this }
  /** Subtracts x * 2^shift:  -x = ~x + 1 - 2^w  over w bits. */
  def sub(x: Timed[UInt], shift: Int = 0): this.type = {
    if (shift < width) {
      terms += Plain(x.map(v => ~v), shift)
      addConst((BigInt(1) << shift) - (BigInt(1) << (x.value.getWidth + shift)))
    }
    this
  }

  /** Adds x * 2^shift (`negative`: subtracts it), x the bits of an unsigned or (`signed`) two's complement value;
    * the part of the term below heap bit `from` is left out, i.e. floor(x / 2^(from - shift)) is added at `from`
    * (the callers account for what is dropped).  A signed w-bit x is (x XOR 2^(w-1)) - 2^(w-1). */
  def addTerm(x: Timed[Bits], shift: Int, signed: Boolean, negative: Boolean, from: Int = 0): this.type = {
    val w = x.value.getWidth
    val cut = (from - shift) max 0
    if (cut >= w && !signed) return this
    // the kept part: bits [cut, w) (for a signed x cut past its width: the sign bit alone, as a 1-bit signed value)
    val (v, at) = if (cut == 0) (x.value, shift) else if (cut < w) (x.value(w - 1 downto cut), shift + cut)
                  else (x.value(w - 1 downto w - 1), shift + cut)
    val kw = v.getWidth
    if (at >= width) return this
    if (!signed) { if (negative) sub(Timed(v.asUInt, x.at), at) else add(Timed(v.asUInt, x.at), at) }
    else {
      val flipped = Timed((v ^ (B(1, kw bits) |<< (kw - 1))).asUInt, x.at)
      if (negative) { sub(flipped, at); addConst(BigInt(1) << (kw - 1 + at)) }
      else { add(flipped, at); addConst(-(BigInt(1) << (kw - 1 + at))) }
    }
    this
  }

  def isEmpty: Boolean = terms.isEmpty

  /** Compresses and adds everything (mod 2^width). */
  def sum(): Timed[UInt] = {
    val (rows, at) = compress()
    rows match {
      case Seq(r)       => Timed(r, at)
      case Seq(a, b)    => WideAdder(Timed(a, at), Timed(b, at), width, cfg)
      case Seq(a, b, c) => WideAdder.add3(Timed(a, at), Timed(b, at), Timed(c, at), width, cfg)
    }
  }

  /** Compresses to at most three rows (of `width` bits) whose sum is the heap's value mod 2^width.  Where every term
    * is non-negative and width covers the largest possible sum, no carry is dropped and the rows add up to the
    * exact value. */
  def compress(): (Seq[UInt], Int) = {
    val start = if (terms.isEmpty) 0 else terms.map(_.at).max
    val cols = Array.fill(width)(ArrayBuffer[Bool]())
    def put(v: UInt, s: Int): Unit = for (i <- 0 until v.getWidth if s + i < width) cols(s + i) += v(i)
    terms.foreach {
      case Plain(x, s) => put(x.to(start), s)
      case Bit(b, s)   => put(b.to(start).asUInt, s)
    }
    for (i <- 0 until width if constant.testBit(i)) cols(i) += True
    val bitsIn = cols.map(_.size).sum
    var at = start
    var layers = 0
    var heap = cols.map(_.toSeq)
    while (heap.exists(_.size > 3)) {
      // a register after every levelsPerStage layers and after the last one
      val register = (layers + 1) % cfg.levelsPerStage == 0 || BitHeap.heights(heap.map(_.size), width).forall(_ <= 3)
      heap = BitHeap.layer(heap, width, register)
      layers += 1
      if (register) at += 1
    }
    if (sys.env.contains("ZK_DEBUG"))
      println(s"heap width=$width start=$start layers=$layers end=$at terms=${terms.size} bits=$bitsIn height=${cols.map(_.size).max}")
    val rows = (0 until (heap.map(_.size).max max 1)).map(r => BitHeap.gather(heap.map(c => c.lift(r).getOrElse(False)).toSeq).asUInt)
    (rows, at)
  }
}

object BitHeap {
  /** bits(i) = bs(i), one assignment per bit (a Cat of many bits nests one concatenation per bit in the Verilog) */
  def gather(bs: Seq[Bool]): Bits = {
    val v = Bits(bs.size bits)
    for ((b, i) <- bs.zipWithIndex) v(i) := b
    v
  }
  /** how a column of h bits is cut into counters by [[layer]] (sizes of its counters; the rest passes) */
  private def groups(h: Int): Seq[Int] = Seq.fill(h / 6)(6) ++ (h % 6 match { case 5 => Seq(5); case 3 | 4 => Seq(3); case _ => Nil })
  /** column heights after one [[layer]] */
  def heights(h: Array[Int], width: Int): Array[Int] = {
    val next = Array.fill(width)(0)
    for (c <- 0 until width) {
      val g = groups(h(c))
      next(c) += g.size + h(c) - g.sum
      if (c + 1 < width) next(c + 1) += g.size
      if (c + 2 < width) next(c + 2) += g.count(_ >= 4)
    }
    next
  }
  private def maj(x: Bits, y: Bits, z: Bits): Bits = (x & y) | (x & z) | (y & z)

  /** One layer of counters on every column (see the class comment); bits past the heap's width are dropped.
    * All counters of a layer are evaluated as vectors (input j of counter i is bit i of vector j), so the
    * Verilog holds a few wide expressions per layer, not one per counter; `register` puts the layer's outputs in
    * registers. */
  def layer(cols: Array[Seq[Bool]], width: Int, register: Boolean): Array[Seq[Bool]] = {
    case class Counter(col: Int, in: Seq[Bool])
    val counters = ArrayBuffer[Counter]()
    val pass = ArrayBuffer[(Int, Bool)]()
    for (c <- 0 until width) {
      val bits = cols(c)
      var i = 0
      for (k <- groups(bits.size)) { counters += Counter(c, bits.slice(i, i + k)); i += k }
      bits.drop(i).foreach(b => pass += c -> b)
    }
    def reg(v: Bits): Bits = if (register) RegNext(v) else v
    val next = Array.fill(width)(ArrayBuffer[Bool]())
    def out(c: Int, b: Bool): Unit = if (c < width) next(c) += b
    if (counters.nonEmpty) {
      val in = (0 until 6).map(j => gather(counters.map(_.in.lift(j).getOrElse(False)).toSeq))
      // count = s0 + 2 s1 + 4 s2 of six bits: x1 + 2 c1 = a + b + c, x2 + 2 c2 = d + e + f, x1 + x2 = s0 + 2k,
      // so the count is s0 + 2 (c1 + c2 + k): s1 = c1 ^ c2 ^ k, s2 = maj(c1, c2, k); each a function of six bits
      val (x1, c1) = (in(0) ^ in(1) ^ in(2), maj(in(0), in(1), in(2)))
      val (x2, c2) = (in(3) ^ in(4) ^ in(5), maj(in(3), in(4), in(5)))
      val k = x1 & x2
      val s = Seq(reg(x1 ^ x2), reg(c1 ^ c2 ^ k), reg(maj(c1, c2, k)))
      LutModel.add(counters.map(c => if (c.in.size >= 4) 3 else 2).sum)
      for ((cnt, i) <- counters.zipWithIndex) {
        out(cnt.col, s(0)(i)); out(cnt.col + 1, s(1)(i))
        if (cnt.in.size >= 4) out(cnt.col + 2, s(2)(i))
      }
    }
    if (pass.nonEmpty) {
      val p = reg(gather(pass.map(_._2).toSeq))
      for (((c, _), i) <- pass.zipWithIndex) out(c, p(i))
    }
    next.map(_.toSeq)
  }
}
