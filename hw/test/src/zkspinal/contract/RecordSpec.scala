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
      val r = record("r", 3, 512, 377, "three beats")
      val a = recordField("a", r, 0, N, "first")
      val tag = recordField("tag", r, 4 * N, 28, "the tag")
    }
    assert(Ok.tag.end(377) == 1536 && Ok.recordFields.size == 2 && Ok.r.bytes == 192)
    assertThrows[IllegalArgumentException](new Contract("past", "test", "RecordSpec") {
      recordField("tag", record("r", 3, 512, 378, "one bit too wide"), 4 * N, 28, "past the end at n = 378")
    })
    assertThrows[IllegalArgumentException](new Contract("overlap", "test", "RecordSpec") {
      private val r = record("r", 3, 512, 377, "three beats")
      recordField("a", r, 0, N, "first")
      recordField("b", r, Pos(1, -1), N, "overlaps a by one bit")
    })
  }

  test("the cores' records: MsmRecord fills three beats at n = 377, PoseidonFrame's flag is InbandLast's") {
    assert(MsmRecord.maxN == 377 && MsmRecord.tag.lsb.at(377) == 1508 && MsmRecord.bucketRecord.bits == 1536)
    assert(MsmRecord.qt.end(377) == 1131 && MsmRecord.point.bytes == 192 && MsmRecord.scalars.beatBits == 512)
    assert(PoseidonFrame.last.lsb.at(0) == InbandLastConfig.poseidon.flag && PoseidonFrame.beat.bytes == 32)
  }
}
