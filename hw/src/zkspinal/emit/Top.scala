package zkspinal.emit

import spinal.core.Component

/** One top the emitter writes: its Verilog module name (`<Core>_<config>`), its kind (the manifest's `kind`), how
  * to build it, and the manifest fields it adds (latency, DSP tiles, ...) from the built component.  Each core
  * layer has its list beside this file (`FieldTops.all`, `KeccakTops.all`, ...); [[Emit]] writes them all. */
case class Top(name: String, kind: String, build: () => Component, info: Component => Map[String, Any])
