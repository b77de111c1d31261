package zkspinal.system

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi.Axi4SpecRenamer
import spinal.lib.bus.amba4.axilite._
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}
import zkspinal.axi.AxiClocked
import zkspinal.contract.IdentifiedCore
import zkspinal.poseidon.{PoseidonAxis, PoseidonConfig}

/** PoseidonAxis behind InbandLast, as the C1100 block design (vivado/lib/zk_bd.tcl, `inband_kinds`) connects them:
  * XDMA H2C -> InbandLast (bit 255 of a beat = end of frame) -> PoseidonAxis, whose TUSER input is tied to 0 because
  * XDMA carries none (every frame is a MerkleTree hash, its arity = its length).  The output and the AXI4-Lite slave
  * are PoseidonAxis's own; status_frames / status_partial are InbandLast's, which the block design wires to the
  * system block's status words 0 and 1 (PoseidonAxis has no status outputs); the identity outputs are PoseidonAxis's.  A simulation top for the XDMA
  * emulator, so the host tools see the same stream the card gives them.
  */
class PoseidonInband(val cfg: PoseidonConfig) extends Component with AxiClocked with IdentifiedCore {
  val framer = new InbandLast(InbandLastConfig.poseidon)
  val core = new PoseidonAxis(cfg)
  val identity = core.identity // the card's identity is its core's; the adapter has none
  identityOutputs()
  val s_axis = slave(Axi4Stream(Axi4StreamConfig(dataWidth = 32, useKeep = true, useLast = true)))
  val m_axis = master(Axi4Stream(Axi4StreamConfig(dataWidth = 32, useLast = true, useUser = true, userWidth = 1)))
  val s_axil = slave(AxiLite4(AxiLite4Config(addressWidth = 8, dataWidth = 32)))
  val status_frames = out UInt (32 bits)
  val status_partial = out UInt (32 bits)
  Axi4SpecRenamer(s_axis)
  Axi4SpecRenamer(m_axis)
  AxiLite4SpecRenamer(s_axil)

  for (c <- Seq(framer, core)) { c.aclk := aclk; c.aresetn := aresetn }
  framer.s_axis << s_axis
  core.s_axis.arbitrationFrom(framer.m_axis)
  core.s_axis.data := framer.m_axis.data
  core.s_axis.last := framer.m_axis.last
  core.s_axis.user := 0 // MerkleTree: no header frames through XDMA
  m_axis << core.m_axis
  core.s_axil << s_axil
  status_frames := framer.status_frames
  status_partial := framer.status_partial
}
