package zkspinal.msm

import spinal.core._
import spinal.lib._

/** A signed window digit d: `nonZero` (d != 0: an addition), `bucket` = |d| - 1 (the bucket memory address),
  * `negative` (the addition is of -Q). */
case class Digit(addrBits: Int) extends Bundle {
  val negative = Bool()
  val nonZero = Bool()
  val bucket = UInt(addrBits bits)
}

case class SlicedScalar(cfg: MsmConfig) extends Bundle {
  val digits = Vec(Digit(cfg.addrBits), cfg.numWindows)
  /** the scalar was >= the bound: the digits are meaningless */
  val outOfRange = Bool()
}

/** Signed-digit recoding of reference_model/msm.py (WindowLayout.digits), one scalar per cycle:
  *   v_j = (window j's bits) + c_j;  v_j >= 2^(w_j - 1)  ->  d_j = v_j - 2^w_j, c_(j+1) = 1;  else d_j = v_j, c_(j+1) = 0
  *   top window: d = (remaining bits) + c, never negative.
  * The carry is a generate/propagate recurrence, c_(j+1) = g_j | (p_j & c_j) with g_j = msb of window j's bits
  * and p_j = (bits == 2^(w_j - 1) - 1), so it is computed as a parallel prefix (log2(windows) LUT levels) instead of
  * rippling through every window.  Three register stages (Stream m2sPipe, full rate):
  *   1. g_j, p_j per window; the range check s >= bound as per-64-bit-chunk (greater, equal) pairs
  *   2. the carries (Kogge-Stone); the range check combined
  *   3. the digits as (nonZero, bucket = |d| - 1): |d| - 1 = bits + c - 1 when positive, 2^w - bits - c - 1 =
  *      ~bits - c (w bits) when negative, each one adder of an all-ones constant with a carry-in
  */
class ScalarSlicer(cfg: MsmConfig) extends Component {
  /** a scalar word of the scalar stream (MsmRecord.scalars) */
  private val wordBits = MsmRecord.scalarBits
  val io = new Bundle {
    val input = slave(Stream(UInt(wordBits bits)))
    val output = master(Stream(SlicedScalar(cfg)))
    val flush = in(Bool())
  }
  private val W = cfg.numWindows
  private val chunkBits = 64
  private val chunks = wordBits / chunkBits

  case class Stage1() extends Bundle {
    val s = UInt(wordBits bits)
    val g, p = Bits(W - 1 bits)
    val above, equal = Bits(chunks bits)
  }
  case class Stage2() extends Bundle {
    val s = UInt(wordBits bits)
    val carry = Bits(W bits) // c_j, the carry into window j
    val outOfRange = Bool()
  }

  private def window(s: UInt, j: Int): UInt =
    if (cfg.isTop(j)) s(wordBits - 1 downto cfg.offsets(j)) else s(cfg.offsets(j) + cfg.windows(j) - 1 downto cfg.offsets(j))

  private val st1 = io.input.translateWith {
    val r = Stage1()
    val s = io.input.payload
    r.s := s
    for (j <- 0 until W - 1) {
      val v = window(s, j)
      r.g(j) := v.msb
      r.p(j) := v === ((1 << (cfg.windows(j) - 1)) - 1)
    }
    for (k <- 0 until chunks) {
      val x = s(k * chunkBits + chunkBits - 1 downto k * chunkBits)
      val b = U((cfg.bound >> (k * chunkBits)) & ((BigInt(1) << chunkBits) - 1), chunkBits bits)
      r.above(k) := x > b
      r.equal(k) := x === b
    }
    r
  }.m2sPipe(flush = io.flush)

  private val st2 = st1.translateWith {
    val r = Stage2()
    r.s := st1.s
    // Kogge-Stone over (g, p): after the loop, (g(j), p(j)) spans windows 0..j, so c_(j+1) = g(j) (c_0 = 0)
    var g: Seq[Bool] = st1.g.asBools.toSeq
    var p: Seq[Bool] = st1.p.asBools.toSeq
    var span = 1
    while (span < W - 1) {
      val (gs, ps) = (g, p)
      g = gs.indices.map(j => if (j >= span) gs(j) | (ps(j) & gs(j - span)) else gs(j))
      p = ps.indices.map(j => if (j >= span) ps(j) & ps(j - span) else ps(j))
      span *= 2
    }
    r.carry := Cat(g.asBits, False) // bit 0: c_0 = 0, bit j + 1: g over windows 0..j
    // s >= bound: the most significant chunk that differs decides; all equal is >= too
    def higherEqual(k: Int): Bool = if (k == chunks - 1) True else st1.equal(chunks - 1 downto k + 1).andR
    r.outOfRange := (0 until chunks).map(k => st1.above(k) && higherEqual(k)).orR || st1.equal.andR
    r
  }.m2sPipe(flush = io.flush)

  /** a + 2^k - 1 + cin over k + 1 bits (= a - 1 + cin): one carry chain, the carry-in as the low bit of both */
  private def minusOnePlus(a: UInt, cin: Bool): UInt = {
    val k = a.getWidth
    ((a.resize(k + 1) @@ True) + (U((BigInt(1) << k) - 1, k + 1 bits) @@ cin))(k + 1 downto 1)
  }

  /** the low `bits` bits of x, widened to a bucket address: minusOnePlus's top bit (its 2^k, set for any a + cin
    * >= 1) must not reach an address wider than the window's own buckets need (the top window may need more bits
    * than the others: then that bit would land inside the address) */
  private def address(x: UInt, bits: Int): UInt = x(bits - 1 downto 0).resize(cfg.addrBits)

  io.output << st2.translateWith {
    val r = SlicedScalar(cfg)
    for (j <- 0 until W) {
      val v = window(st2.s, j)
      val c = st2.carry(j)
      val d = r.digits(j)
      val bits = log2Up(cfg.buckets(j)) max 1 // |d| - 1 < buckets(j)
      if (cfg.isTop(j)) {
        d.negative := False
        d.nonZero := v.orR || c
        d.bucket := address(minusOnePlus(v, c), bits)
      } else {
        // negative exactly when the carry out of window j is set: v + c >= 2^(w-1); then |d| = 2^w - v - c, which is
        // 0 only for v = 2^w - 1 with c = 1
        val neg = st2.carry(j + 1)
        d.negative := neg
        d.nonZero := Mux(neg, !(v.andR && c), v.orR || c)
        d.bucket := address(Mux(neg, minusOnePlus(~v, !c), minusOnePlus(v, c)), bits)
      }
    }
    r.outOfRange := st2.outOfRange
    r
  }.m2sPipe(flush = io.flush)
}
