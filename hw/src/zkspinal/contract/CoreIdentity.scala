package zkspinal.contract

import spinal.core._
import java.util.zip.CRC32

/** The kinds of core a board design pairs with the system block, as the host sees them in the system block's KIND
  * word (sw/lib/zkxdma.h zk_core_kind has the same codes).
  *
  * @param code    the KIND word (0: no identity)
  * @param name    the host's name for the kind (zk-status --core, zk_core_name)
  * @param version the core's interface revision: bump it when the kind's registers or stream format change in a way
  *                the host must know about; the host speaks one revision per kind and leaves cards with another alone
  */
sealed abstract class CoreKind(val code: Int, val name: String, val version: Int)

object CoreKind {
  case object Poseidon extends CoreKind(1, "poseidon", 1)
  case object Msm extends CoreKind(2, "msm", 1)
  case object KeccakSponge extends CoreKind(3, "keccak-sponge", 1)
  case object KeccakSpeed extends CoreKind(4, "keccak-speed", 1)
  case object Pair extends CoreKind(5, "pair", 1)
  val all: Seq[CoreKind] = Seq(Poseidon, Msm, KeccakSponge, KeccakSpeed, Pair)
  require(all.map(_.code).distinct.size == all.size && all.forall(k => k.code >= 1 && k.code <= 0xffff))
  require(all.forall(k => k.version >= 1 && k.version <= 0xffff))
}

/** The kinds' codes and interface revisions in the host contract: `<name>` the KIND code, `<name>_version` the
  * revision the host speaks (ContractFiles writes them into the C header and the Python module). */
object CoreKinds extends Contract("core_kind", "core kinds: the system block's KIND word and the interface " +
    "revision of each", "hw/src/zkspinal/contract/CoreIdentity.scala") {
  for (k <- CoreKind.all) {
    val id = k.name.replace('-', '_')
    code(id, k.code, s"KIND of a ${k.name} core")
    code(s"${id}_version", k.version, s"the ${k.name} interface revision (VERSION[15:0])")
  }
}

/** Where a board design puts each block on the XDMA user BAR (vivado/lib/zk_bd.tcl maps them; the host maps
  * `map_bytes` of the BAR). */
object UserBar extends Contract("user_bar", "the XDMA user BAR: byte offsets of each block's window",
    "hw/src/zkspinal/contract/CoreIdentity.scala") {
  val core = code("core", 0x00000, "the core's AXI4-Lite registers (64 KiB window)").toInt
  val system = code("system", 0x10000, "the system block (4 KiB used)").toInt
  val flash = code("flash", 0x20000, "the flash and ICAP controller (64 KiB)").toInt
  val mapBytes = code("map_bytes", 0x30000, "the part of the BAR the host maps").toInt
}

/** What a core top tells the host through the system block: its kind and configuration.
  *
  * The three words, in [[CoreIdentity.fields]] order (the system block shows them at [[SystemBlockRegs.identity]]):
  *   kind     [[CoreKind.code]]
  *   config   CRC-32 (IEEE 802.3, as zlib.crc32 and `crc32` compute it) of the configuration name, the suffix of
  *            the emitted top's name (`PoseidonAxis_c1100` -> "c1100"); the manifest lists it per top
  *            (`ident_config`), so a host with build/rtl/manifest.json can name the configuration
  *   version  [15:0] [[CoreKind.version]], [31:16] `detail`: what the kind says of its configuration (an MSM core:
  *            its curve, zkspinal.msm.MsmCurves; 0 for the other kinds)
  */
case class CoreIdentity(kind: CoreKind, config: String, detail: Int = 0) {
  require(config.nonEmpty && config.forall(c => c > ' ' && c < 0x7f), s"configuration name '$config': printable ASCII")
  require(detail >= 0 && detail <= 0xffff, s"detail $detail: VERSION[31:16]")
  def configId: Long = {
    val c = new CRC32
    c.update(config.getBytes("US-ASCII"))
    c.getValue
  }
  def versionWord: Long = (detail.toLong << 16) | kind.version
  def words: Seq[BigInt] = Seq(BigInt(kind.code), BigInt(configId), BigInt(versionWord))
  /** the manifest fields of a top with this identity */
  def manifest: Map[String, Any] = Map("ident_kind" -> kind.code, "ident_kind_name" -> kind.name,
    "ident_config" -> f"0x$configId%08x", "ident_config_name" -> config, "ident_version" -> versionWord, "ident_detail" -> detail)
}

object CoreIdentity {
  /** the port names are `ident_<field>` on both ends: outputs of the core top, inputs of the system block
    * (vivado/lib/zk_rtl.tcl's convention; vivado/lib/zk_bd.tcl connects them by name) */
  val fields: Seq[String] = Seq("kind", "config", "version")
  def portName(field: String): String = s"ident_$field"
}

/** A core top a board design may pair with the system block: it drives its identity as constant outputs. */
trait IdentifiedCore { this: Component =>
  def identity: CoreIdentity

  /** creates the constant outputs `ident_kind`, `ident_config`, `ident_version`; call once in the top's body */
  protected def identityOutputs(): Unit =
    for ((f, v) <- CoreIdentity.fields.zip(identity.words)) {
      val p = out(UInt(32 bits)).setName(CoreIdentity.portName(f))
      p := U(v, 32 bits)
    }
}
