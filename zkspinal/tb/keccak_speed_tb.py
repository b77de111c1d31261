"""Testbench for KeccakSpeed (hw/src/zkspinal/keccak/KeccakSpeed.scala): jobs through its AXI4-Lite register bank
(cocotbext-axi, random pauses on all five channels), checksums against expected values computed outside (the
CPU program and the model), refused starts and writes while busy.

Environment: ZK_CASES  JSON list of {"rounds", "runs", "elements", "freq", "checksum"} (checksum as an int)
             ZK_SPEED_OUT  where cocotb_job writes its result (JSON), for the benchmark
"""
from __future__ import annotations

import json
import os

import cocotb
from cocotb.triggers import ClockCycles

from reference_model import contract as C
from reference_model import keccak as K
from zkspinal.tb.base import Tb

# KeccakSpeedRegs, its RETC codes and CONTROL's read bits (KeccakSpeedStatus)
CONTROL, RETC, ERROR, INFO = C.KECCAK_SPEED_CONTROL, C.KECCAK_SPEED_RETC, C.KECCAK_SPEED_ERROR, C.KECCAK_SPEED_INFO
CHK_OUT, TEST_CHOICE, NB_ELMTS, FREQ, NB_TEST_RUNS, NB_ROUNDS = (
    C.KECCAK_SPEED_CHECKSUM, C.KECCAK_SPEED_TEST_CHOICE, C.KECCAK_SPEED_NB_ELMTS, C.KECCAK_SPEED_FREQ,
    C.KECCAK_SPEED_NB_TEST_RUNS, C.KECCAK_SPEED_NB_ROUNDS)
CYCLES, PERMS, CALLS = C.KECCAK_SPEED_CYCLES, C.KECCAK_SPEED_PERMS, C.KECCAK_SPEED_CALLS
RETC_SUCCESS, RETC_FAILURE = C.KECCAK_SPEED_RETC_SUCCESS, C.KECCAK_SPEED_RETC_FAILURE
BUSY, DONE, IDLE, REFUSED = (C.KECCAK_SPEED_STATUS_BUSY, C.KECCAK_SPEED_STATUS_DONE, C.KECCAK_SPEED_STATUS_IDLE,
                             C.KECCAK_SPEED_STATUS_REFUSED)


def info() -> dict:
    from zkspinal.sim.simrun import manifest

    return manifest()[os.environ["ZK_TOP"]]


class SpeedTb(Tb):
    def __init__(self, dut, throttle: float = 0.0):
        super().__init__(dut, throttle)
        self.lite()

    async def set_job(self, rounds: int, runs: int, elements: int, freq: int, choice: int = 0):
        for addr, v in [(NB_ROUNDS, rounds), (NB_TEST_RUNS, runs), (NB_ELMTS, elements), (FREQ, freq),
                        (TEST_CHOICE, choice)]:
            await self.wr(addr, v)

    async def wait_done(self, max_cycles: int, poll: int = 64) -> int:
        waited = 0
        while True:
            status = await self.rd(CONTROL)
            if status & DONE:
                assert not status & BUSY and status & IDLE, f"CONTROL {status:#x}: done but busy"
                return status
            assert waited <= max_cycles, f"not done after {waited} cycles (CONTROL {status:#x}): a hang"
            await ClockCycles(self.dut.aclk, poll)
            waited += poll

    async def run_job(self, rounds: int, runs: int, elements: int, freq: int) -> dict:
        meta = info()
        await self.set_job(rounds, runs, elements, freq)
        await self.wr(CONTROL, 1)
        calls = len(K.selected_runs(runs, elements, freq))
        per_perm = meta["initiation_interval"] if meta["slots"] == 1 else 1
        bound = calls * rounds * max(per_perm, meta["latency"]) + 40 * (calls + 1) + runs + 2000
        status = await self.wait_done(bound)
        return {"status": status, "retc": await self.rd(RETC), "error": await self.rd(ERROR),
                "checksum": await self.rd64(CHK_OUT), "cycles": await self.rd64(CYCLES),
                "perms": await self.rd64(PERMS), "calls": await self.rd(CALLS), "expected_calls": calls}


def cases() -> list[dict]:
    return json.loads(os.environ["ZK_CASES"])


def check_result(case: dict, res: dict):
    label = f"rounds {case['rounds']} runs {case['runs']} nb_elmts {case['elements']} freq {case['freq']}"
    assert res["status"] & (DONE | REFUSED) == DONE and res["retc"] == RETC_SUCCESS and res["error"] == 0, (
        f"{label}: status {res['status']:#x} retc {res['retc']:#x} error {res['error']:#x}")
    assert res["checksum"] == case["checksum"], (
        f"{label}: RTL checksum {res['checksum']:016x}, expected {case['checksum']:016x}")
    assert res["calls"] == res["expected_calls"], f"{label}: {res['calls']} calls, expected {res['expected_calls']}"
    assert res["perms"] == res["calls"] * case["rounds"], f"{label}: {res['perms']} permutations"


@cocotb.test()
async def cocotb_cases_throttled(dut):
    """Every case of ZK_CASES with random pauses on the AXI4-Lite channels; INFO matches the generator."""
    meta = info()
    tb = SpeedTb(dut, throttle=0.3)
    await tb.start()
    inf = await tb.rd(INFO)
    assert (C.KECCAK_SPEED_INFO_UNITS.get(inf), C.KECCAK_SPEED_INFO_ROUNDS.get(inf), C.KECCAK_SPEED_INFO_SLOTS.get(inf),
            C.KECCAK_SPEED_INFO_LANES.get(inf)) == (
        meta["units"], meta["rounds_per_cycle"], meta["slots_per_unit"], meta["sum_lanes_per_cycle"]), hex(inf)
    assert await tb.rd(CONTROL) == IDLE and await tb.rd(RETC) == 0
    for case in cases():
        res = await tb.run_job(case["rounds"], case["runs"], case["elements"], case["freq"])
        check_result(case, res)
        dut._log.info(f"case {case}: checksum {res['checksum']:016x} in {res['cycles']} cycles")


@cocotb.test()
async def cocotb_bad_registers(dut):
    """Refused starts (freq 0, nb_rounds 0, test_choice != 0, together), a start and parameter writes while busy,
    unmapped addresses: defined status, never a hang, and the next valid job is exact."""
    tb = SpeedTb(dut, throttle=0.2)
    await tb.start()
    # the longest job of the list, so that the writes below land while it runs
    good = max(cases(), key=lambda c: len(K.selected_runs(c["runs"], c["elements"], c["freq"])) * c["rounds"])
    for (rounds, freq, choice), want in [((3, 0, 0), 1), ((0, 5, 0), 2), ((3, 5, 1), 4), ((0, 0, 7), 7)]:
        await tb.set_job(rounds, 10, 2, freq, choice)
        await tb.wr(CONTROL, 1)
        status = await tb.wait_done(50)
        assert status == DONE | IDLE | REFUSED, f"status {status:#x}"
        assert await tb.rd(RETC) == RETC_FAILURE and await tb.rd(ERROR) == want
        assert await tb.rd64(CHK_OUT) == 0 and await tb.rd64(PERMS) == 0 and await tb.rd(CALLS) == 0
    await tb.wr(TEST_CHOICE, 0)
    # a valid job; while it runs, a second start and a parameter write are ignored and flagged
    await tb.set_job(good["rounds"], good["runs"], good["elements"], good["freq"])
    await tb.wr(CONTROL, 1)
    assert (await tb.rd(CONTROL)) & BUSY or good["runs"] == 0
    await tb.wr(NB_ROUNDS, good["rounds"] + 1)
    await tb.wr(CONTROL, 1)
    await tb.wait_done(1_000_000)
    assert await tb.rd(NB_ROUNDS) == good["rounds"], "a parameter write while busy changed the register"
    assert await tb.rd(ERROR) == 8 and await tb.rd(RETC) == RETC_SUCCESS
    assert await tb.rd64(CHK_OUT) == good["checksum"]
    # unmapped addresses read 0, writes to them change nothing
    await tb.wr(0x200, 0xDEADBEEF)
    assert await tb.rd(0x200) == 0 and await tb.rd(0x0FC) == 0
    # the next accepted start clears the flags and gives the same checksum again
    await tb.wr(CONTROL, 1)
    await tb.wait_done(1_000_000)
    assert await tb.rd(ERROR) == 0 and await tb.rd64(CHK_OUT) == good["checksum"]


@cocotb.test()
async def cocotb_job(dut):
    """One job from ZK_CASES[0] at full speed (no pauses), result to ZK_SPEED_OUT (the benchmark)."""
    tb = SpeedTb(dut)
    await tb.start()
    case = cases()[0]
    res = await tb.run_job(case["rounds"], case["runs"], case["elements"], case["freq"])
    out = os.environ.get("ZK_SPEED_OUT")
    if out:
        with open(out, "w") as fh:
            json.dump({"top": os.environ["ZK_TOP"], **case, **res}, fh)
    if case.get("checksum") is not None:
        check_result(case, res)
