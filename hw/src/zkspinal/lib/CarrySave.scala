package zkspinal.lib

import spinal.core._

/** A sum of several operands through one carry chain: full-adder layers (3:2, sum = a XOR b XOR c and the
  * majority one bit up, LUTs only) reduce the operands to two, and one adder adds those.  Written as a chain of
  * `+`, synthesis builds one carry chain per `+`, in series on the same path. */
object CarrySave {
  /** (Σ terms) mod 2^width, combinational; ceil(log_{3/2}(terms / 2)) LUT levels, then one carry chain */
  def sum(terms: Seq[UInt], width: Int): UInt = {
    require(terms.nonEmpty, "CarrySave.sum of no operands")
    var rows = terms.map(_.resize(width))
    while (rows.size > 2) {
      rows = rows.grouped(3).flatMap {
        case Seq(a, b, c) => Seq(a ^ b ^ c, (((a & b) | (a & c) | (b & c)) << 1).resize(width))
        case rest         => rest
      }.toSeq
    }
    rows.reduce(_ + _)
  }
}
