package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._

/** (a + b) mod p for a, b < p: s = a + b and d = a + b - p side by side (two adders), d unless it borrowed.
  * No comparator: the sign of d selects.  Latency: input register, the wider of the two adders, the select. */
class ModAdd(val field: FieldConfig, cfg: ArithConfig = ArithConfig()) extends FlowCore(field.width, 2, field.width) {
  private val n = field.width
  private val a = operand(0)
  private val b = operand(1)
  private val s = WideAdder(a, b, n + 1, cfg)
  private val d = new BitHeap(n + 2, cfg).add(a).add(b).addConst(-field.p).sum() // sign bit n+1
  private val at = s.at max d.at
  private val result = Timed(RegNext(Mux(d.to(at).msb, s.to(at)(n - 1 downto 0), d.to(at)(n - 1 downto 0))), at + 1)
  drive(result)
  val latency = result.at
  val dspTiles = 0
}

/** (a - b) mod p for a, b < p: d = a - b and e = a - b + p side by side, d unless it borrowed. */
class ModSub(val field: FieldConfig, cfg: ArithConfig = ArithConfig()) extends FlowCore(field.width, 2, field.width) {
  private val n = field.width
  private val a = operand(0)
  private val b = operand(1)
  private val d = new BitHeap(n + 1, cfg).add(a).sub(b).sum() // sign bit n
  private val e = new BitHeap(n + 1, cfg).add(a).sub(b).addConst(field.p).sum()
  private val at = d.at max e.at
  private val result = Timed(RegNext(Mux(d.to(at).msb, e.to(at)(n - 1 downto 0), d.to(at)(n - 1 downto 0))), at + 1)
  drive(result)
  val latency = result.at
  val dspTiles = 0
}
