package zkspinal.system

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axilite._
import zkspinal.contract.{Contract, CoreIdentity, FieldPack, Show}
import spinal.lib.bus.misc.AllMapping
import zkspinal.axi.AxiClocked

/** The system block every zkspinal board design puts on the XDMA user BAR at 0x10000 (sw/lib/zkxdma.h ZK_SYS_*).
  *
  * @param statusCount  status inputs shown at 0x010 + 4i (the core's `status_*` outputs, in port order)
  * @param resetCycles  length of the core reset pulse in cycles of this block's clock (the host library and the
  *                     emulator use 16)
  * @param addressWidth AXI4-Lite address bits (12: one 4 KiB window, the smallest range Vivado's address editor assigns;
  *                     the identity words sit at its top, so no fewer)
  * @param identityWords false: the block as built before the identity words (INFO revision 0, KIND/CONFIG/VERSION
  *                     unmapped), which older bitstreams carry; the emulator serves it to test the host's answer
  */
case class SystemBlockConfig(statusCount: Int = 4, resetCycles: Int = SystemBlockRegs.resetCyclesDefault,
    addressWidth: Int = 12, identityWords: Boolean = true) {
  require(addressWidth >= 12 && addressWidth <= 16, "addressWidth 12..16 (the identity words end the 4 KiB window)")
  require(statusCount >= 0 && SystemBlockRegs.status + 4 * statusCount <= SystemBlockRegs.identity,
    "the status words must end below the identity words")
  require(statusCount <= SystemBlockRegs.infoStatusCount.max, "INFO's status count field holds it")
  require(resetCycles >= 1 && resetCycles <= SystemBlockRegs.infoResetCycles.max, "resetCycles 1..INFO's field")
  def name: String = s"s$statusCount" + (if (identityWords) "" else "_rev0")
  /** INFO's revision field */
  def revision: Int = if (identityWords) SystemBlockRegs.revision else 0
}

object SystemBlockConfig {
  val small = SystemBlockConfig(statusCount = 2)
  val c1100 = SystemBlockConfig(statusCount = 4)
  val vu9p = SystemBlockConfig(statusCount = 8)
  /** the configurations Emit writes; a board script picks the smallest one with enough status inputs */
  val all: Seq[SystemBlockConfig] = Seq(SystemBlockConfig(0), small, c1100, vu9p)
  /** the smallest of `all` with at least n status inputs (vivado/lib/zk_bd.tcl system_block_for) */
  def forStatus(n: Int): SystemBlockConfig = all.filter(_.statusCount >= n).sortBy(_.statusCount).headOption
    .getOrElse(SpinalError(s"no system block has $n status inputs (add a SystemBlockConfig)"))
}

/** Register map (offsets inside the block's window; the board designs map the window at BAR offset 0x10000).
  *   0x000 ID      read-only 0x7a6b5359 ("zkSY")
  *   0x004 RESET   write with bit 0 set: `core_aresetn` goes low for resetCycles cycles (a write during a pulse
  *                 restarts it).  read: bit 0 = pulse in progress
  *   0x008 INFO    read-only [7:0] status count, [15:8] reset cycles, [23:16] revision of this map (1: with the
  *                 identity words; a block without them reads 0 here), [31:24] 0
  *   0x00C BAD     read-only: accesses to offsets outside this map and writes to read-only registers, counted
  *   0x010 + 4i    read-only: status input i (registered once)
  *   0xFF4 KIND    read-only: the core's identity (see [[CoreIdentity]]), the inputs `ident_kind`, `ident_config`,
  *   0xFF8 CONFIG  `ident_version` that the block design connects to the core's constant outputs of the same names
  *   0xFFC VERSION (not registered: constants)
  * Bad accesses answer OKAY (reads return 0, writes are ignored) and count in BAD.  Not SLVERR: XDMA turns an
  * error response on the user BAR into a failed PCIe completion, which the host reads as all ones, the same value a
  * hung or absent card gives; a counter the host can read tells the two apart.
  * `core_aresetn` is also low while this block's own `aresetn` is, and for resetCycles cycles after it.
  */
object SystemBlockRegs extends Contract("system", "system block registers (offsets inside its window, which the " +
    "board designs map at UserBar.system)", "hw/src/zkspinal/system/SystemBlock.scala") {
  val id = reg("id", 0x000, "read-only: the magic 0x7a6b5359 (\"zkSY\")")
  val reset = reg("reset", 0x004, "write bit 0 = 1: core_aresetn low for the reset cycles (a write during a pulse " +
    "restarts it).  read: bit 0 = pulse in progress")
  val info = reg("info", 0x008, "read-only: [7:0] status count, [15:8] reset cycles, [23:16] revision of this map " +
    "(1: with the identity words; a block without them reads 0 here)")
  val bad = reg("bad", 0x00C, "read-only: accesses to offsets outside this map and writes to read-only registers",
    show = Show.Dec)
  val status = reg("status", 0x010, "read-only: status input i at 0x010 + 4i (registered once)")
  /** the identity words, one per [[CoreIdentity.fields]] entry from here: KIND 0xFF4, CONFIG 0xFF8, VERSION 0xFFC */
  val identity = 0x1000 - 4 * CoreIdentity.fields.size // the top of windowBytes
  val kind = reg("kind", identity, "read-only: the core's CoreKind code (0: the core has no identity)")
  val config = reg("config", identity + 4, "read-only: CRC-32 (zlib's) of the core's configuration name, e.g. c1100")
  val version = reg("version", identity + 8, "read-only: [15:0] the core's interface revision for its kind, " +
    "[31:16] what the kind says of its configuration (an MSM core: its curve, MSM_CURVE_*)")
  require(CoreIdentity.fields == Seq("kind", "config", "version"))
  val magic = code("magic", BigInt("7a6b5359", 16), "ID's value")
  val windowBytes = code("window_bytes", 0x1000, "the block's address window (the identity words end it)").toInt
  /** INFO[23:16] */
  val revision = code("revision", 1, "INFO[23:16] of this block (0: a block without the identity words)").toInt
  val resetCyclesDefault = code("reset_cycles_default", 16, "the core reset pulse of every board's system block, in " +
    "cycles").toInt
  val infoStatusCount = field("status_count", "info", 0, 8, "status inputs (STATUS + 4i, i below it)")
  val infoResetCycles = field("reset_cycles", "info", 8, 8, "cycles of the core reset pulse")
  val infoRevision = field("revision", "info", 16, 8, "revision of this map (REVISION: with the identity words; 0 " +
    "without)")
  val versionInterface = field("interface", "version", 0, 16, "the core's interface revision for its kind")
  val versionDetail = field("detail", "version", 16, 16, "what the kind says of its configuration (an MSM core: " +
    "its curve, MSM_CURVE_*; 0 for the other kinds and on MSM cards from before the curve was named, BLS12-377's)")
}

class SystemBlock(val cfg: SystemBlockConfig = SystemBlockConfig()) extends Component with AxiClocked {
  import SystemBlockRegs._
  val s_axil = slave(AxiLite4(AxiLite4Config(addressWidth = cfg.addressWidth, dataWidth = 32)))
  AxiLite4SpecRenamer(s_axil)
  val status_in: Seq[UInt] = (0 until cfg.statusCount).map(i => in(UInt(32 bits)).setName(s"status_$i"))
  val ident_in: Seq[UInt] = CoreIdentity.fields.map(f => in(UInt(32 bits)).setName(CoreIdentity.portName(f)))
  val core_aresetn = out(Bool())

  val logic = new ClockingArea(axiDomain) {
    val bus = AxiLite4SlaveFactory(s_axil)
    val writeData = Bits(32 bits)
    bus.nonStopWrite(writeData)

    // ---- the reset pulse: counts down from resetCycles; the cores run when it reaches 0
    val left = Reg(UInt(log2Up(cfg.resetCycles + 1) bits)) init (cfg.resetCycles)
    when(left =/= 0) { left := left - 1 }
    bus.onWrite(reset) { when(writeData(0)) { left := cfg.resetCycles } } // elaborated after the countdown: wins
    core_aresetn := RegNext(left === 0) init (False)

    // ---- registers
    bus.read(B(magic, 32 bits), id)
    bus.read(left =/= 0, reset)
    bus.read(FieldPack(32, FieldPack.const(infoRevision, cfg.revision), FieldPack.const(infoResetCycles, cfg.resetCycles),
      FieldPack.const(infoStatusCount, cfg.statusCount)), info)
    val badCount = Reg(UInt(32 bits)) init (0)
    bus.read(badCount, bad)
    for ((s, i) <- status_in.zipWithIndex) bus.read(RegNext(s) init (0), status + 4 * i)
    if (cfg.identityWords) for ((s, i) <- ident_in.zipWithIndex) bus.read(s, identity + 4 * i)

    // ---- bad accesses: a word offset outside the map, or a write anywhere but RESET
    def word(a: UInt): UInt = a(cfg.addressWidth - 1 downto 2)
    def mapped(a: UInt): Bool = {
      val w = word(a)
      w <= (bad >> 2) || (w >= (status >> 2) && w < (status >> 2) + cfg.statusCount) || Bool(cfg.identityWords) &&
        (w >= (identity >> 2) && w <= (identity >> 2) + ident_in.size - 1) // <=: the last word may end the window
    }
    val badRead = False
    val badWrite = False
    bus.onReadPrimitive(AllMapping, haltSensitive = true, null) { when(!mapped(bus.readAddress())) { badRead := True } }
    bus.onWritePrimitive(AllMapping, haltSensitive = true, null) {
      when(word(bus.writeAddress()) =/= (reset >> 2)) { badWrite := True }
    }
    badCount := badCount + U(badRead).resize(32) + U(badWrite).resize(32)
  }
}
