package zkspinal.poseidon

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import zkspinal.field._

/** The group engine elaborates from its programs: multiplexers as wide as the schedule uses, stages from the
  * latencies of its arithmetic. */
class PoseidonGroupEngineSpec extends AnyFunSuite {
  private val f = FieldConfig.bls12_381_fr

  test("a two-member engine with two S-box units elaborates, its stages follow the arithmetic") {
    val cfg = PoseidonConfig("g", arities = Seq(2, 8), multipliers = 5, members = 2, sboxUnits = 2, mulModel = true)
    val programs = cfg.arities.map(a => PoseidonSchedule.compile(PoseidonConstants(a, f.p), f, true, cfg.shape))
    val tables = ConstTables.forGroups(f, cfg.arith, programs, cfg.multipliers)
    var e: PoseidonGroupEngine = null
    SpinalConfig(targetDirectory = "build/test-elab").generateVerilog {
      e = new PoseidonGroupEngine(cfg, programs, 16, tables, 2); e
    }
    assert(e.sY == e.sB + 1 + e.La && e.sE > e.sP && e.slots == e.sE + 1)
    assert(e.beatsPerGroup == programs.map(_.size))
    assert(e.plan.sources.forall(_.size <= 2 * cfg.lanes + cfg.sboxUnits + 2))
  }

  // The datapath derives every stage from its Timed values and requires them to land on the stage plan (sA, sB, sY,
  // sP, sE): elaborating an engine is the check; these shapes take the one-member and one-unit branches.
  for ((members, units, arities) <- Seq((1, 1, Seq(11)), (1, 2, Seq(2, 4)), (3, 1, Seq(8))))
    test(s"a $members-member, $units-unit engine for arities ${arities.mkString(",")} lands on its stage plan") {
      val cfg = PoseidonConfig("g", arities = arities, multipliers = 4, members = members, sboxUnits = units,
        mulModel = true)
      val programs = cfg.arities.map(a => PoseidonSchedule.compile(PoseidonConstants(a, f.p), f, true, cfg.shape))
      val tables = ConstTables.forGroups(f, cfg.arith, programs, cfg.multipliers)
      var e: PoseidonGroupEngine = null
      SpinalConfig(targetDirectory = "build/test-elab").generateVerilog {
        e = new PoseidonGroupEngine(cfg, programs, 16, tables, 3); e
      }
      assert(e.sA == 2 + e.La && e.sB == e.sA + 3 * e.Lm && e.sP == e.sY + 1 + 3 + e.Lc && e.slots == e.sE + 1)
    }
}
