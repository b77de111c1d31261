package zkspinal.msm

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._

/** MSM configuration checks (layout arithmetic shared with reference_model/msm.py) and the scheduler's
  * elaboration-time bookkeeping on the small, multiplier-model engine. */
class MsmElaborationSpec extends AnyFunSuite {
  test("Hardcaml's layout: 20 windows, 67,926 buckets, top window 2,390 buckets (as the model)") {
    val c = MsmConfig.vu9p
    assert(c.numWindows == 20 && c.windows.sum == 253)
    assert(c.buckets(0) == 4096 && c.buckets(13) == 2048 && c.buckets(19) == 2390)
    assert(c.totalBuckets == 67926)
    assert(c.addrBits == 12 && Digit(c.addrBits).bucket.getWidth == 12)
  }

  test("configurations reject what the engine cannot build") {
    assertThrows[IllegalArgumentException](MsmConfig("short", windows = Seq(13, 13)))              // 26 < 253 bits
    assertThrows[IllegalArgumentException](MsmConfig("one", windows = Seq(24), scalarBound = Some(BigInt(1) << 20)))
    assertThrows[IllegalArgumentException](MsmConfig("fifo", stallDepth = 6))
    assertThrows[IllegalArgumentException](MsmConfig("bound", scalarBound = Some(BigInt(1))))
  }

  test("hazard taps are the same-window positions within the write-back distance") {
    var core: MsmCore = null
    SpinalConfig(targetDirectory = "build/elab").generateVerilog { core = new MsmCore(MsmConfig.smallModel); core }
    val w = MsmConfig.smallModel.numWindows
    assert(core.latency == core.adder.latency && core.writeStage == core.latency + 1)
    assert(core.hazardTaps == (0 to core.latency).filter(i => (i + 1) % w == 0))
    assert(core.hazardTaps.size == (core.latency + 1) / w)
  }
}
