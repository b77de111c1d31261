package zkspinal.poseidon

import zkspinal.lib.Timed

import spinal.core._
import spinal.lib._
import zkspinal.field._

/** The matrix constants of the engines' constant multipliers ([[ExpandedConstMul]]), one table per product slot:
  * the distinct constants that slot meets in every program, each stored expanded (K words).
  *
  * A beat's product is operand * k * R^-1 ([[PoseidonProgram]] keeps Montgomery bookkeeping); the expanded
  * multiplier computes operand * c, so the table holds c = k * R^-1 mod p. */
case class ConstTables(field: FieldConfig, arith: ArithConfig, columns: Seq[Seq[BigInt]]) {
  /** index of the constant k (as a beat carries it) in column `col` */
  private val index: Seq[Map[BigInt, Int]] = columns.map(_.zipWithIndex.toMap)
  def indexOf(col: Int, k: BigInt): Int = index(col)(k)
  val idxBits: Int = log2Up(columns.map(_.size).max) max 1
  val digits: Int = ExpandedConstMul.digits(field, arith)
  /** the expanded table words of column `col`: words(k)(i) = C_k of constant i */
  def words(col: Int): Seq[Seq[BigInt]] = {
    val expanded = columns(col).map(k => ExpandedConstMul.expand(field, k * field.rInv % field.p, arith))
    (0 until digits).map(d => expanded.map(_(d)))
  }
  /** ROM bits of one copy of every table */
  def bits: BigInt = BigInt(columns.map(_.size).sum) * digits * field.width
}

object ConstTables {
  /** one table per product slot: the distinct constants the slot meets in the group programs of every arity */
  def forGroups(field: FieldConfig, arith: ArithConfig, programs: Seq[Seq[GroupBeat]], slots: Int): ConstTables = {
    val cols = (0 until slots).map(i => programs.flatten.flatMap(_.slots(i).map(_.k)).distinct)
    ConstTables(field, arith, cols.map(c => if (c.isEmpty) Seq(BigInt(0)) else c))
  }
}

/** The tables in ROM, shared by `ports` engines (two engines use the two ports of each block RAM).  An index in at
  * one stage gives word 0 of the expanded constant `latency` stages later (address register inside the RAM, output
  * register after it) and word d d stages after that, when the [[ExpandedConstMul]] reads it (its operandLag). */
class PoseidonConstRom(val tables: ConstTables, val ports: Int) extends Component {
  require(ports >= 1 && ports <= 2, "a block RAM has two ports")
  private val n = tables.field.width
  private val C = tables.columns.size
  private val K = tables.digits
  val io = new Bundle {
    val idx = in(Vec(Vec(UInt(tables.idxBits bits), C), ports))
    val words = out(Vec(Vec(Vec(UInt(n bits), K), C), ports))
  }
  private val stages = scala.collection.mutable.ArrayBuffer[Int]()
  for (col <- 0 until C) {
    val size = tables.columns(col).size
    val w = log2Up(size) max 1
    for ((init, d) <- tables.words(col).zipWithIndex) {
      val rom = Mem(UInt(n bits), size)
      rom.initBigInt(init)
      // beyond what one LUT6 holds per bit the table belongs in block RAM; said explicitly because synthesis
      // tools cost a ROM as constant logic and may otherwise spread it over LUTs
      if (size > LutModel.lutTableWords) rom.addAttribute("rom_style", "block")
      val lag = ExpandedConstMul.operandLag(1 + d)
      for (p <- 0 until ports) {
        // the index delayed to word d's lag, the RAM's read stage, its output register
        val word = Timed.readSync(rom, Timed(io.idx(p)(col)(w - 1 downto 0), 0).delayedTo(lag)).reg
        io.words(p)(col)(d) := word.value
        stages += word.at - lag
      }
    }
  }
  /** index in to word 0 out (word d: d stages later); the same for every table, word and port */
  val latency: Int = stages.distinct.ensuring(_.size == 1, "the tables' read paths differ in length").head
}
