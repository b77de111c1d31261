package zkspinal.system

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import zkspinal.contract.{CoreIdentity, CoreKind, IdentifiedCore}

/** Elaboration checks of the system blocks: configuration requires and the port names the Vivado scripts rely on. */
class SystemElaborationSpec extends AnyFunSuite {
  private def elaborate[T <: Component](c: => T): T = {
    var out: Option[T] = None
    SpinalConfig(targetDirectory = "build/elab").generateVerilog { val x = c; out = Some(x); x }
    out.get
  }
  private def ports(c: Component): Set[String] = c.getAllIo.map(_.getName()).toSet

  test("configurations reject what the register map cannot hold") {
    assertThrows[IllegalArgumentException](SystemBlockConfig(statusCount = 256))        // INFO holds 8 bits
    assertThrows[IllegalArgumentException](SystemBlockConfig(statusCount = 8, addressWidth = 11)) // no identity words
    assert(SystemBlockConfig(statusCount = 255).statusCount == 255) // the status words end below the identity words
    assertThrows[IllegalArgumentException](CoreIdentity(CoreKind.Poseidon, ""))
    assertThrows[IllegalArgumentException](CoreIdentity(CoreKind.Poseidon, "c 1100"))
    assertThrows[IllegalArgumentException](SystemBlockConfig(resetCycles = 0))
    assertThrows[IllegalArgumentException](InbandLastConfig(dataBytes = 4, flagBit = 32))
    assert(InbandLastConfig(dataBytes = 32).flag == 255)
  }

  test("SystemBlock ports follow the convention of vivado/lib/zk_rtl.tcl") {
    val c = elaborate(new SystemBlock(SystemBlockConfig(statusCount = 3)))
    val p = ports(c)
    assert(Set("aclk", "aresetn", "core_aresetn", "status_0", "status_1", "status_2", "s_axil_awaddr", "s_axil_rresp",
      "ident_kind", "ident_config", "ident_version") subsetOf p)
    assert(!p.contains("status_3"))
    assert(c.ident_in.forall(_.isInput))
  }

  test("the identity words: fixed offsets at the top of the 4 KiB window, clear of the status words") {
    assert(SystemBlockRegs.identity == 0xFF4 && CoreIdentity.fields == Seq("kind", "config", "version"))
    assert(SystemBlockRegs.status + 4 * 255 <= SystemBlockRegs.identity)
    // CONFIG is zlib.crc32 of the configuration name (the value tests/test_system_block.py recomputes in Python)
    assert(CoreIdentity(CoreKind.Poseidon, "c1100").configId == crc32Reference("c1100"))
    assert(crc32Reference("123456789") == 0xcbf43926L) // the CRC-32 check value
    assert(CoreIdentity(CoreKind.Msm, "vu9p").words == Seq(BigInt(2), BigInt(crc32Reference("vu9p")), BigInt(1)))
  }

  /** bitwise CRC-32 (reflected, polynomial 0xEDB88320), independent of java.util.zip */
  private def crc32Reference(s: String): Long = {
    var c = 0xffffffffL
    for (b <- s.getBytes("US-ASCII")) {
      c ^= (b & 0xff)
      for (_ <- 0 until 8) c = if ((c & 1) != 0) (c >>> 1) ^ 0xedb88320L else c >>> 1
    }
    c ^ 0xffffffffL
  }

  test("every core top a board design takes drives its identity as constant outputs") {
    def identity(c: Component with IdentifiedCore): Unit = {
      val p = c.getAllIo.filter(_.getName().startsWith("ident_"))
      assert(p.map(_.getName()).toSet == Set("ident_kind", "ident_config", "ident_version"), c.definitionName)
      assert(p.forall(x => x.isOutput && x.getBitsWidth == 32), c.definitionName)
    }
    val tops: Seq[(() => Component with IdentifiedCore, CoreKind, String)] = Seq(
      (() => new PairFixture(PairFixtureConfig.small), CoreKind.Pair, "d16"),
      (() => new zkspinal.keccak.KeccakSpongeAxis(zkspinal.keccak.KeccakConfig.small), CoreKind.KeccakSponge,
        zkspinal.keccak.KeccakConfig.small.name),
      (() => new zkspinal.keccak.KeccakSpeed(zkspinal.keccak.KeccakSpeedConfig(zkspinal.keccak.KeccakConfig.small, 1)),
        CoreKind.KeccakSpeed, zkspinal.keccak.KeccakConfig.small.name + "_u1"))
    for ((mk, kind, name) <- tops) {
      val c = elaborate(mk())
      identity(c)
      assert(c.identity == CoreIdentity(kind, name))
    }
  }

  test("InbandLast ports follow the convention of vivado/lib/zk_rtl.tcl") {
    val p = ports(elaborate(new InbandLast(InbandLastConfig(dataBytes = 64))))
    assert(Set("s_axis_tdata", "s_axis_tkeep", "s_axis_tlast", "m_axis_tdata", "m_axis_tlast", "status_frames",
      "status_partial") subsetOf p)
  }

  test("PoseidonInband: InbandLast's slave port (TKEEP, no TUSER: XDMA has none), PoseidonAxis's master and registers") {
    val c = elaborate(new PoseidonInband(zkspinal.poseidon.PoseidonConfig.small))
    val p = ports(c)
    assert(c.identity == c.core.identity && c.identity == CoreIdentity(CoreKind.Poseidon, "small"))
    assert(Set("aclk", "aresetn", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast", "s_axis_tvalid", "s_axis_tready",
      "m_axis_tdata", "m_axis_tuser", "m_axis_tlast", "s_axil_araddr", "s_axil_rdata", "status_frames",
      "status_partial", "ident_kind", "ident_config", "ident_version") subsetOf p)
    assert(!p.contains("s_axis_tuser"))
  }
}
