"""Benchmark of the MSM bucket engine (MsmAxis) against the ZPrize 2022 Hardcaml MSM (seeds 000, 004).

    python -m zkspinal.bench.msm [--npows 12,13,14] [--adversarial-npow 12] [--top MsmAxis_vu9p_model] [--mhz MHZ]
                              [--sample-cycles 1024] [--no-synth] [--no-check] [--json FILE]

Per scalar set, one job on the simulated engine (Verilator driven from C++, sw/emu/bench_msm_axis.cpp, no pauses)
with Hardcaml's layout (20 windows: 13 x 13 bits, 7 x 12 bits) on BLS12-377 G1.  The default top is the twin with
the multiplier model (MontgomeryMulModel: same products, same latency, so the same cycle counts as the real engine;
it builds in minutes instead of hours):
  cycles        start to done (bucket clear when dirty, accumulate, flush, read-out of all 67,926 buckets)
  accumulate    accumulate + flush cycles; busy = additions issued by all adders (= additions performed)
  busy %        per adder: its BUSY / accumulate (the engine's adders own interleaved windows, MsmAxis ADDERS and
                BUSY_a registers);  stalls = cycles an addition waited for room in a retry queue;  deferred =
                additions sent to a retry queue (bucket busy);  spilled = additions into partial buckets
  over time     the harness reads BUSY, STALLS, CONSUMED, PHASE and every adder's BUSY over AXI4-Lite every
                --sample-cycles cycles while the job runs; `timeline` = each adder's busy fraction between two samples
                taken in the accumulate/flush phases (x: cycles since the first of them)
--resident SETS runs those sets again with the points in the engine's point store (card memory models of
sw/emu/zkemu_mem.h: 40 cycles to a read's first beat, 10 % of the beats held back): only the scalars stream, so the
point port's bound (three beats a point) is gone; for the half-ones and below-2^16 sets of such an engine the busy
target applies to these rows, and the streamed rows stay as the port-bound reference.
The bucket read-out (partial records merged) is checked against reference_model.msm.accumulate_buckets as curve points
(--no-check skips it).
Projection: one 2^26 MSM's bucket phase = the measured accumulate cycles of the largest random set scaled to 2^26
points, plus the bucket clear and read-out, at --mhz.  Four 2^26 MSMs end to end: the points (converted once per
point set, as the ZPrize harness allows: the same bases for every MSM of the batch) and each MSM's scalars stream
over PCIe Gen3 x16 at 12.5 GB/s while the engine accumulates (192 + 32 bytes per point), so each MSM takes the
longer of its bucket phase and its transfer; the host's post-processing (measured by the msm-host benchmark,
build/bench/msm-host.json) runs during the next MSM's bucket phase, so only the last one adds.  Next to Hardcaml's
published 4.968 s and 20.34 s and CycloneMSM's 5.66 s per MSM (zkspinal/bench/anchors.py).
Resources: yosys synth_xilinx -family xcup of the real engine (the top without _model), hierarchically
(zkspinal/synth/hier.py: every distinct module mapped once, multiplied by its instance count), with the
multiplier's and the adder's share, SRL, LUT per DSP, LUT6 sites and the deepest register-to-register logic; the
bucket memories of Hardcaml's layout are also counted as URAM288 (72 bits x 4,096 per primitive) from their shape.
Targets (a miss prints a TARGET MISSED line): every adder >= 99 % busy on random scalars, >= 90 % on the half-ones
and below-2^16 sets (BLS12-377; the half-ones set on the other curves: hot_sets); one 2^26 bucket phase <= 2.5 s
(ONE_MSM_MAX_S per curve and board), four MSMs end to end <= 11 s (BLS12-377); each adder at most 340,000
LUT1..LUT6 on BLS12-377 (ADDER_MAX_LUT: two TwistedEdwardsAdders within Hardcaml's whole design; the other curves'
tops are bounded by their share of the device and of each SLR, bench msm_curves); the whole engine at most 6,100
DSP48E2 (5,600 on the C1100), 800,000 LUT, 960 URAM, 8 LUT levels and one carry chain of at most 96 bits per path.
Simulator output goes to build/bench/msm-sim.log.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from zkspinal.paths import ROOT

from zkspinal.sim import simrun
from reference_model import msm as M, msm_formats as MF
from reference_model.msm_data import generate
from zkspinal.bench import anchors
from zkspinal.synth import fit, hier as hier_synth
from zkspinal.bench.simlog import simulator_output_to_log
from reference_model.msm_data import scalar_set
from zkspinal.tools.msm_rtl import layout_of, run_engine
from reference_model.curves import adder_of
from vivado_stub.boards import core_mhz
from vivado_stub.floorplan import uram288

LOG = ROOT / "build" / "bench" / "msm-sim.log"
ADVERSARIAL = ("half_ones", "below16", "equal", "zero", "max", "alternating", "hammer")
# sets whose every adder must stay >= 90 % busy: half-ones and below-2^16 on BLS12-377 (issue "MSM: two adders on
# one VU9P"), half-ones from the point store on the other curves (issue "MSM on BN254 and BLS12-381 G1"; their
# below-2^16 rows are printed with no target)
HOT_SETS = ("half_ones", "below16")
HOT_SETS_OF = {"bls12_377_g1": HOT_SETS}


def hot_sets(curve: str) -> tuple[str, ...]:
    return HOT_SETS_OF.get(curve, ("half_ones",))
RANDOM_MIN_BUSY, HOT_MIN_BUSY = 0.99, 0.90
FOUR_MSM_MAX_S = 11.0         # four 2^26 MSMs end to end: BLS12-377's target (the ZPrize task); none for the others
PCIE_GEN3_X16_GBPS = 12.5      # at the hardware (docs: domain.md, XDMA throughput reference)
# yosys LUT1..LUT6 (Hardcaml's whole design: 387,166 CLB LUTs): BLS12-377's adder (issue "MSM: two adders on one
# VU9P"); the other curves' issue bounds the whole top by its share of the device and of each SLR instead (fit.py)
ADDER_MAX_LUT = {"bls12_377_g1": 340_000}
ENGINE_MAX_LUT = 800_000
ENGINE_MAX_URAM = 960
MAX_LUT_LEVELS, MAX_CARRY_BITS = 8, 96
# per curve and board (the issues' targets): one 2^26 bucket phase at most this many seconds, the whole engine at
# most this many DSP48E2
ONE_MSM_MAX_S = {("bls12_377_g1", "vu9p"): 2.5, ("bn254_g1", "vu9p"): 2.5, ("bn254_g1", "c1100"): 2.8,
                 ("bls12_381_g1", "vu9p"): 5.0}
ENGINE_MAX_DSP = {"vu9p": 6_100, "c1100": 5_600}
ADDER_MODULE = {"twisted_edwards": "TwistedEdwardsAdder", "xyzz": "XyzzAdder"}


def board_of(top: str) -> str:
    """the board an MsmAxis top is built for, as its name says (vivado/bd_<board>.tcl)"""
    return "c1100" if "c1100" in top else "vu9p"


def area_targets_text(board: str, curve: str = "bls12_377_g1") -> str:
    adder = f"each adder at most {ADDER_MAX_LUT[curve]:,} LUT, " if curve in ADDER_MAX_LUT else ""
    return (f"{adder}the whole engine at most {ENGINE_MAX_DSP[board]:,} DSP48E2, "
            f"{ENGINE_MAX_LUT:,} LUT and {ENGINE_MAX_URAM} URAM288, at most {MAX_LUT_LEVELS} LUT levels and one "
            f"carry chain of at most {MAX_CARRY_BITS} bits per path")


def bytes_per_point(adder) -> int:
    """a point record of the curve and its scalar word: what one point costs on PCIe"""
    return MF.records_of(adder).point_bytes + MF.SCALAR_BYTES


def point_beats(adder) -> int:
    """beats of a point record at the engine's point port (3; 2 on BN254)"""
    return MF.records_of(adder).point_bytes // MF.BEAT_BYTES


def timeline(samples: dict) -> dict:
    """Each adder's busy fraction between consecutive register samples of the accumulate/flush phases (2, 3)."""
    cyc, phase = samples["cycle"], samples["phase"]
    adders = sorted(k for k in samples if k.startswith("adder_busy_"))
    series = [samples[k] for k in adders] or [samples["busy"]]
    acc = [i for i in range(len(cyc)) if phase[i] & 7 in (2, 3)]
    xs, fr = [], [[] for _ in series]
    for i, j in zip(acc, acc[1:]):
        if j != i + 1:
            continue
        xs.append(cyc[j] - cyc[acc[0]])
        for a, busy in enumerate(series):
            fr[a].append(((busy[j] - busy[i]) % (1 << 32)) / (cyc[j] - cyc[i]))  # BUSY's low word
    return {"every": samples["every"], "cycle": xs, "adders": fr,
            "busy_frac": [sum(v) / len(fr) for v in zip(*fr)]}


def measure(top: str, name: str, npow: int, check: bool, seed: int, sample: int = 0, resident: bool = False) -> dict:
    layout = layout_of(top)
    adder = adder_of(simrun.top_info(top)["curve"])
    r = random.Random(seed)
    n = 1 << npow
    points, _ = generate(npow, seed, curve=adder.curve)
    records = M.precompute_points(points, adder=adder).records
    scalars = scalar_set(name, layout, n, r)
    t = time.time()
    with simulator_output_to_log(LOG):
        res = run_engine(top, scalars, records, seed=seed, sample=sample, resident=resident)
    sim_s = time.time() - t
    digits = [layout.digits(s) for s in scalars]
    adds = sum(1 for ds in digits for d in ds if d)
    assert res["busy"] == adds, f"{name}: BUSY {res['busy']} != {adds} additions"
    A = len(res["adder_busy"])
    per = M.additions_per_adder(layout, scalars, A, simrun.top_info(top)["shared_windows"])
    assert res["adder_busy"] == per, f"{name}: per-adder BUSY {res['adder_busy']} != {per}"
    ok = None
    if check:
        ok = M.same_buckets(res["buckets"], M.accumulate_buckets(layout, records, scalars, adder), adder)
        if not ok:
            raise AssertionError(f"{name} 2^{npow}: bucket read-out differs from the model")
    tl = None
    if sample:
        s = res["samples"]
        assert s["cycle"] and max(s["busy"]) <= res["busy"], f"{name}: register samples beyond the final BUSY"
        tl = timeline(s)
    return {"set": name, "source": "store" if resident else "stream", "npow": npow, "points": n, "additions": adds, "cycles": res["cycles"],
            "acc_cycles": res["acc_cycles"], "busy": res["busy"], "adders": A,
            "busy_frac": res["busy"] / max(1, A * res["acc_cycles"]),
            "adder_busy_frac": [b / max(1, res["acc_cycles"]) for b in res["adder_busy"]],
            "stalls": res["stalls"], "deferred": res["deferred"], "starved": res["starved"], "spilled": res["spilled"],
            "other_cycles": res["cycles"] - res["acc_cycles"], "checked": ok, "sim_s": round(sim_s, 1), "timeline": tl}


def host_post_s() -> float | None:
    """The host's post-processing time of one MSM with Hardcaml's layout (msm-host benchmark), if measured."""
    f = ROOT / "build" / "bench" / "msm-host.json"
    if not f.exists():
        return None
    rows = [r for r in json.loads(f.read_text()) if r.get("windows") == "13x13,12x7" and "post_s" in r]
    return max(r["post_s"] for r in rows) if rows else None


def project(row: dict, layout: M.WindowLayout, mhz: float, adder=MF.DEFAULT_ADDER) -> dict:
    """One 2^26 MSM's bucket phase from a measured random run, and four MSMs end to end (module docstring)."""
    n = 1 << 26
    acc = row["acc_cycles"] * n / row["points"]  # accumulate time grows with the points (the adders' rate)
    fixed = row["other_cycles"]  # clear (when dirty) + read-out: independent of n
    one = (acc + fixed) / (mhz * 1e6)
    transfer = n * bytes_per_point(adder) / (PCIE_GEN3_X16_GBPS * 1e9)
    post = host_post_s()
    per_adder = -(-layout.num_windows // row["adders"])
    four = 4 * max(one, transfer) + (post or 0.0)
    return {"cycles_2_26": int(acc + fixed), "one_s": one, "four_s": four, "transfer_s": transfer,
            "post_s": post, "bound_s": n * per_adder / (mhz * 1e6), "adders": row["adders"]}


def memory_estimate(layout: M.WindowLayout, n_bits: int = MF.FIELD_BITS, lane_windows: list | None = None) -> dict:
    """Bucket memories by shape: every window each adder holds (lane_windows, from the manifest: a shared low window
    has a copy in every adder), 72 bits x 4,096 per URAM288; per adder too.  A bucket is its four coordinates and the
    held bit (BucketMemory)."""
    width = 4 * n_bits + 1
    lanes = lane_windows or [list(range(layout.num_windows))]
    per = [sum(uram288(width, layout.buckets(j)) for j in ws) for ws in lanes]
    return {"bucket_bits": sum(layout.buckets(j) for ws in lanes for j in ws) * width, "uram288": sum(per),
            "uram288_per_adder": per}


def area_verdicts(syn: dict, uram: int | None = None, board: str = "vu9p", curve: str = "bls12_377_g1") -> list[str]:
    """Area target checks on the hierarchical yosys result of the engine (empty when all are met); `uram`: the
    bucket memories' URAM288 by shape (yosys maps them to block RAM)."""
    bad = []
    for module in ADDER_MODULE.values():
        adder = syn.get("modules", {}).get(module)
        if adder and curve in ADDER_MAX_LUT and adder["lut"] > ADDER_MAX_LUT[curve]:
            bad.append(f"the adder ({module}) uses {adder['lut']:,} LUT > {ADDER_MAX_LUT[curve]:,}")
    if syn["lut"] > ENGINE_MAX_LUT:
        bad.append(f"{syn['top']} uses {syn['lut']:,} LUT > {ENGINE_MAX_LUT:,}")
    if syn["dsp"] > ENGINE_MAX_DSP[board]:
        bad.append(f"{syn['top']} uses {syn['dsp']:,} DSP48E2 > {ENGINE_MAX_DSP[board]:,}")
    if uram is not None and uram > ENGINE_MAX_URAM:
        bad.append(f"{syn['top']} needs {uram} URAM288 > {ENGINE_MAX_URAM}")
    if syn.get("lut_levels", 0) > MAX_LUT_LEVELS:
        bad.append(f"{syn['top']}: {syn['lut_levels']} LUT levels > {MAX_LUT_LEVELS}")
    if syn.get("carry_bits", 0) > MAX_CARRY_BITS:
        bad.append(f"{syn['top']}: a {syn['carry_bits']}-bit carry chain > {MAX_CARRY_BITS}")
    if syn.get("chains_per_path", 0) > 1:
        ends = syn.get("depth_pass", {}).get("multi_chain_ends", [])
        bad.append(f"{syn['top']}: {syn['chains_per_path']} carry chains on one path > 1"
                   + (f" (into {', '.join(ends[:6])})" if ends else ""))
    return bad


def rate_verdicts(rows: list, projection: dict | None, max_one_s: float = 2.5,
                  max_four_s: float | None = FOUR_MSM_MAX_S, hot: tuple[str, ...] = HOT_SETS) -> list[str]:
    """Busy and time targets on the measured rows (empty when all are met); max_one_s: the curve's and board's
    target for one 2^26 bucket phase (ONE_MSM_MAX_S); max_four_s: four MSMs end to end (None: no target); hot: the
    sets with the 90 % busy target (hot_sets(curve))."""
    bad = []
    stored = {(r["set"], r["npow"]) for r in rows if r.get("source") == "store"}
    for r in rows:
        if r.get("source", "stream") == "stream" and (r["set"], r["npow"]) in stored and r["set"] in hot:
            continue  # an engine with a point store runs these from it: its streamed row is the port-bound reference
        need = RANDOM_MIN_BUSY if r["set"] == "random" else HOT_MIN_BUSY if r["set"] in hot else None
        if need is not None and min(r["adder_busy_frac"]) < need:
            bad.append(f"{r['set']} 2^{r['npow']} ({r.get('source', 'stream')}): adder busy {', '.join(f'{b:.1%}' for b in r['adder_busy_frac'])}"
                       f" (each must be >= {need:.0%})")
    if projection:
        if projection["one_s"] > max_one_s:
            bad.append(f"one 2^26 bucket phase {projection['one_s']:.3f} s > {max_one_s} s")
        if max_four_s is not None and projection["four_s"] > max_four_s:
            bad.append(f"four 2^26 MSMs {projection['four_s']:.2f} s > {max_four_s} s")
    return bad


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m zkspinal.bench.msm", description=__doc__.split("\n")[0])
    ap.add_argument("--npows", default="12,13,14")
    ap.add_argument("--adversarial-npow", type=int, default=12)
    ap.add_argument("--sets", default=",".join(ADVERSARIAL), help="adversarial sets to run ('' for none)")
    ap.add_argument("--top", default="MsmAxis_vu9p_model")
    ap.add_argument("--mhz", type=float, default=None,
                    help="clock for the projections (default: the core clock of the top's board design)")
    ap.add_argument("--sample-cycles", type=int, default=1024, help="register samples for the busy timeline (0: none)")
    ap.add_argument("--resident", default="",
                    help="sets run again with the points in the point store (tops with one; e.g. half_ones,below16,random:"
                         " random at the smallest --npows size, the others at --adversarial-npow)")
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    return ap


def real_top(twin: str) -> str:
    """The real engine of a multiplier-model twin (the top itself when it is not one)."""
    return twin[:-len("_model")] if twin.endswith("_model") else twin


def synth_targets(argv: list[str]) -> list[tuple[str, str]]:
    """The yosys run main(argv) asks for: the real top of --top, hierarchically (report.py starts it early)."""
    args = parser().parse_args(argv)
    return [] if args.no_synth else [("hier", real_top(args.top))]


def main(argv=None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    layout = layout_of(args.top)
    info = simrun.top_info(args.top)
    adder, board = adder_of(info["curve"]), board_of(args.top)
    if args.mhz is None:
        args.mhz = core_mhz(board)
    max_one_s = ONE_MSM_MAX_S.get((info["curve"], board), 2.5)
    print(f"MSM engine {args.top} ({info['curve']}, {board}): layout {info['layout']} ({layout.total_buckets} buckets), {info['adders']} "
          f"adder(s) of latency {info['latency']} (windows {info['lane_windows']}), retry queues "
          f"{info['retry_depth']} deep, {info['partial_slots']} partial buckets per adder, "
          f"{info['hazard_stages']} hazard comparators")
    rows = []
    print(f"{'set':<12}{'points':>8}{'additions':>11}{'cycles':>10}{'accumulate':>12}{'busy % per adder':>20}"
          f"{'stalls':>8}{'deferred':>10}{'spilled':>9}{'checked':>9}{'sim s':>8}")
    npows = [int(x) for x in args.npows.split(",") if x]
    jobs = [("random", n, False) for n in npows]
    jobs += [(s, args.adversarial_npow, False) for s in args.sets.split(",") if s]
    stored = [s for s in args.resident.split(",") if s]
    if stored and not info.get("point_store"):
        ap.error(f"--resident: {args.top} has no point store")
    jobs += [(s, min(npows) if s == "random" and npows else args.adversarial_npow, True) for s in stored]
    for name, npow, resident in jobs:
        row = measure(args.top, name, npow, not args.no_check, args.seed + npow, args.sample_cycles, resident)
        rows.append(row)
        busy = " ".join(f"{100 * b:.2f}" for b in row["adder_busy_frac"])
        label = f"{name}/store" if resident else name
        print(f"{label:<12}{row['points']:>8}{row['additions']:>11}{row['cycles']:>10}{row['acc_cycles']:>12}"
              f"{busy:>20}{row['stalls']:>8}{row['deferred']:>10}{row['spilled']:>9}{str(row['checked']):>9}"
              f"{row['sim_s']:>8}", flush=True)
    out = {"top": args.top, "curve": info["curve"], "board": board, "mhz": args.mhz, "layout": info["layout"], "windows": layout.num_windows,
           "buckets": layout.total_buckets, "adder_latency": info["latency"], "adders": info["adders"],
           "shared_windows": info["shared_windows"], "partials": info["partials"], "rows": rows}
    randoms = [r for r in rows if r["set"] == "random" and r["source"] == "stream"]
    if randoms:
        big = max(randoms, key=lambda r: r["points"])
        p = project(big, layout, args.mhz, adder)
        out["projection"] = {"from": f"random 2^{big['npow']}", **p}
        post = "not measured" if p["post_s"] is None else f"{p['post_s']:.3f} s"
        print(f"\nprojected at {args.mhz:g} MHz (from random 2^{big['npow']}): one 2^26 bucket phase "
              f"{p['one_s']:.3f} s (bound {p['bound_s']:.3f} s at 100% busy); four 2^26 MSMs end to end "
              f"{p['four_s']:.2f} s (each MSM: max(bucket phase, {p['transfer_s']:.2f} s of PCIe Gen3 x16 at "
              f"{PCIE_GEN3_X16_GBPS} GB/s), plus the last post-processing, {post})")
        h = anchors.HARDCAML
        print(f"{h['source']} (published, {h['mhz']} MHz): one 2^26 bucket phase {h['bucket_phase_s']} s, 4 x 2^26 "
              f"{h['four_msm_s']} s (host work overlapped)")
    missed = rate_verdicts(rows, out.get("projection"), max_one_s,
                           FOUR_MSM_MAX_S if info["curve"] == "bls12_377_g1" else None, hot_sets(info["curve"]))
    fit_misses: list[str] = []
    if not args.no_synth:
        real = real_top(args.top)
        with simulator_output_to_log(LOG):
            syn = hier_synth.run(simrun.RTL / simrun.top_info(real)["file"], real)
        mem = memory_estimate(layout, n_bits=info["n"], lane_windows=info["lane_windows"])
        adder_syn = syn["modules"][ADDER_MODULE[adder.kind]]
        mul = syn["modules"]["MontgomeryMul"]
        out["synth"] = {k: v for k, v in syn.items() if k not in ("depth_per_module",)}
        out["memory"] = mem
        print(f"\nyosys synth_xilinx (xcup) of {real}, hierarchically (zkspinal/synth/hier.py):")
        print(f"  {'':<30}{'DSP48E2':>8}{'LUT':>10}{'SRL':>8}{'LUT/DSP':>8}{'LUT6 sites':>12}{'FF':>10}{'BRAM36':>8}"
              f"{'URAM':>6}  depth")
        for label, r in ((f"Montgomery multiplier (x{mul['instances']})", mul),
                         (f"adder ({ADDER_MODULE[adder.kind]}, x{adder_syn['instances']})", adder_syn),
                         ("whole engine", syn)):
            ratio = anchors.lut_per_dsp(r["lut"], r["dsp"])
            print(f"  {label:<30}{r['dsp']:>8}{r['lut']:>10}{r['srl']:>8}{str(ratio):>8}{r['lut_sites']:>12}"
                  f"{r['ff']:>10}{r['bram36']:>8}{r['uram']:>6}  {r['lut_levels']} LUT levels, "
                  f"{r['carry_bits']}-bit carry chain")
        print(f"  deepest register-to-register logic in {syn['deepest_module']}; at most "
              f"{syn.get('chains_per_path', 0)} carry chain(s) on one path")
        print(f"  bucket memories, {info['layout']} on {info['adders']} adder(s) (shared windows copied): "
              f"{mem['bucket_bits'] / 8e6:.1f} MB = {mem['uram288']} URAM288 by shape ("
              f"{' + '.join(map(str, mem['uram288_per_adder']))}; VU9P: 960, 320 per SLR); VU9P LUTs 1,182,240: "
              f"{'met' if syn['lut_sites'] <= 1182240 else 'MISSED'} by LUT6 sites")
        missed += area_verdicts(syn, mem["uram288"], board, info["curve"])
        hier_synth.print_memories(syn)
        rows_fit, fit_misses = fit.check_and_record(real, board, syn, simrun.top_info(real)["md5"], info["adders"],
                                                    verilog=simrun.RTL / simrun.top_info(real)["file"])
        fit.print_table(real, board, rows_fit)  # prints fit_misses
        out["fit"] = {"board": board, "tops": {real: rows_fit}}
    for m in missed:
        print(f"TARGET MISSED: {m}")
    for r in rows:
        if r["set"] in HOT_SETS and r["source"] == "stream":
            # the point port takes a point per POINT_BEATS cycles: with few non-zero digits per point, that is the
            # bound on the adders' busy fraction, whatever the scheduler does
            bound = min(1.0, r["additions"] / (r["adders"] * r["points"] * point_beats(adder)))
            r["port_bound_frac"] = bound
            print(f"NOTE {r['set']} 2^{r['npow']}: {r['additions'] / r['points']:.2f} additions per point; the point "
                  f"port ({point_beats(adder)} beats a point) bounds each adder at {bound:.1%} busy; measured "
                  f"{min(r['adder_busy_frac']):.1%} (lowest adder) = {min(r['adder_busy_frac']) / bound:.0%} of it; "
                  f"over PCIe Gen3 x16 ({bytes_per_point(adder)} bytes a point) the bound is "
                  f"{min(1.0, r['additions'] / r['points'] * PCIE_GEN3_X16_GBPS * 1e9 / bytes_per_point(adder) / (r['adders'] * args.mhz * 1e6)):.1%} at {args.mhz:g} MHz")
    out["missed"] = missed + fit_misses
    if not missed and not fit_misses:
        print("all MSM targets met (busy, projection" + ("" if args.no_synth else f", {area_targets_text(board, info['curve'])}") + ")")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
