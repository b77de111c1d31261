package zkspinal.msm

import zkspinal.contract.Contract
import zkspinal.field.{ArithConfig, FieldConfig}

/** How the engine's adder sees a curve (reference_model/curves/adders.py). */
sealed trait CurveForm
object CurveForm {
  /** the a = -1 twisted Edwards model in the precomputed representation of reference_model/curves/precomputed.py
    * ([[TwistedEdwardsAdder]]); the curve constant d lives in the host-made records (QT = 4dxy) */
  case object TwistedEdwards extends CurveForm
  /** the short Weierstrass curve y^2 = x^3 + b itself, buckets in XYZZ coordinates ([[XyzzAdder]]); b lives in
    * no formula of the adder (a = 0 is all it needs), only in the host's point checks */
  case class Weierstrass(b: BigInt) extends CurveForm
}

/** A curve the MSM engine accumulates on: its base field (coordinates of the adder's operands), the order of the
  * scalar field (scalars are integers below it), the adder's form of it, and its code in the card's identity
  * ([[MsmCurves]]). */
case class CurveConfig(name: String, code: Int, field: FieldConfig, scalarOrder: BigInt, form: CurveForm) {
  require(scalarOrder > 1, s"$name: scalar order must be > 1")
  require(code >= 0 && code <= 0xffff, s"$name: the curve code is VERSION[31:16]")
  val scalarBits: Int = (scalarOrder - 1).bitLength
  /** the host's name of the curve (zk-msm --curve): "bls12_377" for "bls12_377_g1" */
  def hostName: String = name.stripSuffix("_g1")
}

object CurveConfig {
  val bls12_377_g1 = CurveConfig("bls12_377_g1", 0, FieldConfig.bls12_377_fq, FieldConfig.bls12_377_fr.p,
    CurveForm.TwistedEdwards)
  val bn254_g1 = CurveConfig("bn254_g1", 1, FieldConfig.bn254_fq, FieldConfig.bn254_fr.p, CurveForm.Weierstrass(3))
  val bls12_381_g1 = CurveConfig("bls12_381_g1", 2, FieldConfig.bls12_381_fq, FieldConfig.bls12_381_fr.p,
    CurveForm.Weierstrass(4))
  val all: Seq[CurveConfig] = Seq(bls12_377_g1, bn254_g1, bls12_381_g1)
  require(all.map(_.code).distinct.size == all.size, "one code per curve")
}

/** The curve of an MSM card, as its identity names it: VERSION[31:16] of the system block's identity words (0, the
  * code of BLS12-377, is also what cards built before the curve was named there show). */
object MsmCurves extends Contract("msm_curve", "the curve of an MSM card: VERSION[31:16] of its identity (zk-msm " +
    "--curve NAME)", "hw/src/zkspinal/msm/CurveConfig.scala") {
  for (c <- CurveConfig.all) code(c.hostName, c.code, s"${c.name}: G1 of ${c.hostName.toUpperCase.replace('_', '-')}")
}

/** The bucket engine: window layout (least significant first, signed digits as reference_model/msm.py's
  * WindowLayout), scalar bound, FIFO depths.
  *
  * @param windows        window widths; every window but the top one has 2^(w-1) buckets, the top one
  *                       ((bound - 1) >> offset) + 1 (its digit is never negative)
  * @param scalarBound    scalars must be below it (the curve's scalar order; a test layout may use a smaller bound
  *                       so that a few narrow windows cover the scalars)
  * @param retryDepth     entries of each adder's retry queue (additions whose bucket was busy wait there)
  * @param partialSlots   partial buckets of each adder: a bucket that keeps being busy (a hot digit) spreads its
  *                       additions over them; each is read out after the buckets and added in by the host
  * @param scalarFifoDepth beats (two scalars each) buffered at the scalar port
  * @param pointFifoDepth points (three beats each) buffered at the point port
  * @param adders         bucket adders ([[MsmLane]]s); each owns a share of the windows above the shared ones
  * @param sharedWindows  with several adders, the lowest windows (where small scalars and scalars 1 put all their
  *                       digits) have a copy in every adder, and point i's digits of them go to adder i mod adders, so
  *                       hot low windows load every adder alike; window j >= sharedWindows belongs to adder
  *                       (j - sharedWindows) mod adders.  The copies of adders 1.. are read out after the buckets
  *                       and added in by the host like partial buckets
  * @param laneQueueDepth points waiting in each adder's queue (lanes drift apart by at most this many points)
  * @param pointStore     card memory that keeps the points between jobs ([[PointStore]]): a job may then read them
  *                       from memory instead of the point stream (resident points), faster than the port
  * @param mulModel       simulation only: the adder's multipliers are [[MontgomeryMulModel]] (same latency and
  *                       results, fast to build with Verilator); never for synthesis
  * @param shregMinSize   synthesis of the top (manifest `shreg_min_size`: Vivado's synth_design -shreg_min_size,
  *                       yosys' xilinx_srl -minlen): register chains shorter than this stay in flip-flops, longer ones
  *                       become shift registers (SRL16E/SRLC32E), which take a LUT each.  The tools' default is 3; a
  *                       top short of LUTs with flip-flops to spare (a CLB has two per LUT) raises it
  * @param split          one adder spread over the SLRs of a multi-SLR part ([[LaneSplit]]); None: each lane sits
  *                       whole in one place
  */
case class MsmConfig(
    name: String,
    curve: CurveConfig = CurveConfig.bls12_377_g1,
    windows: Seq[Int] = Seq.fill(13)(13) ++ Seq.fill(7)(12),
    scalarBound: Option[BigInt] = None,
    retryDepth: Int = 16,
    partialSlots: Int = 32,
    scalarFifoDepth: Int = 512,
    pointFifoDepth: Int = 512,
    arith: ArithConfig = ArithConfig(),
    adders: Int = 1,
    sharedWindows: Int = 2,
    laneQueueDepth: Int = 8,
    pointStore: Option[PointStoreConfig] = None,
    mulModel: Boolean = false,
    shregMinSize: Int = 3,
    split: Option[LaneSplit] = None
) {
  require(shregMinSize >= 3 && shregMinSize <= 33, "shift registers are 3 to 33 registers long at the shortest")
  val bound: BigInt = scalarBound.getOrElse(curve.scalarOrder)
  require(bound > 1 && bound <= curve.scalarOrder, "scalar bound must be in 2..scalar order")
  val scalarBits: Int = (bound - 1).bitLength
  require(scalarBits <= MsmRecord.scalarBits, s"a scalar word is ${MsmRecord.scalarBits} bits")
  require(windows.size >= 2 && windows.size <= MsmRecord.window.max, "2 to 127 windows (the window tag)")
  require(windows.forall(w => w >= 2 && w <= 22), "window widths must be 2..22 bits")
  require(windows.sum >= scalarBits, s"windows cover ${windows.sum} bits; scalars have $scalarBits")
  require(retryDepth >= 4 && isPow2(retryDepth), "the retry queue depth must be a power of two >= 4")
  require(partialSlots >= 2 && partialSlots <= 128, "2 to 128 partial buckets per adder")
  require(scalarFifoDepth >= 2 && pointFifoDepth >= 2, "FIFO depths must be >= 2")
  private def isPow2(x: Int) = x > 0 && (x & (x - 1)) == 0

  val numWindows: Int = windows.size
  val offsets: Seq[Int] = windows.scanLeft(0)(_ + _).dropRight(1)
  def isTop(j: Int): Boolean = j == numWindows - 1
  def buckets(j: Int): Int =
    if (!isTop(j)) 1 << (windows(j) - 1) else (((bound - 1) >> offsets(j)) + 1).toInt
  require((0 until numWindows).forall(j => buckets(j) <= MsmRecord.bucket.max), "a bucket index must fit the tag")
  val totalBuckets: Int = (0 until numWindows).map(buckets).sum
  /** address width of the largest bucket memory */
  val addrBits: Int = (0 until numWindows).map(j => log2(buckets(j))).max max 1
  private def log2(x: Int): Int = 32 - Integer.numberOfLeadingZeros(x - 1)
  def layoutString: String = windows.mkString(",")
  require(adders >= 1 && adders <= 8, "1 to 8 adders (the register map has eight BUSY counters)")
  /** windows with a copy in every adder (none with one adder) */
  val shared: Int = if (adders == 1) 0 else sharedWindows
  require(shared >= 0 && shared < numWindows, "shared windows must leave at least one owned window")
  require((numWindows - shared) % adders == 0 || adders == 1,
    s"${numWindows - shared} windows above the shared ones do not split evenly over $adders adders")
  require(shared + (numWindows - shared) / adders >= 2, "every adder needs at least two windows")
  require(laneQueueDepth >= 2, "an adder's queue needs at least two points")
  def isShared(j: Int): Boolean = j < shared
  /** the windows adder l holds, least significant first: the shared ones (local index = j), then its own */
  def laneWindows(l: Int): Seq[Int] = (0 until shared) ++ (shared until numWindows).filter(j => (j - shared) % adders == l)
  /** records after the buckets in the read-out: adders 1.. copies of the shared windows, then the partial buckets */
  val partialRecords: Int = (adders - 1) * (0 until shared).map(buckets).sum + adders * partialSlots
  for (sp <- split) {
    require(adders == 1, "a split lane is the engine's one adder")
    require(curve.form != CurveForm.TwistedEdwards, "only the XYZZ adder places its products apart")
    require(sp.windows.flatten.sorted == (0 until numWindows), s"a split names every window once: ${sp.windows}")
  }
}

/** One adder over three SLRs, for an adder whose products and bucket memories exceed one SLR (BLS12-381 G1 on the
  * VU9P): its hub (the lane's scheduler, the adder's additions, subtractions and delay lines, the window multiplexer,
  * the partial buckets) stays with the engine's control, and region r takes the Montgomery products named in
  * `products(r)` (XyzzAdder's names) and the bucket memories of `windows(r)`.  The board's floorplan puts region r in
  * its r-th adder SLR (vivado/constraints/<board>.xdc: instances hub/far<r>_* and hub/adder/far<r>_*).  Every net
  * between the hub and a region runs from a register to a register: the generator adds one register on each side of
  * the hub ([[XyzzAdder]]'s operands and results of a far product, [[MsmLane]]'s memory ports), and counts them in the
  * adder's latency and the lane's hazard window. */
case class LaneSplit(products: Seq[Set[String]], windows: Seq[Set[Int]]) {
  require(products.size == windows.size && products.nonEmpty, "one product set and one window set per region")
  require(products.flatten.size == products.map(_.size).sum, "a product is in one region")
  /** product name -> its region */
  val productRegion: Map[String, Int] = products.zipWithIndex.flatMap { case (ps, r) => ps.map(_ -> r) }.toMap
  def windowRegion(j: Int): Int = windows.indexWhere(_.contains(j))
}

object LaneSplit {
  /** XyzzAdder's ten products in two regions of five: the first takes stages 1 and 3 and PPP, the second the rest */
  val xyzzProducts: Seq[Set[String]] = Seq(Set("a", "b", "pp", "rr", "ppp"), Set("q", "zzOut", "zzzOut", "yp", "rd"))
  /** windows below `low` in region 0, the rest in region 1 */
  def xyzz(low: Int, windows: Int): LaneSplit =
    LaneSplit(xyzzProducts, Seq((0 until low).toSet, (low until windows).toSet))
}

object MsmConfig {
  /** Hardcaml's layout (13 windows of 13 bits, 7 of 12 bits) on BLS12-377: the board configurations. */
  /** Hardcaml's layout on two adders, the points resident in four DDR4 channels (16 GiB each).  Register chains
    * up to 9 long in flip-flops: the Montgomery products' skew and heap delays are 3 to 9 stages (5,141 SRL16E of
    * a product's 5,859 shift registers at the default), and the VU9P runs out of LUTs long before flip-flops */
  val vu9p = MsmConfig("vu9p", adders = 2, partialSlots = 128, retryDepth = 64,
    pointStore = Some(PointStoreConfig(channels = 4, addressBits = 34)), shregMinSize = 10)
  val c1100 = MsmConfig("c1100")
  /** Four 6-bit windows and scalars below 2^24: 32 + 32 + 32 + 64 buckets, hazards on almost every point;
    * simulates in seconds. */
  val small = MsmConfig("small", windows = Seq(6, 6, 6, 6), scalarBound = Some(BigInt(1) << 24), retryDepth = 8,
    partialSlots = 8, scalarFifoDepth = 16, pointFifoDepth = 8)
  /** simulation twins with the multiplier model (cycle-identical to the real ones) */
  val smallModel = small.copy(name = "small_model", mulModel = true)
  /** the small layout on two adders (windows 0, 1 shared; 2 and 3 owned), a point store of two 1 MiB channels */
  val small2 = small.copy(name = "small2", adders = 2,
    pointStore = Some(PointStoreConfig(channels = 2, addressBits = 20, readBuffer = 128)))
  val small2Model = small2.copy(name = "small2_model", mulModel = true)
  val vu9pModel = vu9p.copy(name = "vu9p_model", mulModel = true)

  /** BN254 G1 on the XYZZ adder: the small layouts (scalars below 2^24), as the BLS12-377 ones */
  val bn254Small = small.copy(name = "bn254_small", curve = CurveConfig.bn254_g1)
  val bn254SmallModel = bn254Small.copy(name = "bn254_small_model", mulModel = true)
  /** two adders, and the point store in the C1100's layout: its 1 MiB channels in 1 GiB windows of one address
    * space (the HBM's switch groups), so the quick tier runs the addresses a C1100 card issues */
  val bn254Small2Model = small2.copy(name = "bn254_small2_model", curve = CurveConfig.bn254_g1, mulModel = true,
    pointStore = small2.pointStore.map(_.copy(sharedSpace = Some(PointStoreConfig.SharedSpace(30)))))
  /** BLS12-381 G1 on the XYZZ adder, the small layout: its bucket records take four beats (4·381 + 28 > 1536) */
  val bls12_381SmallModel = small.copy(name = "bls12_381_small_model", curve = CurveConfig.bls12_381_g1,
    mulModel = true, split = Some(LaneSplit.xyzz(2, 4)))

  /** A prover's twin (sw/msm-fpga's tests and `./run.sh prove`): scalars below r as the board engines take them, in
    * 41 windows of 6 bits and one of 7 (about 1,400 buckets, so the read-out stays near the accumulation's cycles at
    * a few hundred points), two adders and small2's point store (10,752 BLS12-377 points: several base sets side by
    * side) */
  private def proverWindows(c: CurveConfig): Seq[Int] = Seq.fill(41)(6) :+ (c.scalarBits - 41 * 6)
  val proverModel = small2Model.copy(name = "prover_model", windows = proverWindows(CurveConfig.bls12_377_g1),
    scalarBound = None)

  /** Hardcaml's window shape (13-bit windows, then 12-bit ones, 20 in all) stretched over a curve's scalar bits */
  def hardcamlWindows(scalarBits: Int): Seq[Int] = {
    val wide = scalarBits - 20 * 12
    require(wide >= 0 && wide <= 20, s"$scalarBits-bit scalars in twenty 12- or 13-bit windows")
    Seq.fill(wide)(13) ++ Seq.fill(20 - wide)(12)
  }
  /** BN254 G1 on the VU9P: two XYZZ adders (254-bit scalars: 14 windows of 13 bits, 6 of 12), the points resident
    * in the four DDR4 channels as `vu9p` */
  val bn254Vu9p = vu9p.copy(name = "bn254_vu9p", curve = CurveConfig.bn254_g1,
    windows = hardcamlWindows(CurveConfig.bn254_g1.scalarBits))
  /** BN254 G1 on the C1100: two XYZZ adders, the point store in the HBM (eight channels of 1 GiB: 2^26 BN254
    * points of 128 bytes fill the 8 GiB), windows of the HBM's one 8 GiB address space: channel c at c GiB, the four
    * pseudo-channels of its AXI port's switch group (vivado/lib/zk_hbm.tcl) */
  val bn254C1100 = bn254Vu9p.copy(name = "bn254_c1100",
    pointStore = Some(PointStoreConfig(channels = 8, addressBits = 30, sharedSpace = Some(PointStoreConfig.SharedSpace(30)))))
  /** BLS12-381 G1 on the VU9P: one XYZZ adder (an adder of 381-bit products takes about as many DSPs as the part
    * gives two of BN254's; 255-bit scalars: 15 windows of 13 bits, 5 of 12), the points in the four DDR4 channels */
  val bls12_381Vu9p = vu9p.copy(name = "bls12_381_vu9p", curve = CurveConfig.bls12_381_g1, adders = 1,
    windows = hardcamlWindows(CurveConfig.bls12_381_g1.scalarBits), split = Some(LaneSplit.xyzz(13, 20)))
  /** the same on BN254 and BLS12-381 (the XYZZ adder; their 254- and 255-bit scalars take a top window of 8 and 9),
    * with their board engines' adders (BLS12-381's one: two of its adders fit no VU9P SLR) */
  val proverModels: Seq[MsmConfig] = Seq(bn254Vu9p, bls12_381Vu9p).map { b =>
    val w = proverWindows(b.curve)
    // a split board engine's twin splits its adder the same way (its latency), the windows half and half
    proverModel.copy(name = s"${b.curve.name.stripSuffix("_g1")}_prover_model", curve = b.curve, adders = b.adders,
      windows = w, split = b.split.map(_ => LaneSplit.xyzz(w.size / 2, w.size)))
  }
  /** the boards' multiplier-model twins (simulation only) */
  val boardModels: Seq[MsmConfig] = Seq(bn254Vu9p, bn254C1100, bls12_381Vu9p).map(c =>
    c.copy(name = c.name + "_model", mulModel = true))

  val all: Seq[MsmConfig] = Seq(small, vu9p, smallModel, small2Model, vu9pModel, bn254SmallModel, bn254Small2Model,
    bls12_381SmallModel, proverModel, bn254Vu9p, bn254C1100, bls12_381Vu9p) ++ boardModels ++ proverModels
  /** emitted only when asked for by name (the long tier, the benchmarks, Vivado): each takes a minute to elaborate */
  val onDemand: Seq[MsmConfig] = Seq(bn254Vu9p, bn254C1100, bls12_381Vu9p) ++ boardModels ++ proverModels
}
