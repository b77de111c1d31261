"""Testbench of DspCheck (hw/src/zkspinal/field/DspCheck.scala): the DSP48E2 primitives, simulated by our model
(hw/sim/DSP48E2.v), against the same chains in the inferred form (registers, multiply, add), cycle by cycle."""
from __future__ import annotations

import os

import cocotb
from cocotb.triggers import FallingEdge

from zkspinal.tb.base import start_flow
from zkspinal.paths import manifest
from zkspinal.sim import stream

A_BITS, B_BITS = 27, 18



def operand(rng, bits: int) -> int:
    """a two's complement port value: extremes half of the time (they exercise sign extension and overflow of the
    partial sums), uniform otherwise"""
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if rng.random() < 0.5:
        return rng.choice([lo, hi, -1, 0, 1, lo + 1, hi - 1])
    return rng.randint(lo, hi)


@cocotb.test()
async def cocotb_forms_agree(dut):
    rng = stream.rng()
    cycles = int(os.environ.get("ZK_CYCLES", "3000"))
    latency = manifest()[os.environ["ZK_TOP"]]["latency"]
    outputs = manifest()[os.environ["ZK_TOP"]]["outputs"]
    await start_flow(dut, idle=())
    checked = 0
    for cycle in range(cycles):
        await FallingEdge(dut.clk)
        for i in range(4):
            getattr(dut, f"io_a_{i}").value = operand(rng, A_BITS) & ((1 << A_BITS) - 1)
        for i in range(7):
            getattr(dut, f"io_b_{i}").value = operand(rng, B_BITS) & ((1 << B_BITS) - 1)
        if cycle > latency + 2:
            for j in range(outputs):
                prim = int(getattr(dut, f"io_primitive_{j}").value)
                inf = int(getattr(dut, f"io_inferred_{j}").value)
                assert prim == inf, f"cycle {cycle} output {j}: primitive {prim:#x}, inferred {inf:#x}"
            checked += 1
    assert checked > cycles // 2
    dut._log.info(f"{checked} cycles x {outputs} outputs equal")
