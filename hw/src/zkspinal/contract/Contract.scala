package zkspinal.contract

import scala.collection.mutable.ArrayBuffer

/** How the host shows a register's value (zk-status): hexadecimal, decimal, or a 64-bit checksum in hexadecimal. */
sealed abstract class Show(val code: Int, val name: String)
object Show {
  case object Hex extends Show(0, "hex")
  case object Dec extends Show(1, "dec")
  case object Hex64 extends Show(2, "hex64")
}

/** One register of a core's AXI4-Lite map: `words` 32-bit words from byte `offset` (a 64-bit counter: low word
  * first); `host` = false for registers only a test or a board script touches (zk-status does not list them). */
case class Register(name: String, offset: Int, words: Int, show: Show, doc: String, host: Boolean) {
  require(name.matches("[a-z][a-z0-9_]*"), s"register name '$name': lower-case snake case")
  require(offset >= 0 && offset % 4 == 0 && (words == 1 || words == 2), s"$name: offset $offset, $words words")
}

/** One named constant of a core's contract: an error bit, a status code, a key, a field's position. */
case class Code(name: String, value: BigInt, doc: String) {
  require(name.matches("[a-z][a-z0-9_]*"), s"code name '$name': lower-case snake case")
}

/** A bit field: bits [lsb, lsb + width) of register `reg` (a 32-bit word, a 64-bit counter) or of a stream record
  * (`reg` names the record; lsb counts from the record's first bit, little-endian). */
case class Field(name: String, reg: String, lsb: Int, width: Int, doc: String) {
  require(name.matches("[a-z][a-z0-9_]*"), s"field name '$name': lower-case snake case")
  require(lsb >= 0 && width >= 1 && width <= 64, s"$name: bits [$lsb, ${lsb + width})")
  /** the bit after the field */
  def end: Int = lsb + width
  /** the field's largest value */
  def max: BigInt = (BigInt(1) << width) - 1
}

/** The host-visible contract of one block, declared once: its register map and its named constants (error codes,
  * status values, keys).  The hardware reads the offsets and values from here (`reg` and `code` return them), and
  * [[ContractFiles]] writes the same declarations as a C header, a Python module and a Markdown table, so no number
  * of the contract is written anywhere else.
  *
  * @param prefix the name of the block in the generated files (`ZK_<PREFIX>_<NAME>` in C, `<PREFIX>_REGS` in Python)
  * @param source the Scala file that declares it (named in the generated files)
  */
abstract class Contract(val prefix: String, val title: String, val source: String) {
  require(prefix.matches("[a-z][a-z0-9_]*"))
  private val regs = ArrayBuffer[Register]()
  private val consts = ArrayBuffer[Code]()
  private val flds = ArrayBuffer[Field]()
  private val recs = ArrayBuffer[Record]()
  private val recFlds = ArrayBuffer[RecordField]()

  /** declares a register; returns its byte offset */
  protected def reg(name: String, offset: Int, doc: String, words: Int = 1, show: Show = Show.Hex,
                    host: Boolean = true): Int = {
    require(!regs.exists(_.name == name), s"$prefix: register $name declared twice")
    val r = Register(name, offset, words, show, doc, host)
    require(regs.forall(o => o.offset + 4 * o.words <= offset || offset + 4 * words <= o.offset),
      s"$prefix: register $name at $offset overlaps another")
    regs += r
    offset
  }

  /** declares a named constant; returns its value */
  protected def code(name: String, value: BigInt, doc: String): BigInt = {
    require(!consts.exists(_.name == name), s"$prefix: constant $name declared twice")
    consts += Code(name, value, doc)
    value
  }

  protected def bit(name: String, value: Int, doc: String): Int = code(name, value, doc).toInt

  /** declares a one-bit flag at bit `index` of a register (its code is the mask 1 << index); returns the index */
  protected def flag(name: String, index: Int, doc: String): Int = {
    require(index >= 0 && index < 32)
    code(name, BigInt(1) << index, doc)
    index
  }

  /** declares bits [lsb, lsb + width) of register (or record) `reg` as a field; the fields of one register do not
    * overlap.  Returns it (the hardware packs and the tests read the register by it). */
  protected def field(name: String, reg: String, lsb: Int, width: Int, doc: String): Field = {
    require(!flds.exists(_.name == name), s"$prefix: field $name declared twice")
    val f = Field(name, reg, lsb, width, doc)
    require(flds.filter(_.reg == reg).forall(o => o.end <= lsb || f.end <= o.lsb), s"$prefix: field $name overlaps another")
    regs.find(_.name == reg).foreach(r => require(f.end <= 32 * r.words, s"$prefix: field $name past register $reg"))
    flds += f
    f
  }

  /** declares a stream record: the whole `beatBits`-bit beats that hold bits [0, content) (k·n + c), for field
    * widths n up to `maxN` */
  protected def record(name: String, content: Pos, beatBits: Int, maxN: Int, doc: String): Record = {
    require(!recs.exists(_.name == name), s"$prefix: record $name declared twice")
    val r = Record(name, content, beatBits, maxN, doc)
    recs += r
    r
  }

  /** declares bits [lsb, lsb + width) of `record` (k·n + c each: [[Pos]]) as a field; it fits the record for every
    * n up to the record's maxN, and the fields of one record do not overlap for any such n (positions are linear in
    * n, so checking n = 1 and n = maxN covers every n between). */
  protected def recordField(name: String, record: Record, lsb: Pos, width: Pos, doc: String): RecordField = {
    require(recs.contains(record), s"$prefix: record ${record.name} is not this contract's")
    require(!recFlds.exists(f => f.record == record && f.name == name), s"$prefix: ${record.name}.$name declared twice")
    val f = RecordField(name, record, lsb, width, doc)
    for (o <- recFlds if o.record == record)
      require(Seq(1, record.maxN).forall(n => o.end(n) <= lsb.at(n)) || Seq(1, record.maxN).forall(n => f.end(n) <= o.lsb.at(n)),
        s"$prefix: ${record.name}.$name overlaps ${o.name}")
    recFlds += f
    f
  }

  def registers: Seq[Register] = regs.toList
  def records: Seq[Record] = recs.toList
  def recordFields: Seq[RecordField] = recFlds.toList
  def fields: Seq[Field] = flds.toList
  def codes: Seq[Code] = consts.toList
}
