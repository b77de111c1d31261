package zkspinal.poseidon

import java.io.File
import scala.io.Source

/** The constants of one arity, read from the committed files constants/poseidon/<arity>/<name>.canon.txt that
  * `python -m reference_model.poseidon.constants` writes (layouts in reference_model/poseidon/constants.py).
  * Canonical values only: the hardware derives every Montgomery factor it needs from them.
  */
case class PoseidonConstants(arity: Int, p: BigInt) {
  val t: Int = arity + 1
  private def load(name: String): IndexedSeq[BigInt] = {
    val f = new File(PoseidonConstants.dir, s"$arity/$name.canon.txt")
    require(f.exists(), s"missing ${f.getPath}: run python -m reference_model.poseidon.constants")
    val src = Source.fromFile(f)
    try src.getLines().map(_.trim).filter(l => l.nonEmpty && !l.startsWith("#")).map { l =>
      require(l.startsWith("0x"), s"${f.getPath}: bad line $l")
      val v = BigInt(l.drop(2), 16)
      require(v < p, s"${f.getPath}: value not below p")
      v
    }.toIndexedSeq finally src.close()
  }
  val roundConstants: IndexedSeq[BigInt] = load("round_constants")
  val mdsFlat: IndexedSeq[BigInt] = load("mds")
  val compressed: IndexedSeq[BigInt] = load("compressed_rc")
  val preSparseFlat: IndexedSeq[BigInt] = load("pre_sparse")
  val sparseFlat: IndexedSeq[BigInt] = load("sparse")

  // t*(R_F + R_P) round constants and t*R_F + R_P compressed ones give both round numbers
  val rP: Int = (roundConstants.size - compressed.size) / (t - 1)
  val rF: Int = (compressed.size - rP) / t
  require(rF % 2 == 0 && t * (rF + rP) == roundConstants.size && t * rF + rP == compressed.size,
    s"arity $arity: inconsistent constant files")
  require(mdsFlat.size == t * t && preSparseFlat.size == t * t && sparseFlat.size == rP * (2 * t - 1))
  val half: Int = rF / 2
  val rounds: Int = rF + rP

  def mds(i: Int, j: Int): BigInt = mdsFlat(i * t + j)
  def preSparse(i: Int, j: Int): BigInt = preSparseFlat(i * t + j)
  def rc(r: Int, i: Int): BigInt = roundConstants(r * t + i)
  // compressed layout: pre[t], full_first[half][t], partial[R_P], full_second[half-1][t]
  def crcPre(i: Int): BigInt = compressed(i)
  def crcFullFirst(r: Int, i: Int): BigInt = compressed(t + r * t + i)
  def crcPartial(k: Int): BigInt = compressed(t + half * t + k)
  def crcFullSecond(r: Int, i: Int): BigInt = compressed(t + half * t + rP + r * t + i)
  // sparse round k: dot_k[0..t-1] then upd_k[0..t-2]
  def sparseDot(k: Int, i: Int): BigInt = sparseFlat(k * (2 * t - 1) + i)
  def sparseUpd(k: Int, i: Int): BigInt = sparseFlat(k * (2 * t - 1) + t + i)
}

object PoseidonConstants {
  /** constants/poseidon of the repository: $ZK_ROOT (set by the Mill build) or the first parent of the working
    * directory that holds it */
  lazy val dir: File = {
    val fromEnv = sys.env.get("ZK_ROOT").map(r => new File(r, "constants/poseidon")).filter(_.isDirectory)
    fromEnv.getOrElse {
      var d = new File(".").getAbsoluteFile
      while (d != null && !new File(d, "constants/poseidon").isDirectory) d = d.getParentFile
      require(d != null, "constants/poseidon not found (set ZK_ROOT to the repository)")
      new File(d, "constants/poseidon")
    }
  }
}
