package zkspinal.axi

import spinal.core._

/** Port conventions of the system tops (what Vivado infers as interfaces behind XDMA): clock `aclk`, synchronous
  * active-low reset `aresetn`; the AXI4-Stream ports get Vivado's `<port>_t<signal>` names from spinal.lib's
  * `Axi4SpecRenamer`, the AXI4-Lite ones from `AxiLite4SpecRenamer`.
  */
trait AxiClocked { this: Component =>
  val aclk = in(Bool()).setName("aclk") // a trait's vals are not named by the component's reflection
  val aresetn = in(Bool()).setName("aresetn")
  /** the domain every register of the top lives in */
  lazy val axiDomain: ClockDomain =
    ClockDomain(aclk, aresetn, config = ClockDomainConfig(resetKind = SYNC, resetActiveLevel = LOW))
}
