package zkspinal.lib

/** The manifest's and the benchmarks' JSON, through ujson: Scala values (maps with sorted keys, sequences, strings,
  * numbers, booleans; anything else as its string) to JSON text, and back. */
object Json {
  def value(v: Any): ujson.Value = v match {
    case s: String    => ujson.Str(s)
    case m: Map[_, _] => ujson.Obj.from(m.toSeq.map { case (k, x) => k.toString -> value(x) }.sortBy(_._1))
    case s: Seq[_]    => ujson.Arr.from(s.map(value))
    case b: Boolean   => ujson.Bool(b)
    case n: Int       => ujson.Num(n)
    case n: Long      => require(n.abs < (1L << 53), s"$n does not fit a JSON number exactly"); ujson.Num(n.toDouble)
    case other        => ujson.Str(other.toString)
  }

  def apply(v: Any): String = value(v).render()
}
