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
    assert(c.addrBits == 12)
  }

  test("configurations reject what the engine cannot build") {
    assertThrows[IllegalArgumentException](MsmConfig("short", windows = Seq(13, 13)))              // 26 < 253 bits
    assertThrows[IllegalArgumentException](MsmConfig("one", windows = Seq(24), scalarBound = Some(BigInt(1) << 20)))
    assertThrows[IllegalArgumentException](MsmConfig("fifo", stallDepth = 6))
    assertThrows[IllegalArgumentException](MsmConfig("bound", scalarBound = Some(BigInt(1))))
  }

  test("hazard taps are the same-window positions within the write-back distance, per adder") {
    for (cfg <- Seq(MsmConfig.smallModel, MsmConfig.small2Model)) {
      var core: MsmCore = null
      SpinalConfig(targetDirectory = "build/elab").generateVerilog { core = new MsmCore(cfg); core }
      assert(core.lanes.size == cfg.adders)
      for (lane <- core.lanes) {
        val w = lane.windows.size
        assert(lane.latency == lane.adder.latency && lane.writeStage == lane.latency + 1)
        assert(lane.hazardTaps == (0 to lane.latency).filter(i => (i + 1) % w == 0))
        assert(lane.hazardTaps.size == (lane.latency + 1) / w)
      }
    }
  }

  test("adders own interleaved windows, every window exactly once") {
    val c = MsmConfig.vu9p
    assert(c.adders == 2 && c.laneWindows(0) == (0 until 20 by 2) && c.laneWindows(1) == (1 until 20 by 2))
    assert(MsmConfig.small2.laneWindows(0) == Seq(0, 2) && MsmConfig.small2.laneWindows(1) == Seq(1, 3))
    assertThrows[IllegalArgumentException](MsmConfig.small.copy(adders = 3)) // 4 windows: one adder would get one
  }
}
