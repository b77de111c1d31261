package zkspinal.msm

import spinal.core._

/** Up/down counters whose next value crosses one carry chain: each change is its own adder, side by side, and a
  * choice after them, so no adder's result feeds another adder. */
object Tally {
  /** x + 1 when `up` alone, x - 1 when `down` alone, else x */
  def step(x: UInt, up: Bool, down: Bool): UInt = Mux(up && !down, x + 1, Mux(down && !up, x - 1, x))

  /** x + by when `add` (x + (by - 1) when `down` too: `byLess1` is a register kept beside `by`), else step(x, 0, down) */
  def addBy(x: UInt, add: Bool, by: UInt, byLess1: UInt, down: Bool): UInt =
    Mux(add, x + Mux(down, byLess1, by).resize(widthOf(x)), step(x, False, down))

  /** x - by when `sub` (x - (by - 1) when `up` too), else step(x, up, 0) */
  def subBy(x: UInt, sub: Bool, by: UInt, byLess1: UInt, up: Bool): UInt =
    Mux(sub, x - Mux(up, byLess1, by).resize(widthOf(x)), step(x, up, False))
}
