package zkspinal.field

import spinal.core._

/** Exact n x n -> 2n bit product with the Karatsuba-Ofman tile plan (see [[Karatsuba]]). */
class KaratsubaMul(val n: Int, cfg: ArithConfig = ArithConfig()) extends FlowCore(n, 2, 2 * n) {
  val plan: Seq[Int] = Karatsuba.bestPlan(n, 2 * n, cfg)
  private val heap = new BitHeap(2 * n, cfg)
  val dspTiles: Int = Karatsuba.addProduct(heap, new Karatsuba.Source(operand(0), n), new Karatsuba.Source(operand(1), n), n, plan, cfg)
  private val result = heap.sum()
  drive(result)
  val latency = result.at
}
