package zkspinal.system

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._

/** Elaboration checks of FlashCtrl: configuration requires, and which primitives/ports each configuration has. */
class FlashElaborationSpec extends AnyFunSuite {
  private def elaborate(cfg: FlashCtrlConfig): FlashCtrl = {
    var out: Option[FlashCtrl] = None
    SpinalConfig(targetDirectory = "build/elab").generateVerilog { val x = new FlashCtrl(cfg); out = Some(x); x }
    out.get
  }

  test("configurations reject what the hardware cannot build") {
    val base = FlashCtrlConfig.small
    assertThrows[IllegalArgumentException](base.copy(cmdFifoDepth = 300)) // not a power of two
    assertThrows[IllegalArgumentException](base.copy(cmdFifoDepth = 256)) // a page program would not fit
    assertThrows[IllegalArgumentException](base.copy(rspFifoDepth = 128)) // a page read would not fit
    assertThrows[IllegalArgumentException](base.copy(deviceIdcode = BigInt(1) << 32))
    assertThrows[IllegalArgumentException](base.copy(timerWidth = 2))
  }

  test("the simulation top has pins and ICAP ports, the board tops the primitives and an ICAP clock") {
    val small = elaborate(FlashCtrlConfig.small)
    assert(small.pinPorts != null && small.icapPorts != null && small.icap_clk == null)
    for (cfg <- Seq(FlashCtrlConfig.c1100, FlashCtrlConfig.vu9p)) {
      val c = elaborate(cfg)
      assert(c.pinPorts == null && c.icapPorts == null && c.icap_clk != null)
      val kinds = c.children.map(_.getClass.getSimpleName)
      assert(kinds.count(_ == "ICAPE3") == 1 && kinds.count(_ == "STARTUPE3") == 1, kinds.toString)
    }
  }
}
