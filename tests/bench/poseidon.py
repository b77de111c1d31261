"""Benchmark of PoseidonAxis against TRIDENT (seed 001).

    python -m tests.bench.poseidon [--config c1100] [--hashes 1000] [--mhz 250] [--no-synth] [--json FILE]

For every built-in arity, a stream of --hashes random MerkleTree frames at full rate through the C++ Verilator
harness (tests/harness/poseidon_axis_main.cpp), every digest checked against the model:
  cycles/hash   steady state: (t[i] - t[i - S]) / S averaged over the outputs after the first 2 S, with S the
                ring slots of all engines (the hashes in flight; output comes in bursts of one ring population)
  latency       cycles from the first input beat to the first digest (rings empty)
  utilization   Montgomery products the hash needs (reference_model.poseidon.count_ops) / (multipliers x cycles/hash)
  Mhash/s       --mhz / cycles per hash
and yosys synth_xilinx -family xcup of the whole top, hierarchically (tests/bench/poseidon_synth.py): DSP48E2, LUT,
FF, BRAM, the deepest register-to-register logic (LUT levels, longest carry chain).  TRIDENT's published figures are printed alongside.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import poseidon_harness as H  # noqa: E402
import reference_model.poseidon as P  # noqa: E402
import simrun  # noqa: E402
from tests.bench import poseidon_synth  # noqa: E402

# seed 001 (published): hash rates on a Varium C1100 at 100 MHz with 4,108 DSP
TRIDENT_RATE = {2: 0.991e6, 8: 358e3, 11: 305e3}
TRIDENT_DSP = 4108
TARGETS = {2: 4e6, 11: 1e6}  # issue: c1100 at 250 MHz


def measure(top: str, arity: int, hashes: int, seed: int, ring: int) -> dict:
    r = random.Random(seed)
    p = P.poseidon_constants(arity).p
    pres = [[r.randrange(p) for _ in range(arity)] for _ in range(hashes)]
    want = P.digests(pres, arity)
    with tempfile.TemporaryDirectory() as d:
        inp, outp = Path(d) / "in.bin", Path(d) / "out.bin"
        H.write_frames(inp, ((x, 0) for x in pres))
        t = time.time()
        stats = H.run(top, inp, outp)
        wall = time.time() - t
        outs = list(H.read_outputs(outp))
    assert len(outs) == hashes, f"{len(outs)} outputs for {hashes} frames"
    bad = [i for i, ((dg, user, _), w) in enumerate(zip(outs, want)) if user or dg != w]
    assert not bad, f"arity {arity}: {len(bad)} digests differ from the model (first: hash {bad[0]})"
    times = [c for _, _, c in outs]
    # the rings hold `ring` hashes and every slot finishes one hash per revolution of its program, so the output
    # is bursty; hash i and hash i - ring used the same slot one after the other: average (t[i] - t[i-ring]) / ring
    # over the hashes after the first two ring populations
    window = [(times[i] - times[i - ring]) / ring for i in range(2 * ring, hashes)]
    assert window, f"{hashes} hashes do not fill the rings three times ({ring} slots)"
    steady = sum(window) / len(window)
    return {"arity": arity, "hashes": hashes, "cycles_per_hash": steady, "latency": times[0],
            "sim_cycles": stats["cycles"], "sim_seconds": wall}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench poseidon", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="c1100")
    ap.add_argument("--hashes", type=int, default=1000, help="hashes per arity (the rings must fill: > engines x slots)")
    ap.add_argument("--mhz", type=float, default=250.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--json", type=Path, default=ROOT / "build" / "bench" / "poseidon.json")
    a = ap.parse_args(argv)
    top = f"PoseidonAxis_{a.config}"
    meta = simrun.top_info(top)
    mults = meta["mont_muls"]
    print(f"{top}: {meta['engines']} engine(s) x (3 S-box + {meta['multipliers_per_engine']} constant) Montgomery "
          f"multipliers = {mults} ({meta['dsp_tiles']} DSP tiles by the generator), {meta['slots']} ring slots per "
          f"engine, {'optimized' if meta['optimized'] else 'plain'} schedule", flush=True)
    rows = []
    for arity, beats, planned in zip(meta["arities"], meta["beats_per_hash"], meta["cycles_per_hash"]):
        ring = meta["engines"] * meta["slots"]
        m = measure(top, arity, max(a.hashes, 3 * ring + 50), a.seed + arity, ring)
        ops = P.count_ops(P.poseidon_constants(arity), meta["optimized"])
        m.update({"beats": beats, "planned_cycles_per_hash": float(planned), "products": ops.mul,
                  "utilization": ops.mul / (mults * m["cycles_per_hash"]),
                  "mhash_s": a.mhz / m["cycles_per_hash"]})
        rows.append(m)
        print(f"  arity {arity}: {m['cycles_per_hash']:.2f} cycles/hash ({m['hashes']} hashes, "
              f"{m['sim_cycles']} cycles simulated in {m['sim_seconds']:.0f} s)", flush=True)
    syn = None
    if not a.no_synth:
        t = time.time()
        syn = poseidon_synth.run(simrun.RTL / meta["file"], top)
        print(f"  yosys: {time.time() - t:.0f} s", flush=True)

    print(f"\nPoseidonAxis_{a.config} at {a.mhz:.0f} MHz (cycles from Verilator simulation; TRIDENT: published, "
          f"{TRIDENT_DSP} DSP at 100 MHz)")
    print(f"{'arity':>5} {'beats':>6} {'cyc/hash':>9} {'latency':>8} {'products':>9} {'util':>6} {'Mhash/s':>8} "
          f"{'target':>7} {'TRIDENT':>8} {'x':>6}")
    for m in rows:
        tr = TRIDENT_RATE.get(m["arity"])
        tg = TARGETS.get(m["arity"]) if a.config == "c1100" else None
        tg_s = f"{tg / 1e6:.1f}" if tg else "-"
        tr_s = f"{tr / 1e6:.3f}" if tr else "-"
        x_s = f"{m['mhash_s'] * 1e6 / tr:.2f}" if tr else "-"
        print(f"{m['arity']:>5} {m['beats']:>6} {m['cycles_per_hash']:>9.2f} {m['latency']:>8} {m['products']:>9} "
              f"{m['utilization']:>6.1%} {m['mhash_s']:>8.3f} {tg_s:>7} {tr_s:>8} {x_s:>6}")
    if syn:
        print(f"yosys synth_xilinx (xcup), whole top: {syn['dsp']} DSP48E2, {syn['lut']} LUT, {syn['ff']} FF, "
              f"{syn['srl']} SRL, {syn['lutram']} LUTRAM, {syn['bram36']} BRAM36, {syn['uram']} URAM; deepest path "
              f"{syn['lut_levels']} LUT levels (in {syn['deepest_module']}), longest carry chain {syn['carry_bits']} bits")
    a.json.parent.mkdir(parents=True, exist_ok=True)
    a.json.write_text(json.dumps({"top": top, "mhz": a.mhz, "meta": meta, "arities": rows, "synth": syn}, indent=1))
    print(f"results in {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
