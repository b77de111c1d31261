"""PoseidonAxis (hw/src/zkspinal/poseidon/PoseidonAxis.scala) against reference_model.poseidon.

cocotb (zkspinal/tb/poseidon_axis_tb.py, cocotbext-axi source/sink with random pauses on both ports): neptune's known
answers, edge values (0, 1, p-1), header frames (ConstantLength, Custom), random preimages of every built-in arity
interleaved in one stream, every malformed-frame kind between good frames (flagged beats, AXI4-Lite counters),
reset in mid-stream.  C++ harness (sw/emu/bench_poseidon_axis.cpp): a throttled mixed stream with malformed
frames (outputs checked against the model's kernel) and the million-hash soak (checked against neptune), both in the
long tier (the c1100 build is long).

Verilator only: Icarus runs one 255-bit Montgomery multiplier at ~60 cycles/s on this machine (Verilator:
~190,000), and one hash on the small configuration takes 38,000 (arity 2) to 217,000 (arity 11) cycles.
"""
from __future__ import annotations

import concurrent.futures
import os
import random
from pathlib import Path

import pytest

from zkspinal.sim import poseidon_harness as H
import reference_model.contract as C
import reference_model.poseidon as P
from zkspinal import refs
from zkspinal.sim import simrun

PRIME = P.poseidon_constants(2).p
ERR_RANGE, ERR_ARITY, ERR_LENGTH = C.POSEIDON_ERROR_RANGE, C.POSEIDON_ERROR_ARITY, C.POSEIDON_ERROR_LENGTH


def test_poseidon_axis():
    simrun.run("PoseidonAxis_small", "zkspinal.tb.poseidon_axis_tb", "verilator")


@pytest.mark.long
def test_poseidon_axis_plain():
    """The plain schedule (arities 2 and 4) through the same testbench."""
    simrun.run("PoseidonAxis_small_plain", "zkspinal.tb.poseidon_axis_tb", "verilator")


def mixed_stream(r: random.Random, arities: list[int], count: int, bad_every: int, longest_run: int = 1):
    """(frames, expected) for `count` frames: random MerkleTree preimages of every arity (edge values with
    probability 1/8 per element) and, every `bad_every` frames, a malformed one.  The arity is drawn afresh after a
    run of 1 to `longest_run` frames (uniform): 1 changes it at random every frame, longer runs let the engines
    fill whole groups as a tree builder's stream does, and still change arity every few frames."""
    lanes = max(arities) + 1
    not_built = [a for a in range(1, lanes) if a not in arities]
    edges = [0, 1, PRIME - 1]
    frames, kinds = [], []
    run_left, run_arity = 0, arities[0]
    for i in range(count):
        if longest_run > 1:
            if run_left == 0:
                run_left, run_arity = r.randint(1, longest_run), r.choice(arities)
            run_left -= 1
        if bad_every and i % bad_every == bad_every - 1:
            k = r.randrange(3)
            if k == 0:
                a = r.choice(arities)
                pre = [r.randrange(PRIME) for _ in range(a)]
                pre[r.randrange(a)] = r.randrange(PRIME, 1 << 256)
                frames.append((pre, 0)); kinds.append(("bad", ERR_RANGE))
            elif k == 1 and not_built:
                frames.append(([r.randrange(PRIME) for _ in range(r.choice(not_built))], 0)); kinds.append(("bad", ERR_ARITY))
            else:
                frames.append(([r.randrange(PRIME) for _ in range(lanes + r.randrange(4))], 0))
                kinds.append(("bad", ERR_ARITY | ERR_LENGTH))
        else:
            a = run_arity if longest_run > 1 else r.choice(arities)
            pre = [r.choice(edges) if r.random() < 0.125 else r.randrange(PRIME) for _ in range(a)]
            frames.append((pre, 0)); kinds.append(("good", a))
    return frames, kinds


def check_stream(top: str, frames, kinds, tmp: Path, pause: float, seed: int, jobs: int = 1,
                 reference=None) -> dict:
    """Runs the frames through the harness of `top` and checks every output: digests against `reference`
    (preimages, arity -> digests; default the model's kernel on `jobs` processes), malformed frames flagged with their
    code, the core's counters."""
    reference = reference or (lambda pre, a: P.digests(pre, a, jobs=jobs))
    tmp.mkdir(parents=True, exist_ok=True)
    inp, outp = tmp / "in.bin", tmp / "out.bin"
    H.write_frames(inp, frames)
    stats = H.run(top, inp, outp, pause, pause, seed)
    by_arity: dict[int, list[int]] = {}
    for i, (kind, a) in enumerate(kinds):
        if kind == "good":
            by_arity.setdefault(a, []).append(i)
    want = {}
    for a, idx in by_arity.items():
        for i, d in zip(idx, reference([frames[i][0] for i in idx], a), strict=True):
            want[i] = (d, 0)
    for i, (kind, code) in enumerate(kinds):
        if kind == "bad":
            want[i] = (0, code)
    n = 0
    for i, (digest, user, _) in enumerate(H.read_outputs(outp)):
        assert (digest, user) == want[i], (f"frame {i} ({kinds[i]}): got {digest:#x} tuser {user}, expected "
                                           f"{want[i][0]:#x} tuser {want[i][1]}; replay with seed {seed}")
        n += 1
    assert n == len(frames), f"{n} outputs for {len(frames)} frames"
    bad = sum(1 for k, _ in kinds if k == "bad")
    assert (stats["frames_in"], stats["digests_out"], stats["flagged_out"], stats["in_flight"]) == \
        (len(frames), len(frames) - bad, bad, 0), stats
    return stats


@pytest.mark.long  # the c1100 harness build (20 Montgomery multipliers) takes too long for the CI tier
def test_poseidon_harness_mixed(tmp_path):
    """A throttled stream of every arity with malformed frames through the C++ harness (c1100 configuration, the
    harness build the benchmark, the soak and the hash tool share)."""
    top = "PoseidonAxis_c1100"
    seed = simrun.seed_from_env()
    frames, kinds = mixed_stream(random.Random(seed), simrun.top_info(top)["arities"], 240, 12)
    check_stream(top, frames, kinds, tmp_path, 0.3, seed)


@pytest.mark.long
def test_poseidon_soak(tmp_path):
    """ZK_SOAK_HASHES (default 1,000,000) frames, every arity in runs of 1 to 32 frames, 1 in 1,000 malformed, 5 %
    throttling on both ports, in chunks of 100,000 frames, ZK_SOAK_JOBS (default: the CPU count) chunks at a time,
    each its own harness run (from reset) with its own seed (SEED + its first frame's index); zero mismatches against
    neptune (tests/refs/neptune, an independent reference).  ZK_SOAK_FROM (a multiple of 100,000) skips the chunks
    before that frame: a soak stopped part way resumes with the same SEED.  The top is the PC2 profile's simulation
    twin by default (the multiplier model: same schedule, same cycles; ZK_SOAK_TOP names another, e.g.
    PoseidonAxis_arity2_model, or a real top, about 50 times slower here): this soaks the engines, reorder buffer and
    framing, while the real multiplier has its own million-product soak (tests/test_field_montmul.py) and runs inside
    the real tops in test_poseidon_harness_mixed and test_bitstream_top_long."""
    top = os.environ.get("ZK_SOAK_TOP", "PoseidonAxis_pc2_model")
    total = int(os.environ.get("ZK_SOAK_HASHES", "1000000"))
    jobs = int(os.environ.get("ZK_SOAK_JOBS", str(os.cpu_count() or 1)))
    first = int(os.environ.get("ZK_SOAK_FROM", "0"))
    seed = simrun.seed_from_env()
    arities = simrun.top_info(top)["arities"]
    H.build(top)
    refs.neptune_ref()
    chunk = 100_000
    assert first % chunk == 0 and 0 <= first < total, f"ZK_SOAK_FROM={first}: a multiple of {chunk} below {total}"

    def soak_chunk(start: int) -> dict:
        n, chunk_seed = min(chunk, total - start), seed + start
        frames, kinds = mixed_stream(random.Random(chunk_seed), arities, n, 1000, longest_run=32)
        stats = check_stream(top, frames, kinds, tmp_path / f"chunk{start}", 0.05, chunk_seed,
                             reference=refs.neptune_digests)
        print(f"soak {top}: frames {start}..{start + n - 1} ok (chunk seed {chunk_seed}), {stats['cycles']} cycles",
              flush=True)
        return stats

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(soak_chunk, range(first, total, chunk)))
    assert sum(r["frames_in"] for r in results) == total - first
