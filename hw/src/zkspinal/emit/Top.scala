package zkspinal.emit

import spinal.core.Component

/** One top the emitter writes: its Verilog module name (`<Core>_<config>`), its kind (the manifest's `kind`), how
  * to build it, and the manifest fields it adds (latency, DSP tiles, ...) from the built component.  Each core
  * layer has its list beside this file (`FieldTops.all`, `KeccakTops.all`, ...); [[Emit]] writes them all, but an
  * `onDemand` top (a large board configuration only the long tier, the benchmarks and Vivado use) only when asked
  * for by name (`--only`, zkspinal/sim/rtl.py `ensure`). */
case class Top(name: String, kind: String, build: () => Component, info: Component => Map[String, Any],
    onDemand: Boolean = false)
