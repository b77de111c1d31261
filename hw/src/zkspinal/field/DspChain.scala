package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._

/** One link of a DSP cascade: the product a*b (a on the 27-bit port, b on the 18-bit port) at bit `weight`. */
case class Link(a: Operand, b: Operand, weight: Int)

/** A part of a chain's output row: `bits` bits at bit `offset`, two's complement when `signed`, leaving the chain
  * `lag` stages after the chain's first operands. */
case class Segment(offset: Int, bits: Int, signed: Boolean, lag: Int)

/** A DSP cascade summing its links' products (UG579's "wide multiplier" use of PCIN):
  *
  *   P_0 = a_0 b_0,    P_k = a_k b_k + (P_{k-1} >> 17)  if w_k = w_{k-1} + 17   (Z = PCIN >> 17, arithmetic)
  *                     P_k = a_k b_k + P_{k-1}          if w_k = w_{k-1}        (Z = PCIN)
  *
  * so sum_k a_k b_k 2^{w_k} = sum over shifting links of (P_{k-1} mod 2^17) 2^{w_{k-1}} + P_last 2^{w_last}: each
  * link followed by a shift hands its low 17 bits out as a digit, the last link its whole P.  A chain of L links
  * gives the heap one row (about 17 bits per link plus the last P) where the products would be L rows, and no
  * LUT adder sits between two links.  Consecutive links multiplying the same runtime `a` take it through the A
  * cascade (ACOUT -> ACIN), which is the one-stage skew the chain needs; every other operand is delayed to its
  * link's stage by registers shared through [[Operand.at]].
  *
  * The ranges of the operands bound every P_k; the chain is only built when they fit the 48-bit accumulator.
  */
case class DspChain(links: Seq[Link]) {
  import DspChain._
  require(links.nonEmpty, "a chain needs a link")
  for (Seq(x, y) <- links.sliding(2) if links.size > 1)
    require(y.weight == x.weight || y.weight == x.weight + Dsp48e2.shift, s"link weights ${x.weight} -> ${y.weight}")
  for (l <- links) {
    require(fits(l.a, Dsp48e2.aBits), s"A operand [${l.a.lo}, ${l.a.hi}] exceeds the 27-bit port")
    require(fits(l.b, Dsp48e2.bBits), s"B operand [${l.b.lo}, ${l.b.hi}] exceeds the 18-bit port")
  }

  /** the range of every link's P */
  val ranges: Seq[(BigInt, BigInt)] = links.indices.scanLeft((BigInt(0), BigInt(0))) { case ((lo, hi), k) =>
    val (mlo, mhi) = productRange(links(k).a, links(k).b)
    if (k == 0) (mlo, mhi)
    else if (shifts(k)) (Operand.floorDiv(lo, shiftDiv) + mlo, Operand.floorDiv(hi, shiftDiv) + mhi)
    else (lo + mlo, hi + mhi)
  }.tail
  for ((lo, hi) <- ranges)
    require(lo >= -(BigInt(1) << 47) && hi < (BigInt(1) << 47), s"chain partial sum [$lo, $hi] exceeds 48 bits")

  private def shifts(k: Int): Boolean = k > 0 && links(k).weight != links(k - 1).weight
  /** links whose A operand comes from the previous link's A register */
  private def cascaded(k: Int): Boolean = k > 0 && links(k).a.constant.isEmpty && (links(k).a eq links(k - 1).a)

  /** the row this chain hands out: digits of links followed by a shift, then the last P */
  val segments: Seq[Segment] = {
    val digits = for (k <- 0 until links.size - 1 if shifts(k + 1))
      yield Segment(links(k).weight, Dsp48e2.shift, signed = false, lag = k + Dsp48e2.latency)
    val (lo, hi) = ranges.last
    digits :+ Segment(links.last.weight, if (lo < 0) Operand.signedWidth(lo, hi) else hi.bitLength max 1, lo < 0,
      links.size - 1 + Dsp48e2.latency)
  }

  /** first stage at which every link's operands can be presented: link k takes its operands at start + k */
  def start: Int = links.indices.map { k =>
    val a = if (cascaded(k) || links(k).a.constant.isDefined) 0 else links(k).a.ready - k
    val b = if (links(k).b.constant.isDefined) 0 else links(k).b.ready - k
    a max b
  }.max max 0

  /** Builds the DSPs (a [[DspCascade]] component: a chain is one module of the Verilog); returns each segment's
    * value (UInt digits, SInt or UInt last part) at its stage. */
  def build(cfg: ArithConfig): Seq[(Segment, Timed[Bits])] = {
    val s0 = start
    val c = new DspCascade(this, cfg.dspPrimitives)
    for ((k, i) <- c.aLinks.zipWithIndex) c.io.a(i) := links(k).a.at(s0 + k).resize(Dsp48e2.aBits)
    for ((k, i) <- c.bLinks.zipWithIndex) c.io.b(i) := links(k).b.at(s0 + k).resize(Dsp48e2.bBits)
    if (c.aLinks.isEmpty) c.io.a(0) := 0
    if (c.bLinks.isEmpty) c.io.b(0) := 0
    segments.zip(c.io.segments).map { case (seg, v) => seg -> Timed(v, s0 + seg.lag) }
  }

  /** links whose A comes from the previous link's A register, for [[DspCascade]] */
  def aCascaded(k: Int): Boolean = cascaded(k)
  /** links that shift the previous P by 17 bits, for [[DspCascade]] */
  def shiftsAt(k: Int): Boolean = shifts(k)
}

/** The DSPs of one [[DspChain]]: operand ports for its runtime operands (link k's at stage k), the constants
  * inside, one output per segment (its bits at the segment's lag).  Every chain is a module of its own: the
  * Verilog stays hierarchical, identical chains share a definition, and an elaboration of hundreds of DSPs does not
  * put them all in one component. */
class DspCascade(chain: DspChain, primitive: Boolean) extends Component {
  private val links = chain.links
  /** the links with a port for their A (runtime, not cascaded) and for their B (runtime) operand */
  val aLinks: Seq[Int] = links.indices.filter(k => links(k).a.constant.isEmpty && !chain.aCascaded(k))
  val bLinks: Seq[Int] = links.indices.filter(k => links(k).b.constant.isEmpty)
  val io = new Bundle {
    val a = in(Vec(SInt(Dsp48e2.aBits bits), aLinks.size max 1))
    val b = in(Vec(SInt(Dsp48e2.bBits bits), bLinks.size max 1))
    val segments = out(Vec(chain.segments.map(s => Bits(s.bits bits))))
  }
  private def operand(x: Operand, ports: Seq[Int], v: Vec[SInt], k: Int, bits: Int): SInt =
    x.constant.map(c => S(c, bits bits)).getOrElse(v(ports.indexOf(k)))
  private var prev: Dsp48e2.Out = null
  private val outs = links.indices.map { k =>
    val shape = Dsp48e2.Shape(
      z = if (k == 0) Dsp48e2.ZeroZ else if (chain.shiftsAt(k)) Dsp48e2.PcinShift else Dsp48e2.Pcin,
      aCascade = chain.aCascaded(k))
    val in = Dsp48e2.In(
      a = if (shape.aCascade) null else operand(links(k).a, aLinks, io.a, k, Dsp48e2.aBits),
      b = operand(links(k).b, bLinks, io.b, k, Dsp48e2.bBits),
      pcin = if (k == 0) null else prev.pcout,
      acin = if (shape.aCascade) prev.acout else null)
    prev = Dsp48e2.link(shape, in, primitive)
    prev
  }
  for ((seg, o) <- chain.segments.zip(io.segments))
    o := outs(seg.lag - Dsp48e2.latency).p(seg.bits - 1 downto 0).asBits
}

object DspChain {
  private val shiftDiv = BigInt(1) << Dsp48e2.shift
  def fits(x: Operand, bits: Int): Boolean = x.lo >= -(BigInt(1) << (bits - 1)) && x.hi < (BigInt(1) << (bits - 1))
  def productRange(a: Operand, b: Operand): (BigInt, BigInt) = {
    val c = for (x <- Seq(a.lo, a.hi); y <- Seq(b.lo, b.hi)) yield x * y
    (c.min, c.max)
  }
}

object DspChainPack {
  /** Links in order cut into chains: a new chain starts where the weight steps by other than 0 or 17, where the
    * 48-bit accumulator would overflow, or after `maxChain` links. */
  def apply(links: Seq[Link], cfg: ArithConfig): Seq[DspChain] = {
    val out = scala.collection.mutable.ArrayBuffer[Seq[Link]]()
    var cur = Vector[Link]()
    def ok(c: Seq[Link]): Boolean = scala.util.Try(DspChain(c)).isSuccess
    for (l <- links) {
      val next = cur :+ l
      if (cur.nonEmpty && (next.size > cfg.maxChain || !ok(next))) { out += cur; cur = Vector(l) } else cur = next
    }
    if (cur.nonEmpty) out += cur
    out.map(DspChain(_)).toSeq
  }
}
