package zkspinal.field

import spinal.core._

/** Carry-propagate adders whose carry chains never exceed `carryChunk` bits per pipeline stage.
  *
  * Up to `carryChunk` bits: one registered adder (latency 1).  Wider: carry-select in two stages.  Stage 1
  * adds every chunk twice, with carry-in 0 and 1 (chains of at most `carryChunk` bits); stage 2 resolves the
  * chunk carries, c(k+1) = g(k) | (p(k) & c(k)) with g/p the carry-outs of the two sums (a few LUT levels,
  * no carry chain), and selects each chunk.
  */
object WideAdder {
  def latency(width: Int, cfg: ArithConfig): Int = if (width <= cfg.carryChunk) 1 else 2

  /** (a + b + cin) mod 2^width, both operands and cin valid at the same stage. */
  def apply(a: Timed[UInt], b: Timed[UInt], width: Int, cfg: ArithConfig, cin: Bool = null): Timed[UInt] = {
    val at = a.at max b.at
    val av = a.to(at).resize(width)
    val bv = b.to(at).resize(width)
    if (width <= cfg.carryChunk) {
      Timed(RegNext(addCarry(av, bv, cin)), at + 1)
    } else {
      val chunks = (0 until width by cfg.carryChunk).map(lo => (lo, (lo + cfg.carryChunk) min width))
      // stage 1: both sums per chunk (chunk 0 only needs the one with the real carry-in)
      val sums = chunks.zipWithIndex.map { case ((lo, hi), k) =>
        val x = av(hi - 1 downto lo).resize(hi - lo + 1)
        val y = bv(hi - 1 downto lo).resize(hi - lo + 1)
        if (k == 0) { val s = RegNext(addCarry(x, y, cin)); (s, s) }
        else (RegNext(x + y), RegNext(addCarry(x, y, True)))
      }
      // stage 2: chunk carries and selection
      var carry: Bool = False
      val parts = sums.zipWithIndex.map { case ((s0, s1), k) =>
        val w = s0.getWidth - 1
        val part = if (k == 0) s0(w - 1 downto 0) else Mux(carry, s1(w - 1 downto 0), s0(w - 1 downto 0))
        carry = if (k == 0) s0(w) else s0(w) | (s1(w) & carry)
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

  /** x + c for a constant c (mod 2^width). */
  def addConst(x: Timed[UInt], c: BigInt, width: Int, cfg: ArithConfig): Timed[UInt] = {
    val cm = c.mod(BigInt(1) << width)
    apply(x, Timed(U(cm, width bits), x.at), width, cfg)
  }
}
