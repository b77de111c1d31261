package zkspinal.contract

import spinal.core._

/** A bit position or width that may depend on the field width n of the configuration (a curve's or a hash's
  * field): k·n + c.  `N` is n itself, so a record declares `3 * N`, `4 * N + 7` or a constant. */
case class Pos(k: Int, c: Int) {
  require(k >= 0, s"k·n + c with k = $k")
  def at(n: Int): Int = k * n + c
  def +(d: Int): Pos = Pos(k, c + d)
  def +(o: Pos): Pos = Pos(k + o.k, c + o.c)
  def dependsOnN: Boolean = k != 0
  /** the formula as the generated tables print it: "3n + 7", "n", "255" */
  def text: String = (k, c) match {
    case (0, _) => c.toString
    case (_, 0) => (if (k == 1) "" else k.toString) + "n"
    case _ => (if (k == 1) "" else k.toString) + s"n + $c"
  }
}

object Pos {
  val N: Pos = Pos(1, 0)
  implicit def const(c: Int): Pos = Pos(0, c)
  implicit class Times(val k: Int) extends AnyVal {
    def *(p: Pos): Pos = Pos(k * p.k, k * p.c)
  }
}

/** A stream record: `beats` beats of `beatBits` bits (bit i of the record is bit i % beatBits of beat i / beatBits,
  * little-endian), for every field width n up to `maxN`. */
case class Record(name: String, beats: Int, beatBits: Int, maxN: Int, doc: String) {
  require(name.matches("[a-z][a-z0-9_]*"), s"record name '$name': lower-case snake case")
  require(beats >= 1 && beatBits >= 8 && beatBits % 8 == 0 && maxN >= 1, s"$name: $beats x $beatBits bits, n <= $maxN")
  def bits: Int = beats * beatBits
  def bytes: Int = bits / 8
  def beatBytes: Int = beatBits / 8
}

/** A field of a [[Record]]: bits [lsb(n), lsb(n) + width(n)). */
case class RecordField(name: String, record: Record, lsb: Pos, width: Pos, doc: String) {
  require(name.matches("[a-z][a-z0-9_]*"), s"field name '$name': lower-case snake case")
  require(width.at(1) >= 1, s"$name: width ${width.text}")
  require(end(record.maxN) <= record.bits, s"${record.name}.$name: bits [${lsb.text}, ${(lsb + width).text}) " +
    s"pass the record's ${record.bits} bits at n = ${record.maxN}")
  def end: Pos = lsb + width
  def end(n: Int): Int = end.at(n)
  def dependsOnN: Boolean = lsb.dependsOnN || width.dependsOnN
  /** the field's bits of a record (or of a beat, for a one-beat record) for field width n */
  def of(data: Bits, n: Int): Bits = {
    require(n <= record.maxN && end(n) <= data.getWidth, s"${record.name}.$name at n = $n in ${data.getWidth} bits")
    data(end(n) - 1 downto lsb.at(n))
  }
  /** the bits past the field's end in a record for field width n (those that are zero in a record with nothing
    * after this field) */
  def above(data: Bits, n: Int): Bits = data(data.getWidth - 1 downto end(n))
  /** bits [lsb, lsb + width) as the tables print them */
  def text: String = s"[${lsb.text}, ${end.text})"
}
