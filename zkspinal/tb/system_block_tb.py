"""Testbench for SystemBlock (hw/src/zkspinal/system/SystemBlock.scala): the register map the host library reads at
BAR offset 0x10000 (sw/lib/zkxdma.h ZK_SYS_*), through cocotbext-axi's AxiLiteMaster with random pauses on all five
channels; the reset pulse measured cycle by cycle on core_aresetn; the identity words (KIND, CONFIG, VERSION at the
top of the window: the ident_* inputs, unregistered); bad offsets (reads 0, writes ignored, OKAY, counted in BAD)."""
from __future__ import annotations

import os

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi.constants import AxiResp

from reference_model import contract as C
from zkspinal.tb.base import Tb

# SystemBlockRegs
ID, RESET, INFO, BAD, STATUS = C.SYSTEM_ID, C.SYSTEM_RESET, C.SYSTEM_INFO, C.SYSTEM_BAD, C.SYSTEM_STATUS
KIND, CONFIG, VERSION = C.SYSTEM_KIND, C.SYSTEM_CONFIG, C.SYSTEM_VERSION
IDENT = {"kind": KIND, "config": CONFIG, "version": VERSION}
MAGIC = C.SYSTEM_MAGIC
REVISION = C.SYSTEM_REVISION  # INFO[23:16]: the map with the identity words


def info() -> dict:
    from zkspinal.sim.simrun import manifest

    return manifest()[os.environ["ZK_TOP"]]


class SysTb(Tb):
    def __init__(self, dut, throttle: float):
        super().__init__(dut, throttle)
        meta = info()
        self.count, self.cycles, self.window = meta["status_count"], meta["reset_cycles"], 1 << meta["address_width"]
        assert meta["revision"] == REVISION and int(meta["identity_offset"], 16) == KIND, meta
        self.info = (C.SYSTEM_INFO_REVISION.put(REVISION) | C.SYSTEM_INFO_RESET_CYCLES.put(self.cycles) |
                     C.SYSTEM_INFO_STATUS_COUNT.put(self.count))
        self.lite()
        self.status = [self.r.getrandbits(32) for _ in range(self.count)]
        for i, v in enumerate(self.status):
            getattr(dut, f"status_{i}").value = v
        self.ident = {}
        self.set_ident()
        self.low_runs: list[int] = []  # lengths of the core_aresetn low pulses seen after our own reset
        self.bad = 0  # bad accesses made, the model of BAD

    def set_ident(self):
        """new values on the ident_* inputs (a core drives constants; the block must show whatever it is given)"""
        for name, off in IDENT.items():
            self.ident[off] = self.r.choice([0, 0xFFFFFFFF, self.r.getrandbits(32)])
            getattr(self.dut, f"ident_{name}").value = self.ident[off]

    def mapped_read(self, off: int) -> bool:
        w = off >> 2
        return w <= BAD >> 2 or STATUS >> 2 <= w < (STATUS >> 2) + self.count or off in IDENT.values()

    async def start(self):
        await super().start(reset_cycles=6)
        cocotb.start_soon(self._watch_reset())

    async def _watch_reset(self):
        run = None
        while True:
            await RisingEdge(self.dut.aclk)
            low = int(self.dut.core_aresetn.value) == 0
            if low:
                run = (run or 0) + 1
            elif run is not None:
                self.low_runs.append(run)
                run = None

    async def rd(self, off: int) -> int:
        resp = await self.axil.read(off, 4)
        assert resp.resp == AxiResp.OKAY, f"read {off:#x}: response {resp.resp}"
        if not self.mapped_read(off):
            self.bad += 1
        return int.from_bytes(resp.data, "little")

    async def wr(self, off: int, value: int):
        resp = await self.axil.write(off, value.to_bytes(4, "little"))
        assert resp.resp == AxiResp.OKAY, f"write {off:#x}: response {resp.resp}"
        if off >> 2 != RESET >> 2:
            self.bad += 1


async def _quiet(tb: SysTb, cycles: int):
    await ClockCycles(tb.dut.aclk, cycles)


@cocotb.test()
async def cocotb_power_up_pulse(dut):
    """core_aresetn is low from the block's reset until resetCycles cycles after it, then stays high."""
    tb = SysTb(dut, 0.0)
    await tb.start()
    await _quiet(tb, tb.cycles + 20)
    # the first run includes the 6 reset cycles (and the edges before the watcher started): at least cycles long
    assert len(tb.low_runs) == 1, tb.low_runs
    assert int(dut.core_aresetn.value) == 1
    assert await tb.rd(RESET) == 0


@cocotb.test()
async def cocotb_registers_throttled(dut):
    """ID, INFO, the status words (changed while reading), the reset pulse and bad offsets, with pauses."""
    tb = SysTb(dut, 0.4)
    await tb.start()
    await _quiet(tb, tb.cycles + 4)
    tb.low_runs.clear()
    assert await tb.rd(ID) == MAGIC
    assert await tb.rd(INFO) == tb.info
    for _ in range(3):
        for off in tb.r.sample(sorted(tb.ident), len(tb.ident)):
            assert await tb.rd(off) == tb.ident[off], f"identity word {off:#x}"
        tb.set_ident()
        await _quiet(tb, 1)
        for i in tb.r.sample(range(tb.count), tb.count):
            assert await tb.rd(STATUS + 4 * i) == tb.status[i], f"status {i}"
        # new values: the block registers its inputs once, a read a few cycles later sees them
        tb.status = [tb.r.choice([0, 1, 0xFFFFFFFF, tb.r.getrandbits(32)]) for _ in range(tb.count)]
        for i, v in enumerate(tb.status):
            getattr(dut, f"status_{i}").value = v
        await _quiet(tb, 2)
    # reset pulses: bit 0 set pulses for exactly resetCycles cycles, bit 0 clear does nothing
    for value in (1, 0, 0xFFFFFFFF, 2, 3):
        before = len(tb.low_runs)
        await tb.wr(RESET, value)
        busy = await tb.rd(RESET)
        await _quiet(tb, tb.cycles + 4)
        assert await tb.rd(RESET) == 0
        pulses = tb.low_runs[before:]
        if value & 1:
            assert pulses == [tb.cycles], f"RESET <- {value:#x}: pulses {pulses}"
            assert busy in (0, 1)
        else:
            assert pulses == [] and busy == 0, f"RESET <- {value:#x}: pulses {pulses}"
    assert await tb.rd(BAD) == tb.bad == 0
    # bad offsets: unmapped reads return 0, writes anywhere but RESET change nothing; all are counted
    offsets = [ID, INFO, BAD, STATUS + 4 * tb.count, KIND - 4, KIND, VERSION, 0x00C + 0x10 * tb.count + 0x40]
    offsets += [tb.r.randrange(STATUS + 4 * tb.count, tb.window) & ~3 for _ in range(6)]
    for off in offsets:
        if off >= tb.window:
            continue
        await tb.wr(off, tb.r.getrandbits(32))
        expect_bad = tb.bad
        value = await tb.rd(off)
        if not tb.mapped_read(off):
            assert value == 0, f"unmapped {off:#x} read {value:#x}"
        assert tb.bad >= expect_bad
    assert await tb.rd(ID) == MAGIC and await tb.rd(INFO) == tb.info
    assert [await tb.rd(off) for off in IDENT.values()] == [tb.ident[off] for off in IDENT.values()], "a write changed"
    assert tb.low_runs[-1:] == [tb.cycles] and len(tb.low_runs) == 3, "a write elsewhere pulsed the reset"
    assert await tb.rd(BAD) == tb.bad, "BAD count"


@cocotb.test()
async def cocotb_concurrent_random(dut):
    """Reads and writes issued from several coroutines at once, random offsets (mapped and not), with pauses:
    every read of a mapped register returns its value, unmapped ones 0, and BAD counts exactly the bad ones."""
    tb = SysTb(dut, 0.5)
    await tb.start()
    await _quiet(tb, tb.cycles + 4)
    assert len(tb.low_runs) == 1, "the power-up pulse"
    tb.low_runs.clear()
    expect = {ID: MAGIC, INFO: tb.info, RESET: 0}
    expect.update({STATUS + 4 * i: v for i, v in enumerate(tb.status)})
    expect.update(tb.ident)

    async def worker(n: int):
        for _ in range(n):
            off = tb.r.choice(list(expect) + [tb.r.randrange(0, tb.window) & ~3])
            if tb.r.random() < 0.3 and off != RESET:
                await tb.wr(off, tb.r.getrandbits(32))
            else:
                got = await tb.rd(off)
                if off == RESET:
                    continue
                want = expect.get(off, 0) if (off in expect or not tb.mapped_read(off)) else None
                if want is not None and off != BAD:
                    assert got == want, f"{off:#x}: {got:#x} != {want:#x}"

    tasks = [cocotb.start_soon(worker(25)) for _ in range(4)]
    for t in tasks:
        await t
    assert tb.low_runs == [], "no RESET write was made, yet core_aresetn pulsed"
    assert await tb.rd(BAD) == tb.bad
