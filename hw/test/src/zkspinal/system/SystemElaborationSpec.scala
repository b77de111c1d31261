package zkspinal.system

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._

/** Elaboration checks of the system blocks: configuration requires and the port names the Vivado scripts rely on. */
class SystemElaborationSpec extends AnyFunSuite {
  private def elaborate[T <: Component](c: => T): T = {
    var out: Option[T] = None
    SpinalConfig(targetDirectory = "build/elab").generateVerilog { val x = c; out = Some(x); x }
    out.get
  }
  private def ports(c: Component): Set[String] = c.getAllIo.map(_.getName()).toSet

  test("configurations reject what the register map cannot hold") {
    assertThrows[IllegalArgumentException](SystemBlockConfig(statusCount = 256))        // INFO holds 8 bits
    assertThrows[IllegalArgumentException](SystemBlockConfig(statusCount = 8, addressWidth = 5)) // past the window
    assertThrows[IllegalArgumentException](SystemBlockConfig(resetCycles = 0))
    assertThrows[IllegalArgumentException](InbandLastConfig(dataBytes = 4, flagBit = 32))
    assert(InbandLastConfig(dataBytes = 32).flag == 255)
  }

  test("SystemBlock ports follow the convention of vivado/lib/zk_rtl.tcl") {
    val c = elaborate(new SystemBlock(SystemBlockConfig(statusCount = 3)))
    val p = ports(c)
    assert(Set("aclk", "aresetn", "core_aresetn", "status_0", "status_1", "status_2", "s_axil_awaddr", "s_axil_rresp") subsetOf p)
    assert(!p.contains("status_3"))
  }

  test("InbandLast ports follow the convention of vivado/lib/zk_rtl.tcl") {
    val p = ports(elaborate(new InbandLast(InbandLastConfig(dataBytes = 64))))
    assert(Set("s_axis_tdata", "s_axis_tkeep", "s_axis_tlast", "m_axis_tdata", "m_axis_tlast", "status_frames",
      "status_partial") subsetOf p)
  }

  test("PoseidonInband: InbandLast's slave port (TKEEP, no TUSER: XDMA has none), PoseidonAxis's master and registers") {
    val p = ports(elaborate(new PoseidonInband(zkspinal.poseidon.PoseidonConfig.small)))
    assert(Set("aclk", "aresetn", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast", "s_axis_tvalid", "s_axis_tready",
      "m_axis_tdata", "m_axis_tuser", "m_axis_tlast", "s_axil_araddr", "s_axil_rdata", "status_frames",
      "status_partial") subsetOf p)
    assert(!p.contains("s_axis_tuser"))
  }
}
