package zkspinal.emit

import zkspinal.keccak._
import spinal.core._

/** The Keccak tops that zkspinal.emit.Emit writes (names: <Core>_<config>), with their manifest entries. */
object KeccakTops {
  private def coreInfo(c: KeccakF1600): Map[String, Any] = Map(
    "rounds_per_cycle" -> c.cfg.roundsPerCycle, "rounds_per_step" -> c.cfg.roundsPerStep, "unrolled" -> c.cfg.unrolled,
    "latency" -> c.latency, "initiation_interval" -> c.initiationInterval, "slots" -> c.slots, "tag_width" -> c.tagWidth,
    "repeat_width" -> c.repeatWidth, "steps_per_permutation" -> c.stepsPerPermutation)

  def cores: Seq[Top] = KeccakConfig.all.map { k =>
    // with a tag and a repeat count, so that the core tests exercise both
    Top(s"KeccakF1600_${k.name}", "KeccakF1600", () => new KeccakF1600(k, tagWidth = 8, repeatWidth = 4),
      c => coreInfo(c.asInstanceOf[KeccakF1600]))
  }

  def sponges: Seq[Top] = Seq(KeccakConfig.small, KeccakConfig.default, KeccakConfig.pipelined).map { k =>
    Top(s"KeccakSpongeAxis_${k.name}", "KeccakSpongeAxis", () => new KeccakSpongeAxis(k), { c =>
      val s = c.asInstanceOf[KeccakSpongeAxis]
      coreInfo(s.core) ++ Map("data_bytes" -> 8, "modes" -> SpongeMode.all.map(m =>
        Map("code" -> m.code, "name" -> m.name, "rate" -> m.rateBytes, "suffix" -> m.suffix, "digest" -> m.digestBytes)))
    })
  }

  /** a deliberately oversized configuration, 255 units (INFO's limit) of one round per cycle (over two million
    * LUTs): the fit test's top that no board's part holds (tests/test_fit.py; the hierarchical pass maps the
    * one-round unit once, a sixth of a six-round or fully pipelined core's yosys time) */
  val oversized: KeccakSpeedConfig = KeccakSpeedConfig(KeccakConfig.small, 255)
  /** one unit of every core configuration (benchmark), and several units of the default and pipelined cores */
  val speedConfigs: Seq[KeccakSpeedConfig] =
    KeccakConfig.all.map(k => KeccakSpeedConfig(k, 1)) ++
      Seq(2, 4).map(u => KeccakSpeedConfig(KeccakConfig.default, u)) :+ KeccakSpeedConfig(KeccakConfig.pipelined, 2) :+
      oversized

  def speeds: Seq[Top] = speedConfigs.map { s =>
    Top(s"KeccakSpeed_${s.name}", "KeccakSpeed", () => new KeccakSpeed(s), { c =>
      val k = c.asInstanceOf[KeccakSpeed]
      coreInfo(k.units.head.core) ++ Map("units" -> s.units, "slots_per_unit" -> k.slotsPerUnit,
        "sum_lanes_per_cycle" -> s.lanesPerCycle, "sum_latency" -> k.units.head.summer.latency)
    })
  }

  def all: Seq[Top] = cores ++ sponges ++ speeds
}
