package zkspinal.poseidon

import zkspinal.field._
import zkspinal.system.Emit
import java.nio.file.{Files, Paths}

/** The generator's own schedule for a grid of Poseidon configurations (engines x constant multipliers per engine),
  * without emitting any Verilog: for the benchmark's plot of hash rate against DSP budget.
  *
  *   ./mill --no-daemon hw.runMain zkspinal.poseidon.PoseidonSweep --out FILE [--engines 1,2,4] [--multipliers 1,2,7]
  *
  * Per configuration: beats per hash for every arity ([[PoseidonProgram.beats]], pure Scala, the same call
  * [[PoseidonCore]] makes), so steady-state cycles per hash = beats / engines (see [[PoseidonConfig]]), and the DSP
  * tiles = S-box Montgomery multipliers x the tiles of one [[MontgomeryMul]] + constant multipliers x the tiles of
  * one [[ExpandedConstMul]] (one elaboration of each, the figures the cores' `dspTiles` add up).  Writes one JSON
  * object to FILE.
  */
object PoseidonSweep {
  def main(args: Array[String]): Unit = {
    var out = ""
    var engines = Seq(1, 2, 3, 4)
    var multipliers = Seq(1, 2, 3, 4, 5, 7, 10, 11, 14)
    def ints(s: String) = s.split(",").toSeq.map(_.trim.toInt)
    args.grouped(2).foreach {
      case Array("--out", f) => out = f
      case Array("--engines", s) => engines = ints(s)
      case Array("--multipliers", s) => multipliers = ints(s)
      case other => sys.error(s"usage: PoseidonSweep --out FILE [--engines 1,2] [--multipliers 1,7] (got ${other.mkString(" ")})")
    }
    require(out.nonEmpty, "--out FILE is required")
    val base = PoseidonConfig("sweep")
    val f = base.field
    // every configuration of the grid must be one the generator accepts
    val grid = for (e <- engines; m <- multipliers) yield base.copy(name = s"e${e}_m$m", engines = e, multipliers = m)
    val constants = base.arities.map(a => PoseidonConstants(a, f.p))
    val beats = multipliers.map(m => m -> constants.map(c => PoseidonProgram.beats(c, f, base.optimized, m).size)).toMap
    val (latency, tiles) = MontgomeryMulModel.realTiming(f, base.arith)
    val constTiles = MontgomeryMulModel.makeExpandedTiming(f, base.arith)._2
    val configs = grid.map { c =>
      Map("name" -> c.name, "engines" -> c.engines, "multipliers_per_engine" -> c.multipliers,
        "mont_muls" -> c.montMuls, "const_muls" -> c.constMuls, "dsp_tiles" -> (c.montMuls * tiles + c.constMuls * constTiles),
        "beats_per_hash" -> beats(c.multipliers))
    }
    val doc = Map("field" -> f.name, "arities" -> base.arities, "optimized" -> base.optimized,
      "mont_mul_dsp_tiles" -> tiles, "mont_mul_latency" -> latency, "const_mul_dsp_tiles" -> constTiles,
      "configs" -> configs)
    Files.write(Paths.get(out), (Emit.json(doc) + "\n").getBytes)
    println(s"PoseidonSweep: ${configs.size} configurations written to $out")
  }
}
