"""The drive-and-check loop of a bucket adder testbench (TwistedEdwardsAdder, XyzzAdder: a Flow in, a Flow out, no
ready): each case (S, Q, negate) is sent when a random draw passes the gap probability, and each result must appear
exactly `latency` cycles after its input, in order, equal to expect(S, Q, negate)."""
from __future__ import annotations

import random
from collections import deque

from cocotb.triggers import FallingEdge, RisingEdge


async def drive_and_check(dut, cases, expect, latency: int, gap: float, r: random.Random) -> None:
    pending: deque = deque()  # (cycle the result is due, expected, case)
    cycle, sent, checked = 0, 0, 0
    while checked < len(cases):
        await FallingEdge(dut.clk)
        if int(dut.io_output_valid.value):
            assert pending and pending[0][0] == cycle, f"cycle {cycle}: unexpected output (due {pending and pending[0][0]})"
            _, want, case = pending.popleft()
            got = tuple(int(getattr(dut, f"io_output_payload_{i}").value) for i in range(4))
            assert got == want, f"addition {checked} {case}: got {got}, want {want}"
            checked += 1
        else:
            assert not pending or pending[0][0] != cycle, f"cycle {cycle}: result missing"
        if sent < len(cases) and r.random() >= gap:
            S, Q, neg = cases[sent]
            for i in range(4):
                getattr(dut, f"io_input_payload_s_{i}").value = S[i]
            for i in range(3):
                getattr(dut, f"io_input_payload_q_{i}").value = Q[i]
            dut.io_input_payload_negate.value = int(neg)
            dut.io_input_valid.value = 1
            pending.append((cycle + latency, expect(S, Q, neg), (S, Q, neg)))
            sent += 1
        else:
            dut.io_input_valid.value = 0
        await RisingEdge(dut.clk)
        cycle += 1
        assert cycle < 10 * (len(cases) + latency) + 1000, "adder stopped producing results"
