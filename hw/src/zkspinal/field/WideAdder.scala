package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._

/** Carry-propagate adders whose carry chains never exceed `carryChunk` bits per pipeline stage.
  *
  * Up to `carryChunk` bits: one registered adder (latency 1).  Wider: carry-increment in two stages.  Stage 1 adds
  * every chunk once (chains of at most `carryChunk` bits) and notes its carry-out g(k) and whether its sum is all
  * ones, a(k); stage 2 resolves the chunk carries, c(k+1) = g(k) | (a(k) & c(k)) (a few LUT levels, no chain), and
  * adds c(k) to chunk k (an incrementer: a carry chain with no second operand).  About one LUT per bit.
  */
object WideAdder {
  def latency(width: Int, cfg: ArithConfig): Int = if (width <= cfg.carryChunk) 1 else 2

  /** (a + b + cin) mod 2^width, both operands and cin valid at the same stage. */
  def apply(a: Timed[UInt], b: Timed[UInt], width: Int, cfg: ArithConfig, cin: Bool = null): Timed[UInt] = {
    val at = a.at max b.at
    val av = a.to(at).resize(width)
    val bv = b.to(at).resize(width)
    LutModel.add(width + (if (width > cfg.carryChunk) width / 6 else 0)) // propagate LUTs, all-ones tests
    if (width <= cfg.carryChunk) {
      Timed(RegNext(addCarry(av, bv, cin)), at + 1)
    } else {
      val chunks = (0 until width by cfg.carryChunk).map(lo => (lo, (lo + cfg.carryChunk) min width))
      // stage 1: one sum per chunk, its carry-out and whether it is all ones
      val sums = chunks.zipWithIndex.map { case ((lo, hi), k) =>
        val s = addCarry(av(hi - 1 downto lo).resize(hi - lo + 1), bv(hi - 1 downto lo).resize(hi - lo + 1),
          if (k == 0) cin else null)
        (RegNext(s(hi - lo - 1 downto 0)), RegNext(s.msb), RegNext(s(hi - lo - 1 downto 0).andR))
      }
      // stage 2: chunk carries, then each chunk incremented by its carry-in
      var carry: Bool = False
      val parts = sums.zipWithIndex.map { case ((sum, g, ones), k) =>
        val part = if (k == 0) sum else sum + carry.asUInt.resize(sum.getWidth)
        carry = if (k == 0) g else g | (ones & carry)
        part
      }
      Timed(RegNext(Cat(parts).asUInt), at + 2) // Cat of a Seq: first element is the LSB
    }
  }

  /** x + y + cin (mod 2^width) as one carry chain.  Written as x + y + cin, synthesis builds two chains in series
    * (an adder, then an incrementer); here the carry-in enters as the low bit of two extended operands:
    * (2x + cin) + (2y + 1) = 2(x + y + cin) + (1 - cin) with 1 - cin < 2, so bits [w:1] are x + y + cin. */
  private def addCarry(x: UInt, y: UInt, cin: Bool): UInt = {
    val w = x.getWidth max y.getWidth
    if (cin == null) x.resize(w) + y.resize(w)
    else ((x.resize(w) @@ cin) + (y.resize(w) @@ True))(w downto 1)
  }

  /** (a + b + c) mod 2^width: the carry-save step (a XOR b XOR c, and the majorities one bit up) feeds the adder
    * in the same stage, where it merges into the LUTs that drive the carry chain (two LUTs per bit in all, where a
    * full-adder layer and an adder would take three). */
  def add3(a: Timed[UInt], b: Timed[UInt], c: Timed[UInt], width: Int, cfg: ArithConfig): Timed[UInt] = {
    val at = a.at max b.at max c.at
    val (x, y, z) = (a.to(at).resize(width), b.to(at).resize(width), c.to(at).resize(width))
    val (sum, carry) = zkspinal.lib.CarrySave.step(x, y, z, width)
    LutModel.add(width) // the carry-save step's second LUT per bit (the adder counts the first)
    apply(Timed(sum, at), Timed(carry, at), width, cfg)
  }

  /** x + c for a constant c (mod 2^width). */
  def addConst(x: Timed[UInt], c: BigInt, width: Int, cfg: ArithConfig): Timed[UInt] = {
    val cm = c.mod(BigInt(1) << width)
    apply(x, Timed(U(cm, width bits), x.at), width, cfg)
  }
}
