package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._

/** Montgomery product a*b*R^-1 mod p (R = 2^n) for a, b < p; fully pipelined, one product per cycle.
  * The dataflow ([[MontgomeryPlan]] has the equations and chooses the Karatsuba splits and the cut):
  *
  *   T = a b                          DSP chains, heap -> two rows; T_lo exact by one adder, T_hi stays two rows
  *   m = -T_lo + 2^s (T_lo p'_h)      (n - s)-bit low product (s = v2(p - 1)), heap, adder
  *   H' = (m p from the cut up) - B1  chains of m p_h without the links below the cut, heap -> two rows
  *   h, carry = bits [cut, n) of H'   a short adder;  lt = [L_top < h] with L_top = top bits of (-T_lo) mod R
  *   U = T_hi + H'_hi + carries + lt + [T_lo != 0]     one heap, one adder;  U < 2p
  *   result = U - p unless it borrows, else U
  */
class MontgomeryMul(val field: FieldConfig, cfg: ArithConfig = ArithConfig()) extends FlowCore(field.width, 2, field.width) {
  val plan: MontgomeryPlan = MontgomeryPlan(field, cfg)
  private val n = field.width
  private val s = plan.s
  private val red = plan.reduction
  private val cut = red.cut
  /** the sum of a heap's (at most three) rows, `w` bits */
  private def addRows(rows: Seq[Timed[UInt]], w: Int): Timed[UInt] = rows match {
    case Seq(a)       => a.map(_.resize(w))
    case Seq(a, b)    => WideAdder(a, b, w, cfg)
    case Seq(a, b, c) => WideAdder.add3(a, b, c, w, cfg)
  }

  // T = a b, in a heap one bit wider than T: its two rows' high halves then add up to T_hi modulo 2^(n+1), the
  // modulus U is computed in
  private val hT = new BitHeap(2 * n + 1, cfg)
  private val tiles0 = Karatsuba.build(hT, plan.tLeaves(Operand.unsigned(operand(0), n), Operand.unsigned(operand(1), n),
    plan.tSplits), cfg)
  private val (tRows, tAt) = hT.compress()
  // T_lo exact and the carry (0..2) of the rows' low halves into T_hi
  private val tLoSum = addRows(tRows.map(r => Timed(r(n - 1 downto 0), tAt)), n + 2)
  private val tLo = tLoSum.map(_(n - 1 downto 0))

  // m = -T_lo + 2^s ((T_lo mod 2^(n-s)) p'_h mod 2^(n-s))  (mod 2^n)
  private val hM = new BitHeap(n, cfg).sub(tLo)
  private val tiles1 = Karatsuba.build(hM, plan.mLeaves(Operand.unsigned(tLo.map(_(n - s - 1 downto 0)), n - s),
    plan.mSplits), cfg)
  private val m = hM.sum()

  // H' = (m + 2^s m p_h from the cut up) - B1
  private val hH = new BitHeap(plan.hWidth, cfg)
  hH.addTerm(m.map(_.asBits), 0, signed = false, negative = false, from = cut)
  private val yLeaves = plan.yLeaves(Operand.unsigned(m, n), red.splits, red.dropped)
  private val tiles2 = Karatsuba.build(hH, yLeaves, cfg, from = cut)
  hH.addConst(-plan.bias(plan.rest(yLeaves, plan.yLeaves(Operand.unsigned(m, n), red.splits, Set()), red.dropped, cut)._1, cut))
  private val (hRows, hAt) = hH.compress()
  // bits [cut, n) of H' (its bits below the cut are zero) and the carry (0..2) into bit n
  private val mid = addRows(hRows.map(r => Timed(r(n - 1 downto cut), hAt)), n - cut + 2)
  private val h = mid.map(_(n - cut - 1 downto 0))

  // L = (-T_lo) mod R: its bits from the cut up are ~T_lo[n-1:cut] + [T_lo[cut-1:0] == 0] (mod 2^(n-cut))
  private val lowZero = Reduce.none(tLo.map(_(cut - 1 downto 0)), cfg)
  private val topNonZero = Reduce.none(tLo.map(_(n - 1 downto cut)), cfg).map(!_)
  private val lTop = WideAdder(Timed(~tLo.to(lowZero.at)(n - 1 downto cut), lowZero.at), lowZero.map(_.asUInt),
    n - cut, cfg)
  // lt = [L_top < h]: the borrow of L_top - h
  private val lt = {
    val at = lTop.at max h.at
    WideAdder(Timed(lTop.to(at).resize(n - cut + 1), at), Timed(~h.to(at).resize(n - cut + 1), at), n - cut + 1, cfg,
      cin = True).map(_.msb)
  }

  private val tLoNonZero = {
    val at = lowZero.at max topNonZero.at
    Timed(!lowZero.to(at) || topNonZero.to(at), at)
  }

  // U = T_hi + [T_lo != 0] + floor(H' / R) + lt  (mod 2^(n+1))
  private val hU = new BitHeap(n + 1, cfg)
  for (r <- tRows) hU.add(Timed(r(2 * n downto n), tAt))
  for (r <- hRows) hU.add(Timed(r(plan.hWidth - 1 downto n), hAt))
  hU.add(tLoSum.map(_(n + 1 downto n))).add(mid.map(_(n - cut + 1 downto n - cut)))
  hU.addBit(lt).addBit(tLoNonZero)
  private val u = hU.sum()
  private val result = Reduce.small(u, 2 * field.p, field.p, cfg)
  // names for waveforms: the dataflow's intermediate values
  for ((t, name) <- Seq(tLo -> "tLo", m -> "m", h -> "hTop", lTop -> "lTop", u -> "u")) t.value.setName(name)
  for ((t, name) <- Seq(lt -> "lt", lowZero -> "tLoLowZero", tLoNonZero -> "tLoNonZero")) t.value.setName(name)
  drive(result)
  val latency: Int = result.at
  val dspTiles: Int = tiles0 + tiles1 + tiles2
}
