package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._

/** Reductions at the end of the multipliers: a value below a small multiple of p brought below p, and zero tests. */
object Reduce {
  /** x mod p for 0 <= x < bound.
    *   bound <= 2p:  d = x - p beside x, the sign of d picks (one adder);
    *   larger:       the bits of x from n - 1 up (a few) select q*p from a table, q = floor(v 2^(n-1) / p) for the
    *                 bucket v, so x - q p lies in [0, p + 2^(n-1)) within [0, 2p); one adder, then the step above.
    */
  def small(x: Timed[UInt], bound: BigInt, p: BigInt, cfg: ArithConfig): Timed[UInt] = {
    val n = p.bitLength
    if (bound <= p) return x.map(_.resize(n))
    if (bound <= 2 * p) return once(x, p, cfg)
    val w = (bound - 1).bitLength
    val xw = x.map(_.resize(w))
    val topBits = w - (n - 1)
    val table = (0 until (1 << topBits)).map(v => U((BigInt(v) << (n - 1)) / p * p, w bits))
    val qp = Timed(RegNext(Vec(table)(xw.value(w - 1 downto n - 1))), xw.at + 1)
    LutModel.add(w) // one LUT per bit of the table (its index is at most six bits)
    val diff = WideAdder(Timed(xw.to(qp.at), qp.at), qp.map(v => ~v), w, cfg, cin = True) // x - q p, in [0, 2p)
    once(diff.map(_.resize(n + 1)), p, cfg)
  }

  /** x mod p for 0 <= x < 2p: x - p unless that borrows. */
  private def once(x: Timed[UInt], p: BigInt, cfg: ArithConfig): Timed[UInt] = {
    val n = p.bitLength
    val xw = x.map(_.resize(n + 1))
    val d = WideAdder.addConst(Timed(xw.value.resize(n + 2), xw.at), -p, n + 2, cfg) // msb set: x < p
    val xs = xw.to(d.at)
    LutModel.add(n) // the selection
    Timed(RegNext(Mux(d.value.msb, xs(n - 1 downto 0), d.value(n - 1 downto 0))), d.at + 1)
  }

  /** [x == 0] as a tree of 6-input NORs/ANDs, a register every `levelsPerStage` levels. */
  def none(x: Timed[UInt], cfg: ArithConfig): Timed[Bool] = {
    var bits: Seq[Bool] = x.value.asBools.map(!_).toSeq
    LutModel.add((x.value.getWidth + 4) / 5)
    var at = x.at
    var level = 0
    while (bits.size > 1) {
      bits = bits.grouped(6).map(_.reduce(_ && _)).toSeq
      level += 1
      if (level % cfg.levelsPerStage == 0 && bits.size > 1) { bits = bits.map(RegNext(_)); at += 1 }
    }
    Timed(RegNext(if (bits.isEmpty) True else bits.head), at + 1)
  }
}
