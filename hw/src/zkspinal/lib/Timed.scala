package zkspinal.lib

import spinal.core._
import spinal.lib._

/** A signal and the pipeline stage at which it is valid (cycles after the enclosing core's input).
  * Builders take and return Timed values, so every core's latency is the `at` of its output: computed by
  * the generator, never written down.
  */
case class Timed[T <: Data](value: T, at: Int) {
  require(at >= 0)
  /** The same value delayed to `stage` (registers without reset: datapath only). */
  def to(stage: Int): T = {
    require(stage >= at, s"cannot move a signal from stage $at back to $stage")
    Delay(value, stage - at)
  }
  /** the same value delayed to `stage` through registers reset to `init` (control: valid bits) */
  def to(stage: Int, init: T): T = {
    require(stage >= at, s"cannot move a signal from stage $at back to $stage")
    Delay(value, stage - at, init = init)
  }
  /** the same value delayed to `stage`, as a Timed value */
  def delayedTo(stage: Int): Timed[T] = Timed(to(stage), stage)
  def map[U <: Data](f: T => U): Timed[U] = Timed(f(value), at)
  def reg: Timed[T] = Timed(RegNext(value), at + 1)
}

object Timed {
  /** a synchronous read of `mem` at `addr`: the data one stage after the address (the RAM's address register) */
  def readSync[T <: Data](mem: Mem[T], addr: Timed[UInt]): Timed[T] = Timed(mem.readSync(addr.value), addr.at + 1)

  def latest(xs: Iterable[Timed[_ <: Data]]): Int = if (xs.isEmpty) 0 else xs.map(_.at).max
}
