package zkspinal.poseidon

import zkspinal.field.FieldConfig

/** Executes single-hash programs with BigInt arithmetic exactly as [[Beat]] defines a row (Montgomery
  * products included), so a program can be checked against known digests without simulating hardware.
  *   ./mill hw.runMain zkspinal.poseidon.PoseidonProgramCheck  (neptune's known answers for 2, 4, 8, 11; both
  *   schedules; 1, 2 and 7 multipliers per beat)
  */
object PoseidonProgramCheck {
  def run(beats: Seq[Beat], state0: Seq[BigInt], f: FieldConfig): BigInt = {
    val p = f.p
    def mm(a: BigInt, b: BigInt) = a * b * f.rInv % p
    val lanes = state0.size
    var old = state0.toArray
    var acc = Array.fill(lanes)(BigInt(0))
    for (b <- beats) {
      val e = (old(b.sLane) + b.pre) % p
      val y0 = if (b.sbox) { val x2 = mm(e, e); mm(mm(x2, x2), e) } else e
      val y = (y0 + b.post) % p
      val next = Array.tabulate(lanes)(j => if (b.first) (if (b.partial && j > 0) old(j) else BigInt(0)) else acc(j))
      for (pr <- b.products) {
        val operand = if (pr.fromOld) old(pr.src) else y
        next(pr.dst) = (next(pr.dst) + mm(operand, pr.k)) % p
      }
      acc = next
      if (b.commit) old = acc.clone()
      if (b.done) return acc(1)
    }
    sys.error("program without a done beat")
  }

  val known = Map(
    2 -> "396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff",
    4 -> "58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d",
    8 -> "2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6",
    11 -> "0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163")

  def main(args: Array[String]): Unit = {
    val f = FieldConfig.bls12_381_fr
    if (args.length == 4 && args(0) == "--dump") { // --dump ARITY MULTIPLIERS FILE: one beat per line
      val beats = PoseidonProgram.beats(PoseidonConstants(args(1).toInt, f.p), f, true, args(2).toInt)
      val w = new java.io.PrintWriter(args(3))
      for (b <- beats) w.println((Seq(b.sLane, if (b.sbox) 1 else 0, b.pre, b.post, if (b.first) 1 else 0,
        if (b.partial) 1 else 0, if (b.commit) 1 else 0, if (b.done) 1 else 0) ++
        b.products.flatMap(p => Seq(if (p.fromOld) 1 else 0, p.src, p.dst, p.k))).mkString(" "))
      w.close()
      return
    }
    var bad = 0
    for ((a, want) <- known.toSeq.sortBy(_._1); opt <- Seq(true, false); mults <- Seq(1, 2, 7)) {
      val c = PoseidonConstants(a, f.p)
      val beats = PoseidonProgram.beats(c, f, opt, mults)
      val state = ((BigInt(1) << a) - 1) +: (0 until a).map(BigInt(_))
      val got = run(beats, state, f).toString(16).reverse.padTo(64, '0').reverse
      val ok = got == want
      if (!ok) bad += 1
      println(f"arity $a%2d ${if (opt) "optimized" else "plain    "} $mults multipliers: ${beats.size}%5d beats  ${if (ok) "ok" else s"MISMATCH $got"}")
    }
    if (bad > 0) sys.exit(1)
  }
}
