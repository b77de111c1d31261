package zkspinal.emit

import zkspinal.poseidon._
import spinal.core._

/** The Poseidon tops that zkspinal.emit.Emit writes (PoseidonAxis_<config>) with their manifest entries: the
  * figures the generator computed (ring slots, beats per group and cycles per hash, latency per arity, DSP tiles, constant tables). */
object PoseidonTops {
  def info(c: PoseidonCore): Map[String, Any] = {
    val cfg = c.cfg
    val e = c.engines.head
    Map(
      "config" -> cfg.name, "field" -> cfg.field.name, "p" -> ("0x" + cfg.field.p.toString(16)),
      "arities" -> cfg.arities, "optimized" -> cfg.optimized, "engines" -> cfg.engines,
      "multipliers_per_engine" -> cfg.multipliers, "members" -> cfg.members, "sbox_units" -> cfg.sboxUnits,
      "mont_muls" -> cfg.montMuls, "const_muls" -> cfg.constMuls,
      "lanes" -> cfg.lanes, "const_mul_latency" -> e.Lc, "const_table_sizes" -> c.tables.columns.map(_.size),
      "const_rom_bits" -> c.tables.bits.toString, "const_roms" -> c.roms.size,
      "slots" -> c.slots, "rob_depth" -> c.robDepth, "dsp_tiles" -> c.dspTiles,
      "mont_mul_latency" -> e.Lm, "mod_add_latency" -> e.La,
      "beats_per_group" -> c.beatsPerGroup, "cycles_per_hash" -> c.cyclesPerHash.map(x => f"$x%.1f"),
      "engine_latency" -> c.engineLatency, "products_per_hash" -> c.productsPerHash,
      // the engine's widest structures: operands each product slot selects from, terms of each member's lane sums
      "slot_sources" -> e.plan.sources.map(_.size), "lane_sum_terms" -> e.laneTerms)
  }

  /** the board profiles' multiplier-model twins: the full benchmark and the soaks simulate them, no quick test */
  val onDemand: Set[PoseidonConfig] = Set(PoseidonConfig.c1100Model, PoseidonConfig.pc2Model, PoseidonConfig.arity2Model)

  def all: Seq[Top] = PoseidonConfig.all.map { cfg =>
    Top(s"PoseidonAxis_${cfg.name}", "PoseidonAxis", () => new PoseidonAxis(cfg), c => info(c.asInstanceOf[PoseidonAxis].core),
      onDemand = onDemand(cfg))
  } ++ Seq(PoseidonConfig.smallModel, PoseidonConfig.smallGroupModel).map { cfg =>
    // the core alone (jobs with a whole initial state in, digests in job order out) for its own test
    Top(s"PoseidonCore_${cfg.name}", "PoseidonCore", () => new PoseidonCore(cfg), c => info(c.asInstanceOf[PoseidonCore]))
  }
}
