package zkspinal.system

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axilite._
import zkspinal.contract.{Contract, FieldPack}
import spinal.lib.com.spi.ddr.{SpiXdrMasterCtrl, SpiXdrParameter}
import zkspinal.axi.AxiClocked

import scala.language.{existentials, reflectiveCalls}

/** How the SPI master reaches the flash: `Pins` exposes spi_* ports (simulation, or a flash on user I/O);
  * `Startup` drives the configuration flash through the STARTUPE3 primitive (the cards' config QSPI). */
sealed trait FlashPhy
object FlashPhy { case object Pins extends FlashPhy; case object Startup extends FlashPhy }

/** How the IPROG sequence leaves: `Ports` exposes icap_* ports (the simulation models record them);
  * `Primitive` instantiates ICAPE3 on its own clock input icap_clk (<= 200 MHz, DS923). */
sealed trait IcapKind
object IcapKind { case object Ports extends IcapKind; case object Primitive extends IcapKind }

/** @param deviceIdcode IDCODE of the FPGA the board carries (readable by the host, which checks bitstreams
  *                     against it): xcvu9p 0x04B31093 (openFPGALoader/XRT device tables; revision nibble
  *                     ignored), xcu55n see sw/README.md (assumed the xcu50 die's 0x04B77093, unverified)
  * @param timerWidth   width of the SCLK divider and CS# setup/hold/disable timers of SpiXdrMasterCtrl
  */
case class FlashCtrlConfig(name: String, phy: FlashPhy, icap: IcapKind, deviceIdcode: BigInt,
                           cmdFifoDepth: Int = 512, rspFifoDepth: Int = 512, timerWidth: Int = 8) {
  // a whole page program (CS#, opcode, 4 address bytes, 256 data bytes, CS#) and a whole page read fit, so the
  // host queues one flash command without waiting on the SPI clock
  require(isPow2(cmdFifoDepth) && cmdFifoDepth >= 1 + 1 + 4 + 256 + 1 && cmdFifoDepth < 32768,
    "cmdFifoDepth: a power of two, 512..16384")
  require(isPow2(rspFifoDepth) && rspFifoDepth >= 256 && rspFifoDepth < 32768, "rspFifoDepth: a power of two, 256..16384")
  require(deviceIdcode >= 0 && deviceIdcode < (BigInt(1) << 32), "deviceIdcode: 32 bits")
  require(timerWidth >= 4 && timerWidth <= 16, "timerWidth 4..16")
  def separateIcapClock: Boolean = icap == IcapKind.Primitive
}

object FlashCtrlConfig {
  val xcvu9pIdcode = BigInt("04B31093", 16)
  val xcu55nIdcode = BigInt("04B77093", 16)
  /** the tests' configuration: pins and ICAP ports */
  val small = FlashCtrlConfig("small", FlashPhy.Pins, IcapKind.Ports, xcu55nIdcode)
  val c1100 = FlashCtrlConfig("c1100", FlashPhy.Startup, IcapKind.Primitive, xcu55nIdcode)
  val vu9p = FlashCtrlConfig("vu9p", FlashPhy.Startup, IcapKind.Primitive, xcvu9pIdcode)
  val all = Seq(small, c1100, vu9p)
}

/** Register map (AXI4-Lite, 32-bit, byte offsets inside the flash window; on the user BAR at 0x20000):
  *
  *   0x000-0x058  SpiXdrMasterCtrl (spinal.lib.com.spi.ddr), as its driveFrom maps it in SpinalHDL 1.14.2 (read
  *                off the emitted Verilog):
  *     0x000 W  command: [7:0] byte, b8 write it (drive DQ), b9 read (a response byte), b11 CS command
  *              (then b7 = 1 assert CS#, 0 release; [0] the slave).  A write to a full FIFO is lost: count 0x004.
  *     0x000 R  response: b31 = 1 EMPTY, else [7:0] the byte (the read pops it).  An empty read's [7:0] is the FIFO
  *              RAM's stale word: pop only as many as the occupancy says (zk-flash and the testbench do)
  *     0x004 R  [15:0] free command slots, [30:16] response occupancy
  *     0x008 W  b0 CPOL, b1 CPHA, [5:4] mode (0 x1 full duplex DQ0 out / DQ1 in, 1 x2, 2 x4 half duplex)
  *     0x00C RW interrupt enables b0 (command FIFO empty), b1 (response valid); R b8/b9 the interrupts
  *     0x020 W  SCLK half period - 1 in aclk cycles; 0x024 CS# setup, 0x028 hold, 0x02C disable (cycles);
  *     0x030 W  CS# active-high mask (write 0 for flash)
  *     0x050 W  a byte to send (write only), 0x054 W a byte to send and read back, 0x058 R pop a response byte
  *     (0x008-0x030 have no reset values: the host writes them before the first command)
  *   0x100 RW ICAP_WBSTAR  value written to WBSTAR before IPROG (SPI: the image's byte address); frozen while armed
  *   0x104 W  ICAP_ARM     ARM_KEY arms; any other value disarms.  R: b0 armed
  *   0x108 W  ICAP_FIRE    FIRE_KEY while armed sends the IPROG sequence; any other write, or one while not
  *                         armed, is refused (counted) and disarms
  *   0x10C R  ICAP_STATUS  b0 armed, b1 sequence in flight, b2 a sequence was sent, b3 ICAPE3 AVAIL,
  *                         [15:8] refused writes (saturating), [31:16] sequences sent
  *   0x110 RW PINS         b0 WP# level, b1 HOLD# level driven on DQ2/DQ3 outside x4 mode (reset 1, 1)
  *   0x120 R  ID 0x464C5348 ("FLSH");  0x124 R INFO [3:0] log2 cmd depth, [7:4] log2 rsp depth, b8 STARTUPE3,
  *            b9 ICAPE3;  0x128 R IDCODE of the FPGA this design is built for
  *
  * The IPROG sequence (UG570, "IPROG Using ICAP", the example bitstream for IPROG through ICAPE3): dummy
  * 0xFFFFFFFF, sync 0xAA995566, NOOP 0x20000000, type-1 write of 1 word to WBSTAR 0x30020001, the WBSTAR
  * value, type-1 write of 1 word to CMD 0x30008001, IPROG 0x0000000F, NOOP 0x20000000; each word bit-swapped
  * within its bytes on the ICAPE3 I bus (UG570 "Parallel Bus Bit Order"), one per ICAP clock, CSIB/RDWRB low.
  */
object FlashCtrlRegs extends Contract("flash", "FlashCtrl registers (offsets inside the flash window; the SPI " +
    "controller's as SpiXdrMasterCtrl.driveFrom maps them from spi_base)", "hw/src/zkspinal/system/FlashCtrl.scala") {
  val spiBase = 0x000
  reg("cmd", spiBase + 0x000, "W: command ([7:0] byte, b8 write, b9 read, b11 CS command).  R: response (b31 " +
    "empty, else [7:0] the byte; the read pops it)", host = false)
  reg("avail", spiBase + 0x004, "R: [15:0] free command slots, [30:16] response occupancy", host = false)
  reg("mode", spiBase + 0x008, "W: b0 CPOL, b1 CPHA, [5:4] mode (0 x1, 1 x2, 2 x4)", host = false)
  reg("sclk", spiBase + 0x020, "W: SCLK half period - 1 in aclk cycles", host = false)
  reg("setup", spiBase + 0x024, "W: CS# setup cycles", host = false)
  reg("hold", spiBase + 0x028, "W: CS# hold cycles", host = false)
  reg("disable", spiBase + 0x02C, "W: CS# disable cycles", host = false)
  reg("ss_pol", spiBase + 0x030, "W: CS# active-high mask (0 for flash)", host = false)
  reg("write_byte", spiBase + 0x050, "W: a byte to send", host = false)
  val wbstar = reg("wbstar", 0x100, "RW: the value written to WBSTAR before IPROG (SPI: the image's byte address); " +
    "frozen while armed")
  val arm = reg("arm", 0x104, "W: ARM_KEY arms, any other value disarms.  R: b0 armed")
  val fire = reg("fire", 0x108, "W: FIRE_KEY while armed sends the IPROG sequence; any other write, or one while " +
    "not armed, is refused (counted) and disarms", host = false)
  val icapStatus = reg("icap_status", 0x10C, "R: b0 armed, b1 sequence in flight, b2 a sequence was sent, b3 ICAPE3 " +
    "AVAIL, [15:8] refused writes (saturating), [31:16] sequences sent")
  val pins = reg("pins", 0x110, "RW: b0 WP# level, b1 HOLD# level outside x4 mode (reset 1, 1)")
  val id = reg("id", 0x120, "R: ID_VALUE")
  val info = reg("info", 0x124, "R: [3:0] log2 command depth, [7:4] log2 response depth, b8 STARTUPE3, b9 ICAPE3")
  val infoCmdDepth = field("cmd_depth_log2", "info", 0, 4, "log2 of the command FIFO's depth")
  val infoRspDepth = field("rsp_depth_log2", "info", 4, 4, "log2 of the response FIFO's depth")
  val infoStartup = field("startupe3", "info", 8, 1, "the flash pins are driven through STARTUPE3")
  val infoIcap = field("icape3", "info", 9, 1, "an ICAPE3 primitive (reload) is present")
  val idcode = reg("idcode", 0x128, "R: IDCODE of the FPGA this design is built for")
  val idValue = code("id_value", BigInt("464C5348", 16), "ID's value (\"FLSH\")")
  val armKey = code("arm_key", BigInt("41524D21", 16), "ARM's key (\"ARM!\")")
  val fireKey = code("fire_key", BigInt("49505247", 16), "FIRE's key (\"IPRG\")")
  def iprogSequence(wbstar: Bits): Seq[Bits] =
    Seq(B"32'hFFFFFFFF", B"32'hAA995566", B"32'h20000000", B"32'h30020001", wbstar, B"32'h30008001",
      B"32'h0000000F", B"32'h20000000")
}

class FlashCtrl(val cfg: FlashCtrlConfig = FlashCtrlConfig.small) extends Component with AxiClocked {
  import FlashCtrlRegs._
  val s_axil = slave(AxiLite4(AxiLite4Config(addressWidth = 16, dataWidth = 32)))
  AxiLite4SpecRenamer(s_axil)

  val pinPorts = (cfg.phy == FlashPhy.Pins) generate new Bundle {
    val sclk = out Bool () setName ("spi_sclk")
    val ss_n = out Bool () setName ("spi_ss_n")
    val dq_o = out Bits (4 bits) setName ("spi_dq_o")
    val dq_oe = out Bits (4 bits) setName ("spi_dq_oe")
    val dq_i = in Bits (4 bits) setName ("spi_dq_i")
  }
  val icapPorts = (cfg.icap == IcapKind.Ports) generate new Bundle {
    val csib = out Bool () setName ("icap_csib")
    val rdwrb = out Bool () setName ("icap_rdwrb")
    val data = out Bits (32 bits) setName ("icap_i")
  }
  val icap_clk = cfg.separateIcapClock generate (in Bool () setName ("icap_clk"))

  val spiParams = SpiXdrMasterCtrl.Parameters(dataWidth = 8, timerWidth = cfg.timerWidth,
    spi = SpiXdrParameter(dataWidth = 4, ioRate = 1, ssWidth = 1))
    .addFullDuplex(id = 0).addHalfDuplex(id = 1, rate = 1, ddr = false, spiWidth = 2)
    .addHalfDuplex(id = 2, rate = 1, ddr = false, spiWidth = 4)
  val spi = axiDomain(SpiXdrMasterCtrl(spiParams))

  val logic = new ClockingArea(axiDomain) {
    val bus = AxiLite4SlaveFactory(s_axil)
    SpiXdrMasterCtrl.driveFrom(spi, bus, spiBase)(SpiXdrMasterCtrl.MemoryMappingParameters(spiParams, cfg.cmdFifoDepth, cfg.rspFifoDepth))

    // ---- flash pins: registered once each way (the IOB flops SpiXdrMasterCtrl's 2-cycle read alignment expects)
    val wpLevel = bus.createReadAndWrite(Bool(), pins, 0) init (True)
    val holdLevel = bus.createReadAndWrite(Bool(), pins, 1) init (True)
    val quad = spi.io.config.mod === 2
    val dqOut = Bits(4 bits)
    val dqOe = Bits(4 bits)
    for (i <- 0 until 4) {
      dqOut(i) := spi.io.spi.data(i).write(0)
      dqOe(i) := spi.io.spi.data(i).writeEnable
    }
    when(!quad) { // x1/x2: DQ2 is W#, DQ3 is HOLD#/RESET#, held at the PINS levels
      dqOut(2) := wpLevel; dqOe(2) := True
      dqOut(3) := holdLevel; dqOe(3) := True
    }
    val sclkQ = RegNext(spi.io.spi.sclk.write(0)) init (False)
    val ssQ = RegNext(spi.io.spi.ss(0)) init (True)
    val dqOutQ = RegNext(dqOut) init (B"1100")
    val dqOeQ = RegNext(dqOe) init (0)
    val dqIn = Bits(4 bits)
    for (i <- 0 until 4) spi.io.spi.data(i).read(0) := RegNext(dqIn(i))

    // ---- IPROG trigger: two keys, in order, with nothing else written in between
    val armed = RegInit(False)
    val refused = Reg(UInt(8 bits)) init (0)
    val wbstarR = Reg(Bits(32 bits)) init (0)
    val fireToggle = RegInit(False)
    val writeData = Bits(32 bits)
    bus.nonStopWrite(writeData)
    def refuse(): Unit = { armed := False; when(refused =/= 255) { refused := refused + 1 } }
    bus.read(wbstarR, wbstar)
    bus.onWrite(wbstar) { when(!armed) { wbstarR := writeData } otherwise { refuse() } }
    bus.onWrite(arm) { when(writeData === B(armKey, 32 bits)) { armed := True } otherwise { refuse() } }
    bus.onWrite(fire) {
      when(armed && writeData === B(fireKey, 32 bits)) { fireToggle := !fireToggle; armed := False } otherwise { refuse() }
    }
    bus.read(armed, arm)
    bus.read(B(idValue, 32 bits), id)
    bus.read(B(cfg.deviceIdcode, 32 bits), idcode)
    bus.read(FieldPack(32, FieldPack.const(infoIcap, if (cfg.icap == IcapKind.Primitive) 1 else 0),
      FieldPack.const(infoStartup, if (cfg.phy == FlashPhy.Startup) 1 else 0),
      FieldPack.const(infoRspDepth, log2Up(cfg.rspFifoDepth)), FieldPack.const(infoCmdDepth, log2Up(cfg.cmdFifoDepth))),
      info)
  }

  // ---- the sequence on the ICAP clock (aclk for the port version)
  val icapDomain: ClockDomain =
    if (cfg.separateIcapClock) ClockDomain(icap_clk, config = ClockDomainConfig(resetKind = BOOT)) else axiDomain
  val icapSide = new ClockingArea(icapDomain) {
    val fireSync = BufferCC(logic.fireToggle, init = False)
    val fireSeen = RegNext(fireSync) init (False)
    val wbstarSync = BufferCC(logic.wbstarR) // quasi-static: frozen while armed, and fire disarms
    val words = iprogSequence(wbstarSync)
    val index = Reg(UInt(log2Up(words.length) bits)) init (0)
    val sending = RegInit(False)
    val doneToggle = RegInit(False)
    when(fireSync =/= fireSeen) { fireSeen := fireSync; sending := True; index := 0 }
    when(sending) {
      index := index + 1
      when(index === words.length - 1) { sending := False; doneToggle := !doneToggle }
    }
    val word = Vec(words)(index)
    val swapped = Cat(word.subdivideIn(8 bits).map(_.reversed)) // UG570: bit-swapped within each byte
    val csib = RegNext(!sending) init (True)
    val data = RegNext(swapped) init (0)
    val avail = Bool()
  }

  val statusSide = new ClockingArea(axiDomain) {
    val doneSync = BufferCC(icapSide.doneToggle, init = False)
    val doneSeen = RegNext(doneSync) init (False)
    val sent = Reg(UInt(16 bits)) init (0)
    when(doneSync =/= doneSeen) { sent := sent + 1 }
    val inFlight = logic.fireToggle =/= doneSync
    val availSync = BufferCC(icapSide.avail, init = False)
    logic.bus.read(sent ## logic.refused ## B(0, 4 bits) ## availSync ## (sent =/= 0) ## inFlight ## logic.armed,
      icapStatus)
  }

  cfg.icap match {
    case IcapKind.Ports =>
      icapPorts.csib := icapSide.csib
      icapPorts.rdwrb := icapSide.csib
      icapPorts.data := icapSide.data
      icapSide.avail := True
    case IcapKind.Primitive =>
      val prim = icapDomain(new ICAPE3)
      prim.CSIB := icapSide.csib
      prim.RDWRB := icapSide.csib // low (write) exactly while selected
      prim.I := icapSide.data
      icapSide.avail := prim.AVAIL
  }

  cfg.phy match {
    case FlashPhy.Pins =>
      pinPorts.sclk := logic.sclkQ
      pinPorts.ss_n := logic.ssQ
      pinPorts.dq_o := logic.dqOutQ
      pinPorts.dq_oe := logic.dqOeQ
      logic.dqIn := pinPorts.dq_i
    case FlashPhy.Startup =>
      val prim = new STARTUPE3
      prim.GSR := False; prim.GTS := False; prim.KEYCLEARB := True; prim.PACK := False
      prim.USRCCLKO := logic.sclkQ; prim.USRCCLKTS := False
      prim.USRDONEO := True; prim.USRDONETS := True
      prim.DO := logic.dqOutQ; prim.DTS := ~logic.dqOeQ
      prim.FCSBO := logic.ssQ; prim.FCSBTS := False
      logic.dqIn := prim.DI
  }
}
