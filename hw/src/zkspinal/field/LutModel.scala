package zkspinal.field

import spinal.core._
import scala.collection.mutable

/** The LUTs the generators expect to spend, counted while they build: every counter of a heap (three LUT6 for a
  * (6:3) or (5:3) counter, two for a full adder), one LUT per bit of a carry-propagate adder (two for a
  * three-input one) and of a table or multiplexer, a LUT per six bits of a zero test.  The benchmark prints this
  * model beside what yosys maps ([[FlowCore.estimatedLuts]]): the plan chooser prices plans with the same terms.
  */
object LutModel {
  private val counts = mutable.WeakHashMap[Component, Int]()
  /** words one LUT6 holds per bit: a table up to this deep costs a LUT per output bit, a deeper one belongs in
    * block RAM */
  val lutTableWords: Int = 64
  /** records n LUTs in the component being built */
  def add(n: Int): Unit = counts.synchronized {
    val c = Component.current
    if (c != null) counts(c) = counts.getOrElse(c, 0) + n
  }
  /** the LUTs recorded in `c` and every component under it */
  def of(c: Component): Int = counts.synchronized(counts.getOrElse(c, 0)) + c.children.map(of).sum
}
