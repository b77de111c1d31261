"""Testbench for InbandLast (hw/src/zkspinal/system/InbandLast.scala): writes as XDMA makes them (TLAST only at the
end of each write) carrying several frames marked by the in-band flag bit; random valid/ready gaps on both ports;
frames out compared with the model below; the partial-beat and unflagged-write rules; the two counters."""
from __future__ import annotations

import os

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiStreamFrame

from zkspinal.tb.base import CLOCK_NS, Tb

P = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001  # BLS12-381 Fr


def info() -> dict:
    from zkspinal.sim.simrun import manifest

    return manifest()[os.environ["ZK_TOP"]]


def model(writes: list, nbytes: int, flag: int) -> tuple[list[bytes], int]:
    """The frames InbandLast emits for these writes (bytes, or (bytes, per-byte TKEEP) for sparse beats), and the
    partial-beat count.  Bytes with TKEEP 0 do not reach the sink (cocotbext compacts frames)."""
    frames, cur, partial = [], bytearray(), 0
    fbyte, fmask = flag // 8, 1 << (flag % 8)
    for w in writes:
        data, keep = (w, [1] * len(w)) if isinstance(w, bytes) else w
        starts = list(range(0, len(data), nbytes))
        for k, i in enumerate(starts):
            b, kb = bytearray(data[i:i + nbytes]), keep[i:i + nbytes]
            flagged = len(b) > fbyte and b[fbyte] & fmask
            if len(b) > fbyte:
                b[fbyte] &= ~fmask & 0xFF
            cur += bytes(x for x, kk in zip(b, kb) if kk)
            short = len(b) < nbytes or not all(kb)
            partial += short
            if flagged or short or k == len(starts) - 1:
                frames.append(bytes(cur))
                cur = bytearray()
    return frames, partial


class LastTb(Tb):
    def __init__(self, dut, throttle: float):
        super().__init__(dut, throttle)
        meta = info()
        self.nbytes, self.flag = meta["data_bytes"], meta["flag_bit"]
        self.src = self.axis_source("s_axis")
        self.sink = self.axis_sink("m_axis")

    def element(self) -> int:
        return self.r.choice([0, 1, P - 1, P, (1 << self.flag) - 1, self.r.randrange(P), self.r.getrandbits(self.flag)])

    def frame(self, n: int) -> bytes:
        """n field elements, little-endian, the flag bit set on the last one (as sw/lib/zkfmt packs them)."""
        els = [self.element() for _ in range(n)]
        els[-1] |= 1 << self.flag
        return b"".join(e.to_bytes(self.nbytes, "little") for e in els)

    async def run(self, writes: list[bytes]):
        expected, partial = model(writes, self.nbytes, self.flag)
        frames0 = int(self.dut.status_frames.value)
        partial0 = int(self.dut.status_partial.value)
        for w in writes:
            await self.src.send(AxiStreamFrame(w) if isinstance(w, bytes) else AxiStreamFrame(w[0], tkeep=w[1]))
        for i, want in enumerate(expected):
            got = await self.sink.recv()
            assert bytes(got.tdata) == want, f"frame {i} of {len(expected)}: {bytes(got.tdata).hex()} != {want.hex()}"
        await ClockCycles(self.dut.aclk, 4)
        assert self.sink.empty()
        assert int(self.dut.status_frames.value) - frames0 == len(expected)
        assert int(self.dut.status_partial.value) - partial0 == partial


async def start(dut, throttle: float) -> LastTb:
    tb = LastTb(dut, throttle)
    await tb.start()
    return tb


@cocotb.test()
async def cocotb_batched_frames(dut):
    """Many frames per write (1..12 elements each), several writes, random gaps on both ports."""
    tb = await start(dut, 0.3)
    for _ in range(6):
        writes = [b"".join(tb.frame(tb.r.randint(1, 12)) for _ in range(tb.r.randint(1, 8)))
                  for _ in range(tb.r.randint(1, 4))]
        await tb.run(writes)


@cocotb.test()
async def cocotb_unflagged_and_split(dut):
    """A host without flags (one frame per write: XDMA's TLAST ends it) and a frame cut by the end of a write
    (ends there: the core sees a short frame)."""
    tb = await start(dut, 0.2)
    plain = [b"".join(tb.element().to_bytes(tb.nbytes, "little") for _ in range(tb.r.randint(1, 5))) for _ in range(5)]
    await tb.run(plain)
    cut = tb.frame(6)
    await tb.run([cut[:2 * tb.nbytes], cut[2 * tb.nbytes:]])


@cocotb.test()
async def cocotb_partial_beats(dut):
    """Malformed input: a write whose length is not a multiple of the beat ends its frame at the partial beat with
    its TKEEP, counts in status_partial, and the next frame is framed as usual."""
    tb = await start(dut, 0.3)
    for cut in (1, tb.nbytes - 1, tb.nbytes // 2):
        good = tb.frame(3)
        await tb.run([tb.frame(2) + good[:-cut], tb.frame(4)])
    # a sparse beat in the middle of a write (TKEEP with zeros; XDMA does not make these, an AXI4-Stream source
    # may): it ends its frame, the beats after it are framed by their flags
    for holes in (1, tb.nbytes // 2):
        data = tb.frame(3) + tb.frame(2)
        keep = [1] * len(data)
        for i in range(tb.nbytes - holes, tb.nbytes):   # the upper bytes of the first beat, flag byte included
            keep[i] = 0
        await tb.run([(data, keep)])


@cocotb.test()
async def cocotb_rate(dut):
    """Throughput with both ports always ready: output beats per cycle over a long batched write, from the sink's
    frame times (for the benchmark; 1 in steady state: one register stage, no bubbles)."""
    tb = await start(dut, 0.0)
    writes = [b"".join(tb.frame(3) for _ in range(200))]
    expected, _ = model(writes, tb.nbytes, tb.flag)
    await tb.src.send(AxiStreamFrame(writes[0]))
    got = [await tb.sink.recv() for _ in expected]
    assert [bytes(g.tdata) for g in got] == expected
    beats = len(writes[0]) // tb.nbytes
    from cocotb.utils import get_sim_steps

    period = get_sim_steps(CLOCK_NS, "ns")  # the testbench clock; frame times are in simulator steps
    cycles = (got[-1].sim_time_end - got[0].sim_time_start) // period + 1
    rate = beats / cycles
    print(f"InbandLast rate: {rate:.3f} beats/cycle ({beats} beats in {cycles} cycles)")
    assert rate > 0.95, f"{rate:.3f} beats per cycle"
