package zkspinal.poseidon

import zkspinal.field._

/** A Poseidon hasher: the arities built in, the round schedule and the amount of parallel hardware.
  *
  * The core is `engines` identical ring engines ([[PoseidonGroupEngine]]).  Each engine owns `sboxUnits` S-box units
  * (x^5 as three chained Montgomery multipliers) and `multipliers` constant-product slots
  * ([[zkspinal.field.ExpandedConstMul]], 150 DSP tiles against a Montgomery multiplier's 225) whose constant (a
  * matrix entry) comes from a ROM table per slot, shared by two engines.  A ring position holds `members` hashes of
  * one arity; one engine executes one group beat per cycle, in which any unit or slot may work for any member;
  * [[PoseidonSchedule]] compiles the group program of every arity at elaboration, so cycles per hash =
  * beats(group program) / (members x engines) once the rings are full.
  *
  * @param arities     preimage lengths built in (the arity is chosen per hash at run time)
  * @param optimized   the optimized (sparse) schedule; false: the plain one (same digests, more products)
  * @param engines     round engines (hash-level parallelism)
  * @param multipliers constant-product slots (constant multipliers) per engine
  * @param members     hashes of one arity that share a ring position and its multipliers ([[PoseidonSchedule]])
  * @param sboxUnits   S-box units (three Montgomery multipliers each) per engine
  * @param laneInputs  products one beat may add into a lane >= 1 of a member; 0 = sboxUnits + 1
  * @param robDepth    reorder buffer entries (hashes in flight, power of two); 0 = the smallest that never
  *                    throttles a full set of rings
  * @param stateInUram the engines' per-member state memories (committed state, running sums) in UltraRAM: a ring
  *                    position's state is a word of (arity + 1) x 255 bits, read every cycle, which in block RAM
  *                    costs one BRAM36 per 72 bits of width per read port whatever the depth; UltraRAM is 72 bits wide
  *                    too, so the choice moves the same width to the part's other memory
  * @param mulModel    simulation only: every multiplier is its simulation model ([[MontgomeryMulModel]],
  *                    [[ExpandedConstMulModel]]: same products, same latency, so the same cycles), for soaks and
  *                    cycle benchmarks of large configurations
  */
case class PoseidonConfig(
    name: String,
    field: FieldConfig = FieldConfig.bls12_381_fr,
    arities: Seq[Int] = Seq(2, 4, 8, 11),
    optimized: Boolean = true,
    engines: Int = 1,
    multipliers: Int = 2,
    members: Int = 1,
    sboxUnits: Int = 1,
    laneInputs: Int = 0,
    robDepth: Int = 0,
    arith: ArithConfig = ArithConfig(),
    stateInUram: Boolean = false,
    mulModel: Boolean = false
) {
  require(field == FieldConfig.bls12_381_fr, "the Filecoin Poseidon constants exist for BLS12-381 Fr only")
  require(arities.nonEmpty && arities.distinct.size == arities.size, "arities must be distinct and non-empty")
  require(arities.forall(a => a >= 1 && a <= 15), "arity must be 1..15 (t = arity + 1 <= 16 lanes)")
  require(engines >= 1 && engines <= 16, "engines must be 1..16")
  require(multipliers >= 1 && multipliers <= 32, "multipliers per engine must be 1..32")
  require(members >= 1 && members <= 8, "members per ring position must be 1..8")
  require(sboxUnits >= 1 && sboxUnits <= 8, "S-box units per engine must be 1..8")
  require(laneInputs >= 0 && laneInputs <= 16, "lane inputs must be 0 (auto) .. 16")
  /** the shape the group scheduler fills */
  def shape: GroupShape = GroupShape(members, sboxUnits, multipliers, if (laneInputs > 0) laneInputs else sboxUnits + 1)
  require(robDepth == 0 || (robDepth >= 16 && isPow2(robDepth)), "robDepth must be 0 (auto) or a power of two >= 16")
  private def isPow2(x: Int) = (x & (x - 1)) == 0
  /** state lanes of the widest arity */
  val lanes: Int = arities.max + 1
  /** Montgomery multipliers in the core (the S-box units: 3 each) */
  val montMuls: Int = engines * sboxUnits * 3
  /** constant multipliers in the core */
  val constMuls: Int = engines * multipliers
  def withName(n: String): PoseidonConfig = copy(name = n)
}

object PoseidonConfig {
  /** quick simulation: one engine, two constant multipliers (3 x 240 + 2 x 150 = 1,020 DSP tiles) */
  val small = PoseidonConfig("small", engines = 1, multipliers = 2)
  /** small with the plain schedule (checks that both schedules give the model's digests) */
  val smallPlain = PoseidonConfig("small_plain", engines = 1, multipliers = 2, arities = Seq(2, 4), optimized = false)
  /** Varium C1100: 2 engines x (3 S-box Montgomery multipliers + 10 constant multipliers) = 6 x 240 + 20 x 150 =
    * 4,440 DSP tiles (XDMA needs none).  Two engines are the fewest that reach 4 Mhash/s at arity 2 (79 beats, one
    * S-box each); ten constant multipliers take arity 11 to 351 beats (1.42 Mhash/s at 250 MHz) and keep every
    * multiplier's table within 512 constants (one block RAM deep); eleven fit the DSPs but add nothing at arity 11. */
  val c1100 = PoseidonConfig("c1100", engines = 2, multipliers = 10)
  /** Varium C1100 for Filecoin's PC2 (arities 8 and 11: tree_c's column hashes and the octrees): four hashes of one
    * arity per ring position share 2 S-box units and 26 product slots, 2 x 3 x 225 + 26 x 150 = 5,250 DSP48E2.  The
    * group scheduler gives 69.0 cycles per arity-8 hash and 98.5 per arity-11 hash (3.62 and 2.54 Mhash/s at
    * 250 MHz), 90.8 % and 92.7 % of the multipliers busy. */
  val pc2 = PoseidonConfig("pc2", arities = Seq(8, 11), engines = 1, multipliers = 26, members = 4, sboxUnits = 2,
    stateInUram = true)
  /** Varium C1100 for arity 2 (binary Merkle trees): five hashes per ring position share 4 S-box units and 16
    * product slots, 4 x 3 x 225 + 16 x 150 = 5,100 DSP48E2; 23.0 cycles per hash (10.9 Mhash/s at 250 MHz),
    * 90.7 % of the multipliers busy. */
  val arity2 = PoseidonConfig("arity2", arities = Seq(2), engines = 1, multipliers = 16, members = 5, sboxUnits = 4)
  val pc2Model = pc2.copy(name = "pc2_model", mulModel = true)
  val arity2Model = arity2.copy(name = "arity2_model", mulModel = true)
  /** c1100 with the simulation model of the multiplier: the soak and the cycle benchmark (not for synthesis) */
  val c1100Model = c1100.copy(name = "c1100_model", mulModel = true)
  /** small with the model multiplier: the PoseidonCore test */
  val smallModel = small.copy(name = "small_model", mulModel = true)
  /** pooling in the quick tier: two hashes per ring position share two S-box units and three product slots */
  val smallGroupModel = PoseidonConfig("small_group_model", multipliers = 3, members = 2, sboxUnits = 2, mulModel = true)
  val all: Seq[PoseidonConfig] = Seq(small, smallPlain, c1100, c1100Model, smallModel, pc2, pc2Model, arity2,
    arity2Model)
  def byName(n: String): PoseidonConfig =
    all.find(_.name == n).getOrElse(throw new IllegalArgumentException(s"unknown Poseidon config $n; known: ${all.map(_.name).mkString(", ")}"))
}
