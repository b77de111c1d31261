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

  test("the adder's latency is its critical path of cores: two products and two additions, seven multipliers") {
    var a: TwistedEdwardsAdder = null
    SpinalConfig(targetDirectory = "build/elab").generateVerilog {
      a = new TwistedEdwardsAdder(MsmConfig.smallModel.curve.field, mulModel = true); a }
    val f = MsmConfig.smallModel.curve.field
    assert(a.multipliers == 7 && a.mulLatency == zkspinal.field.MontgomeryMulModel.realTiming(f, zkspinal.field.ArithConfig())._1)
    assert(a.addLatency > 0)
    assert(a.latency == 2 * a.mulLatency + 2 * a.addLatency)
  }

  test("configurations reject what the engine cannot build") {
    assertThrows[IllegalArgumentException](MsmConfig("short", windows = Seq(13, 13)))              // 26 < 253 bits
    assertThrows[IllegalArgumentException](MsmConfig("one", windows = Seq(24), scalarBound = Some(BigInt(1) << 20)))
    assertThrows[IllegalArgumentException](MsmConfig("fifo", retryDepth = 6))
    assertThrows[IllegalArgumentException](MsmConfig("bound", scalarBound = Some(BigInt(1))))
  }

  test("the hazard check spans the write-back distance; a retry waits until then; records after the buckets") {
    for (cfg <- Seq(MsmConfig.smallModel, MsmConfig.small2Model)) {
      var core: MsmCore = null
      SpinalConfig(targetDirectory = "build/elab").generateVerilog { core = new MsmCore(cfg); core }
      assert(core.lanes.size == cfg.adders)
      for (lane <- core.lanes) {
        assert(lane.latency == lane.adder.latency && lane.writeStage == lane.latency + 1)
        assert(lane.hazardStages == lane.writeStage && lane.retryDelay == lane.writeStage + 1)
      }
      assert(cfg.partialRecords == (cfg.adders - 1) * (0 until cfg.shared).map(cfg.buckets).sum + cfg.adders * cfg.partialSlots)
    }
  }

  test("adders hold the shared low windows and split the others evenly, every window somewhere") {
    val c = MsmConfig.vu9p
    assert(c.adders == 2 && c.shared == 2)
    assert(c.laneWindows(0) == Seq(0, 1) ++ (2 until 20 by 2) && c.laneWindows(1) == Seq(0, 1) ++ (3 until 20 by 2))
    assert(c.partialRecords == 2 * 4096 + 2 * c.partialSlots)
    assert(MsmConfig.small2.laneWindows(0) == Seq(0, 1, 2) && MsmConfig.small2.laneWindows(1) == Seq(0, 1, 3))
    assert(MsmConfig.small.shared == 0 && MsmConfig.small.laneWindows(0) == (0 until 4))
    assert(MsmConfig.small.partialRecords == MsmConfig.small.partialSlots)
    assertThrows[IllegalArgumentException](MsmConfig.small.copy(adders = 3)) // 2 windows above the shared: not 3 ways
    assertThrows[IllegalArgumentException](MsmConfig.vu9p.copy(sharedWindows = 3)) // 17 owned windows on 2 adders
  }

  test("every signal between the engine and a lane leaves a register and lands in one (SLR crossings)") {
    var core: MsmCore = null
    val report = SpinalConfig(targetDirectory = "build/elab").generateVerilog { core = new MsmCore(MsmConfig.small2Model); core }
    for (lane <- core.lanes) {
      val (ins, outs) = lane.io.flatten.partition(_.isInput)
      for (s <- ins) assert(s.getSingleDriver.exists(_.isReg), s"${s.getName()}: not driven by a register of the engine")
      for (s <- outs) assert(s.getSingleDriver.exists(_.isReg), s"${s.getName()}: not driven by a register of the lane")
    }
    // inside each lane module, an input is only ever the right-hand side of a register assignment
    val verilog = scala.io.Source.fromFile(s"build/elab/${report.toplevelName}.v").mkString
    val laneModules = "(?s)module (MsmLane\\w*) \\((.*?)\\nendmodule".r.findAllMatchIn(verilog).toSeq
    assert(laneModules.size == 2)
    for (m <- laneModules) {
      val body = m.group(2)
      val inputs = "input\\s+(?:wire\\s+)?(?:\\[[^\\]]*\\]\\s*)?(io_\\w+)".r.findAllMatchIn(body).map(_.group(1)).toSeq
      assert(inputs.exists(_.startsWith("io_jobs")) && inputs.exists(_.startsWith("io_readOut")))
      for (in <- inputs; line <- body.linesIterator if s"\\b$in\\b".r.findFirstIn(line).nonEmpty && !line.contains("input"))
        assert(line.trim.matches(s"\\w+ <= $in;"), s"${m.group(1)}: $in used outside a register: ${line.trim}")
    }
  }

  test("a split lane: every net between its hub and a region leaves a register and lands in one, counted in its stages") {
    val cfg = MsmConfig.bls12_381SmallModel
    var core: MsmCore = null
    val report = SpinalConfig(targetDirectory = "build/elab").generateVerilog { core = new MsmCore(cfg); core }
    val lane = core.lanes.head
    assert(lane.getName() == "hub" && lane.crossing == 1 && lane.readStage == 3)
    assert(lane.writeStage == lane.readStage + lane.latency && lane.hazardStages == lane.writeStage)
    assert(lane.retryDelay == lane.hazardStages + 1)
    val verilog = scala.io.Source.fromFile(s"build/elab/${report.toplevelName}.v").mkString
    val modules = "(?s)module (\\w+) \\((.*?)\\nendmodule".r.findAllMatchIn(verilog).map(m => m.group(1) -> m.group(2)).toSeq
    val instance = "(?s)\\n  (\\w+) (far\\d+_\\w+) \\((.*?)\\n  \\);".r
    val port = "\\.(\\w+)\\s*\\(\\s*([^)]*?)\\s*\\),?\\s*//([io])".r
    val quasiStatic = Set("clk", "reset", "aclk", "aresetn")
    var far = 0
    for ((parent, body) <- modules; i <- instance.findAllMatchIn(body)) {
      far += 1
      val regs = "reg\\s+(?:\\[[^\\]]*\\]\\s*)?(\\w+);".r.findAllMatchIn(body).map(_.group(1)).toSet
      for (c <- port.findAllMatchIn(i.group(3))) {
        val sig = c.group(2).takeWhile(ch => ch.isLetterOrDigit || ch == '_')
        val what = s"$parent: ${i.group(2)}.${c.group(1)}"
        if (c.group(3) == "i" && !quasiStatic(c.group(1)) && sig.nonEmpty && !sig.head.isDigit)
          assert(regs(sig), s"$what is driven by $sig, not a register of $parent")
        if (c.group(3) == "o" && sig.nonEmpty)
          for (line <- body.linesIterator if s"\\b$sig\\b".r.findFirstIn(line).nonEmpty && !line.contains("wire") &&
               !line.contains("//o"))
            assert(line.trim.matches(s"\\w+ <= $sig;"), s"$what lands outside a register: ${line.trim}")
      }
    }
    assert(far == 10 + cfg.numWindows, s"$far instances in regions: ten products and a memory per window")
  }
}
