package zkspinal.msm

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._
import zkspinal.field._

/** A bucket adder's operands: the bucket S (4 words: (U, V, W, T) in twisted Edwards, (X, Y, ZZ, ZZZ) in XYZZ), the
  * point record Q (3 words: (QM, QP, QT), or (x, y, 3x^2)), and the sign. */
case class AdderInput(n: Int) extends Bundle {
  val s = Vec(UInt(n bits), 4)
  val q = Vec(UInt(n bits), 3)
  val negate = Bool()
}

/** The engine's view of a bucket adder ([[MsmLane]]): S +- Q accepted every cycle, the result `latency` cycles
  * later, fully pipelined.  `identity` is the empty bucket (Montgomery words) and `skipsInfinity` says the point at
  * infinity must not reach the adder (its record is all zero; the engine drops its additions). */
trait BucketAdder extends Component {
  def input: Flow[AdderInput]
  def output: Flow[Vec[UInt]]
  def latency: Int
  def multipliers: Int
  def dspTiles: Int
  def identity: Seq[BigInt]
  def skipsInfinity: Boolean
}

object BucketAdder {
  /** the adder of the curve's form */
  def apply(curve: CurveConfig, cfg: ArithConfig, mulModel: Boolean,
            split: Option[LaneSplit] = None): BucketAdder = curve.form match {
    case CurveForm.TwistedEdwards =>
      require(split.isEmpty, "the twisted Edwards adder keeps its products together")
      new TwistedEdwardsAdder(curve.field, cfg, mulModel)
    case CurveForm.Weierstrass(_) => new XyzzAdder(curve.field, cfg, mulModel, split.fold(Map.empty[String, Int])(_.productRegion))
  }
}

/** Mixed addition S +- Q on the twisted Edwards curve (a = -1), fully pipelined: one addition accepted every
  * cycle, the result `latency` cycles later.  The data-flow graph is MIXED_ADD_SCHEDULE of
  * reference_model/curves/precomputed.py, operand for operand (bit-exact with reference_model mixed_add):
  *
  *   stage 1  P1 = U*QM   P2 = V*QP   P3 = T*QT                     3 Montgomery products
  *   stage 2  E = P2-P1   H = P2+P1   F = W-P3   G = W+P3           (W delayed by stage 1)
  *   stage 3  P4 = E*F    P5 = G*H    T' = E*H   W' = F*G           4 Montgomery products
  *   stage 4  U' = P5-P4  V' = P5+P4                                 (T', W' delayed)
  *
  * Negation (-Q = (QP, QM, -QT)) costs two multiplexer levels: QM/QP swap as the stage-1 right operands and F/G
  * swap after stage 2.
  */
class TwistedEdwardsAdder(val field: FieldConfig, cfg: ArithConfig = ArithConfig(), mulModel: Boolean = false)
    extends BucketAdder {
  private val n = field.width
  val io = new Bundle {
    val input = slave(Flow(AdderInput(n)))
    val output = master(Flow(Vec(UInt(n bits), 4))) // (U', V', W', T')
  }

  /** a two-operand core on operands of one stage: its result and valid, the core's latency later */
  private def core(name: String, c: => FlowCore, a: Timed[UInt], b: Timed[UInt],
                   valid: Timed[Bool]): (Timed[UInt], Timed[Bool]) = {
    require(a.at == b.at && b.at == valid.at, s"a core's operands must be of one stage (${a.at}, ${b.at}, ${valid.at})")
    val m = c.setName(name)
    m.io.input.valid := valid.value
    m.io.input.payload(0) := a.value
    m.io.input.payload(1) := b.value
    (Timed(m.io.output.payload, a.at + m.latency), Timed(m.io.output.valid, a.at + m.latency))
  }
  private val muls = scala.collection.mutable.ArrayBuffer[FlowCore]()
  /** mulModel: the multipliers are [[MontgomeryMulModel]] (simulation only) with the real one's latency */
  private def mul(name: String, a: Timed[UInt], b: Timed[UInt], v: Timed[Bool]) =
    core(name, { val m = MontgomeryMulModel.make(field, cfg, mulModel); muls += m; m }, a, b, v)
  private def add(name: String, a: Timed[UInt], b: Timed[UInt], v: Timed[Bool]) =
    core(name, new ModAdd(field, cfg), a, b, v)._1
  private def sub(name: String, a: Timed[UInt], b: Timed[UInt], v: Timed[Bool]) =
    core(name, new ModSub(field, cfg), a, b, v)._1
  /** a valid flag delayed to `stage` (reset: no result appears out of reset) */
  private def validAt(v: Timed[Bool], stage: Int): Timed[Bool] = Timed(v.to(stage, init = False), stage)

  private val in = io.input
  private def input[T <: Data](x: T) = Timed(x, 0)
  private val (u, v, w, t) = (input(in.payload.s(0)), input(in.payload.s(1)), input(in.payload.s(2)), input(in.payload.s(3)))
  private val (qm, qp, qt) = (in.payload.q(0), in.payload.q(1), in.payload.q(2))
  private val neg = input(in.payload.negate)
  private val valid0 = input(in.valid)

  // stage 1
  private val (p1, valid1) = mul("p1", u, input(Mux(neg.value, qp, qm)), valid0)
  private val p2 = mul("p2", v, input(Mux(neg.value, qm, qp)), valid0)._1
  private val p3 = mul("p3", t, input(qt), valid0)._1
  val mulLatency: Int = p1.at

  // stage 2: adders and subtractors may differ in latency; every result is aligned to the slowest
  private val e = sub("e", p2, p1, valid1)
  private val h = add("h", p2, p1, valid1)
  private val w1 = w.delayedTo(valid1.at)
  private val wMinus = sub("wMinus", w1, p3, valid1)
  private val wPlus = add("wPlus", w1, p3, valid1)
  private val s2 = Timed.latest(Seq(e, h, wMinus, wPlus))
  val addLatency: Int = s2 - valid1.at
  private val valid2 = validAt(valid1, s2)
  private val neg2 = neg.to(s2)
  private val (eV, hV) = (e.delayedTo(s2), h.delayedTo(s2))
  private val fV = Timed(Mux(neg2, wPlus.to(s2), wMinus.to(s2)), s2)
  private val gV = Timed(Mux(neg2, wMinus.to(s2), wPlus.to(s2)), s2)

  // stage 3
  private val (p4, valid3) = mul("p4", eV, fV, valid2)
  private val p5 = mul("p5", gV, hV, valid2)._1
  private val tOut = mul("tOut", eV, hV, valid2)._1
  private val wOut = mul("wOut", fV, gV, valid2)._1

  // stage 4
  private val uOut = sub("uOut", p5, p4, valid3)
  private val vOut = add("vOut", p5, p4, valid3)
  private val results = Seq(uOut, vOut, wOut, tOut)
  /** cycles from an accepted input to its result */
  val latency: Int = Timed.latest(results)

  io.output.valid := validAt(valid3, latency).value
  for ((r, i) <- results.zipWithIndex) io.output.payload(i) := r.to(latency)

  val multipliers: Int = muls.size
  val dspTiles: Int = muls.map(_.dspTiles).sum
  def input: Flow[AdderInput] = io.input
  def output: Flow[Vec[UInt]] = io.output
  /** (2, 2, 4, 0): the identity (0, 1) of the twisted Edwards curve as an accumulator (HW.IDENTITY_S) */
  def identity: Seq[BigInt] = Seq(field.toMont(2), field.toMont(2), field.toMont(4), BigInt(0))
  def skipsInfinity: Boolean = false
}
