package zkspinal.msm

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._
import zkspinal.field._

/** Mixed addition B +- Q (bucket B = (X, Y, ZZ, ZZZ), point record Q = (x, y, m) with m = 3x^2: the host computes
  * it, the doubling case's tangent slope numerator) on a short Weierstrass curve with a = 0 (BN254, BLS12-381 G1), bucket in XYZZ coordinates,
  * fully pipelined: one addition accepted every cycle, the result `latency` cycles later.  Every value is a
  * Montgomery word; the model is reference_model/curves/xyzz.py (bucket_add), bit for bit.
  *
  * madd-2008-s (8M + 2S), with q' = +-y the signed ordinate:
  *   stage 1  A = x*ZZ   B = y*ZZZ                                  2 products
  *   stage 2  P = A - X   R = B - Y (B + Y when negated)            zero tests of P and R
  *   stage 3  PP = P^2   RR = R^2                                   2 products
  *   stage 4  PPP = P*PP   Q = X*PP   ZZ' = ZZ*PP                   3 products
  *   stage 5  X' = RR - PPP - 2Q;   ZZZ' = ZZZ*PPP   YP = Y*PPP     2 products
  *   stage 6  D = Q - X' (X' - Q when negated)
  *   stage 7  RD = R*D                                              1 product
  *   stage 8  Y' = RD - YP
  * Negation costs no product: with q' = -y, R = -(B + Y), so the adder uses R~ = B + Y and D~ = X' - Q, whose
  * product is R*(Q - X'), and whose square is R^2.
  *
  * The special cases, exact (reference_model/curves/xyzz.py):
  *   load    ZZ = 0 (the bucket is at infinity): the output is (x, q', 1, 1)
  *   double  P = 0 and R = 0 (the point equals the bucket): from stage 3 on the same data path computes
  *           mdbl-2008-s-1 of the affine point, P := 2q', R := m = 3x^2, (X, Y, ZZ, ZZZ) := (x, q', 1, 1), and X'
  *           drops the PPP term: X' = m^2 - 2x(2q')^2,  Y' = m(Q - X') - q'(2q')^3,  ZZ' = (2q')^2,  ZZZ' = (2q')^3
  *   cancel  P = 0 and R != 0 (the point is minus the bucket): PP = 0, so ZZ' = ZZZ' = 0, the point at infinity,
  *           with no case of its own
  *   skip    the point at infinity: never sent here (the lane drops its additions)
  */
class XyzzAdder(val field: FieldConfig, cfg: ArithConfig = ArithConfig(), mulModel: Boolean = false,
                regions: Map[String, Int] = Map.empty) extends BucketAdder {
  private val n = field.width
  val io = new Bundle {
    val input = slave(Flow(AdderInput(n))) // s = bucket (X, Y, ZZ, ZZZ), q = record (x, y, m = 3x^2)
    val output = master(Flow(Vec(UInt(n bits), 4))) // (X', Y', ZZ', ZZZ')
  }
  private val one = U(field.rModP, n bits) // 1 in the Montgomery domain

  /** the input's valid at stage s (registers made once, as the stages ask for them) */
  private val validAt = scala.collection.mutable.ArrayBuffer(io.input.valid)
  private def validAtStage(s: Int): Bool = {
    while (validAt.size <= s) validAt += RegNext(validAt.last, init = False)
    validAt(s)
  }
  private def core(name: String, c: => FlowCore, a: Timed[UInt], b: Timed[UInt]): Timed[UInt] = {
    require(a.at == b.at, s"$name: operands of one stage (${a.at}, ${b.at})")
    val m = c.setName(name)
    // a data path: the valid bit travels beside it (io.output.valid); the multiplier model computes only for a valid
    // operation (MontgomeryMulModel), so the twin gets the stage's valid, the real cores need none
    m.io.input.valid := (if (mulModel) validAtStage(a.at) else True)
    m.io.input.payload(0) := a.value
    m.io.input.payload(1) := b.value
    Timed(m.io.output.payload, a.at + m.latency)
  }
  private val muls = scala.collection.mutable.ArrayBuffer[FlowCore]()
  private val mulNames = scala.collection.mutable.ArrayBuffer[String]()
  /** A product; one of a region (LaneSplit: it sits in another SLR than the rest of the adder) is instance
    * far<r>_<name>, and its operands leave a register here and its result lands in one: with the core's own operand
    * and result registers, every net between the SLRs runs flop to flop (one cycle more on each side). */
  private def mul(name: String, a: Timed[UInt], b: Timed[UInt]): Timed[UInt] = {
    mulNames += name
    def make = { val m = MontgomeryMulModel.make(field, cfg, mulModel); muls += m; m }
    regions.get(name) match {
      case None => core(name, make, a, b)
      case Some(r) =>
        def launch(x: Timed[UInt], k: Int) = Timed(RegNext(x.value).setName(s"${name}_launch$k"), x.at + 1)
        val la = launch(a, 0)
        val out = core(s"far${r}_$name", make, la, if (b eq a) la else launch(b, 1))
        Timed(RegNext(out.value).setName(s"${name}_landed"), out.at + 1)
    }
  }
  private def add(name: String, a: Timed[UInt], b: Timed[UInt]) = core(name, new ModAdd(field, cfg), a, b)
  private def sub(name: String, a: Timed[UInt], b: Timed[UInt]) = core(name, new ModSub(field, cfg), a, b)
  /** two values of different stages, both moved to the later one */
  private def align(a: Timed[UInt], b: Timed[UInt]): (Timed[UInt], Timed[UInt]) = {
    val s = a.at max b.at
    (a.delayedTo(s), b.delayedTo(s))
  }
  private def mux[T <: Data](sel: Timed[Bool], t: Timed[T], f: Timed[T]): Timed[T] = {
    val s = Timed.latest(Seq(sel, t, f))
    Timed(Mux(sel.to(s), t.to(s), f.to(s)), s)
  }
  /** x == 0, registered after each level of 6-input ORs beyond the first two */
  private def isZero(x: Timed[UInt]): Timed[Bool] = {
    var bits: Seq[Bool] = x.value.asBools.toSeq
    var at = x.at
    var levels = 0
    while (bits.size > 1) {
      bits = bits.grouped(6).map(g => g.reduce(_ || _)).toSeq
      levels += 1
      if (levels % cfg.levelsPerStage == 0 && bits.size > 1) { bits = bits.map(RegNext(_)); at += 1 }
    }
    Timed(!RegNext(bits.head), at + 1)
  }

  private val in = io.input.payload
  private def input[T <: Data](x: T) = Timed(x, 0)
  private val (bx, by, bzz, bzzz) = (input(in.s(0)), input(in.s(1)), input(in.s(2)), input(in.s(3)))
  private val (qx, qy, qm) = (input(in.q(0)), input(in.q(1)), input(in.q(2)))
  private val neg = input(in.negate)
  private val load = isZero(bzz)

  // the signed ordinate q' = +-y (needed from stage 3 on: the doubling case and the load output)
  private val qyNeg = sub("qyNeg", input(U(0, n bits)), qy)
  private val qs = mux(neg, qyNeg, qy.delayedTo(qyNeg.at))

  // stage 1
  private val a = mul("a", qx, bzz)
  private val b = mul("b", qy, bzzz)
  val mulLatency: Int = a.at

  // stage 2
  private val p = sub("p", a, bx.delayedTo(a.at))
  private val rPos = sub("rPos", b, by.delayedTo(b.at))
  private val rNeg = add("rNeg", b, by.delayedTo(b.at))
  private val r = mux(neg, rNeg, rPos)
  private val pZero = isZero(p)
  private val rZero = isZero(r)
  private val double = {
    val s = Timed.latest(Seq(pZero, rZero, load))
    Timed(pZero.to(s) && rZero.to(s) && !load.to(s), s)
  }
  /** a constant at the stage of `t` */
  private def const(v: UInt, t: Timed[_ <: Data]) = Timed(v, t.at)

  // stage 3: the doubling case replaces P, R and the bucket by the affine point's operands
  private val twoQs = add("twoQs", qs, qs)
  private val pSel = mux(double, twoQs, p)
  private val rSel = mux(double, qm, r)
  private val (pS, rS) = align(pSel, rSel)
  private val pp = mul("pp", pS, pS)
  private val rr = mul("rr", rS, rS)
  private def bucketOr(affine: Timed[UInt], coord: Timed[UInt]) = mux(double, affine, coord)
  private val xSel = bucketOr(qx, bx)
  private val ySel = bucketOr(qs, by)
  private val zzSel = bucketOr(const(one, double), bzz)
  private val zzzSel = bucketOr(const(one, double), bzzz)

  // stage 4
  private val pS4 = pS.delayedTo(pp.at)
  private val ppp = mul("ppp", pS4, pp)
  private val q = mul("q", xSel.delayedTo(pp.at), pp)
  private val zzOut = mul("zzOut", zzSel.delayedTo(pp.at), pp)

  // stage 5: X' = RR - PPP - 2Q (the doubling case drops PPP)
  private val pppOrZero = mux(double, const(U(0, n bits), ppp), ppp)
  private val t1 = sub("t1", rr.delayedTo(pppOrZero.at), pppOrZero)
  private val q2 = add("q2", q, q)
  private val (t1A, q2A) = align(t1, q2)
  private val xOut = sub("xOut", t1A, q2A)
  private val zzzOut = mul("zzzOut", zzzSel.delayedTo(ppp.at), ppp)
  private val yp = mul("yp", ySel.delayedTo(ppp.at), ppp)

  // stage 6: D = Q - X', or X' - Q for a negated addition (not for a doubling: its R is the true m)
  private val flip = Timed(neg.to(double.at) && !double.value, double.at)
  private val dPos = sub("dPos", q.delayedTo(xOut.at), xOut)
  private val dNeg = sub("dNeg", xOut, q.delayedTo(xOut.at))
  private val d = mux(flip, dNeg, dPos)

  // stage 7, 8
  private val rd = mul("rd", rS.delayedTo(d.at), d)
  private val yOut = sub("yOut", rd, yp.delayedTo(rd.at))

  private val results = Seq(xOut, yOut, zzOut, zzzOut)
  /** cycles from an accepted input to its result */
  val latency: Int = Timed.latest(results)

  private val loadL = load.to(latency)
  private val loaded = Seq(qx.to(latency), qs.to(latency), one, one)
  io.output.valid := Delay(io.input.valid, latency, init = False)
  for (i <- 0 until 4) io.output.payload(i) := Mux(loadL, loaded(i), results(i).to(latency))

  require(regions.keySet.subsetOf(mulNames.toSet),
    s"products ${regions.keySet -- mulNames} in a region are not among the adder's ${mulNames.mkString(", ")}")
  val multipliers: Int = muls.size
  val dspTiles: Int = muls.map(_.dspTiles).sum
  def input: Flow[AdderInput] = io.input
  def output: Flow[Vec[UInt]] = io.output
  /** every bucket starts as (0, 0, 0, 0): ZZ = 0 is the point at infinity */
  def identity: Seq[BigInt] = Seq.fill(4)(BigInt(0))
  /** the record (0, 0, 0) of the point at infinity would be added as a point: the engine drops its additions */
  def skipsInfinity: Boolean = true
}
