package zkspinal.emit

import zkspinal.system._

/** The cards the XDMA emulator serves: one [[CardTop]] per core top of an emulated kind, on its board (the flash
  * controller's identity), plus a card with no core (the flash tools) and one with a system block from before the
  * identity words.  A card's Verilog instantiates its core's module by name; [[Emit]] emits the core with it and
  * reads the core's ports from that elaboration ([[CorePorts]]). */
object CardTops {
  /** the kinds a card can carry: their streams, AXI4-Lite window, status and identity outputs wire generically */
  val kinds = Set("PairFixture", "KeccakSpeed", "KeccakSpongeAxis", "PoseidonAxis", "PoseidonInband", "MsmAxis")

  /** the board a configuration is built for, as its name says (c1100 profiles: c1100, pc2, arity2; vu9p); the
    * small emulation board otherwise */
  def board(core: String): FlashCtrlConfig =
    if (core.contains("vu9p")) FlashCtrlConfig.vu9p
    else if (Seq("c1100", "pc2", "arity2").exists(core.contains)) FlashCtrlConfig.c1100
    else FlashCtrlConfig.small

  def name(core: String): String = s"Card_$core"

  private def card(name: String, core: Option[Top], flash: FlashCtrlConfig, identityWords: Boolean = true): Top =
    Top(name, "Card", () => new CardTop(CardConfig(name,
      core.map(t => CardCore(t.name, t.kind, CorePorts(t.name))), CardConfig.forEmulation(flash), identityWords)),
      c => info(c.asInstanceOf[CardTop].cfg), onDemand = core.exists(_.onDemand))

  def info(cfg: CardConfig): Map[String, Any] = Map(
    "core" -> cfg.core.map(_.module).getOrElse(""), "board" -> cfg.flash.name,
    "h2c" -> cfg.core.map(_.slaves.size).getOrElse(0), "c2h" -> cfg.core.map(_.masters.size).getOrElse(0),
    "core_axil" -> cfg.core.exists(_.axil.nonEmpty), "memories" -> cfg.core.map(_.memories.size).getOrElse(0),
    "inband" -> cfg.inband, "status_count" -> cfg.systemBlock.statusCount, "status_words" -> cfg.statusWords,
    "system_revision" -> cfg.systemBlock.revision)

  /** `cores`: every emitted top; a card for each of an emulated kind */
  def all(cores: Seq[Top]): Seq[Top] = {
    val carried = cores.filter(t => kinds(t.kind))
    carried.map(t => card(name(t.name), Some(t), board(t.name))) ++
      Seq(card("Card_flash_small", None, FlashCtrlConfig.small)) ++
      carried.filter(_.name == "KeccakSpongeAxis_r1").map(t =>
        card(name(t.name) + "_rev0", Some(t), FlashCtrlConfig.small, identityWords = false))
  }

  /** the core a card carries (it is emitted with the card) */
  def coreOf(card: Top, cores: Seq[Top]): Option[Top] =
    cores.find(t => card.name == name(t.name) || card.name == name(t.name) + "_rev0")
}

/** The ports of the cores elaborated in this run of [[Emit]], in port order: a card reads its core's here.  Emit
  * elaborates tops on several threads; a card's elaboration waits for its core's ports ([[expect]] names the cores
  * of the run, so a card whose core is not in it fails at once instead of waiting). */
object CorePorts {
  import scala.concurrent.{Await, Promise}
  import scala.concurrent.duration.Duration
  private val known = new java.util.concurrent.ConcurrentHashMap[String, Promise[Seq[CorePort]]]()
  private def slot(top: String) = known.computeIfAbsent(top, _ => Promise[Seq[CorePort]]())
  /** the cores this run elaborates (before any card's elaboration starts) */
  def expect(tops: Seq[String]): Unit = tops.foreach(slot)
  def record(top: String, ports: Seq[CorePort]): Unit = slot(top).trySuccess(ports)
  /** a core's elaboration failed: its card fails with the same error instead of waiting */
  def failed(top: String, why: Throwable): Unit = slot(top).tryFailure(why)
  def apply(top: String): Seq[CorePort] = Option(known.get(top)) match {
    case Some(p) => Await.result(p.future, Duration.Inf)
    case None    => sys.error(s"$top was not elaborated before its card (Emit emits a card's core with it)")
  }
}
