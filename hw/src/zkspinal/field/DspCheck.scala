package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._

/** The DSP48E2 link shapes the multipliers use, built twice from the same operands: as primitives (simulated by
  * hw/sim/DSP48E2.v, our model of the slice) and in the inferred form (registers, a multiply, an add).
  * tests/test_field_dsp.py drives both with the same random and extreme operands and requires equal outputs on
  * every cycle; its yosys half checks that the primitive chains are cascades in the netlist.
  *
  *   chain 0: four links of one runtime A (ACOUT -> ACIN), B digits stepping by 17 bits (Z = PCIN >> 17)
  *   chain 1: three links at one weight (Z = PCIN), runtime A and B on every link
  *   chain 2: two links of constant A operands, one of them negative, with a 17-bit step
  * Operands are two's complement over the full ports (27-bit A, 18-bit B), so the signed multiplier, the sign
  * extension of the cascade shift and negative partial sums are all exercised.
  */
class DspCheck extends Component {
  val aBits = Dsp48e2.aBits
  val bBits = Dsp48e2.bBits
  val io = new Bundle {
    val a = in(Vec(SInt(aBits bits), 4))
    val b = in(Vec(SInt(bBits bits), 7))
    val primitive = out(Vec(Bits(64 bits), DspCheck.outputs))
    val inferred = out(Vec(Bits(64 bits), DspCheck.outputs))
  }
  private def port(v: SInt, bits: Int): Operand =
    new Operand.Var(Timed(RegNext(v), 1), -(BigInt(1) << (bits - 1)), (BigInt(1) << (bits - 1)) - 1)
  private val as = io.a.map(port(_, aBits))
  private val bs = io.b.map(port(_, bBits))
  val chains: Seq[DspChain] = Seq(
    DspChain((0 until 4).map(k => Link(as(0), bs(k), 17 * k))),
    DspChain((1 until 4).map(k => Link(as(k), bs(3 + k), 5))),
    DspChain(Seq(Link(Operand.const(-(BigInt(1) << 26) + 3), bs(0), 0), Link(Operand.const(12345678), bs(6), 17)))
  )
  for ((form, outs) <- Seq((true, io.primitive), (false, io.inferred))) {
    val segs = chains.flatMap(_.build(ArithConfig(dspPrimitives = form)))
    val last = segs.map(_._2.at).max
    for (((_, v), o) <- segs.zip(outs)) o := v.to(last).resize(64)
  }
  val latency: Int = chains.flatMap(_.segments).map(_.lag).max + 1
}

object DspCheck {
  /** segments of the three chains: 3 digits + 1 last P, 1 last P, 1 digit + 1 last P */
  val outputs = 7
}
