package zkspinal.field

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._

/** Simulation model of [[MontgomeryMul]]: the same product a*b*R^-1 mod p (fully reduced, so the same bits for
  * a, b < p), the same interface and the same `latency`, written as wide multiplies and moduli.  Not for
  * synthesis: it lets Verilator build an engine with many multipliers (the MSM adder's seven, a Poseidon core's
  * twenty) in seconds instead of compiling 100 MB of bit-level C++, for the scheduler/memory/AXI tests, soaks and
  * cycle benchmarks, whose cycle counts do not depend on how the product is computed.  The real multiplier is
  * held against the model by tests/test_field_montmul.py (a million products per prime in the long tier), inside
  * the real adder by tests/test_msm_adder.py and inside the real Poseidon cores by tests/test_poseidon_axis.py.
  */
class MontgomeryMulModel(val field: FieldConfig, val latency: Int, val dspTiles: Int)
    extends FlowCore(field.width, 2, field.width) {
  require(latency >= 2)
  private val n = field.width
  private val a = operand(0)
  private val b = operand(1)
  private val p = U(field.p, n bits)
  // (a*b mod p) * R^-1 mod p: two 2n-bit products rather than one 3n-bit one (a simulator's wide multiply costs
  // about the cube of the product's words), taken into the stage-2 register only for a valid operation, so an idle
  // cycle computes nothing (the result of an invalid slot is the last valid one: no user reads it)
  private val ab = ((a.value * b.value) % p).resize(n)
  private val r = ((ab * U(field.rInv, n bits)) % p).resize(n)
  drive(Timed(Delay(RegNextWhen(r, ModelGate.valid(io.input.valid, a.at)), latency - 2), latency))
}

/** The simulation models' register enable: the input's valid at the operands' stage. */
object ModelGate {
  def valid(inputValid: Bool, stage: Int): Bool = Delay(inputValid, stage, init = False)
}

/** Simulation model of [[ExpandedConstMul]]: x * C_0 mod p (C_0 is the constant itself; the other digit multiples
  * are ignored), same ports and latency.  The real core is held against the model by tests/test_field_constmul.py
  * (RomConstMul) and runs inside the real Poseidon tops. */
class ExpandedConstMulModel(val field: FieldConfig, digits: Int, val latency: Int, val dspTiles: Int)
    extends FlowCore(field.width, 1 + digits, field.width) {
  require(latency >= 2)
  override def operandLag(i: Int): Int = ExpandedConstMul.operandLag(i) // as the real core reads its words
  private val x = operand(0)
  private val r = ((x.value * operand(1).value) % U(field.p, field.width bits)).resize(field.width)
  // computed only for a valid operation, as MontgomeryMulModel
  drive(Timed(Delay(RegNextWhen(r, ModelGate.valid(io.input.valid, x.at)), latency - 2), latency))
}

object MontgomeryMulModel {
  /** The real multiplier, or (model = true) this simulation model with its latency and DSP count. */
  def make(field: FieldConfig, cfg: ArithConfig, model: Boolean): FlowCore =
    if (!model) new MontgomeryMul(field, cfg)
    else { val (lat, tiles) = realTiming(field, cfg); new MontgomeryMulModel(field, lat, tiles) }

  /** The real expanded-constant multiplier, or its simulation model. */
  def makeExpanded(field: FieldConfig, cfg: ArithConfig, model: Boolean): FlowCore =
    if (!model) new ExpandedConstMul(field, cfg)
    else {
      val (lat, tiles) = makeExpandedTiming(field, cfg)
      new ExpandedConstMulModel(field, ExpandedConstMul.digits(field, cfg), lat, tiles)
    }

  /** (latency, DSP tiles) of the real expanded-constant multiplier */
  def makeExpandedTiming(field: FieldConfig, cfg: ArithConfig): (Int, Int) =
    timing("ExpandedConstMul", field, cfg, new ExpandedConstMul(field, cfg))

  /** (latency, DSP tiles) of the real Montgomery multiplier */
  def realTiming(field: FieldConfig, cfg: ArithConfig): (Int, Int) = timing("MontgomeryMul", field, cfg, new MontgomeryMul(field, cfg))

  /** (latency, DSP tiles) of a real core, from an elaboration of it (cached per core, field and config).  The
    * elaboration runs in its own thread: SpinalHDL's elaboration context is per thread, and this is called while
    * the enclosing top is being elaborated. */
  private val cache = scala.collection.mutable.Map[(String, FieldConfig, ArithConfig), (Int, Int)]()
  private def timing(kind: String, field: FieldConfig, cfg: ArithConfig, build: => FlowCore): (Int, Int) = cache.synchronized {
    cache.getOrElseUpdate((kind, field, cfg), {
      var result: (Int, Int) = null
      var failure: Throwable = null
      val worker = new Thread(() => {
        try {
          val dir = java.nio.file.Files.createTempDirectory("timing").toFile
          val report = SpinalConfig(targetDirectory = dir.getPath).generateVerilog(build)
          dir.listFiles().foreach(_.delete()); dir.delete()
          result = (report.toplevel.latency, report.toplevel.dspTiles)
        } catch { case t: Throwable => failure = t }
      })
      worker.start(); worker.join()
      if (failure != null) throw failure
      result
    })
  }
}
