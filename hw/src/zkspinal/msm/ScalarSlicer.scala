package zkspinal.msm

import spinal.core._
import spinal.lib._

/** A signed window digit: the bucket is `magnitude` (1 .. buckets(j); 0 = no addition), `negative` adds -Q. */
case class Digit(bits: Int) extends Bundle {
  val negative = Bool()
  val magnitude = UInt(bits bits)
}

case class SlicedScalar(cfg: MsmConfig) extends Bundle {
  val digits = Vec(Digit(cfg.digitBits), cfg.numWindows)
  /** the scalar was >= the bound: the digits are meaningless */
  val outOfRange = Bool()
}

/** Signed-digit recoding of reference_model/msm.py (WindowLayout.digits), one scalar per cycle, one register stage:
  *   v_j = (window j's bits) + c_j;  v_j >= 2^(w_j - 1)  ->  d_j = v_j - 2^w_j, c_(j+1) = 1;  else d_j = v_j, c_(j+1) = 0
  *   top window: d = (remaining bits) + c, never negative.
  * The carry ripples through the windows as c_(j+1) = msb_j | (c_j & bits_j == 2^(w_j - 1) - 1): a carry chain
  * of one bit per window.
  */
class ScalarSlicer(cfg: MsmConfig) extends Component {
  val io = new Bundle {
    val input = slave(Stream(UInt(256 bits)))
    val output = master(Stream(SlicedScalar(cfg)))
    val flush = in(Bool())
  }
  private val s = io.input.payload
  private val sliced = SlicedScalar(cfg)
  private var carry: Bool = False
  for (j <- 0 until cfg.numWindows) {
    val w = cfg.windows(j)
    val o = cfg.offsets(j)
    val d = sliced.digits(j)
    if (cfg.isTop(j)) {
      val rest = s(255 downto o)
      d.negative := False
      d.magnitude := (rest.resize(cfg.digitBits) + U(carry).resized)
    } else {
      val chunk = s(o + w - 1 downto o)
      val v = chunk.resize(w + 1) + U(carry).resized // 0 .. 2^w
      val neg = v >= (1 << (w - 1))
      d.negative := neg
      // |v - 2^w| = 2^w - v when negative
      d.magnitude := Mux(neg, (U(BigInt(1) << w, w + 1 bits) - v), v).resize(cfg.digitBits)
      carry = neg
    }
  }
  sliced.outOfRange := s >= cfg.bound
  io.output << io.input.translateWith(sliced).m2sPipe(flush = io.flush)
}
