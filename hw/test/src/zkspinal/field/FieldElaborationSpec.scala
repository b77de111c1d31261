package zkspinal.field

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._

/** Elaboration checks: configuration requires, Karatsuba plans, DSP budgets and latency bookkeeping. */
class FieldElaborationSpec extends AnyFunSuite {
  private def elaborate[T <: Component](c: => T): T = {
    var out: Option[T] = None
    SpinalConfig(targetDirectory = "build/elab").generateVerilog { val x = c; out = Some(x); x }
    out.get
  }

  test("configurations reject what the hardware cannot build") {
    assertThrows[IllegalArgumentException](FieldConfig("composite", BigInt(91)))
    assertThrows[IllegalArgumentException](ArithConfig(tileA = 27))
    assertThrows[IllegalArgumentException](ArithConfig(carryChunk = 128))
    assertThrows[IllegalArgumentException](ArithConfig(koSplits = Some(Seq(1))))
  }

  test("Montgomery constants satisfy their definitions") {
    for (f <- FieldConfig.all) {
      assert((f.p * f.pInvNeg + 1).mod(f.R) == 0)
      assert(f.R > f.p && f.R / 2 <= f.p)
      assert(f.fromMont(f.toMont(12345)) == 12345)
    }
  }

  test("Karatsuba plans: subtractive splits beat schoolbook on DSP tiles") {
    val cfg = ArithConfig()
    // 255 = 5 x 51 and 51 x 51 = 2 x 3 tiles: 15 products of 6 tiles
    assert(Karatsuba.tileCount(255, 510, Seq(5), cfg) == 90)
    assert(Karatsuba.tileCount(255, 510, Seq(), cfg) == 150)
    assert(Karatsuba.tileCount(377, 754, Karatsuba.bestPlan(377, 754, cfg), cfg) <= 180)
    // a product needed modulo 2^n keeps only the tiles below bit n
    assert(Karatsuba.tileCount(255, 255, Seq(5), cfg) < 90)
  }

  test("multipliers meet the DSP budgets and report a latency") {
    val m381 = elaborate(new MontgomeryMul(FieldConfig.bls12_381_fr))
    assert(m381.dspTiles <= 260, s"255-bit Montgomery multiplier uses ${m381.dspTiles} DSP tiles")
    val m377 = elaborate(new MontgomeryMul(FieldConfig.bls12_377_fq))
    assert(m377.dspTiles <= 520, s"377-bit Montgomery multiplier uses ${m377.dspTiles} DSP tiles")
    val c381 = elaborate(new ConstMul(FieldConfig.bls12_381_fr, 12345))
    assert(c381.dspTiles < m381.dspTiles)
    for (c <- Seq(m381, m377, c381)) assert(c.latency > 0)
  }

  test("a faster carry chain setting adds no latency and a narrower one never removes any") {
    val f = FieldConfig.bls12_381_fr
    val wide = elaborate(new ModAdd(f, ArithConfig(carryChunk = 96)))
    val narrow = elaborate(new ModAdd(f, ArithConfig(carryChunk = 16)))
    assert(narrow.latency >= wide.latency)
    assert(WideAdder.latency(96, ArithConfig(carryChunk = 96)) == 1)
    assert(WideAdder.latency(97, ArithConfig(carryChunk = 96)) == 2)
  }

  test("two elaborations of a core emit the same Verilog (the md5 Emit prints is reproducible)") {
    def emit(dir: String): Array[Byte] = {
      SpinalConfig(targetDirectory = dir, headerWithDate = false).generateVerilog(new MontgomeryMul(FieldConfig.bls12_377_fr))
      java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(dir, "MontgomeryMul.v"))
    }
    val a = emit("build/elab/repro_a")
    val b = emit("build/elab/repro_b")
    assert(a.nonEmpty && java.util.Arrays.equals(a, b))
  }
}
