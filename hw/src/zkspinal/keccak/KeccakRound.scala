package zkspinal.keccak

import spinal.core._
import spinal.lib._

/** The 1600-bit state: 25 lanes, lane (x, y) at index x + 5y, lane bit z = bit z of the little-endian lane. */
object KeccakState {
  def apply(): Vec[Bits] = Vec.fill(KeccakConstants.lanes)(Bits(KeccakConstants.laneBits bits))
}

/** A state with a side band that travels through the core with it (`tagWidth` = 0: none) and, on a core's
  * input, how many permutations to apply (`repeatWidth` = 0: always one). */
case class KeccakWork(tagWidth: Int, repeatWidth: Int = 0) extends Bundle {
  val state = KeccakState()
  val tag = (tagWidth > 0) generate Bits(tagWidth bits)
  val repeat = (repeatWidth > 0) generate UInt(repeatWidth bits)
}

/** Combinational Keccak-f[1600] rounds: Rnd(A, ir) = iota(chi(pi(rho(theta(A)))), ir) (FIPS 202, section 3.3). */
object KeccakRound {
  import KeccakConstants._

  /** One round; `rc` is the iota constant (64 bits), a literal in unrolled cores, a small ROM read otherwise. */
  def apply(a: Vec[Bits], rc: Bits): Vec[Bits] = {
    // theta: C[x] = xor of column x, D[x] = C[x-1] ^ rot(C[x+1], 1), A[x, y] ^= D[x]
    val c = (0 until 5).map(x => (0 until 5).map(y => a(x + 5 * y)).reduce(_ ^ _))
    val d = (0 until 5).map(x => c((x + 4) % 5) ^ c((x + 1) % 5).rotateLeft(1))
    // rho and pi: B[dst] = rot(A'[src], rho[src]) with src = piSource(dst)
    val b = (0 until lanes).map { dst => val src = piSource(dst); (a(src) ^ d(src % 5)).rotateLeft(rho(src)) }
    // chi: A[x, y] = B[x, y] ^ (~B[x+1, y] & B[x+2, y]); iota on lane 0
    val out = (0 until lanes).map { i =>
      val (x, row) = (i % 5, i - i % 5)
      b(i) ^ (~b(row + (x + 1) % 5) & b(row + (x + 2) % 5))
    }
    val lanesOut = out.updated(0, out(0) ^ rc)
    // theta's column sums D kept as nets: each output bit then maps to one 6-input function (three lanes, three
    // D bits); without it yosys/ABC expands D into its ten column bits and needs two LUTs per output bit
    d.foreach(_.addAttribute("keep"))
    Vec(lanesOut)
  }

  def constant(ir: Int): Bits = B(roundConstants(ir), laneBits bits)

  /** Rounds first .. first + count - 1 with literal constants. */
  def fixed(a: Vec[Bits], first: Int, count: Int): Vec[Bits] =
    (first until first + count).foldLeft(a)((s, ir) => KeccakRound(s, constant(ir)))

  /** `count` rounds starting at round step * count, `step` a signal (the iterative core's counter). */
  def indexed(a: Vec[Bits], step: UInt, count: Int): Vec[Bits] = {
    val steps = rounds / count
    (0 until count).foldLeft(a) { (s, k) =>
      val table = Vec((0 until steps).map(j => constant(j * count + k)))
      KeccakRound(s, table(step.resize(log2Up(steps max 2))))
    }
  }
}
