package zkspinal.system

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi.Axi4SpecRenamer
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}
import zkspinal.axi.AxiClocked
import zkspinal.poseidon.PoseidonFrame

/** Frame boundaries carried in-band, for cores that need TLAST per frame behind XDMA, which puts TLAST only on the
  * last beat of each write().  The host sets bit `flagBit` of the last beat of every frame (for 256-bit field
  * element beats, bit 255: canonical elements are < 2^255, so the bit is free) and may then send many frames in one
  * DMA write.  Per beat, in order, one register stage:
  *   - TLAST out = flag bit OR TLAST in (a host that sends one frame per write needs no flags; a write that ends in
  *     the middle of a frame ends that frame there: the core sees a short frame and applies its own error rule);
  *   - the flag bit is cleared in TDATA out, every other bit and TKEEP pass unchanged;
  *   - a partial beat (TKEEP not all ones: the write's length was not a multiple of the beat) also ends its frame,
  *     with its TKEEP, and counts in status_partial, so framing resynchronizes on the next beat.
  * status_frames counts the frames sent (output beats with TLAST).
  */
case class InbandLastConfig(dataBytes: Int = 32, flagBit: Int = -1) {
  require(dataBytes >= 1 && dataBytes <= 128, "dataBytes 1..128")
  val flag: Int = if (flagBit >= 0) flagBit else dataBytes * 8 - 1
  require(flag < dataBytes * 8, "flagBit inside TDATA")
  def name: String = s"b$dataBytes"
}

object InbandLastConfig {
  /** PoseidonAxis's beats: one field element per beat, the flag at PoseidonFrame.last */
  val poseidon = InbandLastConfig(dataBytes = PoseidonFrame.beat.beatBytes, flagBit = PoseidonFrame.last.lsb.at(0))
}

class InbandLast(val cfg: InbandLastConfig = InbandLastConfig()) extends Component with AxiClocked {
  private val axis = Axi4StreamConfig(dataWidth = cfg.dataBytes, useKeep = true, useLast = true)
  val s_axis = slave(Axi4Stream(axis))
  val m_axis = master(Axi4Stream(axis))
  val status_frames = out UInt (32 bits)
  val status_partial = out UInt (32 bits)
  Axi4SpecRenamer(s_axis)
  Axi4SpecRenamer(m_axis)

  val logic = new ClockingArea(axiDomain) {
    val partial = !s_axis.payload.keep.andR
    val framed = s_axis.translateWith {
      val p = cloneOf(s_axis.payload)
      p.data := s_axis.payload.data
      p.data(cfg.flag) := False
      p.keep := s_axis.payload.keep
      p.last := s_axis.payload.data(cfg.flag) || s_axis.payload.last || partial
      p
    }
    m_axis << framed.m2sPipe()
    val frames = Reg(UInt(32 bits)) init (0)
    val partials = Reg(UInt(32 bits)) init (0)
    when(m_axis.fire && m_axis.payload.last) { frames := frames + 1 }
    when(s_axis.fire && partial) { partials := partials + 1 }
    status_frames := frames
    status_partial := partials
  }
}
