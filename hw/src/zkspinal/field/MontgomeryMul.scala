package zkspinal.field

import spinal.core._
import spinal.lib._

/** Montgomery product a*b*R^-1 mod p (R = 2^n) for a, b < p; fully pipelined, one product per cycle.
  *
  *   T = a*b                      Karatsuba, 2n bits
  *   m = (T mod R) * p' mod R     Karatsuba tiles below bit n only (p' = -p^-1 mod R, constant)
  *   V = T + m*p                  one heap: tiles of m*p plus T, compressed to two rows x + y
  *   U = V / R                    V = 0 mod R, so the low halves of x and y sum to 0 or R:
  *                                U = x_hi + y_hi + (x_lo | y_lo != 0), no adder over the low half
  *   U < 2p;  result = U - p unless it borrows, else U
  */
class MontgomeryMul(val field: FieldConfig, cfg: ArithConfig = ArithConfig()) extends FlowCore(field.width, 2, field.width) {
  import Karatsuba._
  private val n = field.width
  val fullPlan: Seq[Int] = bestPlan(n, 2 * n, cfg)
  val lowPlan: Seq[Int] = bestPlan(n, n, cfg, Some(field.pInvNeg))
  val reducePlan: Seq[Int] = bestPlan(n, 2 * n + 1, cfg, Some(field.p))

  private val hT = new BitHeap(2 * n, cfg)
  private val tilesT = addProduct(hT, new Source(operand(0), n), new Source(operand(1), n), n, fullPlan, cfg)
  private val t = hT.sum()

  private val hM = new BitHeap(n, cfg)
  private val tilesM = addProduct(hM, new Source(t.map(_(n - 1 downto 0)), n), new ConstNode(field.pInvNeg, n), n, lowPlan, cfg)
  private val m = hM.sum()

  private val hV = new BitHeap(2 * n + 1, cfg)
  private val tilesV = addProduct(hV, new Source(m, n), new ConstNode(field.p, n), n, reducePlan, cfg)
  hV.add(t)
  private val (rows, rowsAt) = hV.compress()
  private val x = rows(0)
  private val y = if (rows.size > 1) rows(1) else U(0, 2 * n + 1 bits)
  private val lowNonZero = RegNext((x(n - 1 downto 0) | y(n - 1 downto 0)).orR)
  private val u = WideAdder(Timed(RegNext(x(2 * n downto n)), rowsAt + 1), Timed(RegNext(y(2 * n downto n)), rowsAt + 1), n + 1, cfg, cin = lowNonZero)
  private val result = Reduce.small(u, 2 * field.p, field.p, cfg)
  drive(result)
  val latency = result.at
  val dspTiles = tilesT + tilesM + tilesV
}
