"""Testbench for PoseidonAxis (hw/src/zkspinal/poseidon/PoseidonAxis.scala): frames through cocotbext-axi
AXI4-Stream source and sink with random pauses on both ports, digests against reference_model.poseidon, flagged
beats for malformed frames, the AXI4-Lite counters, reset in mid-stream.

Environment: ZK_TOP (set by simrun), ZK_RANDOM (random preimages per arity, default 3).  Cycle counts for the
benchmark come from the C++ harness (zkspinal/bench/poseidon.py), not from here.
"""
from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import AxiStreamFrame

from zkspinal.tb.base import CLOCK_NS, Tb
import reference_model.contract as C
import reference_model.poseidon as P
from reference_model.poseidon.hash_type import HashType

PRIME = P.poseidon_constants(2).p
# neptune's known answers: MerkleTree hash of [0, 1, ..., arity-1] (domain.md)
KNOWN = {
    2: 0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff,
    4: 0x58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d,
    8: 0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6,
    11: 0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163,
}
# error codes on TUSER (PoseidonErrors) and the register map (PoseidonRegs)
ERR_RANGE, ERR_ARITY, ERR_LENGTH = C.POSEIDON_ERROR_RANGE, C.POSEIDON_ERROR_ARITY, C.POSEIDON_ERROR_LENGTH
CLK_NS = CLOCK_NS


def info() -> dict:
    from zkspinal.sim import simrun
    return simrun.top_info(os.environ["ZK_TOP"])


def elements_bytes(xs) -> bytes:
    return b"".join(int(x).to_bytes(C.POSEIDON_FRAME_BEAT.bytes(), "little") for x in xs)


class Job:
    """One input frame and the output beat it must produce (data, tuser)."""

    def __init__(self, beats: list[int], user_first: int, want: int, want_user: int, label: str):
        self.beats, self.label = beats, label
        self.want, self.want_user = want, want_user
        d = C.POSEIDON_FRAME_BEAT.bytes()  # TUSER per byte of a beat
        tuser = [user_first] * d + [0] * (d * (len(beats) - 1))
        self.frame = AxiStreamFrame(elements_bytes(beats), tuser=tuser)


def merkle_jobs(preimages: list[list[int]], label: str) -> list[Job]:
    """MerkleTree frames (arity = frame length), expected digests from the model's fast kernel."""
    by_arity: dict[int, list[int]] = {}
    for i, pre in enumerate(preimages):
        by_arity.setdefault(len(pre), []).append(i)
    want = [0] * len(preimages)
    for a, idx in by_arity.items():
        for i, d in zip(idx, P.digests([preimages[i] for i in idx], a)):
            want[i] = d
    return [Job(pre, 0, w, 0, f"{label} arity {len(pre)}") for pre, w in zip(preimages, want)]


def header_job(arity: int, htype: HashType, elems: list[int]) -> Job:
    """A header frame: TUSER = arity on the tag beat, then the elements (ConstantLength: L of them)."""
    want = P.digests([elems], arity, htype)[0]
    return Job([htype.tag(arity)] + elems, arity, want, 0, f"{htype} arity {arity}")


def bad_job(beats: list[int], user_first: int, code: int, label: str) -> Job:
    return Job(beats, user_first, 0, code, label)


def edge_preimages(arities, r: random.Random) -> list[list[int]]:
    edges = [0, 1, PRIME - 1]
    out = []
    for a in arities:
        out += [[e] * a for e in edges]
        out.append([r.choice(edges) for _ in range(a)])
    return out


class PoseidonTb(Tb):
    def __init__(self, dut, pause: float = 0.0):
        super().__init__(dut, pause)
        self.meta = info()
        self.arities = self.meta["arities"]
        self.source = self.axis_source("s_axis")
        self.sink = self.axis_sink("m_axis")
        self.lite(throttle=0)  # the counters are read between frames: the stream ports carry the pauses
        self.protocol_errors: list[str] = []

    async def start(self):
        await super().start()
        cocotb.start_soon(self._check_output_protocol())

    async def _check_output_protocol(self):
        """AXI4-Stream rule on m_axis: once valid, valid and the beat stay until accepted."""
        d = self.dut
        held = None
        while True:
            await RisingEdge(d.aclk)
            if not int(d.aresetn.value):
                held = None
                continue
            valid, ready = int(d.m_axis_tvalid.value), int(d.m_axis_tready.value)
            beat = (int(d.m_axis_tdata.value), int(d.m_axis_tuser.value), int(d.m_axis_tlast.value)) if valid else None
            if held is not None and beat != held:
                self.protocol_errors.append(f"output beat {held} changed to {beat} before it was accepted")
            if valid and beat[2] != 1:
                self.protocol_errors.append("output beat without TLAST")
            held = beat if valid and not ready else None

    def timeout_cycles(self, jobs: list[Job]) -> int:
        lat = dict(zip(self.arities, self.meta["engine_latency"]))
        per = dict(zip(self.arities, self.meta["cycles_per_hash"]))
        worst = max(lat.values())
        return int(2 * worst + sum(float(max(per.values())) for _ in jobs) + 50 * len(jobs) + 10_000)

    async def run(self, jobs: list[Job]) -> int:
        """Sends every frame, checks every output beat in order; returns the cycles from first send to last beat."""
        t0 = cocotb.utils.get_sim_time("ns")
        for j in jobs:
            await self.source.send(j.frame)
        timeout = self.timeout_cycles(jobs) * CLK_NS
        for i, j in enumerate(jobs):
            frame = await with_timeout(self.sink.recv(), timeout, "ns")
            got = int.from_bytes(bytes(frame.tdata), "little")
            user = frame.tuser if isinstance(frame.tuser, int) else frame.tuser[0]
            assert len(frame.tdata) == 32, f"job {i} ({j.label}): {len(frame.tdata)}-byte output frame"
            assert (got, user) == (j.want, j.want_user), (
                f"job {i} ({j.label}): got {got:#066x} tuser {user}, expected {j.want:#066x} tuser {j.want_user}")
        assert not self.protocol_errors, self.protocol_errors[:5]
        return int((cocotb.utils.get_sim_time("ns") - t0) / CLK_NS)

    async def reg(self, name: str) -> int:
        return await self.axil.read_dword(C.POSEIDON_REGS[name][0])

    def random_preimages(self, count_per_arity: int) -> list[list[int]]:
        pres = [[self.r.randrange(PRIME) for _ in range(a)] for a in self.arities for _ in range(count_per_arity)]
        self.r.shuffle(pres)
        return pres


@cocotb.test()
async def cocotb_vectors_random_throttled(dut):
    """Known answers, edge values, header frames (ConstantLength, Custom) and random preimages of every built-in
    arity interleaved in one stream, random pauses on both ports; then the counters."""
    tb = PoseidonTb(dut, pause=0.3)
    await tb.start()
    jobs = merkle_jobs([list(range(a)) for a in tb.arities], "known answer")
    for j in jobs:
        assert j.want == KNOWN[len(j.beats)], "model disagrees with neptune's known answer"
    jobs += merkle_jobs(edge_preimages(tb.arities, tb.r), "edge")
    jobs += merkle_jobs(tb.random_preimages(int(os.environ.get("ZK_RANDOM", "3"))), "random")
    a = max(tb.arities)
    jobs += [header_job(a, HashType("constant", 1), [tb.r.randrange(PRIME)]),
             header_job(a, HashType("constant", a - 1), [tb.r.randrange(PRIME) for _ in range(a - 1)]),
             header_job(min(tb.arities), HashType("custom", 7), [tb.r.randrange(PRIME) for _ in range(min(tb.arities))])]
    rest = jobs[len(tb.arities):]
    tb.r.shuffle(rest)
    jobs = jobs[:len(tb.arities)] + rest
    cycles = await tb.run(jobs)
    assert await tb.reg("frames_in") == len(jobs)
    assert await tb.reg("digests_out") == len(jobs)
    assert await tb.reg("flagged_out") == 0
    assert await tb.reg("in_flight") == 0
    built = await tb.reg("info")
    assert built & 0xFFFF == sum(1 << x for x in tb.arities)
    dut._log.info(f"{len(jobs)} digests match the model in {cycles} cycles")


def bad_jobs(tb: PoseidonTb) -> list[Job]:
    r, arities = tb.r, tb.arities
    a0, amax = min(arities), max(arities)
    lanes = amax + 1
    not_built = [x for x in range(1, lanes) if x not in arities]
    good = lambda a: [r.randrange(PRIME) for _ in range(a)]
    jobs = [
        bad_job([PRIME] + good(a0 - 1), 0, ERR_RANGE, "element = p"),
        bad_job(good(a0 - 1) + [(1 << 256) - 1], 0, ERR_RANGE, "element = 2^256 - 1"),
        bad_job(good(not_built[0]), 0, ERR_ARITY, f"arity {not_built[0]} not built"),
        bad_job(good(not_built[-1]), 0, ERR_ARITY, f"arity {not_built[-1]} not built"),
        bad_job(good(lanes), 0, ERR_LENGTH | ERR_ARITY, f"{lanes} elements (too long)"),
        bad_job(good(lanes + 5), 0, ERR_LENGTH | ERR_ARITY, f"{lanes + 5} elements (too long)"),
        bad_job(good(lanes + 1)[:-1] + [PRIME + 5], 0, ERR_LENGTH | ERR_ARITY | ERR_RANGE, "too long and >= p"),
        bad_job([3], a0, ERR_LENGTH, "header frame without elements"),
        bad_job([3] + good(a0 + 1), a0, ERR_LENGTH, "header frame with arity + 1 elements"),
        bad_job([PRIME] + good(a0), a0, ERR_RANGE, "header tag = p"),
        bad_job([7] + good(not_built[0]), not_built[0], ERR_ARITY, "header arity not built"),
    ]
    if 1 not in arities:
        jobs.append(bad_job(good(1), 0, ERR_ARITY, "one element (arity 1 not built)"))
    return jobs


@cocotb.test()
async def cocotb_bad_input(dut):
    """Every malformed frame kind between good frames: one flagged beat each, later digests in place, counters."""
    tb = PoseidonTb(dut, pause=0.2)
    await tb.start()
    small = [a for a in tb.arities if a <= 4] or tb.arities[:1]
    goods = merkle_jobs([[tb.r.randrange(PRIME) for _ in range(tb.r.choice(small))] for _ in range(10)], "good")
    bads = bad_jobs(tb)
    jobs = list(goods)
    for b in bads:
        jobs.insert(tb.r.randrange(len(jobs) + 1), b)
    jobs.append(merkle_jobs([[1] * small[0]], "last good")[0])  # a good frame right after the last bad one
    await tb.run(jobs)
    counts = {k: await tb.reg(k) for k in ("frames_in", "digests_out", "flagged_out", "err_range", "err_arity",
                                            "err_length")}
    want = {"frames_in": len(jobs), "digests_out": len(goods) + 1, "flagged_out": len(bads),
            "err_range": sum(1 for b in bads if b.want_user & ERR_RANGE),
            "err_arity": sum(1 for b in bads if b.want_user & ERR_ARITY),
            "err_length": sum(1 for b in bads if b.want_user & ERR_LENGTH)}
    assert counts == want, f"counters {counts}, expected {want}"
    await tb.axil.write_dword(C.POSEIDON_CONTROL, 1)
    assert await tb.reg("frames_in") == 0 and await tb.reg("err_range") == 0
    dut._log.info(f"{len(bads)} malformed frames flagged among {len(jobs)}; counters {counts}")


@cocotb.test()
async def cocotb_reset_midstream(dut):
    """Reset while hashes are in flight and a frame is half sent: afterwards a new stream is exact."""
    tb = PoseidonTb(dut, pause=0.1)
    await tb.start()
    a = min(tb.arities)
    first = merkle_jobs(tb.random_preimages(2), "before reset")
    for j in first:
        await tb.source.send(j.frame)
    # a long frame, cut by the reset
    await tb.source.send(AxiStreamFrame(elements_bytes([5] * 40), tuser=0))
    await ClockCycles(dut.aclk, 300)
    await tb.reset(cycles=3)
    tb.source.clear()
    await ClockCycles(dut.aclk, 5)
    while not tb.sink.empty():
        tb.sink.recv_nowait()
    assert await tb.reg("in_flight") == 0 and await tb.reg("frames_in") == 0
    after = merkle_jobs([[tb.r.randrange(PRIME) for _ in range(a)] for _ in range(6)] + [list(range(a))], "after reset")
    await tb.run(after)
    dut._log.info("stream after the reset is exact")

