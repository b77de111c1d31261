package zkspinal.system

import spinal.core._
import zkspinal.contract.IdentifiedCore
import zkspinal.emit.{Json, Top}
import zkspinal.field._
import java.io.File
import java.security.MessageDigest
import java.nio.file.{Files, Paths}

/** Emits the Verilog of every top into build/rtl (one file per top) with a manifest.json describing each
  * (latency, DSP tiles, field, ...) for the tests and benchmarks, and prints an md5 per file.
  *
  *   ./mill hw.runMain zkspinal.system.Emit [--out DIR] [--only REGEX]
  */
object Emit {
  /** the ROM of the RomConstMul test tops: the edge constants and pseudo-random ones (an LCG on the field, so the
    * emitted Verilog does not depend on a seed); 13 entries, so indices 13..15 exercise the range check */
  def romTestConstants(f: FieldConfig): Seq[BigInt] = {
    val edges = Seq(BigInt(0), BigInt(1), BigInt(2), f.p - 1, f.p - 2, f.rModP, f.rInv, (BigInt(1) << (f.width - 1)).mod(f.p))
    edges ++ Iterator.iterate(f.r2ModP)(v => (v * f.r2ModP + 12345).mod(f.p)).drop(1).take(5).toSeq
  }

  def fieldTops(f: FieldConfig, cfg: ArithConfig = ArithConfig()): Seq[Top] = {
    def core(c: Component): FlowCore = c match { case s: FieldStream => s.core; case fc: FlowCore => fc }
    def common(c: Component): Map[String, Any] = {
      val fc = core(c)
      val chains = cascades(c)
      Map("field" -> f.name, "p" -> ("0x" + f.p.toString(16)), "n" -> f.width, "latency" -> fc.latency,
        "dsp_tiles" -> fc.dspTiles, "dsp_chains" -> chains.size, "estimated_luts" -> fc.estimatedLuts, "arity" -> fc.arity, "in_width" -> fc.inWidth,
        "out_width" -> fc.outWidth, "operand_lags" -> (0 until fc.arity).map(fc.operandLag)) ++
        (c match { case s: FieldStream => Map("fifo_depth" -> s.depth, "stream_latency" -> s.streamLatency); case _ => Map() }) ++
        (fc match {
          case m: ConstMul    => Map("constant" -> ("0x" + m.constant.toString(16)))
          case m: RomConstMul => Map("constants" -> m.constants.map("0x" + _.toString(16)))
          case _              => Map()
        })
    }
    // a fixed, structure-free test constant for the generic ConstMul: the field's R^2 mod p
    val cores: Seq[(String, () => FlowCore, Boolean)] = Seq(
      ("ModAdd", () => new ModAdd(f, cfg), true),
      ("ModSub", () => new ModSub(f, cfg), true),
      ("ModSum3", () => new ModSum(f, 3, cfg), true),   // the engine's lane sums: the fewest operands and the most
      ("ModSum27", () => new ModSum(f, 27, cfg), true),
      ("KaratsubaMul", () => new KaratsubaMul(f.width, cfg), false),
      ("MontMul", () => new MontgomeryMul(f, cfg), true),
      ("ConstMul", () => new ConstMul(f, f.r2ModP, cfg), false),
      ("ToMont", () => new MontConvert(f, toMont = true, cfg), false),
      ("FromMont", () => new MontConvert(f, toMont = false, cfg), false),
      ("RomConstMul", () => new RomConstMul(f, romTestConstants(f), cfg), true)
    )
    cores.flatMap { case (kind, mk, check) =>
      Seq(
        Top(s"${kind}_${f.name}", kind, () => mk(), common),
        Top(s"${kind}Stream_${f.name}", kind + "Stream", () => new FieldStream(mk(), f, check), common)
      )
    }
  }

  /** the DSP cascades inside a component (one [[DspCascade]] per chain) */
  def cascades(c: Component): Seq[DspCascade] = c.children.toSeq.flatMap {
    case d: DspCascade => Seq(d)
    case other         => cascades(other)
  }

  /** the DSP48E2 primitive and its model against the inferred form (tests/test_field_dsp.py) */
  def dspCheckTop: Top = Top("DspCheck", "DspCheck", () => new DspCheck,
    c => { val d = c.asInstanceOf[DspCheck]; Map("latency" -> d.latency, "outputs" -> DspCheck.outputs,
      "dsp_tiles" -> d.chains.map(_.links.size).sum, "dsp_chains" -> d.chains.size) })

  def allTops: Seq[Top] = (dspCheckTop +: FieldConfig.all.flatMap(fieldTops(_)))
    .++(zkspinal.keccak.KeccakTops.all)
    .++(zkspinal.poseidon.PoseidonTops.all)
    .++(zkspinal.msm.MsmTops.all)
    .++(SystemTops.all)
    .++(PoseidonInbandTops.all)
    .++(FlashTops.all)

  /** Simulation models of the primitives a top instantiates (hw/sim/<name>.v, copied to <out>/sim/): the
    * simulators compile them with the top; synthesis reads the top alone and maps the primitives itself. */
  private val primitives = Seq("DSP48E2")
  private def simModels(file: String, out: String): Map[String, Any] = {
    val text = new String(Files.readAllBytes(Paths.get(file)))
    val used = primitives.filter(p => text.contains(s"\n  $p #(") || text.contains(s" $p #("))
    if (used.isEmpty) return Map()
    new File(s"$out/sim").mkdirs()
    val root = sys.env.getOrElse("ZK_ROOT", ".")
    for (p <- used) Files.copy(Paths.get(s"$root/hw/sim/$p.v"), Paths.get(s"$out/sim/$p.v"),
      java.nio.file.StandardCopyOption.REPLACE_EXISTING)
    Map("sim_models" -> used.map(p => s"sim/$p.v"))
  }

  private def md5(path: String): String =
    MessageDigest.getInstance("MD5").digest(Files.readAllBytes(Paths.get(path))).map("%02x".format(_)).mkString

  def main(args: Array[String]): Unit = {
    var out = "build/rtl"
    var only = ".*"
    args.sliding(2, 2).foreach {
      case Array("--out", d)  => out = d
      case Array("--only", r) => only = r
      case other              => sys.error(s"usage: Emit [--out DIR] [--only REGEX] (got ${other.mkString(" ")})")
    }
    new File(out).mkdirs()
    val selected = allTops.filter(_.name.matches(only))
    require(selected.nonEmpty, s"no top matches $only")
    val entries = selected.map { t =>
      var info = Map[String, Any]()
      var ident = Map[String, Any]() // a core top's identity (the constants it drives to the system block)
      // no date and no git hash in the header: a top's md5 depends only on what the generator builds
      SpinalConfig(targetDirectory = out, oneFilePerComponent = false, headerWithDate = false, headerWithRepoHash = false,
        inlineRom = true)
        .generateVerilog { val c = t.build(); c.setDefinitionName(t.name); info = t.info(c)
          c match { case i: IdentifiedCore => ident = i.identity.manifest; case _ => }
          c }
      val file = s"$out/${t.name}.v"
      val sum = md5(file)
      println(f"md5 $sum  ${t.name}.v")
      t.name -> (info ++ ident ++ Map("file" -> s"${t.name}.v", "kind" -> t.kind, "md5" -> sum) ++ simModels(file, out))
    }
    // merge with entries of tops emitted earlier (an --only run keeps the rest of the manifest); one top per line
    val manifestPath = Paths.get(s"$out/manifest.json")
    // typed: with an untyped empty Map() the key type is existential and ++ concatenates (one line per run)
    val kept: Map[String, ujson.Value] =
      if (Files.exists(manifestPath)) ujson.read(Files.readString(manifestPath)).obj.toMap else Map.empty
    val all = kept ++ entries.map { case (k, v) => k -> Json.value(v) }
    val lines = all.toSeq.sortBy(_._1).map { case (k, v) => "  " + ujson.Str(k).render() + ": " + v.render() }
    Files.write(manifestPath, lines.mkString("{\n", ",\n", "\n}\n").getBytes)
    // the host contract beside the Verilog: tests/test_contract.py compares it with the committed copies
    ContractFiles.write(s"$out/contract")
  }
}
