package zkspinal.system

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi.Axi4SpecRenamer
import spinal.lib.bus.amba4.axilite._
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}
import spinal.lib.bus.amba4.axis.Axi4Stream.Axi4StreamBundle
import zkspinal.contract.CoreIdentity

/** One port of an emitted core, as its Verilog declares it */
case class CorePort(name: String, width: Int, input: Boolean)

/** An emitted core by its module name and ports, as the block design instantiates its packaged IP: the card's
  * Verilog instantiates the module and the simulator reads the core's own file beside it. */
class CoreModule(module: String, ports: Seq[CorePort]) extends BlackBox {
  setDefinitionName(module)
  val pins: Map[String, BaseType] = ports.map { p =>
    val s: BaseType = if (p.width == 1) Bool() else Bits(p.width bits)
    p.name -> (if (p.input) in(s) else out(s)).setName(p.name)
  }.toMap
  private val inputs = ports.filter(_.input).map(_.name).toSet
  def has(name: String): Boolean = pins.contains(name)
  /** connects `signal` of the card to the core's port `name` in the port's direction */
  def wire(name: String, signal: BaseType): Unit = {
    val pin = pins.getOrElse(name, SpinalError(s"$module has no port $name"))
    if (inputs(name)) pin.assignFromBits(signal.asBits) else signal.assignFromBits(pin.asBits)
  }
}

/** A core of a card: its module, its manifest kind, its ports (in port order) */
case class CardCore(module: String, kind: String, ports: Seq[CorePort]) {
  private def names = ports.map(_.name)
  private def input(n: String) = ports.find(_.name == n).exists(_.input)
  /** AXI4-Stream prefixes in port order: H2C channel k is the k-th slave, C2H channel k the k-th master */
  def streams: Seq[String] = names.filter(_.endsWith("_tvalid")).map(_.stripSuffix("_tvalid"))
  def slaves: Seq[String] = streams.filter(s => input(s + "_tvalid"))
  def masters: Seq[String] = streams.filterNot(s => input(s + "_tvalid"))
  def width(n: String): Int = ports.find(_.name == n).map(_.width).getOrElse(0)
  def status: Seq[String] = names.filter(_.startsWith("status_"))
  /** AXI4-Lite slaves: an address-write channel with no burst length */
  def axil: Seq[String] = names.filter(n => n.endsWith("_awvalid") && input(n)).map(_.stripSuffix("_awvalid"))
    .filterNot(p => names.contains(p + "_awlen"))
  /** the AXI4 masters of the card memory (the point store), one per memory channel */
  def memories: Seq[String] = names.filter(n => n.startsWith("m_axi_mem") && n.endsWith("_awvalid"))
    .map(_.stripSuffix("_awvalid"))
}

/** @param core          the core the card carries (None: a card with the system block and the flash controller only)
  * @param flash         the board's flash controller, in its emulation variant (pins and ICAP ports, see [[forEmulation]])
  * @param identityWords false: a system block built before the identity words (revision 0), as older bitstreams have
  */
case class CardConfig(name: String, core: Option[CardCore], flash: FlashCtrlConfig, identityWords: Boolean = true) {
  require(flash.phy == FlashPhy.Pins && flash.icap == IcapKind.Ports,
    "the card's flash controller drives pins and ICAP ports the emulator's models answer (FlashCtrlConfig.forEmulation)")
  for (c <- core) {
    require(c.axil.size <= 1, s"${c.module}: the user BAR has one core window")
    require(c.slaves.size <= CardConfig.channels && c.masters.size <= CardConfig.channels,
      s"${c.module}: XDMA has ${CardConfig.channels} channels each way")
  }
  def inband: Boolean = core.exists(c => CardConfig.inbandKinds(c.kind))
  /** status words: the core's status outputs in port order, then each adapter's (two per InbandLast) */
  def statusWords: Int = core.map(c => c.status.size + (if (inband) 2 * c.slaves.size else 0)).getOrElse(0)
  /** the system block the board scripts pick for this many status words (zk_bd.tcl system_block_for) */
  def systemBlock: SystemBlockConfig = SystemBlockConfig.forStatus(statusWords).copy(identityWords = identityWords)
}

object CardConfig {
  val channels = 4
  /** kinds whose H2C streams carry several frames per write, framed by InbandLast (zk_bd.tcl `inband_kinds`) */
  val inbandKinds = Set("PoseidonAxis")
  /** the flash controller of a board as the emulator serves it: its identity and registers, on pins */
  def forEmulation(board: FlashCtrlConfig): FlashCtrlConfig =
    if (board.phy == FlashPhy.Pins) board else board.copy(name = board.name + "_pins", phy = FlashPhy.Pins,
      icap = IcapKind.Ports)
}

/** A card as the board design (vivado/lib/zk_bd.tcl) wires it, for the XDMA emulator (sw/emu):
  *   H2C channel k  -> h2c_k -> [InbandLast, for the inband kinds] -> the core's k-th AXI4-Stream slave (TUSER 0)
  *   C2H channel k  <- c2h_k <- the core's k-th AXI4-Stream master (TUSER dropped: XDMA carries none)
  *   user BAR       core_axil (UserBar.core), system_axil (UserBar.system), flash_axil (UserBar.flash): the
  *                  SmartConnect's three slaves, which the emulator's bus routes by the contract's map
  *   resets         aresetn (power-on) -> SystemBlock and FlashCtrl; SystemBlock core_aresetn -> the core, the
  *                  adapters, and out (the DMA side's stream FIFOs are on it too: the emulator ends transfers in
  *                  flight when it falls)
  *   status         the core's status_* outputs in port order, then the adapters' -> SystemBlock status_i
  *   identity       the core's ident_* outputs -> SystemBlock (0 for a core without them)
  *   card memory    the core's m_axi_mem<c> masters -> ports of the same names (the emulator's DDR4 models)
  *   flash          FlashCtrl's spi_* and icap_* pins -> ports (the emulator's flash and ICAPE3 models)
  * Clocks: everything but the core runs on aclk; the core on core_clk, which the emulator drives with aclk and holds
  * to play a hung core (the system block keeps answering, as on a card whose core deadlocked).
  */
class CardTop(val cfg: CardConfig) extends Component {
  val aclk = in Bool ()
  val aresetn = in Bool ()
  val core_clk = in Bool ()
  val core_aresetn = out Bool ()

  val system = new SystemBlock(cfg.systemBlock)
  system.aclk := aclk
  system.aresetn := aresetn
  core_aresetn := system.core_aresetn
  val system_axil = slave(AxiLite4(system.s_axil.config))
  system_axil >> system.s_axil
  AxiLite4SpecRenamer(system_axil)

  val flash = new FlashCtrl(cfg.flash)
  flash.aclk := aclk
  flash.aresetn := aresetn
  val flash_axil = slave(AxiLite4(flash.s_axil.config))
  flash_axil >> flash.s_axil
  AxiLite4SpecRenamer(flash_axil)
  val spi_sclk = out(Bool())
  val spi_ss_n = out(Bool())
  val spi_dq_o = out(Bits(4 bits))
  val spi_dq_oe = out(Bits(4 bits))
  val spi_dq_i = in(Bits(4 bits))
  val icap_csib = out(Bool())
  val icap_rdwrb = out(Bool())
  val icap_i = out(Bits(32 bits))
  spi_sclk := flash.pinPorts.sclk
  spi_ss_n := flash.pinPorts.ss_n
  spi_dq_o := flash.pinPorts.dq_o
  spi_dq_oe := flash.pinPorts.dq_oe
  flash.pinPorts.dq_i := spi_dq_i
  icap_csib := flash.icapPorts.csib
  icap_rdwrb := flash.icapPorts.rdwrb
  icap_i := flash.icapPorts.data

  private val coreStatus, adapterStatus = scala.collection.mutable.ArrayBuffer[UInt]()
  val carried = cfg.core.map(c => new Area {
    val core = new CoreModule(c.module, c.ports).setName("core")
    private val done = scala.collection.mutable.Set[String]()
    private def wire(pin: String, s: BaseType): Unit = { core.wire(pin, s); done += pin }
    wire("aclk", core_clk)
    wire("aresetn", system.core_aresetn)

    /** the core's stream `p` and a card stream, signal by signal (optional ones where both have them) */
    def streamSignals(s: Stream[Axi4StreamBundle], p: String): Unit = {
      wire(s"${p}_tvalid", s.valid)
      wire(s"${p}_tready", s.ready)
      wire(s"${p}_tdata", s.payload.data)
      if (s.payload.config.useLast && core.has(s"${p}_tlast")) wire(s"${p}_tlast", s.payload.last)
      if (s.payload.config.useKeep && core.has(s"${p}_tkeep")) wire(s"${p}_tkeep", s.payload.keep)
    }
    def axisConfig(p: String, keep: Boolean) = Axi4StreamConfig(dataWidth = c.width(s"${p}_tdata") / 8,
      useKeep = keep, useLast = c.width(s"${p}_tlast") > 0)

    val h2c = for ((p, k) <- c.slaves.zipWithIndex) yield {
      if (cfg.inband) {
        val framer = new InbandLast(InbandLastConfig(dataBytes = c.width(s"${p}_tdata") / 8))
        framer.aclk := aclk
        framer.aresetn := system.core_aresetn
        val port = slave(Axi4Stream(framer.s_axis.config)).setName(s"h2c_$k")
        port >> framer.s_axis
        streamSignals(framer.m_axis, p)
        adapterStatus += framer.status_frames
        adapterStatus += framer.status_partial
        Axi4SpecRenamer(port)
      } else {
        val port = slave(Axi4Stream(axisConfig(p, c.width(s"${p}_tkeep") > 0))).setName(s"h2c_$k")
        streamSignals(port, p)
        Axi4SpecRenamer(port)
      }
      if (core.has(s"${p}_tuser")) wire(s"${p}_tuser", B(0, c.width(s"${p}_tuser") bits)) // XDMA carries no TUSER
    }
    val c2h = for ((p, k) <- c.masters.zipWithIndex) yield {
      val port = master(Axi4Stream(axisConfig(p, c.width(s"${p}_tkeep") > 0))).setName(s"c2h_$k")
      streamSignals(port, p)
      if (core.has(s"${p}_tuser")) done += s"${p}_tuser"
      Axi4SpecRenamer(port)
    }

    val axil = for (p <- c.axil) yield {
      val port = slave(AxiLite4(AxiLite4Config(addressWidth = c.width(s"${p}_awaddr"), dataWidth = 32)))
        .setName("core_axil")
      val signals = Seq("awvalid" -> port.aw.valid, "awready" -> port.aw.ready, "awaddr" -> port.aw.payload.addr,
        "awprot" -> port.aw.payload.prot, "wvalid" -> port.w.valid, "wready" -> port.w.ready,
        "wdata" -> port.w.payload.data, "wstrb" -> port.w.payload.strb, "bvalid" -> port.b.valid,
        "bready" -> port.b.ready, "bresp" -> port.b.payload.resp, "arvalid" -> port.ar.valid,
        "arready" -> port.ar.ready, "araddr" -> port.ar.payload.addr, "arprot" -> port.ar.payload.prot,
        "rvalid" -> port.r.valid, "rready" -> port.r.ready, "rdata" -> port.r.payload.data,
        "rresp" -> port.r.payload.resp)
      for ((n, s) <- signals) wire(s"${p}_$n", s)
      AxiLite4SpecRenamer(port)
    }

    // the card memory: each m_axi_mem<c> signal straight to a card port of the same name
    val memory = for (m <- c.memories; port <- c.ports if port.name.startsWith(m + "_")) yield {
      val s: BaseType = if (port.width == 1) Bool() else Bits(port.width bits)
      val p = (if (port.input) in(s) else out(s)).setName(port.name)
      wire(port.name, p)
      p
    }

    for (s <- c.status) {
      val w = UInt(32 bits)
      wire(s, w)
      coreStatus += w
    }
    for ((f, i) <- CoreIdentity.fields.zipWithIndex) {
      val n = CoreIdentity.portName(f)
      if (core.has(n)) wire(n, system.ident_in(i)) else system.ident_in(i) := 0
    }
    val unwired = c.ports.map(_.name).filterNot(done)
    if (unwired.nonEmpty) SpinalError(s"${c.module}: the card does not know how to wire ${unwired.mkString(", ")}")
  })
  if (cfg.core.isEmpty) system.ident_in.foreach(_ := 0)

  private val status = coreStatus ++ adapterStatus // the core's words first, as zk_bd.tcl wires them
  require(status.size == cfg.statusWords, "status words as the configuration counts them")
  for ((s, i) <- system.status_in.zipWithIndex) s := (if (i < status.size) status(i) else U(0, 32 bits))
}
