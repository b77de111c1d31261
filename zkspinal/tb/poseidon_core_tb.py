"""Testbench for PoseidonCore (hw/src/zkspinal/poseidon/PoseidonCore.scala) on its own: jobs carrying a whole
initial state (any lane-0 tag, so every hash type's state), an arity index and an error code go in through a
throttled Stream; digests must leave in job order, rejected jobs (error != 0) in their place with their code and
a zero digest.  Expected digests from reference_model.poseidon's kernel on the same initial states.

Environment: ZK_TOP (set by simrun), ZK_JOBS (jobs per test, default 48).
"""
from __future__ import annotations

import os

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly

import reference_model.poseidon as P
from zkspinal.sim import stream
from zkspinal.tb.base import start_flow

PRIME = P.poseidon_constants(2).p
EDGES = [0, 1, PRIME - 1]


def info() -> dict:
    from zkspinal.sim import simrun
    return simrun.top_info(os.environ["ZK_TOP"])


def make_jobs(r, arities: list[int], lanes: int, count: int, p_bad: float):
    """(arity index, state, error, expected digest) per job; states of one arity go through the kernel together."""
    jobs = []
    for _ in range(count):
        k = r.randrange(len(arities))
        a = arities[k]
        elem = lambda: r.choice(EDGES) if r.random() < 0.15 else r.randrange(PRIME)  # noqa: E731
        state = [elem() for _ in range(a + 1)] + [0] * (lanes - a - 1)
        error = r.randrange(1, 8) if r.random() < p_bad else 0
        jobs.append([k, state, error, 0])
    for k, a in enumerate(arities):
        idx = [i for i, j in enumerate(jobs) if j[0] == k and j[2] == 0]
        kernel = P.compiled_kernel(a)
        for i, d in zip(idx, kernel([jobs[i][1][:a + 1] for i in idx])):
            jobs[i][3] = int(d)
    return jobs


async def run_jobs(dut, jobs, p_valid: float, p_ready: float, lanes: int):
    """Pushes `jobs` through with random valid and ready, checks every output in order.

    The core's input ready depends combinationally on the payload (a rejected job needs no engine slot), so the
    handshakes are sampled in the read-only phase after this cycle's inputs are written, not before (as
    zkspinal/tb/stream.py may, for cores whose ready is registered)."""
    m = info()
    r = stream.rng()
    # a throttled job can wait behind a whole ring revolution per beat of the longest program
    patience = 2 * max(m["engine_latency"]) + 1000
    todo, outputs, holding, idle, cycle = list(jobs), [], False, 0, 0
    while len(outputs) < len(jobs):
        await FallingEdge(dut.clk)
        if not holding and todo and r.random() < p_valid:
            set_input(dut, todo.pop(0), lanes)
            holding = True
        dut.io_input_valid.value = int(holding)
        dut.io_output_ready.value = ready = int(r.random() < p_ready)
        await ReadOnly()
        fired = False
        if holding and int(dut.io_input_ready.value):
            holding, fired = False, True
        if ready and int(dut.io_output_valid.value):
            outputs.append((int(dut.io_output_payload_digest.value), int(dut.io_output_payload_error.value)))
            fired = True
        idle = 0 if fired else idle + 1
        cycle += 1
        if cycle % 50_000 == 0:
            dut._log.info(f"cycle {cycle}: {len(jobs) - len(todo)} jobs in, {len(outputs)} out, "
                          f"{int(dut.io_inFlight.value)} in flight")
        assert idle <= patience, f"no handshake for {patience} cycles: {len(outputs)}/{len(jobs)} outputs"
    await FallingEdge(dut.clk)
    dut.io_input_valid.value = 0
    dut.io_output_ready.value = 0
    for i, ((_, _, error, want), got) in enumerate(zip(jobs, outputs)):
        if got != (want, error):
            near = range(max(0, i - 3), min(len(jobs), i + 4))
            context = "; ".join(f"{j}: sent arity index {jobs[j][0]} error {jobs[j][2]}, got error {outputs[j][1]}"
                                for j in near)
            raise AssertionError(f"job {i} (arity index {jobs[i][0]}, error {error}): got digest {got[0]:#x} error "
                                 f"{got[1]}, expected {want:#x} error {error} ({context})")
    await ClockCycles(dut.clk, 2)
    assert int(dut.io_inFlight.value) == 0, f"{int(dut.io_inFlight.value)} jobs still in flight after the last output"


def set_input(dut, job, lanes: int):
    dut.io_input_payload_arityIdx.value = job[0]
    dut.io_input_payload_error.value = job[2]
    for j in range(lanes):
        getattr(dut, f"io_input_payload_state_{j}").value = job[1][j]


@cocotb.test()
async def cocotb_mixed_throttled(dut):
    """Every arity interleaved, edge values, one job in six rejected, random valid and ready."""
    m = info()
    r = stream.rng()
    await start_flow(dut)
    jobs = make_jobs(r, m["arities"], m["lanes"], stream.env_int("ZK_JOBS", 48), 1 / 6)
    await run_jobs(dut, jobs, 0.6, 0.5, m["lanes"])


@cocotb.test()
async def cocotb_output_stalled(dut):
    """The output held off: the core takes exactly rob_depth jobs, then stalls its input (no loss); once the
    output opens, every held digest and the rest leave in order."""
    m = info()
    r = stream.rng()
    await start_flow(dut)
    count = m["rob_depth"] + 8
    jobs = make_jobs(r, [m["arities"][0]], m["lanes"], count, 0.0)
    # with the output closed nothing changes once every hash in the rings is done: one latency of this arity
    patience = m["engine_latency"][0] + 1000
    taken = 0
    # inputs change on the falling edge; a job with valid and ready high in the read-only phase after it is taken
    # at the next rising edge
    await FallingEdge(dut.clk)
    while taken < count:
        set_input(dut, jobs[taken], m["lanes"])
        dut.io_input_valid.value = 1
        waited = 0
        await ReadOnly()
        while not int(dut.io_input_ready.value) and waited <= patience:
            await FallingEdge(dut.clk)
            await ReadOnly()
            waited += 1
        await FallingEdge(dut.clk)
        if waited > patience:
            break
        taken += 1
        if taken % 64 == 0:
            dut._log.info(f"{taken} jobs taken with the output closed")
    dut.io_input_valid.value = 0
    # the reorder buffer plus the output register
    assert taken == m["rob_depth"] + 1, \
        f"{taken} jobs taken with the output closed, reorder buffer depth {m['rob_depth']} + the output register"
    assert int(dut.io_inFlight.value) == m["rob_depth"]
    outputs = []
    dut.io_output_ready.value = 1
    while len(outputs) < taken:
        await FallingEdge(dut.clk)
        if int(dut.io_output_valid.value):
            outputs.append((int(dut.io_output_payload_digest.value), int(dut.io_output_payload_error.value)))
    await FallingEdge(dut.clk)  # the last one is taken at the rising edge in between
    dut.io_output_ready.value = 0
    for i, got in enumerate(outputs):
        assert got == (jobs[i][3], 0), f"held job {i}: got {got[0]:#x}, expected {jobs[i][3]:#x}"
    await run_jobs(dut, jobs[taken:], 0.8, 0.8, m["lanes"])


@cocotb.test()
async def cocotb_groups_full_rate(dut):
    """Runs of one arity at full rate (the hashes of a run fill whole groups of `members`), then a run of the next
    arity, and a lone job at the end (a group cut short by the input running dry)."""
    m = info()
    r = stream.rng()
    await start_flow(dut)
    per_run = 2 * m["members"] + 1  # an odd count: the last group of every run is cut short by the arity change
    jobs = []
    for k, _ in enumerate(m["arities"]):
        for j in make_jobs(r, [m["arities"][k]], m["lanes"], per_run, 0.0):
            j[0] = k
            jobs.append(j)
    await run_jobs(dut, jobs, 1.0, 1.0, m["lanes"])
