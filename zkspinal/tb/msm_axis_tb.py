"""Testbench for MsmAxis (hw/src/zkspinal/msm/MsmAxis.scala): MSM jobs through the AXI4-Lite registers and the three
AXI4-Stream ports (cocotbext-axi, random pauses on every port), bucket read-out (partial buckets merged) against
reference_model.msm.accumulate_buckets as curve points (the engine reorders a busy bucket's additions and spreads
hot buckets over partial buckets), the final MSM by
host post-processing against double-and-add, and the bad-input cases (error bits, no hang, soft reset, next job).

Environment: ZK_CASES  comma list of case names (CASES below) run in order on one engine without reset
             ZK_N      points per random job;  ZK_THROTTLE  pause probability on every port
             ZK_MSM_RESULTS  file to which post-processed jobs append {points, scalars, result} (JSON lines)
             ZK_MSM_OUT where the `run_job` test writes its result (the rtl engine of the CLI and the benchmark)
             ZK_MSM_IN  JSON job for `run_job`: {"scalars": [...], "records": [[qm, qp, qt], ...]}
"""
from __future__ import annotations

import contextlib
import json
import os
import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import AxiStreamFrame

from reference_model import contract as C
from reference_model.msm_data import scalar_set
from reference_model import msm as M
from reference_model import msm_formats as MF
from reference_model.curves import adder_of
from reference_model.msm_data import generate
from zkspinal.sim.simrun import top_info
from zkspinal.tb.base import Tb

# the top's curve and its adder (twisted Edwards for BLS12-377, XYZZ for BN254): its records, buckets and model
ADDER = adder_of(top_info(os.environ["ZK_TOP"])["curve"])
PB = MF.records_of(ADDER).point_bytes      # a point record's bytes on this curve (MsmRecord.point)


def pack_points(records) -> bytes:
    return MF.pack_point_records(records, ADDER)


def unpack_buckets(layout, data: bytes):
    return MF.unpack_bucket_records(layout, data, ADDER.curve.p, ADDER)


def model_buckets(layout, records, scalars):
    return M.accumulate_buckets(layout, records, scalars, ADDER)


def same_buckets(a, b) -> bool:
    return M.same_buckets(a, b, ADDER)

# the register map (MsmAxisRegs), CONTROL's read bits (MsmStatus) and ERROR's bits (MsmErrors)
CONTROL, ERROR, COUNT, TIMEOUT, CYCLES, BUSY, ACC_CYCLES = (
    C.MSM_CONTROL, C.MSM_ERROR, C.MSM_COUNT, C.MSM_TIMEOUT, C.MSM_CYCLES, C.MSM_BUSY, C.MSM_ACC_CYCLES)
STALLS, DEFERRED, STARVED, ERROR_INDEX, INFO, PHASE, CONSUMED, FRAMING = (
    C.MSM_STALLS, C.MSM_DEFERRED, C.MSM_STARVED, C.MSM_ERROR_INDEX, C.MSM_INFO, C.MSM_PHASE, C.MSM_CONSUMED,
    C.MSM_FRAMING)
ADDERS, PARTIALS, SPILLED = C.MSM_ADDERS, C.MSM_PARTIALS, C.MSM_SPILLED
SOURCE, STORED, CAPACITY = C.MSM_SOURCE, C.MSM_STORED, C.MSM_CAPACITY
BASE, BLOCK, STORED_BASE = C.MSM_BASE, C.MSM_BLOCK, C.MSM_STORED_BASE


def adder_busy(a: int) -> int:
    """BUSY of adder a (lo; hi at + 4)"""
    return C.MSM_ADDER_BUSY + 8 * a


ST_BUSY, ST_DONE, ST_ERROR, ST_IDLE = C.MSM_STATUS_BUSY, C.MSM_STATUS_DONE, C.MSM_STATUS_ERROR, C.MSM_STATUS_IDLE
E_RANGE, E_SCALARS_SHORT, E_SCALARS_LONG, E_POINTS_SHORT, E_POINTS_LONG, E_PADDING, E_TIMEOUT, E_REFUSED = (
    C.MSM_ERROR_CODES[k][0] for k in ("scalar_range", "scalars_short", "scalars_long", "points_short", "points_long",
                                      "padding", "timeout", "refused"))
E_MEMORY, E_STRAY_POINTS = C.MSM_ERROR_CODES["memory"][0], C.MSM_ERROR_CODES["stray_points"][0]


class MsmTb(Tb):
    def __init__(self, dut, throttle: float = 0.0):
        super().__init__(dut, throttle)
        self.info = top_info(os.environ["ZK_TOP"])
        self.layout = M.WindowLayout.of_top(self.info)
        self.scalars = self.axis_source("s_axis_scalars")
        self.points = self.axis_source("s_axis_points")
        self.sink = self.axis_sink("m_axis_buckets")
        # the point store's memory channels (cocotbext-axi RAMs; a real card: DDR4 controllers)
        store = self.info.get("point_store")
        # channels in windows of one address space (the C1100's HBM layout): channel c's addresses carry c * 2^window
        self.window = store.get("window_bits", 0) if store else 0
        self.rams = [self.axi_ram(f"m_axi_mem{c}", 1 << store.get("port_address_bits", store["address_bits"]))
                     for c in range(store["channels"])] if store else []
        self.lite()

    async def counters(self) -> dict:
        adders = await self.rd(ADDERS)
        return {"cycles": await self.rd64(CYCLES), "busy": await self.rd64(BUSY),
                "acc_cycles": await self.rd64(ACC_CYCLES), "stalls": await self.rd(STALLS),
                "deferred": await self.rd(DEFERRED), "starved": await self.rd(STARVED),
                "spilled": await self.rd(SPILLED), "partials": await self.rd(PARTIALS),
                "adder_busy": [await self.rd64(adder_busy(a)) for a in range(adders)]}

    async def wait_status(self, mask: int, max_cycles: int, poll: int = 32) -> int:
        waited = 0
        while True:
            status = await self.rd(CONTROL)
            if status & mask:
                return status
            assert waited <= max_cycles, f"no status {mask:#x} after {waited} cycles (CONTROL {status:#x}): a hang"
            await ClockCycles(self.dut.aclk, poll)
            waited += poll

    def max_cycles(self, n: int) -> int:
        """Worst case: every addition waits for the previous one of its window (all scalars equal)."""
        return (n + 4) * (self.info["latency"] + 8) * 2 + self.layout.total_buckets * 12 + 4096 * 2 + 20_000

    async def run(self, scalars, records, count: int | None = None, scalar_bytes: bytes | None = None,
                  point_bytes: bytes | None = None, expect_error: int = 0, chunk: int = 0) -> dict:
        """One job: COUNT, start, both streams, read-out; returns the counters and the buckets (or error).
        chunk > 0: each stream goes as packets of `chunk` elements, tlast on each (XDMA writes), interleaved."""
        n = len(scalars) if count is None else count
        await self.wr(COUNT, n)
        await self.wr(CONTROL, 1)
        sb = MF.scalar_stream(scalars) if scalar_bytes is None else scalar_bytes
        pb = pack_points(records) if point_bytes is None else point_bytes
        if chunk:
            sstep, pstep = chunk * MF.SCALAR_BYTES, chunk * PB
            for k in range(0, max(len(sb) // MF.SCALAR_BYTES, len(pb) // PB), chunk):
                if sb[k * MF.SCALAR_BYTES:k * MF.SCALAR_BYTES + sstep]:
                    await self.scalars.send(AxiStreamFrame(sb[k * MF.SCALAR_BYTES:k * MF.SCALAR_BYTES + sstep]))
                if pb[k * PB:k * PB + pstep]:
                    await self.points.send(AxiStreamFrame(pb[k * PB:k * PB + pstep]))
        else:
            if sb:
                await self.scalars.send(AxiStreamFrame(sb))
            if pb:
                await self.points.send(AxiStreamFrame(pb))
        if expect_error:
            status = await self.wait_status(ST_ERROR, self.max_cycles(n))
            err = await self.rd(ERROR)
            assert err & expect_error, f"expected error {expect_error:#x}, ERROR = {err:#x}"
            assert status & ST_IDLE and not status & ST_BUSY, f"CONTROL {status:#x} after an error"
            return {"error": err, "error_index": await self.rd(ERROR_INDEX)}
        frame = await with_timeout(self.sink.recv(), self.max_cycles(n) * 4, "ns")
        status = await self.wait_status(ST_DONE, 1000)
        assert status == ST_DONE | ST_IDLE, f"CONTROL {status:#x} after a job"
        assert await self.rd(ERROR) == 0
        assert await self.rd(CONSUMED) == n
        out = await self.counters()
        out["buckets"] = unpack_buckets(self.layout, bytes(frame.tdata))
        return out

    async def load(self, records, count: int | None = None, point_bytes: bytes | None = None,
                   expect_error: int = 0, base: int | None = None) -> dict:
        """A load into the point store: COUNT, CONTROL = 4, the point stream; waits until idle (or the error).
        base: BASE written first (None: as it is)."""
        n = len(records) if count is None else count
        if base is not None:
            await self.wr(BASE, base)
        await self.wr(COUNT, n)
        await self.wr(CONTROL, 4)
        pb = pack_points(records) if point_bytes is None else point_bytes
        if pb:
            await self.points.send(AxiStreamFrame(pb))
        limit = 64 * n + 20_000
        if expect_error:
            await self.wait_status(ST_ERROR, limit)
            err = await self.rd(ERROR)
            assert err & expect_error, f"load: expected error {expect_error:#x}, ERROR = {err:#x}"
            assert await self.rd(STORED) == 0, "STORED after a failed load"
            return {"error": err, "error_index": await self.rd(ERROR_INDEX)}
        status = await self.wait_status(ST_IDLE, limit)
        assert status == ST_IDLE | (status & ST_DONE), f"CONTROL {status:#x} after a load"
        assert await self.rd(ERROR) == 0
        assert await self.rd(STORED) == n
        assert await self.rd(STORED_BASE) == await self.rd(BASE), "STORED_BASE after a load"
        return {}

    async def run_resident(self, scalars, expect_error: int = 0, base: int | None = None) -> dict:
        """A job on points 0..len(scalars)-1 of the set at BASE: SOURCE = 1, COUNT, start, only the scalar stream.
        base: BASE written first (None: as it is)."""
        if base is not None:
            await self.wr(BASE, base)
        await self.wr(SOURCE, 1)
        try:
            return await self.run(scalars, [], point_bytes=b"", expect_error=expect_error)
        finally:
            await self.wr(SOURCE, 0)

    def stored_record(self, i: int, base: int = 0) -> bytes:
        """Point i's record of the set at block `base` as the store holds it (msm_formats.store_location), at its
        channel's window in a shared address space"""
        c, addr = MF.store_location(i, len(self.rams), ADDER, base)
        return self.rams[c].read((c << self.window if self.window else 0) + addr, PB)

    async def soft_reset(self):
        """After an error the engine drains both inputs: let the sources finish, then reset."""
        for _ in range(20_000):
            if self.scalars.idle() and self.points.idle():
                break
            await RisingEdge(self.dut.aclk)
        assert self.scalars.idle() and self.points.idle(), "inputs not drained after an error"
        await ClockCycles(self.dut.aclk, 4)
        await self.wr(CONTROL, 2)
        await ClockCycles(self.dut.aclk, 4)
        assert await self.rd(ERROR) == 0
        assert await self.rd(CONTROL) & ST_IDLE


# ---- job contents ----------------------------------------------------------------------------------------------
_POINTS: dict = {}


def points_for(n: int, seed: int):
    key = (n, seed)
    if key not in _POINTS:
        npow = max(0, (n - 1).bit_length())
        pts, _ = generate(npow, seed, curve=ADDER.curve)
        pre = M.precompute_points(pts[:n], adder=ADDER)
        _POINTS[key] = (pts[:n], pre.records)
    return _POINTS[key]


POINT_SETS = ("doubling", "opposite", "infinity")


def point_set(kind: str, n: int, seed: int):
    """Adversarial points (with the scalar set `equal`, every bucket's second addition is a doubling, or P and -P
    cancel): doubling = one point n times, opposite = P and -P alternating, infinity = every third point at
    infinity.  (points, records)"""
    pts, _ = points_for(n, seed)
    G = ADDER.curve
    if kind == "doubling":
        pts = [pts[0]] * n
    elif kind == "opposite":
        pts = [pts[0] if i % 2 == 0 else G.neg(pts[0]) for i in range(n)]
    elif kind == "infinity":
        pts = [None if i % 3 == 1 else P for i, P in enumerate(pts)]
    else:
        raise ValueError(kind)
    return pts, M.precompute_points(pts, adder=ADDER).records


async def check_job(tb: MsmTb, name: str, n: int, r: random.Random, post: bool = False, loaded=None,
                    points=None, base: int | None = None) -> dict:
    """One job of scalar set `name` on n points, checked against the model; loaded = (points, records) in the point
    store: a resident job on the first n of them (the set at block `base`: BASE written first unless None);
    points = (points, records) to stream instead of random ones."""
    if points is not None:
        pts, records = points
        scalars = scalar_set(name, tb.layout, n, r)
        res = await tb.run(scalars, records)
    elif loaded is None:
        pts, records = points_for(n, r.getrandbits(16))
        scalars = scalar_set(name, tb.layout, n, r)
        res = await tb.run(scalars, records)
    else:
        pts, records = loaded[0][:n], loaded[1][:n]
        scalars = scalar_set(name, tb.layout, n, r)
        res = await tb.run_resident(scalars, base=base)
    want = model_buckets(tb.layout, records, scalars)
    for j, (got_w, want_w) in enumerate(zip(res["buckets"], want)):
        for k, (g, w) in enumerate(zip(got_w, want_w), start=1):
            assert M.buckets_equivalent(g, w, ADDER), f"{name}: window {j} bucket {k}: got {g}, want the point of {w}"
    if post:
        got = M.postprocess(tb.layout, res["buckets"], pts, scalars, adder=ADDER)
        assert got == M.msm_double_and_add(pts, scalars, ADDER.curve), f"{name}: MSM result differs from double-and-add"
        if os.environ.get("ZK_MSM_RESULTS"):  # for the arkworks comparison in tests/test_msm_axis.py
            with open(os.environ["ZK_MSM_RESULTS"], "a") as f:
                f.write(json.dumps({"points": [[str(c) for c in P] if P else None for P in pts],
                                    "scalars": [str(s) for s in scalars], "result": M.format_result(got)}) + "\n")
    busy = res["busy"] / max(1, res["acc_cycles"])
    tb.dut._log.info(f"{name} n={n}: cycles {res['cycles']} acc {res['acc_cycles']} busy {res['busy']} "
                     f"({busy:.1%}) stalls {res['stalls']} deferred {res['deferred']} spilled {res['spilled']} "
                     f"starved {res['starved']}")
    scalars = M.effective_scalars(scalars, records, ADDER)   # the point at infinity's digits dropped (XYZZ)
    adds = sum(1 for s in scalars for d in tb.layout.digits(s) if d)
    assert res["busy"] == adds, f"{name}: BUSY {res['busy']} != {adds} additions"
    # each adder's BUSY is the additions of its windows (M.adder_of: shared low windows by point index)
    A = len(res["adder_busy"])
    assert A == tb.info["adders"], f"ADDERS reads {A}, the manifest says {tb.info['adders']}"
    per = M.additions_per_adder(tb.layout, scalars, A, tb.info["shared_windows"])
    assert res["adder_busy"] == per, f"{name}: per-adder BUSY {res['adder_busy']} != {per}"
    assert res["partials"] == tb.layout.partials, f"PARTIALS reads {res['partials']}, the manifest says {tb.layout.partials}"
    assert res["spilled"] <= res["busy"]
    return res


# ---- bad input --------------------------------------------------------------------------------------------------
async def bad_inputs(tb: MsmTb, r: random.Random):
    n = 6
    pts, records = points_for(n, 7)
    good = scalar_set("random", tb.layout, n, r)
    bound = tb.layout.order
    # a scalar >= r (the bound); then one with bits above 253
    for badv in (bound, (1 << 256) - 1):
        s = list(good)
        s[3] = badv
        res = await tb.run(s, records, expect_error=E_RANGE)
        assert res["error_index"] == 3, res
        await tb.soft_reset()
    # scalar stream ends early (tlast on the beat of scalar 1 of 6)
    res = await tb.run(good, records, scalar_bytes=MF.scalar_stream(good[:2]), expect_error=E_SCALARS_SHORT)
    await tb.soft_reset()
    # scalar stream longer than COUNT (no tlast on the beat holding scalar COUNT-1)
    res = await tb.run(good, records, count=3, scalar_bytes=MF.scalar_stream(good), point_bytes=pack_points(records[:3]),
                       expect_error=E_SCALARS_LONG)
    await tb.soft_reset()
    # point stream ends early
    res = await tb.run(good, records, point_bytes=pack_points(records[:4]), expect_error=E_POINTS_SHORT)
    await tb.soft_reset()
    # point stream longer than COUNT
    res = await tb.run(good, records, count=5, scalar_bytes=MF.scalar_stream(good[:5]), expect_error=E_POINTS_LONG)
    await tb.soft_reset()
    # non-zero padding bits in a point record
    pb = bytearray(pack_points(records))
    pb[3 * PB - 2] = 0x40   # record 2, a bit far above 3n
    res = await tb.run(good, records, point_bytes=bytes(pb), expect_error=E_PADDING)
    assert res["error_index"] == 2, res
    await tb.soft_reset()
    # start while busy is refused and flagged, the running job is unharmed
    await tb.wr(COUNT, n)
    await tb.wr(CONTROL, 1)
    await tb.wr(CONTROL, 1)
    assert await tb.rd(ERROR) & E_REFUSED
    await tb.scalars.send(AxiStreamFrame(MF.scalar_stream(good)))
    await tb.points.send(AxiStreamFrame(pack_points(records)))
    frame = await with_timeout(tb.sink.recv(), tb.max_cycles(n) * 4, "ns")
    got = unpack_buckets(tb.layout, bytes(frame.tdata))
    assert same_buckets(got, model_buckets(tb.layout, records, good)), "job after a refused start"
    await tb.wait_status(ST_DONE, 1000)


async def packet_framing(tb: MsmTb, r: random.Random):
    """Streams written in chunks (tlast on every chunk, as XDMA sends them): an error without FRAMING, the exact
    buckets with it; with FRAMING a stream that stops early still ends in the watchdog."""
    n = 10
    _, records = points_for(n, 11)
    good = scalar_set("random", tb.layout, n, r)
    await tb.run(good, records, chunk=4, expect_error=E_SCALARS_SHORT | E_POINTS_SHORT)
    await tb.soft_reset()
    await tb.wr(FRAMING, 1)
    assert await tb.rd(FRAMING) == 1
    res = await tb.run(good, records, chunk=4)
    assert same_buckets(res["buckets"], model_buckets(tb.layout, records, good)), "chunked job"
    res = await tb.run(good, records, chunk=2)
    assert same_buckets(res["buckets"], model_buckets(tb.layout, records, good)), "chunked job, 2 per packet"
    await tb.wr(TIMEOUT, 2000)
    await tb.run(good, records, point_bytes=pack_points(records[:6]), expect_error=E_TIMEOUT)
    await tb.soft_reset()
    await tb.wr(TIMEOUT, 1 << 24)
    await tb.wr(FRAMING, 0)


async def watchdog_stopped_stream(tb: MsmTb, r: random.Random):
    """The scalar stream never comes (a DMA that stopped, no tlast to see): only the watchdog can end the job."""
    n = 5
    _, records = points_for(n, 9)
    await tb.wr(TIMEOUT, 2000)
    await tb.wr(COUNT, n)
    await tb.wr(CONTROL, 1)
    await tb.points.send(AxiStreamFrame(pack_points(records)))
    await tb.wait_status(ST_ERROR, 20_000)
    err = await tb.rd(ERROR)
    assert err == E_TIMEOUT, f"ERROR {err:#x}"
    assert await tb.rd(ERROR_INDEX) == 0
    await tb.soft_reset()
    await tb.wr(TIMEOUT, 1 << 24)


# ---- resident points --------------------------------------------------------------------------------------------
@contextlib.contextmanager
def failing(interface, method: str):
    """Every access of a cocotbext-axi RAM interface fails while inside: its response is SLVERR."""
    async def fail(*_):
        raise OSError("injected memory fault")
    setattr(interface, method, fail)
    try:
        yield
    finally:
        delattr(interface, method)


async def resident_jobs(tb: MsmTb, r: random.Random, n: int):
    """Points loaded once, then jobs that stream only their scalars; the memory holds the documented layout."""
    assert await tb.rd(CAPACITY) == tb.info["point_store"]["capacity"]
    loaded = points_for(n, r.getrandbits(16))
    await tb.load(loaded[1])
    for i in range(n):
        assert tb.stored_record(i) == pack_points([loaded[1][i]]), f"point {i} in the store"
    first = True
    for name in env_cases():
        await check_job(tb, name, n, r, post=first, loaded=loaded)
        first = False
    await check_job(tb, "random", n // 2 + 1, r, loaded=loaded)      # the first points of the store only
    await check_job(tb, "random", 8, r)                               # a streamed job in between
    await check_job(tb, "random", n, r, post=True, loaded=loaded)     # the store is as it was
    await tb.load(points_for(n, 99)[1][:5])                           # a shorter load replaces it
    await check_job(tb, "random", 5, r, loaded=points_for(n, 99))
    # a load into every channel's second page (q records to a page: 21 on BLS12-377, 32 on BN254), a job on all
    store = tb.info["point_store"]
    q, ch = store["points_per_page"], store["channels"]
    assert q == MF.store_points_per_page(ADDER), f"the manifest's {q} points per page"
    big = points_for(ch * q + ch + 1, 77)
    await tb.load(big[1])
    for i in (ch * q - 1, ch * q, ch * q + ch):
        assert tb.stored_record(i) == pack_points([big[1][i]]), f"point {i} in the store (page 1)"
    await check_job(tb, "random", len(big[1]), r, post=True, loaded=big)


async def resident_bad_inputs(tb: MsmTb, r: random.Random):
    n = 6
    pts, records = points_for(n, 13)
    good = scalar_set("random", tb.layout, n, r)
    want = model_buckets(tb.layout, records, good)
    cap = await tb.rd(CAPACITY)
    # refused, not aborted: a load of 0 or of more than CAPACITY points, a resident start past STORED
    for count in (0, cap + 1):
        await tb.wr(COUNT, count)
        await tb.wr(CONTROL, 4)
        assert await tb.rd(ERROR) == E_REFUSED and await tb.rd(CONTROL) & ST_IDLE, f"load of {count}"
    await tb.load(records)
    await tb.wr(SOURCE, 1)
    await tb.wr(COUNT, n + 1)
    await tb.wr(CONTROL, 1)
    assert await tb.rd(ERROR) == E_REFUSED and await tb.rd(CONTROL) & ST_IDLE, "resident start past STORED"
    await tb.wr(SOURCE, 0)
    # a bad record in a load (padding bits): STORED stays 0
    pb = bytearray(pack_points(records))
    pb[4 * PB - 2] = 0x40   # record 3
    res = await tb.load(records, point_bytes=bytes(pb), expect_error=E_PADDING)
    assert res["error_index"] == 3, res
    await tb.soft_reset()
    # a load's point stream ends early (tlast; with FRAMING only the watchdog sees it), goes past COUNT
    short = pack_points(records[:4])
    await tb.load(records, point_bytes=short, expect_error=E_POINTS_SHORT)
    await tb.soft_reset()
    await tb.wr(FRAMING, 1)
    await tb.wr(TIMEOUT, 2000)
    res = await tb.load(records, point_bytes=short, expect_error=E_TIMEOUT)
    assert res["error_index"] == 4, res
    await tb.soft_reset()
    await tb.wr(TIMEOUT, 1 << 24)
    await tb.wr(FRAMING, 0)
    await tb.load(records, count=4, expect_error=E_POINTS_LONG)
    await tb.soft_reset()
    # the memory answers a write with SLVERR
    with failing(tb.rams[-1].write_if, "_write"):
        res = await tb.load(records, expect_error=E_MEMORY)
    await tb.soft_reset()
    # a complete load, then a read error in a resident job; after the soft reset the stored points serve again
    await tb.load(records)
    with failing(tb.rams[0].read_if, "_read"):
        await tb.run_resident(good, expect_error=E_MEMORY)
    await tb.soft_reset()
    assert await tb.rd(STORED) == n
    res = await tb.run_resident(good)
    assert same_buckets(res["buckets"], want), "resident job after a memory error"
    # point beats during a resident job
    await tb.wr(SOURCE, 1)
    await tb.wr(COUNT, n)
    await tb.wr(CONTROL, 1)
    await tb.points.send(AxiStreamFrame(pack_points(records[:1])))
    await tb.wait_status(ST_ERROR, 20_000)
    assert await tb.rd(ERROR) & E_STRAY_POINTS
    await tb.wr(SOURCE, 0)
    await tb.soft_reset()
    # a soft reset in the middle of a load (FRAMING: the first packet is no error): STORED 0, the next load exact
    await tb.wr(FRAMING, 1)
    await tb.wr(COUNT, n)
    await tb.wr(CONTROL, 4)
    await tb.points.send(AxiStreamFrame(pack_points(records[:3])))
    await tb.soft_reset()
    assert await tb.rd(STORED) == 0
    await tb.wr(FRAMING, 0)
    await tb.load(records)
    for i in range(n):
        assert tb.stored_record(i) == pack_points([records[i]]), f"point {i} in the store"
    res = await tb.run_resident(good)
    assert same_buckets(res["buckets"], want), "resident job after a soft reset mid-load"


async def refused(tb: MsmTb, control: int, what: str):
    """CONTROL = control (1 start, 4 load) is refused: REFUSED alone, nothing runs"""
    await tb.wr(CONTROL, control)
    err, status = await tb.rd(ERROR), await tb.rd(CONTROL)
    assert err == E_REFUSED and status & ST_IDLE and not status & ST_BUSY, f"{what}: ERROR {err:#x}, CONTROL {status:#x}"


async def resident_base_sets(tb: MsmTb, r: random.Random):
    """Several point sets side by side (BASE, in BLOCKs of channels x q points): two sets at two bases, resident jobs
    on each in both orders (at the last load's base and at another), the first set intact after the second load; a
    load or a resident start past CAPACITY refused, nothing written, no hang."""
    store = tb.info["point_store"]
    block = store["channels"] * store["points_per_page"]
    assert await tb.rd(BLOCK) == block == MF.store_block(store["channels"], ADDER), "BLOCK"
    cap = await tb.rd(CAPACITY)
    assert cap == store["capacity"] and cap % block == 0, f"CAPACITY {cap}: whole blocks of {block}"
    blocks = cap // block
    assert await tb.rd(BASE) == 0 and await tb.rd(STORED_BASE) == 0
    # set A: more than a block on BLS12-377 (42 points a block on two channels; 64 on BN254) at block 1; set B at
    # the last block (the top pages of every channel, below the windows' bits of a shared space)
    a_base, b_base = 1, blocks - 1
    a, b = points_for(48, r.getrandbits(16)), points_for(20, r.getrandbits(16))
    await tb.load(a[1], base=a_base)
    await tb.load(b[1], base=b_base)
    assert (await tb.rd(STORED), await tb.rd(STORED_BASE)) == (len(b[1]), b_base)
    for (pts, recs), base in ((a, a_base), (b, b_base)):
        for i in range(len(recs)):
            assert tb.stored_record(i, base) == pack_points([recs[i]]), f"point {i} of the set at block {base}"
    await check_job(tb, "random", len(b[1]), r, post=True, loaded=b, base=b_base)    # at the last load's base
    await check_job(tb, "random", len(a[1]), r, post=True, loaded=a, base=a_base)    # at another base
    await check_job(tb, "random", len(b[1]), r, loaded=b, base=b_base)              # and back
    await check_job(tb, "random", 5, r, loaded=a, base=a_base)                      # a prefix of A
    # refused, nothing written: a load past the last block, past the store, at a BASE whose BASE·BLOCK is 0 mod 2^32
    # (the product is wider than 32 bits)
    wraps = 1 << (32 - ((block & -block).bit_length() - 1))
    for base, count in ((b_base, block + 1), (blocks, 1), (wraps, 1), (0xFFFFFFFF, 1)):
        await tb.wr(BASE, base)
        assert await tb.rd(BASE) == base
        await tb.wr(COUNT, count)
        await refused(tb, 4, f"a load of {count} at block {base}")
        assert (await tb.rd(STORED), await tb.rd(STORED_BASE)) == (len(b[1]), b_base), "STORED after a refused load"
    # a resident start past the store (at a base other than the last load's: only CAPACITY bounds it), and at the
    # last load's base past STORED
    await tb.wr(SOURCE, 1)
    for base, count in ((b_base - 1, 2 * block + 1), (a_base, cap - block + 1), (blocks + 1, 0), (wraps, 1),
                        (b_base, len(b[1]) + 1)):
        await tb.wr(BASE, base)
        await tb.wr(COUNT, count)
        await refused(tb, 1, f"a resident start of {count} at block {base}")
    await tb.wr(SOURCE, 0)
    for (pts, recs), base in ((a, a_base), (b, b_base)):
        for i in range(len(recs)):
            assert tb.stored_record(i, base) == pack_points([recs[i]]), f"point {i} at block {base} after refusals"
    # the store serves on: a job on A, a load of a set's maximum at the last block, BASE back to 0
    await check_job(tb, "random", len(a[1]), r, loaded=a, base=a_base)
    full = points_for(block, r.getrandbits(16))
    await tb.load(full[1], base=b_base)
    assert tb.stored_record(block - 1, b_base) == pack_points([full[1][-1]]), "the store's last point"
    await tb.wr(BASE, 0)


# ---- tests ------------------------------------------------------------------------------------------------------
def env_cases() -> list[str]:
    return os.environ.get("ZK_CASES", "random,equal,zero,max,alternating,hammer,sparse,half_ones,below16").split(",")


@cocotb.test()
async def msm_jobs(dut):
    """Jobs back to back on one engine (each read-out leaves the buckets clean for the next)."""
    tb = MsmTb(dut, float(os.environ.get("ZK_THROTTLE", "0.3")))
    await tb.start()
    info = await tb.rd(INFO)  # its fields (the contract's MsmAxisRegs) against the manifest
    got = (C.MSM_INFO_WINDOWS.get(info), C.MSM_INFO_RETRY_DEPTH.get(info), C.MSM_INFO_ADDER_LATENCY.get(info))
    assert got == (len(tb.info["windows"]), tb.info["retry_depth"], tb.info["latency"]), (hex(info), got)
    r = random.Random(cocotb.RANDOM_SEED ^ 0x5A)
    n = int(os.environ.get("ZK_N", "24"))
    first = True
    for name in env_cases():
        await check_job(tb, name, n, r, post=first)
        first = False
    await check_job(tb, "random", 0, r)   # COUNT = 0: every bucket is returned as the identity
    await check_job(tb, "random", 1, r, post=True)
    # adversarial points: every special case of the adder (doubling, cancellation, a bucket loaded again, infinity)
    for kind in POINT_SETS:
        for scalars in ("equal", "random"):
            await check_job(tb, scalars, n, r, post=True, points=point_set(kind, n, r.getrandbits(16)))


@cocotb.test()
async def msm_bad_input(dut):
    """Each malformed job ends in its error bit, no hang; after a soft reset the next job is exact."""
    tb = MsmTb(dut, float(os.environ.get("ZK_THROTTLE", "0.3")))
    await tb.start()
    r = random.Random(cocotb.RANDOM_SEED ^ 0xA5)
    await bad_inputs(tb, r)
    await check_job(tb, "random", 8, r)
    await packet_framing(tb, r)
    await watchdog_stopped_stream(tb, r)
    await check_job(tb, "random", 8, r)


def has_store() -> bool:
    return "point_store" in top_info(os.environ["ZK_TOP"])


@cocotb.test(skip=not has_store())
async def msm_resident(dut):
    """Resident points: one load, then jobs streaming only scalars (every scalar set), a prefix, a streamed job in
    between, a shorter load."""
    tb = MsmTb(dut, float(os.environ.get("ZK_THROTTLE", "0.3")))
    await tb.start()
    await resident_jobs(tb, random.Random(cocotb.RANDOM_SEED ^ 0x3C), int(os.environ.get("ZK_N", "24")))


@cocotb.test(skip=not has_store())
async def msm_resident_bad_input(dut):
    """Refused loads and starts, bad loads, memory errors, stray points, soft reset mid-load: no hang, exact after."""
    tb = MsmTb(dut, float(os.environ.get("ZK_THROTTLE", "0.3")))
    await tb.start()
    await resident_bad_inputs(tb, random.Random(cocotb.RANDOM_SEED ^ 0xC3))


@cocotb.test(skip=not has_store())
async def msm_resident_bases(dut):
    """Point sets side by side at two BASEs: jobs on each in both orders, refused loads and starts past CAPACITY."""
    tb = MsmTb(dut, float(os.environ.get("ZK_THROTTLE", "0.3")))
    await tb.start()
    await resident_base_sets(tb, random.Random(cocotb.RANDOM_SEED ^ 0x69))


@cocotb.test(skip=os.environ.get("ZK_MSM_IN") is None)
async def run_job(dut):
    """One job from ZK_MSM_IN without throttling; writes counters and buckets to ZK_MSM_OUT."""
    tb = MsmTb(dut, float(os.environ.get("ZK_THROTTLE", "0")))
    await tb.start()
    job = json.loads(open(os.environ["ZK_MSM_IN"]).read())
    scalars = [int(s) for s in job["scalars"]]
    records = [tuple(int(v) for v in q) for q in job["records"]]
    res = await tb.run(scalars, records)
    res["buckets"] = [[list(map(str, S)) for S in w] for w in res["buckets"]]
    res["latency"] = tb.info["latency"]
    with open(os.environ["ZK_MSM_OUT"], "w") as f:
        json.dump(res, f)
