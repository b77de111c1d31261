"""Benchmark of the MSM bucket engine (MsmAxis) against the ZPrize 2022 Hardcaml MSM (seeds 000, 004).

    python -m tests.bench.msm [--npows 12,13,14] [--adversarial-npow 12] [--top MsmAxis_vu9p_model] [--mhz 278]
                              [--no-synth] [--no-check] [--json FILE]

Per scalar set, one job on the simulated engine (Verilator driven from C++, tests/tools/msm_harness.cpp, no pauses)
with Hardcaml's layout (20 windows: 13 x 13 bits, 7 x 12 bits) on BLS12-377 G1.  The default top is the twin with
the multiplier model (MontgomeryMulModel: same products, same latency, so the same cycle counts as the real engine;
it builds in minutes instead of hours):
  cycles        start to done (bucket clear when dirty, accumulate, flush, read-out of all 67,926 buckets)
  accumulate    accumulate + flush cycles; busy = cycles the adder took an addition (= additions performed)
  busy %        busy / accumulate;  stalls = point rounds lost to a full stall FIFO;  deferred = additions that
                waited in a stall FIFO
The bucket read-out is checked against reference_model.msm.accumulate_buckets bit for bit (--no-check skips it).
Projection: one 2^26 MSM's bucket phase = 2^26 x (additions per point of the measured random set) / busy fraction
cycles, plus the bucket clear and read-out, at --mhz; four MSMs = four bucket phases (the host's post-processing
runs during the next MSM's bucket phase, as in Hardcaml's batch).  Next to Hardcaml's published 4.968 s and 20.34 s.
Resources: yosys synth_xilinx -family xcup (tests/bench/synth.py) of the adder and of the engine with the small
layout (all logic but the bucket memories); the bucket memories of Hardcaml's layout are counted as URAM288
(72 bits x 4,096 per primitive) from their shape.  Simulator output goes to build/bench/msm-sim.log.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import simrun  # noqa: E402
from reference_model import msm as M  # noqa: E402
from reference_model.msm_data import generate  # noqa: E402
from tests.bench import synth  # noqa: E402
from tests.bench.simlog import simulator_output_to_log  # noqa: E402
from tb.msm_axis_tb import scalar_set  # noqa: E402
from tools.msm_rtl import layout_of, run_engine  # noqa: E402

HARDCAML_BUCKET_S = 4.968      # seed 004: bucket aggregation on the FPGA, one 2^26 MSM
HARDCAML_4X_S = 20.34          # seed 000/004: four 2^26 MSMs, host work overlapped
HARDCAML_MHZ = 278
LOG = ROOT / "build" / "bench" / "msm-sim.log"
ADVERSARIAL = ("equal", "zero", "max", "alternating", "hammer")


def measure(top: str, name: str, npow: int, check: bool, seed: int) -> dict:
    layout = layout_of(top)
    r = random.Random(seed)
    n = 1 << npow
    points, _ = generate(npow, seed)
    records = M.precompute_points(points).records
    scalars = scalar_set(name, layout, n, r)
    t = time.time()
    with simulator_output_to_log(LOG):
        res = run_engine(top, scalars, records, seed=seed)
    sim_s = time.time() - t
    adds = sum(1 for s in scalars for d in layout.digits(s) if d)
    assert res["busy"] == adds, f"{name}: BUSY {res['busy']} != {adds} additions"
    ok = None
    if check:
        ok = res["buckets"] == M.accumulate_buckets(layout, records, scalars)
        if not ok:
            raise AssertionError(f"{name} 2^{npow}: bucket read-out differs from the model")
    return {"set": name, "npow": npow, "points": n, "additions": adds, "cycles": res["cycles"],
            "acc_cycles": res["acc_cycles"], "busy": res["busy"], "busy_frac": res["busy"] / max(1, res["acc_cycles"]),
            "stalls": res["stalls"], "deferred": res["deferred"], "starved": res["starved"],
            "other_cycles": res["cycles"] - res["acc_cycles"], "checked": ok, "sim_s": round(sim_s, 1)}


def project(row: dict, layout: M.WindowLayout, mhz: float) -> dict:
    """Bucket phase of one 2^26 MSM from a measured random run."""
    n = 1 << 26
    adds_per_point = row["additions"] / row["points"]
    acc = n * adds_per_point / row["busy_frac"]
    fixed = row["other_cycles"]  # clear (when dirty) + read-out: independent of n
    one = (acc + fixed) / (mhz * 1e6)
    return {"cycles_2_26": int(acc + fixed), "one_s": one, "four_s": 4 * one,
            "bound_s": n * layout.num_windows / (mhz * 1e6)}


def memory_estimate(layout: M.WindowLayout, n_bits: int = 377) -> dict:
    width = 4 * n_bits
    uram = sum(math.ceil(width / 72) * math.ceil(layout.buckets(j) / 4096) for j in range(layout.num_windows))
    return {"bucket_bits": layout.total_buckets * width, "uram288": uram}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench.msm", description=__doc__.split("\n")[0])
    ap.add_argument("--npows", default="12,13,14")
    ap.add_argument("--adversarial-npow", type=int, default=12)
    ap.add_argument("--sets", default=",".join(ADVERSARIAL), help="adversarial sets to run ('' for none)")
    ap.add_argument("--top", default="MsmAxis_vu9p_model")
    ap.add_argument("--mhz", type=float, default=HARDCAML_MHZ)
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    layout = layout_of(args.top)
    info = simrun.top_info(args.top)
    print(f"MSM engine {args.top}: layout {info['layout']} ({layout.total_buckets} buckets), adder latency "
          f"{info['latency']}, stall FIFOs {info['stall_depth']} deep, {info['hazard_taps']} hazard comparators")
    rows = []
    print(f"{'set':<12}{'points':>8}{'additions':>11}{'cycles':>10}{'accumulate':>12}{'busy %':>9}{'stalls':>8}"
          f"{'deferred':>10}{'checked':>9}{'sim s':>8}")
    jobs = [("random", int(x)) for x in args.npows.split(",") if x]
    jobs += [(s, args.adversarial_npow) for s in args.sets.split(",") if s]
    for name, npow in jobs:
        row = measure(args.top, name, npow, not args.no_check, args.seed + npow)
        rows.append(row)
        print(f"{name:<12}{row['points']:>8}{row['additions']:>11}{row['cycles']:>10}{row['acc_cycles']:>12}"
              f"{100 * row['busy_frac']:>8.2f}%{row['stalls']:>8}{row['deferred']:>10}{str(row['checked']):>9}"
              f"{row['sim_s']:>8}", flush=True)
    out = {"top": args.top, "rows": rows}
    randoms = [r for r in rows if r["set"] == "random"]
    if randoms:
        big = max(randoms, key=lambda r: r["points"])
        p = project(big, layout, args.mhz)
        out["projection"] = {"from": f"random 2^{big['npow']}", **p}
        print(f"\nprojected bucket phase at {args.mhz:g} MHz (busy {100 * big['busy_frac']:.2f}% from random "
              f"2^{big['npow']}): one 2^26 MSM {p['one_s']:.3f} s (bound {p['bound_s']:.3f} s at 100% busy), "
              f"4 x 2^26 {p['four_s']:.2f} s")
        print(f"Hardcaml (published, 278 MHz): one 2^26 bucket phase {HARDCAML_BUCKET_S} s, 4 x 2^26 {HARDCAML_4X_S} s "
              f"(host work overlapped); target busy >= 97%: {'met' if big['busy_frac'] >= 0.97 else 'MISSED'}")
    if not args.no_synth:
        res = {}
        with simulator_output_to_log(LOG):
            for top in ("TwistedEdwardsAdder_bls12_377_g1", "MsmAxis_small"):
                res[top] = synth.run(simrun.RTL / simrun.top_info(top)["file"], top)
        mem = memory_estimate(layout)
        out["synth"] = res
        out["memory"] = mem
        a, e = res["TwistedEdwardsAdder_bls12_377_g1"], res["MsmAxis_small"]
        print("\nyosys synth_xilinx (xcup):  DSP48E2  LUT  FF  CARRY4")
        print(f"  adder                    {a['dsp']:>6} {a['lut']:>7} {a['ff']:>7} {a['carry4']:>7}")
        print(f"  engine, small layout     {e['dsp']:>6} {e['lut']:>7} {e['ff']:>7} {e['carry4']:>7}  "
              f"(BRAM36 {e['bram36']}, URAM {e['uram']}, LUTRAM {e['lutram']})")
        print(f"  bucket memories, {info['layout']}: {mem['bucket_bits'] / 8e6:.1f} MB = {mem['uram288']} URAM288 "
              f"(VU9P: 960); DSP budget 4,500: {'met' if e['dsp'] <= 4500 else 'MISSED'}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
