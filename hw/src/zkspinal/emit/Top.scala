package zkspinal.emit

import spinal.core.Component

/** One top the emitter writes: its Verilog module name (`<Core>_<config>`), its kind (the manifest's `kind`), how
  * to build it, and the manifest fields it adds (latency, DSP tiles, ...) from the built component.  Each core
  * package lists its tops (`KeccakTops.all`, ...); zkspinal.system.Emit writes them all. */
case class Top(name: String, kind: String, build: () => Component, info: Component => Map[String, Any])
