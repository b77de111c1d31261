package zkspinal.field

import spinal.core._

/** One DSP48E2 (UG579) as the multipliers use it: a link of a cascade.
  *
  *   P = Z + A*B              A: 27-bit signed (A port, or ACIN from the previous link's A register)
  *                            B: 18-bit signed
  *   Z = 0 | PCIN | PCIN >> 17 (arithmetic shift: the partial sums of signed products may be negative)
  *
  * Registers: AREG = BREG = 1, MREG = 1, PREG = 1, so an operand presented at stage s gives P at stage s + 3
  * ([[Dsp48e2.latency]]); PCIN is the previous link's P, one stage earlier than this link's P.  Control ports
  * (OPMODE, ALUMODE, INMODE, CARRYINSEL) are constants and unregistered.
  *
  * Two forms with the same cycle behaviour: the primitive (a black box the synthesis tools map to the DSP48E2
  * itself, simulated by our model `hw/sim/DSP48E2.v`), and the inferred form (registers, a multiply, an add),
  * which tests hold the primitive and its model against.  yosys infers neither cascades nor the DSP48E2's
  * internal registers and post-adder (its DSP48E2 mapping stops at the multiplier), so the multipliers
  * instantiate the primitive: what is counted is what Vivado builds.
  */
object Dsp48e2 {
  /** input at stage s, P at stage s + latency */
  val latency = 3
  /** the cascade shift of OPMODE Z = PCIN >> 17 */
  val shift = 17
  /** the multiplier's operand ports: 27-bit and 18-bit two's complement */
  val aBits = 27
  val bBits = 18
  /** P is 48-bit two's complement: a chain's partial sums must stay in [-2^47, 2^47) */
  val pBits = 48

  sealed abstract class Z(val opmode: Int)
  case object ZeroZ extends Z(0)
  case object Pcin extends Z(1)
  case object PcinShift extends Z(5)

  /** The static configuration of one link. */
  case class Shape(z: Z, aCascade: Boolean) {
    /** OPMODE: W = 0, Z as given, Y = X = M (01 01) */
    def opmode: Int = (z.opmode << 4) | 0x5
  }

  /** A link's ports; `a` unused (null) when the A operand comes from the previous link's A register. */
  case class In(a: SInt, b: SInt, pcin: SInt, acin: Bits)
  case class Out(p: SInt, pcout: SInt, acout: Bits)

  /** Builds one link in the chosen form. */
  def link(shape: Shape, in: In, primitive: Boolean): Out =
    if (primitive) primitiveLink(shape, in) else inferredLink(shape, in)

  private def inferredLink(shape: Shape, in: In): Out = {
    val aReg = RegNext(if (shape.aCascade) in.acin.asSInt.resize(aBits) else in.a.resize(aBits))
    val bReg = RegNext(in.b.resize(bBits))
    val m = RegNext((aReg * bReg).resize(pBits))
    val z: SInt = shape.z match {
      case ZeroZ     => S(0, pBits bits)
      case Pcin      => in.pcin
      case PcinShift => in.pcin >> shift // SInt >> n is arithmetic: sign bits shift in
    }
    val p = RegNext((z.resize(pBits) + m).resize(pBits))
    Out(p, p, aReg.resize(30).asBits)
  }

  private def primitiveLink(shape: Shape, in: In): Out = {
    val dsp = new Dsp48e2Primitive(shape)
    dsp.tieOff()
    dsp.io.A := (if (shape.aCascade) B(0, 30 bits) else in.a.resize(30).asBits)
    dsp.io.ACIN := (if (shape.aCascade) in.acin else B(0, 30 bits))
    dsp.io.B := in.b.resize(bBits).asBits
    dsp.io.PCIN := (if (shape.z == ZeroZ) B(0, pBits bits) else in.pcin.asBits)
    Out(dsp.io.P.asSInt, dsp.io.PCOUT.asSInt, dsp.io.ACOUT)
  }
}

/** The DSP48E2 primitive (black box: Vivado's UNISIM cell, yosys' cell library; hw/sim/DSP48E2.v in simulation).
  * Every input is driven: clock enables high, resets low, unused data ports zero. */
class Dsp48e2Primitive(shape: Dsp48e2.Shape) extends BlackBox {
  setDefinitionName("DSP48E2")
  addGeneric("A_INPUT", if (shape.aCascade) "CASCADE" else "DIRECT")
  addGeneric("B_INPUT", "DIRECT")
  addGeneric("AMULTSEL", "A")
  addGeneric("BMULTSEL", "B")
  addGeneric("PREADDINSEL", "A")
  addGeneric("USE_MULT", "MULTIPLY")
  addGeneric("USE_SIMD", "ONE48")
  addGeneric("AREG", 1)
  addGeneric("ACASCREG", 1)
  addGeneric("BREG", 1)
  addGeneric("BCASCREG", 1)
  addGeneric("CREG", 0)
  addGeneric("DREG", 0)
  addGeneric("ADREG", 0)
  addGeneric("MREG", 1)
  addGeneric("PREG", 1)
  addGeneric("INMODEREG", 0)
  addGeneric("OPMODEREG", 0)
  addGeneric("ALUMODEREG", 0)
  addGeneric("CARRYINREG", 0)
  addGeneric("CARRYINSELREG", 0)

  val io = new Bundle {
    val CLK = in Bool()
    val A = in Bits (30 bits)
    val ACIN = in Bits (30 bits)
    val B = in Bits (18 bits)
    val BCIN = in Bits (18 bits)
    val C = in Bits (48 bits)
    val D = in Bits (27 bits)
    val PCIN = in Bits (48 bits)
    val CARRYCASCIN, CARRYIN, MULTSIGNIN = in Bool()
    val CARRYINSEL = in Bits (3 bits)
    val INMODE = in Bits (5 bits)
    val OPMODE = in Bits (9 bits)
    val ALUMODE = in Bits (4 bits)
    val CEA1, CEA2, CEAD, CEALUMODE, CEB1, CEB2, CEC, CECARRYIN, CECTRL, CED, CEINMODE, CEM, CEP = in Bool()
    val RSTA, RSTALLCARRYIN, RSTALUMODE, RSTB, RSTC, RSTCTRL, RSTD, RSTINMODE, RSTM, RSTP = in Bool()
    val P = out Bits (48 bits)
    val PCOUT = out Bits (48 bits)
    val ACOUT = out Bits (30 bits)
  }
  noIoPrefix()
  mapClockDomain(clock = io.CLK)

  /** Drives the ports the links leave constant (called from the enclosing component). */
  def tieOff(): Unit = {
    io.BCIN := 0
    io.C := 0
    io.D := 0
    io.CARRYCASCIN := False
    io.CARRYIN := False
    io.MULTSIGNIN := False
    io.CARRYINSEL := 0
    io.INMODE := 0                 // A2 and B2 registers to the multiplier, no pre-adder
    io.OPMODE := shape.opmode
    io.ALUMODE := 0                // Z + W + X + Y + CIN
    for (ce <- Seq(io.CEA1, io.CEA2, io.CEAD, io.CEALUMODE, io.CEB1, io.CEB2, io.CEC, io.CECARRYIN, io.CECTRL, io.CED,
                   io.CEINMODE, io.CEM, io.CEP)) ce := True
    for (rst <- Seq(io.RSTA, io.RSTALLCARRYIN, io.RSTALUMODE, io.RSTB, io.RSTC, io.RSTCTRL, io.RSTD, io.RSTINMODE,
                    io.RSTM, io.RSTP)) rst := False
  }
}
