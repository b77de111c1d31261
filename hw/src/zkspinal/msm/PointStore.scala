package zkspinal.msm

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** Card memory that keeps the points of an MSM between jobs.  A prover's bases are fixed across proofs: loaded
  * once, every later job streams only its scalars and the engine reads the points from memory, several channels
  * at once, faster than the point port delivers them.
  *
  * Layout: point i lives in channel i mod `channels`, as that channel's point j = i / channels; a point is the b
  * beats of its record (MsmRecord.point: b = 3 for n = 377 or 381, 2 for n = 254), and a channel packs
  * q = floor(64 / b) points into each 4 KiB page (21 or 32; the page's last 64 - q·b beats are unused), so a page is
  * one read burst of q·b beats and no burst crosses a 4 KiB boundary (AXI4).  Point j is at byte
  * (j / q) * 4096 + (j mod q) * 64b of its channel.
  *
  * Several point sets side by side (a prover's bases: Groth16 keeps four): block b is page b of every channel,
  * `block(n)` = channels · q points, and a set at block `base` (`io.base` of a load or a fetch) starts at page `base`
  * of every channel, its point i in channel i mod `channels` as that channel's point base·q + i / channels.  The
  * walkers start at page `base` instead of 0: no division, no multiplication.
  *
  * @param channels    memory channels, each an AXI4 master with 512-bit data (a power of two)
  * @param addressBits byte address width of a channel's own memory
  * @param readBuffer  beats of read data buffered per channel; a read burst is issued only into free buffer space,
  *                    so this bounds the reads in flight: it must cover the memory's latency at one beat per cycle
  * @param sharedSpace the channels are windows of one address space (the HBM's global addressing: every AXI port
  *                    reaches every pseudo-channel, no port offsets the addresses it forwards), channel c's at
  *                    c·2^strideBits: its ports carry that base in the bits above strideBits.  None: each channel is
  *                    a memory of its own from address 0 (a DDR4 controller per channel)
  */
case class PointStoreConfig(channels: Int = 4, addressBits: Int = 34, readBuffer: Int = 256,
                            sharedSpace: Option[PointStoreConfig.SharedSpace] = None) {
  import PointStoreConfig._
  require(channels >= 1 && channels <= 8 && (channels & (channels - 1)) == 0, "1, 2, 4 or 8 channels")
  require(addressBits >= 12 && addressBits <= 40, "a channel spans 4 KiB to 1 TiB")
  require(readBuffer >= 2 * pageBytes / beatBytes, s"the read buffer must hold two page bursts (${2 * pageBytes / beatBytes} beats)")
  sharedSpace.foreach(s => require(s.strideBits >= addressBits && s.strideBits <= 40,
    s"a channel's ${addressBits}-bit memory must fit its 2^${s.strideBits}-byte window of the shared space"))
  /** points of a block: page b of every channel (the unit of MsmAxis's BASE) */
  def block(n: Int): Int = pointsPerPage(n) * channels
  /** points of n-bit field elements the store holds (all channels): whole blocks, at most 2^32 - 1 (the count
    * register's range; a store larger than that loses its last blocks, so CAPACITY stays a multiple of BLOCK) */
  def capacity(n: Int): Long =
    ((BigInt(1) << (addressBits - 12)) * block(n)).min(BigInt(0xFFFFFFFFL) / block(n) * block(n)).toLong
  /** the byte address width of a channel's AXI4 port: its own memory's, or the shared space's up to the last window */
  val portAddressBits: Int = sharedSpace.fold(addressBits)(_.strideBits + log2Up(channels))
  /** the constant bits above a channel's own address on its port (c for channel c in a shared space, else none) */
  def base(c: Int): Option[Int] = sharedSpace.filter(_ => channels > 1).map(_ => c)
  val axi: Axi4Config = Axi4Config(addressWidth = portAddressBits, dataWidth = beatBytes * 8, idWidth = 1,
    useRegion = false, useLock = false, useCache = false, useQos = false, useProt = false)
}

object PointStoreConfig {
  /** channel c's memory at c·2^strideBits of one address space (see [[PointStoreConfig]]) */
  case class SharedSpace(strideBits: Int)

  /** a point record as the point stream carries it (MsmRecord.point): the memory's beat is the stream's */
  val beatBytes: Int = MsmRecord.point.beatBytes
  def beatsPerPoint(n: Int): Int = MsmRecord.point.beats(n)
  val pageBytes = 4096
  def pointsPerPage(n: Int): Int = pageBytes / (beatBytes * beatsPerPoint(n))
  def pageBeats(n: Int): Int = pointsPerPage(n) * beatsPerPoint(n)
}

/** Writes points 0.. of a load into the channels and reads points 0..count-1 back in order, both from block `base`
  * on (the layout of [[PointStoreConfig]]).  One operation at a time: `load` or `fetch` (a pulse with `count` and
  * `base`) starts one, `abort` ends it.  The caller keeps an operation inside the store (MsmAxis refuses
  * base·block + count > capacity): a page index past a channel's memory would wrap.  AXI4 has no way to cancel a
  * transaction: a write burst already begun is completed, and the responses of transactions in flight at an abort
  * are counted and dropped as they arrive (one ID per channel, so they arrive first, in order), so a new operation
  * may start at once. */
class PointStore(sc: PointStoreConfig, n: Int) extends Component {
  import PointStoreConfig.{beatBytes, pageBytes}
  private val C = sc.channels
  private val beatBits = beatBytes * 8
  private val pointBits = MsmRecord.qt.end(n)
  private val beatsPerPoint = PointStoreConfig.beatsPerPoint(n)
  private val pointsPerPage = PointStoreConfig.pointsPerPage(n)
  private val pageBeats = PointStoreConfig.pageBeats(n)
  require(pointBits <= beatsPerPoint * beatBits)
  val io = new Bundle {
    val load = in(Bool())
    val fetch = in(Bool())
    val count = in(UInt(32 bits))
    /** the first page of every channel the operation writes or reads (the set's block), read with `load`/`fetch`: a
      * page of the channel's own memory, below a shared space's window bits */
    val base = in(UInt(sc.addressBits - 12 bits))
    val abort = in(Bool())
    /** a load's points, in index order */
    val store = slave(Stream(Bits(pointBits bits)))
    /** a fetch's points, in index order */
    val points = master(Stream(Bits(pointBits bits)))
    /** points of the current load written with an OKAY response */
    val written = out(UInt(32 bits))
    /** a response other than OKAY for the current operation (a pulse) */
    val memError = out(Bool())
    val mem = Vec(master(Axi4(sc.axi)), C)
  }

  private val start = io.load || io.fetch || io.abort
  /** byte address of a channel's next point in a load, walked in order: page, slot and byte offset counters
    * instead of a division by 21 (and no multiplication by 192) */
  private class Walker {
    val page = Reg(UInt(sc.addressBits - 12 bits)) init (0)
    val slot = Reg(UInt(log2Up(pointsPerPage) bits)) init (0)
    val offset = Reg(UInt(12 bits)) init (0)
    def address: UInt = (page ## offset).asUInt
    def reset(first: UInt): Unit = { page := first; slot := 0; offset := 0 }
    def next(): Unit = when(slot === pointsPerPage - 1) {
      slot := 0; offset := 0; page := page + 1
    } otherwise {
      slot := slot + 1; offset := offset + beatsPerPoint * beatBytes
    }
  }

  // ---- load: point i to channel i mod C, one 3-beat burst each
  private val loadTurn = Reg(UInt(log2Up(C) max 1 bits)) init (0)
  private val toChannel = StreamDemux(io.store, if (C == 1) U(0) else loadTurn, C)
  when(io.store.fire) { loadTurn := loadTurn + 1 } // wraps at C (a power of two)
  when(start) { loadTurn := 0 }
  // one counter of every channel's OKAY responses (a register: MsmAxis compares it with COUNT and reports it)
  private val acks = Bits(C bits)
  private val written = Reg(UInt(32 bits)) init (0)
  written := Mux(start, U(0, 32 bits), written + CountOne(acks))
  io.written := written
  private val errors = Bits(2 * C bits)

  private class Channel(c: Int) extends Area {
    val m = io.mem(c)
    /** a channel address on its port: in a shared space with the window's base above it (constant bits, no adder) */
    def onPort(a: UInt): UInt = sc.base(c).fold(a.resize(sc.portAddressBits))(k =>
      U(BigInt(k) << sc.sharedSpace.get.strideBits, sc.portAddressBits bits) | a.resize(sc.portAddressBits))
    val queue = StreamFifo(Bits(pointBits bits), 2)
    queue.io.push << toChannel(c)
    queue.io.flush := start
    val walker = new Walker
    // the burst in progress: once its first beat or address is out it completes, abort or not
    val holding = RegInit(False)
    val data = Reg(Bits(beatsPerPoint * beatBits bits))
    val addr = Reg(UInt(sc.addressBits bits))
    val awDone = RegInit(False)
    val wBeat = Reg(UInt(log2Up(beatsPerPoint + 1) bits)) init (0)
    queue.io.pop.ready := !holding
    when(queue.io.pop.fire) {
      holding := True; awDone := False; wBeat := 0
      data := queue.io.pop.payload.resized
      addr := walker.address
      walker.next()
    }
    when(io.load) { walker.reset(io.base) }
    m.aw.valid := holding && !awDone
    m.aw.addr := onPort(addr)
    m.aw.id := 0
    m.aw.len := beatsPerPoint - 1
    m.aw.setSize(U(log2Up(beatBytes)))
    m.aw.setBurstINCR()
    when(m.aw.fire) { awDone := True }
    m.w.valid := holding && wBeat =/= beatsPerPoint
    m.w.data := data.subdivideIn(beatsPerPoint slices)(wBeat.resized)
    m.w.strb.setAll()
    m.w.last := wBeat === beatsPerPoint - 1
    when(m.w.fire) { wBeat := wBeat + 1 }
    when(holding && (awDone || m.aw.fire) && (wBeat === beatsPerPoint || (m.w.fire && m.w.last))) {
      holding := False
    }
    // write responses: those of bursts issued before the last start are dropped
    val bOpen = Reg(UInt(16 bits)) init (0) // bursts issued, response not yet in
    val bDrop = Reg(UInt(16 bits)) init (0)
    m.b.ready := True
    bOpen := Tally.step(bOpen, m.aw.fire, m.b.fire)
    val stale = bDrop =/= 0
    when(m.b.fire && stale) { bDrop := bDrop - 1 }
    acks(c) := m.b.fire && !stale && m.b.resp === 0
    errors(2 * c) := m.b.fire && !stale && m.b.resp =/= 0
    // the responses still to come: those open after this cycle, and that of a burst begun whose address is not out
    // yet (its address goes out this cycle or later: either way one more)
    when(start) { bDrop := Tally.step(bOpen, holding && !awDone, m.b.fire) }

    // ---- fetch: page bursts into the read buffer, only into free space.  Every counter here crosses one carry
    // chain a cycle: the next burst's size is read from `left` one cycle later into registers, so AR waits the cycle
    // after a start or a burst (a burst is at most a page, 64 beats, at least one point: the buffer of at least 2 pages hides it)
    val left = Reg(UInt(32 bits)) init (0) // points of this channel still to request
    val page = Reg(UInt(sc.addressBits - 12 bits)) init (0) // a fetch's bursts are whole pages, but its last
    val settling = RegNext(start || m.ar.fire) init (True)
    val more = RegNext(left =/= 0) init (False)
    // the burst: min(left, q) points, from a table of the low bits when the high ones are zero (no compare)
    private val low = log2Up(pointsPerPage)
    private def table(f: Int => Int): UInt = {
      val bits = log2Up(f(pointsPerPage) + 1)
      val t = Vec((0 until (1 << low)).map(k => U(f(k min pointsPerPage), bits bits)))
      Mux(left(31 downto low).orR, U(f(pointsPerPage), bits bits), t(left(low - 1 downto 0)))
    }
    val burstPoints = RegNext(table(k => k))
    val burstBeats = RegNext(table(_ * beatsPerPoint))
    val burstLen = RegNext(table(k => (k * beatsPerPoint - 1) max 0)) // burstBeats - 1, AXI's len
    // read-buffer beats neither filled nor requested, less a page burst: a burst may go while this is not negative
    // (its top bit); a beat popped returns its place a cycle later
    val slackWidth = log2Up(sc.readBuffer + 1) + 1
    val slack = Reg(UInt(slackWidth bits)) init (sc.readBuffer - pageBeats)
    val buffer = StreamFifo(Bits(beatBits bits), sc.readBuffer)
    val popped = RegNext(buffer.io.pop.fire && !start) init (False)
    m.ar.valid := more && !settling && !slack.msb
    m.ar.addr := onPort((page ## U(0, 12 bits)).asUInt)
    m.ar.id := 0
    m.ar.len := burstLen.resized
    m.ar.setSize(U(log2Up(beatBytes)))
    m.ar.setBurstINCR()
    slack := Tally.subBy(slack, m.ar.fire, burstBeats, burstLen, popped)
    val rOpen = Reg(UInt(24 bits)) init (0) // beats requested, not yet arrived
    val rDrop = Reg(UInt(24 bits)) init (0)
    val rOpenNext = Tally.addBy(rOpen, m.ar.fire, burstBeats, burstLen, m.r.fire)
    rOpen := rOpenNext
    m.r.ready := True // a current beat always has its reserved place
    val rStale = rDrop =/= 0
    buffer.io.push.valid := m.r.fire && !rStale
    buffer.io.push.payload := m.r.data
    buffer.io.flush := start
    when(m.r.fire && rStale) { rDrop := rDrop - 1 }
    errors(2 * c + 1) := m.r.fire && !rStale && m.r.resp =/= 0
    when(m.ar.fire) {
      left := left - burstPoints
      page := page + 1
    }
    when(start) {
      slack := U(sc.readBuffer - pageBeats, slackWidth bits)
      rDrop := rOpenNext
      page := io.base
      // channel c holds points c, c + C, ...: ceil((count - c) / C) of them, 0 when count <= c (one adder)
      left := Mux(io.fetch, ((io.count +^ (C - 1 - c)) >> log2Up(C)).resize(32), U(0, 32 bits))
    }
    val points: Stream[Bits] = gather(buffer.io.pop, beatsPerPoint, start)
  }

  /** `n` beats into one word, the first beat lowest; `flush` drops a word begun (StreamWidthAdapter cannot be
    * flushed, and an abort can come between the beats of a point) */
  private def gather(beats: Stream[Bits], n: Int, flush: Bool): Stream[Bits] = {
    val w = beats.payload.getWidth
    val taken = Reg(UInt(log2Up(n) bits)) init (0)
    val held = Vec.fill(n - 1)(Reg(Bits(w bits)))
    val word = Stream(Bits(n * w bits))
    val lastBeat = taken === n - 1
    word.valid := beats.valid && lastBeat
    word.payload := beats.payload ## held.reverse.reduce(_ ## _)
    beats.ready := !lastBeat || word.ready
    when(beats.fire) {
      when(!lastBeat) { held(taken.resized) := beats.payload }
      taken := Mux(lastBeat, U(0), taken + 1)
    }
    when(flush) { taken := 0 }
    word
  }
  private val channels = (0 until C).map(c => new Channel(c).setName(s"channel$c"))
  io.memError := errors.orR

  // ---- fetched points in index order: point i from channel i mod C
  private val fetchTurn = Reg(UInt(log2Up(C) max 1 bits)) init (0)
  private val merged = StreamMux(if (C == 1) U(0) else fetchTurn, channels.map(_.points))
  io.points << merged.translateWith(merged.payload.resize(pointBits))
  when(io.points.fire) { fetchTurn := fetchTurn + 1 }
  when(start) { fetchTurn := 0 }
}
