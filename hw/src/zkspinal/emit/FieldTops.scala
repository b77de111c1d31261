package zkspinal.emit

import spinal.core._
import zkspinal.field._

/** The field arithmetic tops that [[Emit]] writes: every core of `zkspinal.field` on every prime of
  * [[FieldConfig.all]], bare (`<Core>_<field>`) and behind its stream wrapper (`<Core>Stream_<field>`), and the
  * DSP48E2 check. */
object FieldTops {
  /** the ROM of the RomConstMul test tops: the edge constants and pseudo-random ones (an LCG on the field, so the
    * emitted Verilog does not depend on a seed); 13 entries, so indices 13..15 exercise the range check */
  def romTestConstants(f: FieldConfig): Seq[BigInt] = {
    val edges = Seq(BigInt(0), BigInt(1), BigInt(2), f.p - 1, f.p - 2, f.rModP, f.rInv, (BigInt(1) << (f.width - 1)).mod(f.p))
    edges ++ Iterator.iterate(f.r2ModP)(v => (v * f.r2ModP + 12345).mod(f.p)).drop(1).take(5).toSeq
  }

  def tops(f: FieldConfig, cfg: ArithConfig = ArithConfig()): Seq[Top] = {
    def core(c: Component): FlowCore = c match { case s: FieldStream => s.core; case fc: FlowCore => fc }
    def common(c: Component): Map[String, Any] = {
      val fc = core(c)
      val chains = cascades(c)
      Map("field" -> f.name, "p" -> ("0x" + f.p.toString(16)), "n" -> f.width, "latency" -> fc.latency,
        "dsp_tiles" -> fc.dspTiles, "dsp_chains" -> chains.size, "estimated_luts" -> fc.estimatedLuts, "arity" -> fc.arity, "in_width" -> fc.inWidth,
        "out_width" -> fc.outWidth, "operand_lags" -> (0 until fc.arity).map(fc.operandLag)) ++
        (c match { case s: FieldStream => Map("fifo_depth" -> s.depth, "stream_latency" -> s.streamLatency); case _ => Map() }) ++
        (fc match {
          case m: ConstMul    => Map("constant" -> ("0x" + m.constant.toString(16)))
          case m: RomConstMul => Map("constants" -> m.constants.map("0x" + _.toString(16)))
          case _              => Map()
        })
    }
    // a fixed, structure-free test constant for the generic ConstMul: the field's R^2 mod p
    val cores: Seq[(String, () => FlowCore, Boolean)] = Seq(
      ("ModAdd", () => new ModAdd(f, cfg), true),
      ("ModSub", () => new ModSub(f, cfg), true),
      ("ModSum3", () => new ModSum(f, 3, cfg), true),   // the engine's lane sums: the fewest operands and the most
      ("ModSum27", () => new ModSum(f, 27, cfg), true),
      ("KaratsubaMul", () => new KaratsubaMul(f.width, cfg), false),
      ("MontMul", () => new MontgomeryMul(f, cfg), true),
      ("ConstMul", () => new ConstMul(f, f.r2ModP, cfg), false),
      ("ToMont", () => new MontConvert(f, toMont = true, cfg), false),
      ("FromMont", () => new MontConvert(f, toMont = false, cfg), false),
      ("RomConstMul", () => new RomConstMul(f, romTestConstants(f), cfg), true)
    )
    cores.flatMap { case (kind, mk, check) =>
      Seq(
        Top(s"${kind}_${f.name}", kind, () => mk(), common),
        Top(s"${kind}Stream_${f.name}", kind + "Stream", () => new FieldStream(mk(), f, check), common)
      )
    }
  }

  /** the DSP cascades inside a component (one [[DspCascade]] per chain) */
  def cascades(c: Component): Seq[DspCascade] = c.children.toSeq.flatMap {
    case d: DspCascade => Seq(d)
    case other         => cascades(other)
  }

  /** the DSP48E2 primitive and its model against the inferred form (tests/test_field_dsp.py) */
  def dspCheckTop: Top = Top("DspCheck", "DspCheck", () => new DspCheck,
    c => { val d = c.asInstanceOf[DspCheck]; Map("latency" -> d.latency, "outputs" -> DspCheck.outputs,
      "dsp_tiles" -> d.chains.map(_.links.size).sum, "dsp_chains" -> d.chains.size) })

  def all: Seq[Top] = dspCheckTop +: FieldConfig.all.flatMap(tops(_))
}
