package zkspinal.field

import spinal.core._

/** Exact n x n -> 2n bit product on DSP chains with the Karatsuba plan the price prefers (see [[Karatsuba]]). */
class KaratsubaMul(val n: Int, cfg: ArithConfig = ArithConfig()) extends FlowCore(n, 2, 2 * n) {
  val plan: Seq[Int] = Karatsuba.bestPlan(n, cfg)
  private val heap = new BitHeap(2 * n, cfg)
  val dspTiles: Int = Karatsuba.build(heap, Karatsuba.plan(Operand.unsigned(operand(0), n), Operand.unsigned(operand(1), n),
    plan, cfg, 2 * n), cfg)
  private val result = heap.sum()
  drive(result)
  val latency: Int = result.at
}
