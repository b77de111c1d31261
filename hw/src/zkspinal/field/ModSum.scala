package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._

/** (x_0 + ... + x_{k-1}) mod p for k operands below 2^n (n = the field's width): a tree of k - 1 [[ModAdd]]s pays
  * two adders and a select per addition; this pays them once.
  *
  * One bit heap sums the operands exactly (X < k 2^n fits w = bitLength(k 2^n - 1) bits).  With s = bitLength(p) - 1,
  * so that 2^s <= p, the bits of X from s up index a table of q_i p, q_i = floor(i 2^s / p) (i < 2^(w - s): 2^6
  * entries for k <= 32 when 2^(n-1) <= p, one LUT6 per bit); then
  *   r = X - q_i p < (i + 1) 2^s - (i 2^s - p) = 2^s + p <= 2p,
  * and as in [[ModAdd]] r and r - p are formed side by side (each one more bit heap of three rows) and r - p is the
  * result unless it borrowed.  Latency: input register, the heap, the table's register, the wider of the two
  * subtractions, the select.
  */
class ModSum(val field: FieldConfig, val terms: Int, cfg: ArithConfig = ArithConfig())
    extends FlowCore(field.width, terms, field.width) {
  require(terms >= 2, "a sum of at least two operands")
  private val n = field.width
  private val p = field.p
  private val s = p.bitLength - 1
  require(s < n, "the field's width holds p")
  /** bits of the exact sum */
  val sumWidth: Int = ((BigInt(terms) << n) - 1).bitLength
  /** table index bits: the sum's bits from s up */
  val indexBits: Int = sumWidth - s
  require(indexBits <= 8, s"$terms operands of $n bits: a table of 2^$indexBits multiples of p is too large")
  private val x = (0 until terms).foldLeft(new BitHeap(sumWidth, cfg))((h, i) => h.add(operand(i))).sum()
  /** q_i p for every index i: the largest multiple of p not above i 2^s */
  val multiples: Seq[BigInt] = (0 until (1 << indexBits)).map(i => (BigInt(i) << s) / p * p)
  LutModel.add(sumWidth) // the table: one LUT per bit of its word (its index is at most six bits for k <= 32)
  private val qp = x.map(v => Vec(multiples.map(m => U(m, sumWidth bits)))(v(sumWidth - 1 downto s))).reg
  private val r = new BitHeap(n + 1, cfg).add(x).sub(qp).sum()                   // r < 2p < 2^(n+1)
  private val d = new BitHeap(n + 2, cfg).add(x).sub(qp).addConst(-p).sum()     // r - p, sign bit n + 1
  private val at = r.at max d.at
  private val result = Timed(RegNext(Mux(d.to(at).msb, r.to(at)(n - 1 downto 0), d.to(at)(n - 1 downto 0))), at + 1)
  drive(result)
  val latency: Int = result.at
  val dspTiles = 0
}
