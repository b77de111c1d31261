package zkspinal.contract

import org.scalatest.funsuite.AnyFunSuite
import zkspinal.msm.MsmRecord
import zkspinal.poseidon.PoseidonFrame
import zkspinal.system.InbandLastConfig

/** The record vocabulary of [[Contract]]: positions k·n + c, fields that fit their record for every n up to maxN and
  * do not overlap, and the records the cores declare. */
class RecordSpec extends AnyFunSuite {
  import Pos._

  test("positions are k·n + c") {
    assert((4 * N + 28).at(377) == 1536 && (3 * N).text == "3n" && (N + 7).text == "n + 7" && Pos.const(255).text == "255")
    assert(!Pos.const(5).dependsOnN && (2 * N).dependsOnN)
  }

  test("a record field fits its record for every n up to maxN, and fields do not overlap") {
    object Ok extends Contract("ok_rec", "test", "RecordSpec") {
      val r = record("r", 4 * N + 28, 512, 384, "the beats that hold four words and a tag")
      val a = recordField("a", r, 0, N, "first")
      val tag = recordField("tag", r, 4 * N, 28, "the tag")
    }
    assert(Ok.tag.end(377) == 1536 && Ok.recordFields.size == 2 && Ok.r.bytes(377) == 192 && Ok.r.beats(381) == 4)
    assert(Ok.r.beats(254) == 3 && Ok.r.beats(249) == 2 && Ok.r.maxBeats == 4 && Ok.r.dependsOnN)
    assertThrows[IllegalArgumentException](Ok.r.beats) // the length depends on n
    assertThrows[IllegalArgumentException](Ok.r.beats(385)) // past maxN
    assertThrows[IllegalArgumentException](new Contract("past", "test", "RecordSpec") {
      recordField("tag", record("r", 4 * N + 27, 512, 377, "one bit short"), 4 * N, 28, "past the content")
    })
    assertThrows[IllegalArgumentException](new Contract("overlap", "test", "RecordSpec") {
      private val r = record("r", 4 * N, 512, 377, "four words")
      recordField("a", r, 0, N, "first")
      recordField("b", r, Pos(1, -1), N, "overlaps a by one bit")
    })
  }

  test("the cores' records: MsmRecord's beats per curve, PoseidonFrame's flag is InbandLast's") {
    import MsmRecord.{bucketRecord, point}
    assert(MsmRecord.tag.lsb.at(377) == 1508 && bucketRecord.bits(377) == 1536 && point.bytes(377) == 192)
    assert(point.beats(254) == 2 && bucketRecord.beats(254) == 3) // BN254
    assert(point.beats(381) == 3 && bucketRecord.beats(381) == 4) // BLS12-381: 4·381 + 28 > 1536
    assert(MsmRecord.qt.end(377) == 1131 && MsmRecord.scalars.bytes == 64 && MsmRecord.scalars.beatBits == 512)
    assert(PoseidonFrame.last.lsb.at(0) == InbandLastConfig.poseidon.flag && PoseidonFrame.beat.bytes == 32)
  }
}
