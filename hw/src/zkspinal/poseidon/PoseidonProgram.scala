package zkspinal.poseidon

import spinal.core._
import zkspinal.field.FieldConfig

/** One constant product of a beat: (fromOld ? old[src] : y) * k, added into lane `dst`. */
case class Product(fromOld: Boolean, src: Int, dst: Int, k: BigInt)

/** One row of a single-hash program (the group scheduler's unit of work, [[PoseidonSchedule]]; executed alone by
  * [[PoseidonProgramCheck]]):
  *   y = sbox ? (old[sLane] + pre)^5 : old[sLane] + pre;  y += post
  *   acc'[j] = base_j + sum of the products routed to lane j,
  *     base_j = first ? (partial && j > 0 ? old[j] : 0) : acc[j]
  *   commit: old := acc' (the round is complete); done: the hash is complete, digest = acc'[1]
  */
case class Beat(sLane: Int, sbox: Boolean, pre: BigInt, post: BigInt, products: Seq[Product],
                first: Boolean, partial: Boolean, commit: Boolean, done: Boolean)

/** The beats of one hash of one arity, computed at elaboration from the constant files.
  *
  * Montgomery form without conversions: the multipliers compute a*b*R^-1 (R = 2^n).  The S-box, three products,
  * returns v^5 * R^-4 for a canonical v, so every value after an S-box is "scaled" by R^-4 and every constant
  * that meets one carries the inverse factor: a post-S-box constant c is stored as c*R^-4, a matrix entry that
  * multiplies a scaled value as m*R^5, one that multiplies a canonical value as m*R.  Every product, and thus the
  * state, is canonical: canonical preimages go in and canonical digests come out, no conversion multiplier.
  * A beat's product is operand * k * R^-1 whatever multiplier runs it: the constant multipliers compute x*c and
  * hold c = k * R^-1 in their tables ([[ConstTables]]).
  *
  * Rounds (reference_model/poseidon/permutation.py): a full round is t rows; row i evaluates the S-box of lane i
  * once and multiplies it by row i of the matrix (t products; the last round only the digest column).  An
  * optimized partial round is one S-box (lane 0, x) and 2t - 1 products: x * dot[0] and old[j] * dot[j] into lane
  * 0, x * upd[j-1] into lane j (base old[j]).  The products of a row or a partial round are dealt into beats of
  * `multipliers` products; every beat recomputes the same S-box (the S-box unit has nothing else to do then).
  */
object PoseidonProgram {
  def beats(c: PoseidonConstants, field: FieldConfig, optimized: Boolean, multipliers: Int): Seq[Beat] = {
    val p = field.p
    val r = field.rModP
    val rInv4 = field.rInv.modPow(4, p)
    val r5 = r.modPow(5, p)
    def scaledPost(x: BigInt, sbox: Boolean) = if (sbox) x * rInv4 % p else x
    def kFor(m: BigInt, scaled: Boolean) = m * (if (scaled) r5 else r) % p
    val t = c.t

    /** beats of one group of products that share the S-box settings */
    def group(sLane: Int, sbox: Boolean, pre: BigInt, post: BigInt, products: Seq[Product], partial: Boolean): Seq[Beat] =
      products.grouped(multipliers).toSeq.map(ps => Beat(sLane, sbox, pre, scaledPost(post, sbox), ps, false, partial, false, false))

    def row(i: Int, sbox: Boolean, pre: BigInt, post: BigInt, m: (Int, Int) => BigInt, digestOnly: Boolean): Seq[Beat] = {
      val cols = if (digestOnly) Seq(1) else 0 until t
      group(i, sbox, pre, post, cols.map(j => Product(fromOld = false, 0, j, kFor(m(i, j), sbox))), partial = false)
    }
    def round(bs: Seq[Beat]): Seq[Beat] =
      bs.zipWithIndex.map { case (b, k) => b.copy(first = k == 0, commit = k == bs.size - 1) }

    val rounds: Seq[Seq[Beat]] =
      if (optimized) {
        val first = (0 until c.half).map { rr =>
          val m: (Int, Int) => BigInt = if (rr < c.half - 1) c.mds else c.preSparse
          round((0 until t).flatMap(i => row(i, sbox = true, if (rr == 0) c.crcPre(i) else 0, c.crcFullFirst(rr, i), m, false)))
        }
        val partial = (0 until c.rP).map { k =>
          val ps = Product(false, 0, 0, kFor(c.sparseDot(k, 0), true)) +:
            ((1 until t).map(j => Product(false, 0, j, kFor(c.sparseUpd(k, j - 1), true))) ++
              (1 until t).map(j => Product(true, j, 0, kFor(c.sparseDot(k, j), false))))
          round(group(0, sbox = true, 0, c.crcPartial(k), ps, partial = true))
        }
        val second = (0 until c.half).map { rr =>
          val last = rr == c.half - 1
          round((0 until t).flatMap(i => row(i, sbox = true, 0, if (last) 0 else c.crcFullSecond(rr, i), c.mds, last)))
        }
        first ++ partial ++ second
      } else {
        (0 until c.rounds).map { rr =>
          val full = rr < c.half || rr >= c.half + c.rP
          round((0 until t).flatMap(i => row(i, sbox = full || i == 0, c.rc(rr, i), 0, c.mds, rr == c.rounds - 1)))
        }
      }
    val all = rounds.flatten
    all.updated(all.size - 1, all.last.copy(done = true))
  }
}
