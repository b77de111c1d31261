package zkspinal.system

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi.Axi4SpecRenamer
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}
import zkspinal.axi.AxiClocked
import zkspinal.contract.{CoreIdentity, CoreKind, IdentifiedCore}

/** Two input streams consumed in lockstep, as an MSM core consumes scalars and points (seed 002): each input sits
  * behind a StreamFifo of `depth` words and the pair (a, b) leaves as a XOR b.  A system fixture for the host
  * library's two-FIFO path: a host that writes more than `depth` words to one input before feeding the other
  * deadlocks, exactly as on the card.  TLAST of the output is TLAST of input b.  status_pairs counts output words.
  */
case class PairFixtureConfig(depth: Int = 16, dataBytes: Int = 32) {
  require(depth >= 2, "depth >= 2")
  require(dataBytes >= 1 && dataBytes <= 64, "dataBytes 1..64")
  def name: String = s"d$depth"
}

object PairFixtureConfig {
  val small = PairFixtureConfig(depth = 16)     // the deadlock test
  val c1100 = PairFixtureConfig(depth = 4096)   // the FIFO depth seed 002 settled on
}

class PairFixture(val cfg: PairFixtureConfig = PairFixtureConfig()) extends Component with AxiClocked with IdentifiedCore {
  val identity = CoreIdentity(CoreKind.Pair, cfg.name)
  identityOutputs()
  private val axis = Axi4StreamConfig(dataWidth = cfg.dataBytes, useLast = true)
  val s_axis_a = slave(Axi4Stream(axis))
  val s_axis_b = slave(Axi4Stream(axis))
  val m_axis = master(Axi4Stream(axis))
  val status_pairs = out UInt (32 bits)
  Axi4SpecRenamer(s_axis_a)
  Axi4SpecRenamer(s_axis_b)
  Axi4SpecRenamer(m_axis)

  val logic = new ClockingArea(axiDomain) {
    val a = s_axis_a.queue(cfg.depth)
    val b = s_axis_b.queue(cfg.depth)
    val pairs = Reg(UInt(32 bits)) init (0)
    m_axis << StreamJoin.arg(a, b).translateWith {
      val p = cloneOf(m_axis.payload)
      p.data := a.payload.data ^ b.payload.data
      p.last := b.payload.last
      p
    }
    when(m_axis.fire) { pairs := pairs + 1 }
    status_pairs := pairs
  }
}
