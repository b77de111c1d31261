package zkspinal.poseidon

import org.scalatest.funsuite.AnyFunSuite
import zkspinal.field._

/** The group scheduler ([[PoseidonSchedule]]): every member of a group gets its own digest (executed with BigInt
  * arithmetic exactly as a group beat is defined), the beats respect the shape, and pooling pays. */
class PoseidonScheduleSpec extends AnyFunSuite {
  private val f = FieldConfig.bls12_381_fr
  private def states(a: Int, members: Int) =
    (0 until members).map(g => (BigInt(g) * 977 + 5) +: (0 until a).map(j => BigInt(j * 31 + g)))

  test("every member's digest equals the single-hash program's, both schedules, several shapes") {
    for (a <- Seq(2, 4, 8, 11); opt <- Seq(true, false);
         shape <- Seq(GroupShape(1, 1, 1, 1), GroupShape(2, 2, 7, 2), GroupShape(3, 2, 27, 3), GroupShape(4, 3, 13, 1))) {
      val c = PoseidonConstants(a, f.p)
      val single = PoseidonProgram.beats(c, f, opt, Int.MaxValue)
      val s = states(a, shape.members)
      val got = PoseidonSchedule.run(PoseidonSchedule.compile(c, f, opt, shape), s, f)
      assert(got == s.map(PoseidonProgramCheck.run(single, _, f)), s"arity $a optimized=$opt $shape")
    }
  }

  test("beats respect the shape: units, slots, lane inputs, one kept value, rounds in order") {
    for (a <- Seq(2, 8, 11); shape <- Seq(GroupShape(2, 2, 27, 3), GroupShape(3, 4, 16, 2), GroupShape(2, 1, 5, 1))) {
      val prog = PoseidonSchedule.compile(PoseidonConstants(a, f.p), f, optimized = true, shape)
      for (b <- prog) {
        assert(b.units.size == shape.units && b.slots.size == shape.slots && b.members.size == shape.members)
        for (g <- 0 until shape.members) {
          val lanes = b.slots.flatten.filter(_.member == g).groupBy(_.dst)
          assert(lanes.forall { case (d, ps) => d == 0 || ps.size <= shape.laneInputs }, s"$shape lane inputs")
          assert(b.units.flatten.count(u => u.member == g && u.keep) <= 1)
          // a slot reads a unit that works for the same member
          assert(b.slots.flatten.filter(_.member == g).forall(_.operand match {
            case FromUnit(u) => b.units(u).exists(_.member == g)
            case _           => true
          }))
        }
      }
      assert((0 until shape.members).forall(g => prog.count(_.members(g).done) == 1), s"$shape: one digest each")
    }
  }

  test("sharing units and slots among members shortens the PC2 arities (cycles per hash)") {
    for (a <- Seq(8, 11)) {
      val c = PoseidonConstants(a, f.p)
      val alone = PoseidonSchedule.compile(c, f, true, GroupShape(1, 2, 27, 3)).size.toDouble
      val pair = PoseidonSchedule.compile(c, f, true, GroupShape(2, 2, 27, 3)).size / 2.0
      assert(pair < 0.95 * alone, s"arity $a: $pair cycles per hash in pairs, $alone alone")
    }
  }
}
