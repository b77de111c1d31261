"""Shared pieces of the AXI testbenches (tops with the system port convention: clock `aclk`, synchronous
active-low reset `aresetn`): the clock and reset, and random pause generators for cocotbext-axi ports."""
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
