package zkspinal.poseidon

import zkspinal.field._
import zkspinal.lib.Json
import java.nio.file.{Files, Paths}

/** The generator's own schedule for a grid of Poseidon configurations (hashes per ring position x S-box units x
  * constant product slots, one engine), without emitting any Verilog: for the benchmark's plot of hash rate
  * against DSP budget.
  *
  *   ./mill --no-daemon hw.runMain zkspinal.poseidon.PoseidonSweep --out FILE [--members 1,2,4] [--units 1,2,4]
  *                                                                  [--multipliers 2,8,16]
  *
  * Per configuration: beats per group program for every arity ([[PoseidonSchedule.compile]], pure Scala, the same
  * call [[PoseidonCore]] makes), so steady-state cycles per hash = beats / members, and the DSP tiles = Montgomery
  * multipliers (3 per S-box unit) x the tiles of one [[MontgomeryMul]] + product slots x the tiles of one
  * [[ExpandedConstMul]] (one elaboration of each, the figures the cores' `dspTiles` add up).  Writes one JSON
  * object to FILE.
  */
object PoseidonSweep {
  def main(args: Array[String]): Unit = {
    var out = ""
    var members = Seq(1, 2, 4)
    var units = Seq(1, 2, 4)
    var multipliers = Seq(2, 4, 8, 12, 16, 20, 26)
    def ints(s: String) = s.split(",").toSeq.map(_.trim.toInt)
    args.grouped(2).foreach {
      case Array("--out", f) => out = f
      case Array("--members", s) => members = ints(s)
      case Array("--units", s) => units = ints(s)
      case Array("--multipliers", s) => multipliers = ints(s)
      case other => sys.error(s"usage: PoseidonSweep --out FILE [--members 1,2] [--units 1,2] [--multipliers 2,8] " +
        s"(got ${other.mkString(" ")})")
    }
    require(out.nonEmpty, "--out FILE is required")
    val base = PoseidonConfig("sweep")
    val f = base.field
    // every configuration of the grid must be one the generator accepts
    val grid = for (g <- members; u <- units; m <- multipliers)
      yield base.copy(name = s"g${g}_u${u}_m$m", members = g, sboxUnits = u, multipliers = m)
    val constants = base.arities.map(a => PoseidonConstants(a, f.p))
    val (latency, tiles) = MontgomeryMulModel.realTiming(f, base.arith)
    val constTiles = MontgomeryMulModel.makeExpandedTiming(f, base.arith)._2
    val configs = grid.map { c =>
      Map("name" -> c.name, "engines" -> c.engines, "multipliers_per_engine" -> c.multipliers, "members" -> c.members,
        "sbox_units" -> c.sboxUnits, "mont_muls" -> c.montMuls, "const_muls" -> c.constMuls,
        "dsp_tiles" -> (c.montMuls * tiles + c.constMuls * constTiles),
        "beats_per_group" -> constants.map(k => PoseidonSchedule.compile(k, f, base.optimized, c.shape).size))
    }
    val doc = Map("field" -> f.name, "arities" -> base.arities, "optimized" -> base.optimized,
      "mont_mul_dsp_tiles" -> tiles, "mont_mul_latency" -> latency, "const_mul_dsp_tiles" -> constTiles,
      "configs" -> configs)
    Files.write(Paths.get(out), (Json(doc) + "\n").getBytes)
    println(s"PoseidonSweep: ${configs.size} configurations written to $out")
  }
}
