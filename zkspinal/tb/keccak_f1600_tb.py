"""Testbench for KeccakF1600 (hw/src/zkspinal/keccak/KeccakF1600.scala): states through the core against
reference_model.keccak.keccak_f1600, under random valid/ready throttling and at full rate.  An item is
(state, tag, repeat): the core returns the tag with keccak_f1600 applied max(repeat, 1) times."""
from __future__ import annotations

import json
import os
import random

from collections import deque

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from reference_model import keccak as K
from zkspinal.sim import stream
from zkspinal.tb.base import start_flow

M64 = K.MASK64


def info() -> dict:
    from zkspinal.sim.simrun import manifest

    return manifest()[os.environ["ZK_TOP"]]


def edge_states() -> list[list[int]]:
    """All-zero, all-one, single bits at the corners, alternating patterns, lanes i (the test_speed start)."""
    states = [[0] * 25, [M64] * 25, [i for i in range(25)], [0x5555555555555555, 0xAAAAAAAAAAAAAAAA] * 12 + [1]]
    for lane, bit in [(0, 0), (0, 63), (24, 0), (24, 63), (12, 31)]:
        s = [0] * 25
        s[lane] = 1 << bit
        states.append(s)
    one_hole = [M64] * 25
    one_hole[7] = M64 ^ (1 << 17)
    states.append(one_hole)
    return states


def random_states(r: random.Random, n: int) -> list[list[int]]:
    return [[r.getrandbits(64) for _ in range(25)] for _ in range(n)]


def items_of(states, r: random.Random, meta: dict, repeat: bool = True) -> list[tuple]:
    """(state, tag, repeat) items with distinct tags; repeat counts cover 0 (means 1), 1, 2 and the maximum."""
    top = (1 << meta["repeat_width"]) - 1 if meta["repeat_width"] else 0
    reps = [0, 1, 1, 1, 2, 3, top] if repeat and top else [1]
    tags = 1 << meta["tag_width"] if meta["tag_width"] else 1
    return [(s, i % tags, r.choice(reps)) for i, s in enumerate(states)]


def bind(dut, meta: dict):
    ins = [getattr(dut, f"io_input_payload_state_{i}") for i in range(25)]
    outs = [getattr(dut, f"io_output_payload_state_{i}") for i in range(25)]

    def drive_in(item):
        state, tag, rep = item
        for sig, v in zip(ins, state):
            sig.value = v
        if meta["tag_width"]:
            dut.io_input_payload_tag.value = tag
        if meta["repeat_width"]:
            dut.io_input_payload_repeat.value = rep

    def read_out():
        return [int(s.value) for s in outs], int(dut.io_output_payload_tag.value) if meta["tag_width"] else 0

    return drive_in, read_out


async def drive(dut, items, drive_in, read_out, p_valid, p_ready, r, timeout=10_000) -> stream.StreamStats:
    """Like tb.stream.drive, but the handshakes are read after the signals settle (ReadOnly): the core's
    input ready depends combinationally on its output ready (a retiring permutation frees its slot)."""
    iv, ir, ov, orr = dut.io_input_valid, dut.io_input_ready, dut.io_output_valid, dut.io_output_ready
    todo, stats, holding, idle = deque(items), stream.StreamStats(), False, 0
    while len(stats.outputs) < len(items):
        await FallingEdge(dut.clk)
        stats.cycles += 1
        if not holding and todo and r.random() < p_valid:
            drive_in(todo.popleft())
            holding = True
        iv.value = int(holding)
        ready = r.random() < p_ready
        orr.value = int(ready)
        await ReadOnly()
        fired = False
        if holding and int(ir.value):
            holding, fired = False, True
            stats.first_in = stats.cycles if stats.first_in is None else stats.first_in
        if ready and int(ov.value):
            stats.outputs.append(read_out())
            fired = True
            stats.first_out = stats.cycles if stats.first_out is None else stats.first_out
            stats.last_out = stats.cycles
        idle = 0 if fired else idle + 1
        if idle > timeout:
            raise AssertionError(f"no handshake for {timeout} cycles: {len(stats.outputs)}/{len(items)} outputs")
    await FallingEdge(dut.clk)
    iv.value = 0
    orr.value = 0
    return stats


def check(items, outputs, meta: dict):
    """In order; except that a pipelined core returns items with fewer repeats ahead of earlier items with more
    (a recirculating state re-enters stage 0 behind them), so there the tags pair outputs with inputs: items with
    the same tag are 2^tag_width inputs apart, more than the core holds, so they keep their order."""
    assert len(outputs) == len(items)
    if meta["unrolled"] and meta["repeat_width"]:
        assert (1 << meta["tag_width"]) > meta["slots"]
        pending = {}
        for state, got_tag in outputs:
            pending.setdefault(got_tag, deque()).append((state, got_tag))
        outputs = [pending[tag].popleft() if pending.get(tag) else ([], None) for _, tag, _ in items]
    for i, ((state, tag, rep), (got, got_tag)) in enumerate(zip(items, outputs)):
        want = state
        for _ in range(max(rep, 1)):
            want = K.keccak_f1600(want)
        assert got == want and got_tag == tag, (
            f"item {i} (repeat {rep}, tag {tag}): input {[hex(v) for v in state]}\n got {[hex(v) for v in got]} tag "
            f"{got_tag}\nwant {[hex(v) for v in want]}")


@cocotb.test()
async def cocotb_random_throttled(dut):
    """Edge states and random states, random valid/ready on both ports, outputs in order and bit-exact."""
    meta = info()
    r = stream.rng()
    states = edge_states() + random_states(r, stream.env_int("ZK_OPS", 60))
    # chains: each output fed back as a later input, as test_speed does
    s = [r.getrandbits(64) for _ in range(25)]
    for _ in range(4):
        states.append(s)
        s = K.keccak_f1600(s)
    items = items_of(states, r, meta)
    drive_in, read_out = bind(dut, meta)
    await start_flow(dut)
    stats = await drive(dut, items, drive_in, read_out, 0.6, 0.5, r, timeout=50 * meta["latency"] * (1 << meta["repeat_width"]) + 100)
    check(items, stats.outputs, meta)
    perms = sum(max(rep, 1) for _, _, rep in items)
    dut._log.info(f"{os.environ['ZK_TOP']}: {len(items)} items ({perms} permutations) match the model in "
                  f"{stats.cycles} cycles")


@cocotb.test()
async def cocotb_full_rate(dut):
    """Always-valid input, always-ready output: the latency and the initiation interval the generator reports."""
    meta = info()
    r = stream.rng()
    count = stream.env_int("ZK_RATE_OPS", 3 * meta["slots"] + 8)
    items = items_of(random_states(r, count), r, meta, repeat=False)
    drive_in, read_out = bind(dut, meta)
    await start_flow(dut)
    stats = await drive(dut, items, drive_in, read_out, 1.0, 1.0, r)
    check(items, stats.outputs, meta)
    latency = stats.first_out - stats.first_in
    span = stats.last_out - stats.first_out
    interval = span / (count - 1)
    out = os.environ.get("ZK_BENCH_OUT")
    if out:
        with open(out, "w") as fh:
            json.dump({"top": os.environ["ZK_TOP"], "latency_cycles": latency, "cycles_per_permutation": interval,
                       "count": count}, fh)
    dut._log.info(f"{os.environ['ZK_TOP']}: latency {latency} cycles, {interval:.3f} cycles per permutation")
    assert latency == meta["latency"], f"latency {latency} != generator's {meta['latency']}"
    assert span == (count - 1) * meta["initiation_interval"], (
        f"{count} permutations took {span} cycles between first and last output, expected "
        f"{(count - 1) * meta['initiation_interval']}")
