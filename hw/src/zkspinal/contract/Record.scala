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

/** A stream record: the fields of a record end by bit `content` (k·n + c: [[Pos]]), and the record is the whole
  * beats of `beatBits` bits that hold them, so its length may depend on the field width n (bit i of the record is
  * bit i % beatBits of beat i / beatBits, little-endian; the bits past `content` are zero), for every n up to
  * `maxN`. */
case class Record(name: String, content: Pos, beatBits: Int, maxN: Int, doc: String) {
  require(name.matches("[a-z][a-z0-9_]*"), s"record name '$name': lower-case snake case")
  require(beatBits >= 8 && beatBits % 8 == 0 && maxN >= 1 && content.at(1) >= 1,
    s"$name: ${content.text} bits in beats of $beatBits, n <= $maxN")
  def dependsOnN: Boolean = content.dependsOnN
  /** beats of the record for field width n */
  def beats(n: Int): Int = {
    require(n >= 0 && n <= maxN, s"$name: n = $n (at most $maxN)")
    (content.at(n) + beatBits - 1) / beatBits
  }
  def bits(n: Int): Int = beats(n) * beatBits
  def bytes(n: Int): Int = bits(n) / 8
  /** the beats of a record whose length does not depend on n */
  def beats: Int = { require(!dependsOnN, s"$name: ${content.text} bits, the beats depend on n"); beats(0) }
  def bits: Int = beats * beatBits
  def bytes: Int = bits / 8
  def beatBytes: Int = beatBits / 8
  /** the most beats (at n = maxN) */
  def maxBeats: Int = beats(maxN)
}

/** A field of a [[Record]]: bits [lsb(n), lsb(n) + width(n)). */
case class RecordField(name: String, record: Record, lsb: Pos, width: Pos, doc: String) {
  require(name.matches("[a-z][a-z0-9_]*"), s"field name '$name': lower-case snake case")
  require(width.at(1) >= 1, s"$name: width ${width.text}")
  require(Seq(1, record.maxN).forall(n => end(n) <= record.content.at(n)), s"${record.name}.$name: bits " +
    s"[${lsb.text}, ${(lsb + width).text}) pass the record's ${record.content.text} bits (n <= ${record.maxN})")
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
