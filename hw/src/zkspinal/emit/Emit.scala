package zkspinal.emit

import spinal.core._
import zkspinal.contract.IdentifiedCore
import zkspinal.lib.Json
import zkspinal.system.CorePort
import java.io.File
import java.security.MessageDigest
import java.nio.file.{Files, Paths}
import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration.Duration

/** Emits the Verilog of every top into build/rtl (one file per top) with a manifest.json describing each
  * (latency, DSP tiles, field, ...) for the tests and benchmarks, and prints an md5 per file.  The on-demand tops
  * ([[Top]]`.onDemand`: large board configurations) only when `--only` names them.
  *
  *   ./mill hw.runMain zkspinal.emit.Emit [--out DIR] [--only REGEX]
  *
  * Tops are elaborated on ZK_EMIT_JOBS threads (default: one per CPU); each top's Verilog is the same either way.
  */
object Emit {
  /** every top, by layer: each list lives beside this file (FieldTops, KeccakTops, ...) */
  def coreTops: Seq[Top] =
    FieldTops.all ++ KeccakTops.all ++ PoseidonTops.all ++ MsmTops.all ++ SystemTops.all ++ PoseidonInbandTops.all ++
      FlashTops.all
  /** the cores, then the emulator's cards around them (a card reads its core's ports from that elaboration) */
  def allTops: Seq[Top] = coreTops ++ CardTops.all(coreTops)

  /** the tops matching `only` (every top but the on-demand ones when None), with the core of every selected card,
    * in [[allTops]]'s order */
  def select(only: Option[String]): Seq[Top] = {
    def wanted(t: Top) = only.fold(!t.onDemand)(t.name.matches)
    val chosen = allTops.filter(wanted)
    val cores = chosen.flatMap(CardTops.coreOf(_, coreTops)).map(_.name).toSet
    allTops.filter(t => wanted(t) || cores(t.name))
  }

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

  /** Elaborates one top into `out`, records its ports (a card reads its core's), prints its md5 and the time its
    * elaboration took, and gives its manifest entry. */
  private def emitOne(t: Top, out: String): (String, Map[String, Any]) = {
    val t0 = System.nanoTime()
    var info = Map[String, Any]()
    var ident = Map[String, Any]() // a core top's identity (the constants it drives to the system block)
    // no date and no git hash in the header: a top's md5 depends only on what the generator builds
    // a card's own modules get a prefix: the simulator reads its core's file beside it, and both may have a StreamFifo
    val prefix = if (t.kind == "Card") "card_" else ""
    val report = SpinalConfig(targetDirectory = out, oneFilePerComponent = false, headerWithDate = false,
      headerWithRepoHash = false, inlineRom = true, globalPrefix = prefix)
      .generateVerilog { val c = t.build(); c.setDefinitionName(t.name); info = t.info(c)
        c match { case i: IdentifiedCore => ident = i.identity.manifest; case _ => }
        c }
    CorePorts.record(t.name, report.toplevel.getAllIo.toSeq.map(io => CorePort(io.getName(), io.getBitsWidth,
      io.isInput)))
    val file = s"$out/${t.name}.v"
    val sum = md5(file)
    // one println per top (whole lines: the threads' lines do not interleave)
    System.out.println(f"md5 $sum  ${t.name}.v\n# ${t.name}: ${(System.nanoTime() - t0) / 1e9}%.1f s")
    t.name -> (info ++ ident ++ Map("file" -> s"${t.name}.v", "kind" -> t.kind, "md5" -> sum) ++ simModels(file, out))
  }

  def main(args: Array[String]): Unit = {
    var out = "build/rtl"
    var only: Option[String] = None
    args.sliding(2, 2).foreach {
      case Array("--out", d)  => out = d
      case Array("--only", r) => only = Some(r)
      case other              => sys.error(s"usage: Emit [--out DIR] [--only REGEX] (got ${other.mkString(" ")})")
    }
    new File(out).mkdirs()
    val selected = select(only)
    require(selected.nonEmpty, s"no top matches ${only.getOrElse("")}")
    // the cores' ports are promised before any card starts: a card's elaboration waits for its core's
    CorePorts.expect(selected.filter(_.kind != "Card").map(_.name))
    val jobs = sys.env.get("ZK_EMIT_JOBS").map(_.toInt).getOrElse(Runtime.getRuntime.availableProcessors)
    require(jobs >= 1, s"ZK_EMIT_JOBS=$jobs: at least 1")
    val pool = java.util.concurrent.Executors.newFixedThreadPool(jobs)
    implicit val ec: ExecutionContext = ExecutionContext.fromExecutorService(pool)
    val started = System.nanoTime()
    // one thread per elaboration (SpinalHDL's elaboration context is per thread); the pool takes the tops in
    // allTops' order, cores before their cards, so a card only ever waits for a core already being elaborated
    val futures = selected.map(t => Future(emitOne(t, out)).andThen { case scala.util.Failure(e) =>
      if (t.kind != "Card") CorePorts.failed(t.name, e) })
    val entries = try Await.result(Future.sequence(futures), Duration.Inf) finally pool.shutdown()
    System.out.println(f"emitted ${selected.size} tops in ${(System.nanoTime() - started) / 1e9}%.1f s on $jobs " +
      (if (jobs == 1) "thread" else "threads"))
    // merge with entries of tops emitted earlier (an --only run keeps the rest of the manifest); one top per line
    val manifestPath = Paths.get(s"$out/manifest.json")
    // typed: with an untyped empty Map() the key type is existential and ++ concatenates (one line per run)
    val kept: Map[String, ujson.Value] =
      if (Files.exists(manifestPath)) ujson.read(Files.readString(manifestPath)).obj.toMap else Map.empty
    val all = kept ++ entries.map { case (k, v) => k -> Json.value(v) }
    val lines = all.toSeq.sortBy(_._1).map { case (k, v) => "  " + ujson.Str(k).render() + ": " + v.render() }
    Files.write(manifestPath, lines.mkString("{\n", ",\n", "\n}\n").getBytes)
    // the tops a plain run leaves out, by name: rtl.ensure emits one when asked and refuses a name on neither list
    Files.write(Paths.get(s"$out/on_demand.json"), allTops.filter(_.onDemand).map(t => ujson.Str(t.name).render())
      .mkString("[\n  ", ",\n  ", "\n]\n").getBytes)
    // every MSM configuration's layout, the on-demand ones too (no elaboration: the host's board defaults are
    // checked against it without emitting a board top)
    val msm = zkspinal.msm.MsmConfig.all.map { c =>
      "  " + ujson.Str(s"MsmAxis_${c.name}").render() + ": " + ujson.Obj("curve" -> c.curve.name,
        "windows" -> ujson.Arr(c.windows.map(w => ujson.Num(w)): _*), "adders" -> c.adders,
        "on_demand" -> zkspinal.msm.MsmConfig.onDemand.contains(c)).render()
    }
    Files.write(Paths.get(s"$out/msm_configs.json"), msm.mkString("{\n", ",\n", "\n}\n").getBytes)
    // the host contract beside the Verilog: tests/test_contract.py compares it with the committed copies
    ContractFiles.write(s"$out/contract")
  }
}
