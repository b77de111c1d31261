"""Shared pieces of the AXI testbenches (tops with the system port convention: clock `aclk`, synchronous
active-low reset `aresetn`): the clock and reset, random pause generators for cocotbext-axi ports, and register
access through a cocotbext-axi AXI4-Lite master."""
from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge


def pauses(r: random.Random, p: float):
    """An endless pause generator for cocotbext-axi (pause with probability p each cycle), seeded from r."""
    own = random.Random(r.getrandbits(32))
    while True:
        yield own.random() < p


async def start_aclk(dut, reset_cycles: int = 4, period_ns: int = 4):
    """Starts `aclk` (250 MHz by default) and holds `aresetn` low for `reset_cycles` cycles."""
    cocotb.start_soon(Clock(dut.aclk, period_ns, unit="ns").start())
    dut.aresetn.value = 0
    await ClockCycles(dut.aclk, reset_cycles)
    dut.aresetn.value = 1
    await RisingEdge(dut.aclk)


def throttle_lite(axil, r: random.Random, p: float) -> None:
    """Random pauses (probability p per cycle) on all five channels of an AxiLiteMaster."""
    for ch in (axil.write_if.aw_channel, axil.write_if.w_channel, axil.write_if.b_channel, axil.read_if.ar_channel,
               axil.read_if.r_channel):
        ch.set_pause_generator(pauses(r, p))


class LiteRegs:
    """32-bit register access of a testbench whose AxiLiteMaster is `self.axil` (64-bit values: low word first)."""

    async def rd(self, addr: int) -> int:
        return await self.axil.read_dword(addr)

    async def rd64(self, addr: int) -> int:
        return await self.rd(addr) | (await self.rd(addr + 4)) << 32

    async def wr(self, addr: int, value: int):
        await self.axil.write_dword(addr, value & 0xFFFFFFFF)
