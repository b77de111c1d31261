package zkspinal.keccak

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axis.Axi4Stream.Axi4Stream

/** Port conventions of the system tops (what Vivado infers as interfaces behind XDMA): clock `aclk`, synchronous
  * active-low reset `aresetn`, AXI4-Stream ports `<prefix>_t<signal>`.
  */
trait AxiClocked { this: Component =>
  val aclk = in(Bool()).setName("aclk") // a trait's vals are not named by the component's reflection
  val aresetn = in(Bool()).setName("aresetn")
  /** the domain every register of the top lives in */
  lazy val axiDomain: ClockDomain =
    ClockDomain(aclk, aresetn, config = ClockDomainConfig(resetKind = SYNC, resetActiveLevel = LOW))
}

object AxiStreamNames {
  /** Renames a Spinal Axi4Stream port `<prefix>` to `<prefix>_tdata`, `_tkeep`, `_tlast`, `_tuser`, `_tvalid`,
    * `_tready` once the component is built. */
  def apply(port: Axi4Stream, prefix: String): Unit = {
    port.component.addPrePopTask { () =>
      port.valid.setName(s"${prefix}_tvalid")
      port.ready.setName(s"${prefix}_tready")
      port.payload.elements.foreach { case (name, signal) => signal.setName(s"${prefix}_t$name") }
    }
  }
}
