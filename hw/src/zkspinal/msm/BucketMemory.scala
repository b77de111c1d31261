package zkspinal.msm

import spinal.core._
import spinal.lib._

/** The buckets of one window: `buckets` accumulators of four field elements (U, V, W, T at bits [0,n), [n,2n),
  * [2n,3n), [3n,4n)), address k - 1 for bucket k, each with a `held` bit: false = the bucket is the identity,
  * whatever its data bits (a clear writes held = false, so every memory of a lane takes the same write data, the
  * adder's result, and the lane substitutes the identity once, after its window multiplexer: no per-memory
  * multiplexer of 4n bits).  One synchronous read port and one write port (simple dual port): the shape of a
  * BRAM/URAM cascade (4,096 x 1,509 bits = 21 URAM288 for a 13-bit window, 2,048 deep halves a 12-bit window's
  * depth; Vivado infers either from this template).  The read data follows the read address by one cycle; a read
  * and a write of the same address in the same cycle return the old contents (the scheduler never relies on
  * either).
  */
class BucketMemory(val buckets: Int, val width: Int, addrBits: Int) extends Component {
  val io = new Bundle {
    val read = slave(Flow(UInt(addrBits bits)))
    val readData = out(Bits(width bits))
    val readHeld = out(Bool())
    val write = slave(Flow(BucketWrite(addrBits, width)))
  }
  private val bits = log2Up(buckets) max 1
  private val mem = Mem(Bits(width + 1 bits), buckets) // held ## data
  // Vivado: UltraRAM (4,096 x 72 per URAM288) for the deep windows; yosys maps every memory to block RAM, so the
  // benchmark counts the URAMs itself (zkspinal/bench/msm.py memory_estimate)
  if (buckets >= 1024) mem.addAttribute("ram_style", "ultra")
  private val word = mem.readSync(io.read.payload.resize(bits), enable = io.read.valid)
  io.readData := word(width - 1 downto 0)
  io.readHeld := word.msb
  mem.write(io.write.payload.address.resize(bits), io.write.payload.held ## io.write.payload.data,
    enable = io.write.valid)
}

case class BucketWrite(addrBits: Int, width: Int) extends Bundle {
  val address = UInt(addrBits bits)
  val data = Bits(width bits)
  val held = Bool()  // false: the bucket becomes the identity (data ignored)
}
