package zkspinal.emit

import zkspinal.poseidon.PoseidonConfig
import zkspinal.system._

/** The board-level tops that [[Emit]] writes: the two-FIFO fixture, the system blocks, the in-band TLAST adapters */
object SystemTops {
  def fixtures: Seq[Top] = Seq(PairFixtureConfig.small).map { c =>
    Top(s"PairFixture_${c.name}", "PairFixture", () => new PairFixture(c),
      _ => Map("depth" -> c.depth, "data_bytes" -> c.dataBytes))
  }

  def systemBlocks: Seq[Top] = SystemBlockConfig.all.map { c =>
    Top(s"SystemBlock_${c.name}", "SystemBlock", () => new SystemBlock(c),
      _ => Map("status_count" -> c.statusCount, "reset_cycles" -> c.resetCycles, "address_width" -> c.addressWidth,
        "magic" -> ("0x" + SystemBlockRegs.magic.toString(16)), "revision" -> SystemBlockRegs.revision,
        "identity_offset" -> f"0x${SystemBlockRegs.identity}%03x"))
  }

  def adapters: Seq[Top] = Seq(InbandLastConfig.poseidon).map { c =>
    Top(s"InbandLast_${c.name}", "InbandLast", () => new InbandLast(c),
      _ => Map("data_bytes" -> c.dataBytes, "flag_bit" -> c.flag))
  }

  def all: Seq[Top] = fixtures ++ systemBlocks ++ adapters
}

/** PoseidonAxis behind InbandLast, as the C1100 block design wires it */
object PoseidonInbandTops {
  /** small for the quick tier; the C1100 profiles (the bitstream's core) and their multiplier-model twins, on
    * demand (the long tier's cards) */
  def all: Seq[Top] = Seq(PoseidonConfig.small, PoseidonConfig.pc2, PoseidonConfig.pc2Model, PoseidonConfig.arity2,
      PoseidonConfig.arity2Model).map { cfg =>
    Top(s"PoseidonInband_${cfg.name}", "PoseidonInband", () => new PoseidonInband(cfg),
      c => PoseidonTops.info(c.asInstanceOf[PoseidonInband].core.core) ++
        Map("flag_bit" -> InbandLastConfig.poseidon.flag), onDemand = cfg != PoseidonConfig.small)
  }
}

/** The flash and ICAP controllers of each board */
object FlashTops {
  def all: Seq[Top] = FlashCtrlConfig.all.map { c =>
    Top(s"FlashCtrl_${c.name}", "FlashCtrl", () => new FlashCtrl(c), _ => Map(
      "phy" -> c.phy.toString, "icap" -> c.icap.toString, "idcode" -> f"0x${c.deviceIdcode.toLong}%08x",
      "cmd_fifo_depth" -> c.cmdFifoDepth, "rsp_fifo_depth" -> c.rspFifoDepth, "timer_width" -> c.timerWidth))
  }
}
