package zkspinal.keccak

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi.Axi4SpecRenamer
import zkspinal.axi.AxiClocked
import zkspinal.contract.{CoreIdentity, CoreKind, IdentifiedCore}
import spinal.lib.bus.amba4.axis.{Axi4Stream, Axi4StreamConfig}

/** A SHA-3 / SHAKE instance (FIPS 202, section 6): rate in bytes, the domain suffix with the first padding bit
  * (SHA3: bits 01 then 1 = 0x06; SHAKE: 1111 then 1 = 0x1F), digest bytes (0: extendable output). */
case class SpongeMode(code: Int, name: String, rateBytes: Int, suffix: Int, digestBytes: Int) {
  def rateLanes: Int = rateBytes / 8
}

object SpongeMode {
  val all = Seq(
    SpongeMode(0, "sha3_224", 144, 0x06, 28), SpongeMode(1, "sha3_256", 136, 0x06, 32),
    SpongeMode(2, "sha3_384", 104, 0x06, 48), SpongeMode(3, "sha3_512", 72, 0x06, 64),
    SpongeMode(4, "shake_128", 168, 0x1F, 0), SpongeMode(5, "shake_256", 136, 0x1F, 0))
  val maxRateLanes: Int = all.map(_.rateLanes).max
  /** error codes, the data of the error packet (they may combine) */
  val errBadMode = 1
  val errBadKeep = 2
  val errBadLength = 4
}

/** SHA3-224/256/384/512 and SHAKE128/256 over 64-bit AXI4-Stream, padding in hardware, messages back to back.
  *
  * Input packet = one message: a header beat, then the message bytes, TLAST on the final beat.
  *   header (TKEEP = 0xFF): byte 0 mode code (SpongeMode.code), bytes 1-3 reserved (ignored), bytes 4-7 the
  *     SHAKE output length in bytes, little-endian, >= 1 (ignored by the SHA3 modes); TLAST on the header = an
  *     empty message.
  *   message beats: bytes in TDATA little-endian; TKEEP = 0xFF except on the TLAST beat, where it is 2^k - 1 for
  *     k = 0..8 message bytes.
  * Output packet per message: the digest (SHA3) or `length` XOF bytes (SHAKE), 8 bytes a beat, TKEEP = 2^k - 1
  *   on the last beat, TUSER = 0.
  * Malformed input (a mode code > 5, a header TKEEP other than 0xFF, a TKEEP other than 0xFF before TLAST, a
  *   non-contiguous TKEEP on the TLAST beat, a SHAKE length of 0): the rest of the packet is consumed and dropped
  *   and the output packet is a single beat with TUSER = all ones, TKEEP = 0xFF and TDATA = the OR of the error
  *   codes (1 mode, 2 keep, 4 length); `status_errors` counts these packets.  The next message is unaffected.
  *
  * Absorbing and squeezing overlap: message bytes go into a block buffer while the core permutes the previous
  * block or the previous message is squeezed; a full block enters the core XORed with the chained state.
  */
class KeccakSpongeAxis(val cfg: KeccakConfig = KeccakConfig.default) extends Component with AxiClocked with IdentifiedCore {
  val identity = CoreIdentity(CoreKind.KeccakSponge, cfg.name)
  identityOutputs()
  val s_axis = slave(Axi4Stream(Axi4StreamConfig(dataWidth = 8, useKeep = true, useLast = true)))
  val m_axis = master(Axi4Stream(Axi4StreamConfig(dataWidth = 8, useKeep = true, useLast = true, useUser = true,
    userWidth = 1)))
  val status_messages = out UInt (32 bits) // output packets with a digest
  val status_errors = out UInt (32 bits) // output packets with an error code
  Axi4SpecRenamer(s_axis)
  Axi4SpecRenamer(m_axis)

  val core = axiDomain(new KeccakF1600(cfg))
  val latency: Int = core.latency

  val logic = new ClockingArea(axiDomain) {
    import SpongeMode._
    val modes = SpongeMode.all
    val laneW = log2Up(maxRateLanes + 1)
    val endBit = B(BigInt(0x80) << 56, 64 bits) // the final padding bit: bit 7 of the last byte of the block

    // ---- block buffer: one lane written per cycle, cleared when the block enters the core
    val buf = Vec.fill(maxRateLanes)(Reg(Bits(64 bits)) init (0))
    val write = new Area {
      val enable = False
      val lane = UInt(laneW bits).assignDontCare()
      val value = Bits(64 bits).assignDontCare()
      val clear = False
      for ((b, l) <- buf.zipWithIndex) {
        when(clear) { b := 0 } elsewhen (enable && lane === l) { b := value }
      }
    }

    // ---- what the core holds: nothing, an absorbed prefix of the current message, or a state being squeezed
    object Content extends SpinalEnum { val EMPTY, CHAIN, FINAL = newElement() }
    val content = RegInit(Content.EMPTY)
    val useOut, useBuf = False
    core.io.input.valid := False
    core.io.output.ready := False
    for (l <- 0 until KeccakConstants.lanes) {
      val fromBuf = if (l < maxRateLanes) Mux(useBuf, buf(l), B(0, 64 bits)) else B(0, 64 bits)
      core.io.input.payload.state(l) := Mux(useOut, core.io.output.payload.state(l), B(0, 64 bits)) ^ fromBuf
    }

    // ---- squeeze: output packets (error packets first, in message order)
    val beat = Stream(m_axis.payloadType)
    m_axis << beat.m2sPipe()
    val errPending = RegInit(False)
    val errValue = Reg(Bits(3 bits)) init (0)
    val sqRate = Reg(UInt(laneW bits)) init (1)
    val sqLeft = Reg(UInt(32 bits)) init (0) // bytes still to send
    val sqLane = Reg(UInt(laneW bits)) init (0)
    val messages = Reg(UInt(32 bits)) init (0)
    val errors = Reg(UInt(32 bits)) init (0)
    val lastBeat = sqLeft <= 8
    val keepTable = Vec((0 to 8).map(k => B((1 << k) - 1, 8 bits)))
    beat.valid := errPending || (content === Content.FINAL && core.io.output.valid)
    beat.data := Mux(errPending, errValue.resize(64), core.io.output.payload.state(sqLane.resize(5)))
    beat.keep := Mux(errPending || !lastBeat, B(0xFF, 8 bits), keepTable(sqLeft(3 downto 0)))
    beat.last := errPending || lastBeat
    beat.user := (default -> errPending)
    val squeezeRelease = beat.fire && !errPending && lastBeat
    when(beat.fire) {
      when(errPending) {
        errPending := False
        errors := errors + 1
      } otherwise {
        sqLeft := sqLeft - 8
        sqLane := sqLane + 1
        when(lastBeat) {
          core.io.output.ready := True
          content := Content.EMPTY
          messages := messages + 1
        } elsewhen (sqLane === sqRate - 1) {
          // rate exhausted: permute again and continue from lane 0 (SHAKE)
          core.io.output.ready := True
          core.io.input.valid := True
          useOut := True
          sqLane := 0
        }
      }
    }
    status_messages := messages
    status_errors := errors

    // ---- absorb: parse, pad, hand blocks to the core
    object State extends SpinalEnum { val HEADER, DATA, PAD_SUFFIX, PAD_END, HANDOFF, DRAIN, ERROR = newElement() }
    object Then extends SpinalEnum { val DATA, PAD, HEADER = newElement() }
    val state = RegInit(State.HEADER)
    val rate = Reg(UInt(laneW bits)) init (1) // lanes per block
    val suffix = Reg(Bits(8 bits)) init (0)
    val outLen = Reg(UInt(32 bits)) init (0)
    val lane = Reg(UInt(laneW bits)) init (0)
    val padLane = Reg(UInt(laneW bits)) init (0)
    val isFinal = Reg(Bool()) init (False) // the block waiting in HANDOFF is the message's last
    val afterHandoff = Reg(Then()) init (Then.HEADER)
    val err = Reg(Bits(3 bits)) init (0)

    val keep = s_axis.keep
    val keepFull = keep === B(0xFF, 8 bits)
    val keepContiguous = (keep & (keep.asUInt + 1).asBits) === 0 // 2^k - 1
    val kept = CountOne(keep)
    val keptMask = Cat((0 until 8).map(i => Mux(keep(i), B(0xFF, 8 bits), B(0, 8 bits)))) // Cat(Seq): element 0 = LSB
    val suffixAt = (suffix.resize(64) << (kept * 8)).resize(64) // zero when the lane is full (k = 8)
    val lastLane = lane === rate - 1

    // header fields
    val code = s_axis.data(7 downto 0).asUInt
    val hdrLen = s_axis.data(63 downto 32).asUInt
    def table[T <: Data](f: SpongeMode => T, default: T): Vec[T] =
      Vec((0 until 8).map(c => modes.find(_.code == c).map(f).getOrElse(default)))
    val modeKnown = code < modes.length
    val modeRate = table(m => U(m.rateLanes, laneW bits), U(1, laneW bits))(code.resize(3))
    val modeSuffix = table(m => B(m.suffix, 8 bits), B(0, 8 bits))(code.resize(3))
    val modeDigest = table(m => U(m.digestBytes, 32 bits), U(0, 32 bits))(code.resize(3))
    val modeXof = modeKnown && modeDigest === 0
    val hdrErr = (modeXof && hdrLen === 0) ## !keepFull ## !modeKnown // errBadLength, errBadKeep, errBadMode

    s_axis.ready := state === State.HEADER || state === State.DATA || state === State.DRAIN

    switch(state) {
      is(State.HEADER) {
        when(s_axis.fire) {
          rate := modeRate
          suffix := modeSuffix
          outLen := Mux(modeXof, hdrLen, modeDigest)
          lane := 0
          padLane := 0
          err := hdrErr
          when(hdrErr =/= 0) {
            state := Mux(s_axis.last, State.ERROR, State.DRAIN)
          } elsewhen (s_axis.last) {
            state := State.PAD_SUFFIX // empty message: the whole padding in block 0
          } otherwise {
            state := State.DATA
          }
        }
      }
      is(State.DATA) {
        when(s_axis.fire) {
          when(!s_axis.last && !keepFull) {
            err := errBadKeep
            state := State.DRAIN
          } elsewhen (s_axis.last && !keepContiguous) {
            err := errBadKeep
            state := State.ERROR
          } otherwise {
            val partial = s_axis.last && kept =/= 8 // the suffix fits in this lane
            write.enable := True
            write.lane := lane
            write.value := (s_axis.data & keptMask) | Mux(s_axis.last, suffixAt, B(0, 64 bits)) |
              Mux(partial && lastLane, endBit, B(0, 64 bits))
            lane := lane + 1
            when(!s_axis.last) {
              when(lastLane) { isFinal := False; afterHandoff := Then.DATA; state := State.HANDOFF }
            } elsewhen (partial) {
              when(lastLane) { isFinal := True; afterHandoff := Then.HEADER; state := State.HANDOFF }
                .otherwise { state := State.PAD_END }
            } otherwise {
              // a full last lane: the suffix goes into the next lane, or into a new block
              when(lastLane) { isFinal := False; afterHandoff := Then.PAD; state := State.HANDOFF }
                .otherwise { padLane := lane + 1; state := State.PAD_SUFFIX }
            }
          }
        }
      }
      is(State.PAD_SUFFIX) {
        val padLast = padLane === rate - 1
        write.enable := True
        write.lane := padLane
        write.value := suffix.resize(64) | Mux(padLast, endBit, B(0, 64 bits))
        when(padLast) { isFinal := True; afterHandoff := Then.HEADER; state := State.HANDOFF }
          .otherwise { state := State.PAD_END }
      }
      is(State.PAD_END) {
        write.enable := True
        write.lane := rate - 1
        write.value := endBit
        isFinal := True
        afterHandoff := Then.HEADER
        state := State.HANDOFF
      }
      is(State.HANDOFF) {
        // a chained block waits for the previous permutation; a first block for the core to be free
        val chained = content === Content.CHAIN
        val go = Mux(chained, core.io.output.valid, content === Content.EMPTY || squeezeRelease)
        when(go) {
          core.io.input.valid := True
          useBuf := True
          when(chained) { useOut := True; core.io.output.ready := True }
        }
        when(go && core.io.input.ready) {
          write.clear := True
          content := Mux(isFinal, Content.FINAL, Content.CHAIN)
          when(isFinal) { sqRate := rate; sqLeft := outLen; sqLane := 0 }
          lane := 0
          padLane := 0
          switch(afterHandoff) {
            is(Then.DATA) { state := State.DATA }
            is(Then.PAD) { state := State.PAD_SUFFIX }
            is(Then.HEADER) { state := State.HEADER }
          }
        }
      }
      is(State.DRAIN) {
        write.clear := True
        when(s_axis.fire && s_axis.last) { state := State.ERROR }
      }
      is(State.ERROR) {
        write.clear := True
        when(content === Content.EMPTY && !errPending) {
          errPending := True
          errValue := err
          state := State.HEADER
        }
      }
    }
    // an aborted message's chained state is dropped as soon as its permutation finishes
    when((state === State.DRAIN || state === State.ERROR) && content === Content.CHAIN && core.io.output.valid) {
      core.io.output.ready := True
      content := Content.EMPTY
    }
  }
}
