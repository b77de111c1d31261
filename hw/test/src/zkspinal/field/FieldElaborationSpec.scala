package zkspinal.field

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._

/** Elaboration checks: configuration requires, DSP chains, Karatsuba and Montgomery plans, DSP budgets, latency. */
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
    assertThrows[IllegalArgumentException](ArithConfig(maxChain = 0))
    assertThrows[IllegalArgumentException](ArithConfig(lutPerDsp = -1))
  }

  test("RomConstMul: the index's ROM read ends where the multiplier starts, one read stage after the operands") {
    val f = FieldConfig.bls12_381_fr
    val m = elaborate(new RomConstMul(f, Seq(BigInt(3), BigInt(5), f.p - 1)))
    val (mulLatency, _) = MontgomeryMulModel.makeExpandedTiming(f, ArithConfig())
    assert(m.latency == 1 + 1 + mulLatency) // the operand register, the ROM read, the expanded multiplier
  }

  test("ModSum: its table covers every sum of its operands, its latency is one heap and one reduction") {
    for (f <- FieldConfig.all; k <- Seq(2, 3, 27, 32)) {
      val m = elaborate(new ModSum(f, k))
      val s = f.p.bitLength - 1
      // the largest sum indexes the last entry; every entry leaves a remainder below 2p for its whole index range
      assert(((BigInt(k) << f.width) - 1) >> s < m.multiples.size)
      for ((qp, i) <- m.multiples.zipWithIndex) assert(qp % f.p == 0 && (BigInt(i + 1) << s) - qp <= 2 * f.p)
      assert(m.latency > WideAdder.latency(f.width + 2, ArithConfig()) + 2 && m.latency <= 12)
    }
    assertThrows[Exception](elaborate(new ModSum(FieldConfig.bls12_381_fr, 1))) // require: at least two operands
  }

  test("Montgomery constants satisfy their definitions") {
    for (f <- FieldConfig.all) {
      assert((f.p * f.pInvNeg + 1).mod(f.R) == 0)
      assert(f.R > f.p && f.R / 2 <= f.p)
      assert(f.fromMont(f.toMont(12345)) == 12345)
    }
  }

  private def planning(bits: Int): Operand = Operand.unsigned(throw new IllegalStateException("planning only"), bits)

  test("DSP chains: links step by 0 or 17 bits, operands fit the ports, partial sums fit 48 bits") {
    val a = Operand.unsigned(throw new IllegalStateException(), 26)
    val b = Operand.unsigned(throw new IllegalStateException(), 17)
    assert(DspChain((0 until 4).map(k => Link(a, b, 17 * k))).segments.map(_.offset) == Seq(0, 17, 34, 51))
    assertThrows[IllegalArgumentException](DspChain(Seq(Link(a, b, 0), Link(a, b, 16))))
    assertThrows[IllegalArgumentException](DspChain(Seq(Link(Operand.unsigned(throw new IllegalStateException(), 27), b, 0))))
    // 26 x 17-bit products at one weight: 15 fit below 2^47, 17 do not (the accumulator would overflow)
    assert(DspChain(Seq.fill(15)(Link(a, b, 0))).ranges.last._2 < (BigInt(1) << 47))
    assertThrows[IllegalArgumentException](DspChain(Seq.fill(17)(Link(a, b, 0))))
    // packing starts a new chain where one would overflow or exceed maxChain
    assert(DspChainPack(Seq.fill(17)(Link(a, b, 0)), ArithConfig()).map(_.links.size) == Seq(16, 1))
    assert(DspChainPack(Seq.fill(10)(Link(a, b, 0)), ArithConfig(maxChain = 4)).map(_.links.size) == Seq(4, 4, 2))
  }

  test("Karatsuba on chains: fewer DSPs than schoolbook, one heap row per chain, signed digits fit the ports") {
    val cfg = ArithConfig()
    def full(splits: Seq[Int]) = Karatsuba.cost(Karatsuba.plan(planning(255), planning(255), splits, cfg, 510), 0, 510)
    // 255 = 5 x 51 and a 51 x 51 leaf is 2 x 3 DSPs: 15 leaves of 6
    assert(full(Seq(5)).dsps == 90)
    assert(full(Seq()).dsps == 150)
    // schoolbook: 10 chains of 15 links, each one row of 17 x 14 + 44 bits, where 150 products would be 150 rows
    assert(full(Seq()).heapBits <= 10 * (17 * 14 + 44))
    // a product kept modulo 2^255 builds only the links below bit 255
    assert(Karatsuba.cost(Karatsuba.plan(planning(255), planning(255), Seq(5), cfg, 255), 0, 255).dsps < 90)
    // three levels: differences of differences are carried, so their digits still fit the ports (DspChain checks)
    assert(full(Seq(2, 2, 2)).dsps == 108)
  }

  test("Montgomery plans: the two-adic part of p, a dropped rest below R, DSPs within budget") {
    for ((f, s, budget) <- Seq((FieldConfig.bls12_381_fr, 32, 233), (FieldConfig.bls12_377_fq, 46, 431),
                               (FieldConfig.bls12_377_fr, 47, 233))) {
      val plan = MontgomeryPlan(f, ArithConfig())
      assert(plan.s == s)
      assert(f.p == 1 + (plan.pH << s))
      assert((f.pInvNeg - ((plan.pInvH << s) - 1)).mod(f.R) == 0)
      val r = plan.reduction
      val m = planning(f.width)
      val range = plan.rest(plan.yLeaves(m, r.splits, r.dropped), plan.yLeaves(m, r.splits, Set()), r.dropped, r.cut)
      assert(plan.fits(range, r.cut) && plan.bias(range._1, r.cut) % (BigInt(1) << r.cut) == 0)
      assert(plan.dsps <= budget, s"${f.name}: ${plan.dsps} DSPs")
    }
    // a dearer DSP never buys more of them
    val cheap = MontgomeryPlan(FieldConfig.bls12_377_fq, ArithConfig(lutPerDsp = 50))
    val dear = MontgomeryPlan(FieldConfig.bls12_377_fq, ArithConfig(lutPerDsp = 400))
    assert(dear.dsps <= cheap.dsps && dear.productBits >= cheap.productBits)
  }

  test("multipliers meet the DSP budgets and report a latency") {
    val m381 = elaborate(new MontgomeryMul(FieldConfig.bls12_381_fr))
    assert(m381.dspTiles <= 233, s"255-bit Montgomery multiplier uses ${m381.dspTiles} DSPs")
    val m377 = elaborate(new MontgomeryMul(FieldConfig.bls12_377_fq))
    assert(m377.dspTiles <= 431, s"377-bit Montgomery multiplier uses ${m377.dspTiles} DSPs")
    val c381 = elaborate(new ConstMul(FieldConfig.bls12_381_fr, 12345))
    assert(c381.dspTiles <= 150)
    val e381 = elaborate(new ExpandedConstMul(FieldConfig.bls12_381_fr))
    assert(e381.dspTiles <= 150 && (1 to 10).map(e381.operandLag) == (0 until 10))
    for (c <- Seq(m381, m377, c381, e381)) assert(c.latency > 0)
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
