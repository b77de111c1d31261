"""Throttled valid/ready stream driving with a scoreboard, for SpinalHDL Stream ports (io_<name>_valid/ready/payload*).

One coroutine does everything on the falling clock edge, when the DUT's registered outputs are settled: it
decides this cycle's input valid and output ready at random, and records the handshakes that the next rising
edge will perform.  (The cores' input ready and output valid never depend combinationally on the other
side's signals, so the values sampled here are the ones the edge sees.)
"""
from __future__ import annotations

import os
import random
from collections import deque
from dataclasses import dataclass, field

import cocotb
from cocotb.triggers import FallingEdge


def rng() -> random.Random:
    return random.Random(cocotb.RANDOM_SEED)


@dataclass
class StreamStats:
    cycles: int = 0
    first_in: int | None = None
    first_out: int | None = None
    last_out: int | None = None
    outputs: list = field(default_factory=list)


async def drive(dut, items, drive_in, read_out, p_valid=0.7, p_ready=0.7, r: random.Random | None = None,
                timeout: int = 10_000, inp="io_input", outp="io_output") -> StreamStats:
    """Pushes `items` through the DUT; drive_in(item) sets the input payload, read_out() reads the output
    payload.  Returns every output in order with cycle counts.  Fails when no handshake happens for
    `timeout` cycles (a hang)."""
    r = r or rng()
    iv, ir = getattr(dut, f"{inp}_valid"), getattr(dut, f"{inp}_ready")
    ov, orr = getattr(dut, f"{outp}_valid"), getattr(dut, f"{outp}_ready")
    todo = deque(items)
    expected = len(items)
    stats = StreamStats()
    holding = False
    idle = 0
    iv.value = 0
    orr.value = 0
    while len(stats.outputs) < expected:
        await FallingEdge(dut.clk)
        stats.cycles += 1
        if not holding and todo and r.random() < p_valid:
            drive_in(todo.popleft())
            holding = True
        iv.value = 1 if holding else 0
        ready = r.random() < p_ready
        orr.value = 1 if ready else 0
        fired = False
        if holding and int(ir.value):
            holding = False
            fired = True
            if stats.first_in is None:
                stats.first_in = stats.cycles
        if ready and int(ov.value):
            stats.outputs.append(read_out())
            fired = True
            if stats.first_out is None:
                stats.first_out = stats.cycles
            stats.last_out = stats.cycles
        idle = 0 if fired else idle + 1
        if idle > timeout:
            raise AssertionError(f"no handshake for {timeout} cycles: {len(stats.outputs)}/{expected} outputs")
    await FallingEdge(dut.clk)
    iv.value = 0
    orr.value = 0
    return stats


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))
