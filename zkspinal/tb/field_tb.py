"""Testbench for the field cores' Stream wrappers (FieldStream): operands, model, scoreboard."""
from __future__ import annotations

import json
import os
import random

import cocotb

from reference_model import field as F
from zkspinal.paths import top_info
from zkspinal.sim import stream
from zkspinal.tb.base import start_flow

# kind -> (model(f, info, operands) -> result, operands are range-checked by the hardware)
MODELS = {
    "ModAdd": (lambda f, info, a, b: F.mod_add(f, a, b), True),
    "ModSub": (lambda f, info, a, b: F.mod_sub(f, a, b), True),
    "ModSum3": (lambda f, info, *xs: F.mod_sum(f, *xs), True),
    "ModSum27": (lambda f, info, *xs: F.mod_sum(f, *xs), True),
    "KaratsubaMul": (lambda f, info, a, b: a * b, False),
    "MontMul": (lambda f, info, a, b: F.mont_mul(f, a, b), True),
    "ConstMul": (lambda f, info, x: F.const_mul(f, x, int(info["constant"], 16)), False),
    "ToMont": (lambda f, info, x: F.to_mont(f, x), False),
    "FromMont": (lambda f, info, x: F.from_mont(f, x), False),
    "RomConstMul": (lambda f, info, x, i: F.const_mul(f, x, int(info["constants"][i], 16)), True),
}


def operand_limits(kind: str, f: F.FieldConfig, meta: dict) -> list[int]:
    """Exclusive bound of each operand the hardware accepts (RomConstMul: x < p, index < its table's size)."""
    if kind == "RomConstMul":
        return [f.p, len(meta["constants"])]
    return [f.p if MODELS[kind][1] else 1 << f.n] * meta["arity"]


def info() -> dict:
    return top_info(os.environ["ZK_TOP"])


def edge_operands(kind: str, f: F.FieldConfig, arity: int, meta: dict | None = None) -> list[tuple]:
    """Edge values: 0, 1, p-1, the Montgomery constants, results exactly p and 2p-2, maximal carries."""
    p, n = f.p, f.n
    top = (1 << n) - 1
    singles = [0, 1, 2, p - 1, p - 2, f.r_mod_p, f.r2_mod_p, (1 << (n - 1)) - 1 if (1 << (n - 1)) - 1 < p else p - 3,
               p >> 1, (p >> 1) + 1]
    if not MODELS[kind][1]:
        singles += [p, p + 1, top]  # any n-bit value is a valid operand of these cores
    if arity == 1:
        return [(x,) for x in singles]
    if kind == "RomConstMul":  # every edge x against every constant of the table
        return [(x, i) for x in singles for i in range(len(meta["constants"]))]
    if arity > 2:  # every edge value in every operand; p-1 everywhere (the largest sum); mixes of edges
        r = random.Random(arity)
        return ([(x,) * arity for x in singles] + [tuple(x if k == j else 0 for k in range(arity)) for x in singles
                                                   for j in (0, arity - 1)]
                + [tuple(r.choice(singles) for _ in range(arity)) for _ in range(4 * len(singles))])
    pairs = [(a, b) for a in singles for b in singles]
    pairs += [(1, p - 1), (p - 1, 1), (p - 1, p - 1), (p >> 1, (p >> 1) + 1)]  # a+b = p, 2p-2
    if kind == "KaratsubaMul":
        pairs += [(top, top), (top, 1), (1 << (n - 1), 1 << (n - 1))]
    return pairs


def bad_operands(kind: str, f: F.FieldConfig, lims: list[int], r: random.Random, count: int) -> list[tuple]:
    """Operands at or above their bound (>= p, or a table index past the table) for the range-checked cores (the
    hardware flags them)."""
    if not MODELS[kind][1]:
        return []
    top = (1 << f.n) - 1
    out = []
    for i in range(count):
        j = i % len(lims)
        badv = [lims[j], lims[j] + 1, top, r.randrange(lims[j], top + 1)][(i // len(lims)) % 4]
        ops = [r.randrange(lim) for lim in lims]
        ops[j] = badv
        out.append(tuple(ops))
    return out


async def run_field_core(dut, n_random: int, p_valid: float, p_ready: float, with_bad: bool = True):
    meta = info()
    kind = meta["kind"].removesuffix("Stream")
    f = F.get(meta["field"])
    model, checked = MODELS[kind]
    arity = meta["arity"]
    r = stream.rng()
    lims = operand_limits(kind, f, meta)
    ops = edge_operands(kind, f, arity, meta)
    ops += [tuple(r.randrange(lim) for lim in lims) for _ in range(n_random)]
    bad = bad_operands(kind, f, lims, r, 16) if with_bad else []
    # interleave the bad operations with good ones: the results after them must stay aligned
    for b in bad:
        ops.insert(r.randrange(len(ops) + 1), b)
    payload = [getattr(dut, f"io_input_payload_{i}") for i in range(arity)]

    def drive_in(item):
        for sig, v in zip(payload, item):
            sig.value = v

    def read_out():
        return int(dut.io_output_payload_value.value), int(dut.io_output_payload_error.value)

    await start_flow(dut)
    stats = await stream.drive(dut, ops, drive_in, read_out, p_valid, p_ready, r, timeout=20 * meta["latency"] + 100)
    n_bad = 0
    for i, (item, (value, err)) in enumerate(zip(ops, stats.outputs)):
        is_bad = checked and any(v >= lim for v, lim in zip(item, lims))
        n_bad += is_bad
        want = (0, 1) if is_bad else (model(f, meta, *item), 0)
        assert (value, err) == want, (
            f"{kind} {f.name} op {i} operands {[hex(v) for v in item]}: got value {value:#x} error {err}, "
            f"expected value {want[0]:#x} error {want[1]}")
    assert int(dut.io_errors.value) == n_bad, f"error counter {int(dut.io_errors.value)} != {n_bad} bad operations"
    dut._log.info(f"{kind} {f.name}: {len(ops)} operations ({n_bad} flagged) match the model in {stats.cycles} cycles")
    return stats


async def measure_throughput(dut, count: int):
    """Always-valid input, always-ready output: accepted operations per cycle and the stream latency."""
    meta = info()
    kind = meta["kind"].removesuffix("Stream")
    f = F.get(meta["field"])
    model, checked = MODELS[kind]
    r = stream.rng()
    lims = operand_limits(kind, f, meta)
    ops = [tuple(r.randrange(lim) for lim in lims) for _ in range(count)]
    payload = [getattr(dut, f"io_input_payload_{i}") for i in range(meta["arity"])]

    def drive_in(item):
        for sig, v in zip(payload, item):
            sig.value = v

    await start_flow(dut)
    stats = await stream.drive(dut, ops, drive_in, lambda: int(dut.io_output_payload_value.value), 1.0, 1.0, r)
    for item, got in zip(ops, stats.outputs):
        assert got == model(f, meta, *item)
    latency = stats.first_out - stats.first_in
    rate = count / (stats.last_out - stats.first_out + 1)
    dut._log.info(f"THROUGHPUT {kind} {f.name}: latency {latency} cycles, {rate:.3f} operations/cycle")
    out = os.environ.get("ZK_BENCH_OUT")
    if out:
        with open(out, "w") as fh:
            json.dump({"top": os.environ["ZK_TOP"], "latency_cycles": latency, "ops_per_cycle": rate,
                       "core_latency": meta["latency"], "count": count}, fh)
    assert rate > 0.99, f"a fully pipelined core must accept one operation per cycle, measured {rate:.3f}"
    assert latency == meta["stream_latency"], f"stream latency {latency} != {meta['stream_latency']} (core + FIFO)"
    return stats


@cocotb.test()
async def cocotb_random_throttled(dut):
    """Edge values, random operands and interleaved bad operands under random valid/ready throttling.  Icarus, an
    event-driven simulator about five times slower here, takes 500 random operations beside the same edge values and
    bad operands (it cross-checks the simulators); Verilator takes 2,000; ZK_OPS sets either."""
    default = 500 if os.environ.get("ZK_SIM") == "icarus" else 2000
    await run_field_core(dut, stream.env_int("ZK_OPS", default), 0.6, 0.6)


@cocotb.test()
async def cocotb_full_rate(dut):
    """One operation per cycle when nothing throttles; latency as the generator computed it."""
    await measure_throughput(dut, stream.env_int("ZK_RATE_OPS", 200))
