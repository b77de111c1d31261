package zkspinal.keccak

/** How a [[KeccakF1600]] core is built.
  *
  * roundsPerCycle < 24: iterative, one block of `roundsPerCycle` rounds looped 24 / roundsPerCycle times over a
  *   state register (one permutation in flight, one every 24 / roundsPerCycle cycles).
  * roundsPerCycle = 24: unrolled and fully pipelined, a register after every `roundsPerStage` rounds
  *   (24 / roundsPerStage permutations in flight, one accepted per cycle).
  */
case class KeccakConfig(roundsPerCycle: Int = 2, roundsPerStage: Int = 1) {
  require(KeccakConfig.roundsPerCycleChoices.contains(roundsPerCycle),
    s"roundsPerCycle must be one of ${KeccakConfig.roundsPerCycleChoices.mkString(", ")} (got $roundsPerCycle)")
  require(KeccakConstants.rounds % roundsPerStage == 0 && roundsPerStage >= 1,
    s"roundsPerStage must divide ${KeccakConstants.rounds} (got $roundsPerStage)")
  def unrolled: Boolean = roundsPerCycle == KeccakConstants.rounds
  /** passes through the round block per permutation (iterative) or pipeline stages (unrolled) */
  def steps: Int = if (unrolled) KeccakConstants.rounds / roundsPerStage else KeccakConstants.rounds / roundsPerCycle
  /** rounds evaluated combinationally between two registers */
  def roundsPerStep: Int = if (unrolled) roundsPerStage else roundsPerCycle
  def name: String = if (unrolled && roundsPerStage > 1) s"r24s$roundsPerStage" else s"r$roundsPerCycle"
}

object KeccakConfig {
  val roundsPerCycleChoices = Seq(1, 2, 3, 4, 6, 8, 12, 24)
  /** every rounds-per-cycle setting, for tests and benchmarks */
  def all: Seq[KeccakConfig] = roundsPerCycleChoices.map(r => KeccakConfig(r))
  /** the smallest core */
  val small = KeccakConfig(roundsPerCycle = 1)
  /** the default: two rounds per cycle, 12 cycles per permutation */
  val default = KeccakConfig(roundsPerCycle = 2)
  /** one permutation per cycle */
  val pipelined = KeccakConfig(roundsPerCycle = 24)
}

/** The Keccak-f[1600] step constants, derived as FIPS 202 defines them (not tabulated). */
object KeccakConstants {
  val rounds = 24
  val lanes = 25
  val laneBits = 64

  /** rc(t) (FIPS 202, Algorithm 5): the LFSR x^8 + x^6 + x^5 + x^4 + 1 clocked t times from 1, bit 0. */
  private def rcBit(t: Int): Int = {
    var r = 1
    for (_ <- 0 until (t % 255)) { r <<= 1; if ((r & 0x100) != 0) r ^= 0x171 }
    r & 1
  }

  /** iota constant of round ir (Algorithm 6): bit 2^j - 1 is rc(j + 7 ir). */
  val roundConstants: Seq[BigInt] = (0 until rounds).map { ir =>
    (0 until 7).foldLeft(BigInt(0))((acc, j) => acc | (BigInt(rcBit(j + 7 * ir)) << ((1 << j) - 1)))
  }

  /** rho offset of lane x + 5y (section 3.2.2): the lane reached at step t of (x, y) -> (y, 2x + 3y) from (1, 0)
    * rotates by (t + 1)(t + 2) / 2 mod 64. */
  val rho: Seq[Int] = {
    val off = Array.fill(lanes)(0)
    var (x, y) = (1, 0)
    for (t <- 0 until 24) {
      off(x + 5 * y) = ((t + 1) * (t + 2) / 2) % laneBits
      val nx = y; y = (2 * x + 3 * y) % 5; x = nx
    }
    off.toSeq
  }

  /** pi (section 3.2.3): lane (x, y) of the result is lane (x + 3y mod 5, x); piSource(dst) is that lane. */
  val piSource: Seq[Int] = for (y <- 0 until 5; x <- 0 until 5) yield (x + 3 * y) % 5 + 5 * x
}
