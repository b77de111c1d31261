package zkspinal.field

/** A prime field and the Montgomery constants the hardware uses.
  *
  * R = 2^n with n = p.bitLength: the multipliers work on n-bit operands, so R is the smallest power of two
  * above p (reference_model/field.py uses the same R).
  */
case class FieldConfig(name: String, p: BigInt) {
  require(p > 2 && p.testBit(0) && p.isProbablePrime(64), s"$name: modulus must be an odd prime")
  val width: Int = p.bitLength
  val R: BigInt = BigInt(1) << width
  val rModP: BigInt = R.mod(p)
  val r2ModP: BigInt = (R * R).mod(p)
  val rInv: BigInt = R.modInverse(p)
  val pInvNeg: BigInt = (-p.modInverse(R)).mod(R)

  def toMont(x: BigInt): BigInt = (x * R).mod(p)
  def fromMont(x: BigInt): BigInt = (x * rInv).mod(p)
}

object FieldConfig {
  // One line per prime; reference_model/field.py lists the same ones (checked by tests/test_model_field.py).
  val bls12_381_fr = FieldConfig("bls12_381_fr", BigInt("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16))
  val bls12_377_fq = FieldConfig("bls12_377_fq", BigInt("01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001", 16))
  val bls12_377_fr = FieldConfig("bls12_377_fr", BigInt("12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001", 16))

  val bn254_fq = FieldConfig("bn254_fq", BigInt("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 16))
  val bn254_fr = FieldConfig("bn254_fr", BigInt("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 16))
  val bls12_381_fq = FieldConfig("bls12_381_fq", BigInt("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16))

  val all: Seq[FieldConfig] = Seq(bls12_381_fr, bls12_377_fq, bls12_377_fr, bn254_fq, bn254_fr, bls12_381_fq)
  def byName(name: String): FieldConfig =
    all.find(_.name == name).getOrElse(throw new IllegalArgumentException(s"unknown field $name; known: ${all.map(_.name).mkString(", ")}"))
}

/** How arithmetic maps onto the FPGA.
  *
  * @param tileA        width of the digits on a DSP48E2's 27-bit A port (unsigned; a signed top digit may take
  *                     one bit more).  The B port takes 17-bit digits: the DSP cascade shifts by 17 bits.
  * @param carryChunk   longest carry chain allowed in one pipeline stage (bits); wider adders take two stages
  * @param levelsPerStage compressor layers (one LUT level each) between two pipeline registers
  * @param koSplits     Karatsuba split factors of a full product; None = the plan the price below prefers
  * @param maxChain     most DSP48E2 in one cascade (a clock region of an UltraScale+ DSP column holds 24)
  * @param lutPerDsp    what one DSP48E2 is worth in LUTs when plans are compared: a plan costs
  *                     DSPs x lutPerDsp + its estimated LUTs.  Raise it to save DSPs, lower it to save LUTs.
  * @param dspPrimitives DSP48E2 instances (true, what synthesis should see) or the same links in plain RTL
  */
case class ArithConfig(
    tileA: Int = 26,
    carryChunk: Int = 64,
    levelsPerStage: Int = 2,
    koSplits: Option[Seq[Int]] = None,
    maxChain: Int = 24,
    lutPerDsp: Int = 200,
    dspPrimitives: Boolean = true
) {
  require(tileA >= 2 && tileA <= 26, "an A digit must fit a DSP48E2's A port unsigned (2..26 bits)")
  require(carryChunk >= 8 && carryChunk <= 96, "carry chain per stage must be in 8..96 bits")
  require(levelsPerStage >= 1 && levelsPerStage <= 6, "compressor layers per stage must be in 1..6")
  require(maxChain >= 1, "a DSP chain has at least one link")
  require(lutPerDsp >= 0, "a DSP's price in LUTs cannot be negative")
  koSplits.foreach(s => require(s.forall(_ >= 2), "Karatsuba split factors must be >= 2"))
}
