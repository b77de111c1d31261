"""The base of every testbench, in the cocotbext-axi style: a `Tb` owns the DUT's clock and reset, the testbench's
random source (cocotb's seed: SEED= replays a run), and the ports it makes on demand (the AXI4-Lite master with
register access, AXI4-Stream sources and sinks, AXI RAMs), each throttled by random pauses with the testbench's
probability.  Tops with the system port convention have `aclk` and an active-low `aresetn` (the defaults); the
Flow/Stream cores of the field, Poseidon, Keccak and MSM packages have `clk` and an active-high `reset`
(`Tb.flow(dut)`), their valid/ready ports driven by zkspinal/sim/stream.py."""
from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import (AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam, AxiStreamBus, AxiStreamSink, AxiStreamSource)

CLOCK_NS = 4  # 250 MHz


def pauses(r: random.Random, p: float):
    """An endless pause generator for cocotbext-axi (pause with probability p each cycle), seeded from r."""
    own = random.Random(r.getrandbits(32))
    while True:
        yield own.random() < p


def _channels(port):
    """the five channels of an AXI4 or AXI4-Lite port of cocotbext-axi (master or RAM)"""
    return (port.write_if.aw_channel, port.write_if.w_channel, port.write_if.b_channel, port.read_if.ar_channel,
            port.read_if.r_channel)


class Tb:
    """Clock, reset, ports and pauses of one testbench (subclass it; see the module's comment)."""

    def __init__(self, dut, throttle: float = 0.0, clock: str = "aclk", reset: str = "aresetn",
                 reset_active_low: bool = True):
        self.dut = dut
        self.throttle = throttle
        self.r = random.Random(cocotb.RANDOM_SEED)
        self.clk = getattr(dut, clock)
        self.rst = getattr(dut, reset)
        self.active_low = reset_active_low

    @classmethod
    def flow(cls, dut, throttle: float = 0.0) -> "Tb":
        """A testbench of a Flow/Stream core (`clk`, active-high `reset`)."""
        return cls(dut, throttle, clock="clk", reset="reset", reset_active_low=False)

    def pauses(self, p: float | None = None):
        return pauses(self.r, self.throttle if p is None else p)

    def _throttled(self, port, p: float | None, channels: bool = False):
        p = self.throttle if p is None else p
        if p:
            for ch in (_channels(port) if channels else (port,)):
                ch.set_pause_generator(self.pauses(p))
        return port

    # ---- the ports (cocotbext-axi), throttled with the testbench's probability unless told otherwise
    def lite(self, prefix: str = "s_axil", throttle: float | None = None) -> AxiLiteMaster:
        """The AXI4-Lite master on `prefix`; the first one is the register port rd/wr use."""
        m = AxiLiteMaster(AxiLiteBus.from_prefix(self.dut, prefix), self.clk, self.rst,
                          reset_active_level=not self.active_low)
        if not hasattr(self, "axil"):
            self.axil = m
        return self._throttled(m, throttle, channels=True)

    def axis_source(self, prefix: str, throttle: float | None = None) -> AxiStreamSource:
        return self._throttled(AxiStreamSource(AxiStreamBus.from_prefix(self.dut, prefix), self.clk, self.rst,
                                               reset_active_level=not self.active_low), throttle)

    def axis_sink(self, prefix: str, throttle: float | None = None) -> AxiStreamSink:
        return self._throttled(AxiStreamSink(AxiStreamBus.from_prefix(self.dut, prefix), self.clk, self.rst,
                                             reset_active_level=not self.active_low), throttle)

    def axi_ram(self, prefix: str, size: int, throttle: float | None = None) -> AxiRam:
        return self._throttled(AxiRam(AxiBus.from_prefix(self.dut, prefix), self.clk, self.rst,
                                      reset_active_level=not self.active_low, size=size), throttle, channels=True)

    # ---- clock and reset
    async def start(self, reset_cycles: int = 4, idle: tuple[str, ...] = ()):
        """Drives the inputs `idle` low, starts the clock (CLOCK_NS) and holds the reset for `reset_cycles`."""
        for name in idle:
            getattr(self.dut, name).value = 0
        cocotb.start_soon(Clock(self.clk, CLOCK_NS, unit="ns").start())
        await self.reset(reset_cycles)

    async def reset(self, cycles: int = 4):
        self.rst.value = 0 if self.active_low else 1
        await ClockCycles(self.clk, cycles)
        self.rst.value = 1 if self.active_low else 0
        await RisingEdge(self.clk)

    async def cycles(self, n: int):
        await ClockCycles(self.clk, n)

    # ---- registers through the AXI4-Lite master (64-bit values: low word first)
    async def rd(self, addr: int) -> int:
        return await self.axil.read_dword(addr)

    async def rd64(self, addr: int) -> int:
        return await self.rd(addr) | (await self.rd(addr + 4)) << 32

    async def wr(self, addr: int, value: int):
        await self.axil.write_dword(addr, value & 0xFFFFFFFF)


async def start_flow(dut, reset_cycles: int = 3, idle=("io_input_valid", "io_output_ready")) -> Tb:
    """The Tb of a Flow/Stream core, started: its handshake inputs `idle` low, the clock running, the reset pulsed."""
    tb = Tb.flow(dut)
    await tb.start(reset_cycles, idle)
    return tb
