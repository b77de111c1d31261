package zkspinal.poseidon

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import zkspinal.field._

/** Elaboration checks of the Poseidon generator: configuration requires, the beat programs against neptune's
  * known answers (executed with BigInt arithmetic exactly as the engine defines a beat), the c1100 budget. */
class PoseidonElaborationSpec extends AnyFunSuite {
  private val f = FieldConfig.bls12_381_fr

  test("configurations reject what the hardware cannot build") {
    assertThrows[IllegalArgumentException](PoseidonConfig("x", arities = Seq()))
    assertThrows[IllegalArgumentException](PoseidonConfig("x", arities = Seq(2, 2)))
    assertThrows[IllegalArgumentException](PoseidonConfig("x", arities = Seq(0)))
    assertThrows[IllegalArgumentException](PoseidonConfig("x", engines = 0))
    assertThrows[IllegalArgumentException](PoseidonConfig("x", multipliers = 0))
    assertThrows[IllegalArgumentException](PoseidonConfig("x", robDepth = 100))
    assertThrows[IllegalArgumentException](PoseidonConfig("x", field = FieldConfig.bls12_377_fr))
  }

  test("constant files give the standard round numbers") {
    for ((a, rp) <- Seq(2 -> 55, 4 -> 56, 8 -> 57, 11 -> 57)) {
      val c = PoseidonConstants(a, f.p)
      assert(c.rF == 8 && c.rP == rp, s"arity $a: R_F ${c.rF} R_P ${c.rP}")
    }
  }

  test("beat programs give neptune's known answers (both schedules, 1..7 products per beat)") {
    for ((a, want) <- PoseidonProgramCheck.known; opt <- Seq(true, false); m <- Seq(1, 2, 3, 7)) {
      val beats = PoseidonProgram.beats(PoseidonConstants(a, f.p), f, opt, m)
      val got = PoseidonProgramCheck.run(beats, ((BigInt(1) << a) - 1) +: (0 until a).map(BigInt(_)), f)
      assert(got == BigInt(want, 16), s"arity $a optimized=$opt multipliers=$m")
      assert(beats.count(_.done) == 1 && beats.last.done)
      assert(beats.forall(b => b.products.groupBy(_.dst).forall { case (d, ps) => d == 0 || ps.size == 1 }),
        "a lane other than 0 takes at most one product per beat")
    }
  }

  test("c1100 fits 5,000 DSP48E2, one block RAM deep per table, and plans the target rates at 250 MHz") {
    var mm: MontgomeryMul = null
    var cm: ExpandedConstMul = null
    SpinalConfig(targetDirectory = "build/elab").generateVerilog { mm = new MontgomeryMul(f); mm }
    SpinalConfig(targetDirectory = "build/elab").generateVerilog { cm = new ExpandedConstMul(f); cm }
    val cfg = PoseidonConfig.c1100
    val dsp = cfg.montMuls * mm.dspTiles + cfg.constMuls * cm.dspTiles
    assert(dsp <= 5000, s"${cfg.montMuls} x ${mm.dspTiles} + ${cfg.constMuls} x ${cm.dspTiles} DSP tiles")
    def program(a: Int) = PoseidonProgram.beats(PoseidonConstants(a, f.p), f, cfg.optimized, cfg.multipliers)
    def beats(a: Int) = program(a).size
    assert(250e6 / (beats(2).toDouble / cfg.engines) >= 4e6)
    assert(250e6 / (beats(11).toDouble / cfg.engines) >= 1e6)
    val tables = ConstTables(f, cfg.arith, cfg.arities.flatMap(program), cfg.multipliers)
    assert(tables.columns.forall(_.size <= 512), tables.columns.map(_.size))
  }

  test("the expanded tables give each beat's product: sum_k x_k C_k = x * k * R^-1 (mod p)") {
    val arith = ArithConfig()
    val beats = PoseidonProgram.beats(PoseidonConstants(4, f.p), f, true, 3)
    val tables = ConstTables(f, arith, beats, 3)
    val rnd = new scala.util.Random(7)
    val digits = DigitSum.digits(f.width, arith.tileA)
    for (b <- beats.take(40); (pr, col) <- b.products.zipWithIndex) {
      val i = tables.indexOf(col, pr.k)
      val words = tables.words(col).map(_(i))
      val x = BigInt(f.width, rnd).mod(f.p)
      val sum = digits.zip(words).map { case ((lo, w), ck) => ((x >> lo) & ((BigInt(1) << w) - 1)) * ck }.sum
      assert(sum.mod(f.p) == (x * pr.k * f.rInv).mod(f.p))
    }
  }
}
