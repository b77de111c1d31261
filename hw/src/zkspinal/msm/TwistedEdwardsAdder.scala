package zkspinal.msm

import spinal.core._
import spinal.lib._
import zkspinal.field._

/** The adder's operands: accumulator S = (U, V, W, T), precomputed point Q = (QM, QP, QT), and the sign. */
case class AdderInput(n: Int) extends Bundle {
  val s = Vec(UInt(n bits), 4)
  val q = Vec(UInt(n bits), 3)
  val negate = Bool()
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
    extends Component {
  private val n = field.width
  val io = new Bundle {
    val input = slave(Flow(AdderInput(n)))
    val output = master(Flow(Vec(UInt(n bits), 4))) // (U', V', W', T')
  }

  private def core[C <: FlowCore](c: => C, a: UInt, b: UInt, valid: Bool): C = {
    val m = c
    m.io.input.valid := valid
    m.io.input.payload(0) := a
    m.io.input.payload(1) := b
    m
  }
  /** mulModel: the multipliers are [[MontgomeryMulModel]] (simulation only) with the real one's latency */
  private def mul(a: UInt, b: UInt, v: Bool): FlowCore = core(MontgomeryMulModel.make(field, cfg, mulModel), a, b, v)
  private def add(a: UInt, b: UInt, v: Bool) = core(new ModAdd(field, cfg), a, b, v)
  private def sub(a: UInt, b: UInt, v: Bool) = core(new ModSub(field, cfg), a, b, v)

  private val in = io.input
  private val (u, v, w, t) = (in.payload.s(0), in.payload.s(1), in.payload.s(2), in.payload.s(3))
  private val (qm, qp, qt) = (in.payload.q(0), in.payload.q(1), in.payload.q(2))
  private val neg = in.payload.negate

  // stage 1
  private val p1 = mul(u, Mux(neg, qp, qm), in.valid)
  private val p2 = mul(v, Mux(neg, qm, qp), in.valid)
  private val p3 = mul(t, qt, in.valid)
  val mulLatency: Int = p1.latency
  private val s1 = p1.io.output
  private val w1 = Delay(w, mulLatency)
  private val neg1 = Delay(neg, mulLatency)

  // stage 2: adders and subtractors may differ in latency; every result is aligned to the slower one
  private val e = sub(p2.io.output.payload, s1.payload, s1.valid)
  private val h = add(p2.io.output.payload, s1.payload, s1.valid)
  private val wMinus = sub(w1, p3.io.output.payload, s1.valid)
  private val wPlus = add(w1, p3.io.output.payload, s1.valid)
  val addLatency: Int = e.latency max h.latency
  private def aligned(c: FlowCore): UInt = Delay(c.io.output.payload, addLatency - c.latency)
  private val s2Valid = Delay(s1.valid, addLatency, init = False)
  private val neg2 = Delay(neg1, addLatency)
  private val (eV, hV) = (aligned(e), aligned(h))
  private val fV = Mux(neg2, aligned(wPlus), aligned(wMinus))
  private val gV = Mux(neg2, aligned(wMinus), aligned(wPlus))

  // stage 3
  private val p4 = mul(eV, fV, s2Valid)
  private val p5 = mul(gV, hV, s2Valid)
  private val tOut = mul(eV, hV, s2Valid)
  private val wOut = mul(fV, gV, s2Valid)

  // stage 4
  private val uOut = sub(p5.io.output.payload, p4.io.output.payload, p4.io.output.valid)
  private val vOut = add(p5.io.output.payload, p4.io.output.payload, p4.io.output.valid)

  io.output.valid := Delay(p4.io.output.valid, addLatency, init = False)
  io.output.payload(0) := aligned(uOut)
  io.output.payload(1) := aligned(vOut)
  io.output.payload(2) := Delay(wOut.io.output.payload, addLatency)
  io.output.payload(3) := Delay(tOut.io.output.payload, addLatency)

  /** cycles from an accepted input to its result */
  val latency: Int = 2 * mulLatency + 2 * addLatency
  val multipliers: Int = 7
  val dspTiles: Int = multipliers * p1.dspTiles
}
