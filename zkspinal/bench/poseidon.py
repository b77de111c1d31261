"""Benchmark of PoseidonAxis against TRIDENT (seed 001).

    python -m zkspinal.bench.poseidon [--config pc2] [--also arity2,small] [--synth-also arity2] [--hashes 1000]
                                   [--mhz MHZ] [--real-sim] [--no-synth] [--no-sweep] [--json FILE]

For every built-in arity of --config (and of each --also configuration), a stream of --hashes random MerkleTree
frames at full rate through the C++ Verilator harness (sw/emu/bench_poseidon_axis.cpp), every digest checked
against the model.  The cycles come from the configuration's simulation twin PoseidonAxis_<config>_model when it
exists (the multiplier model: same products, same latency, so the same cycle for every output; the bench checks
that both elaborations report the same slots, beats and latencies) because the twin builds in seconds; --real-sim
simulates the real top instead.
  cycles/hash   steady state: (t[i] - t[i - S]) / S averaged over the outputs after the first 2 S, with S the
                ring slots of all engines (the hashes in flight; output comes in bursts of one ring population);
                checked against the generator's schedule, beats per hash / engines
  latency       cycles from the first input beat to the first digest (rings empty)
  utilization   modular products one hash takes on the hardware (the generator's products_per_hash: 3 per S-box
                evaluation plus the constant products it issues; the last round computes only the digest's column)
                / (multipliers x cycles/hash), multipliers = the S-box units' Montgomery multipliers + the constant
                multipliers
  Mhash/s       --mhz / cycles per hash
Sweep (--no-sweep skips it): the generator's own schedule for a grid of configurations (engines x constant
multipliers per engine) from `hw.runMain zkspinal.poseidon.PoseidonSweep` (no Verilog emitted; cached under
build/bench by the md5 of the Scala sources and the constants): beats per hash per arity and DSP tiles, so
cycles/hash = beats / engines, not simulated; the bench checks that the sweep's figures equal the manifest's for
every measured configuration.
yosys synth_xilinx -family xcup of the whole --config top (and each --synth-also one), hierarchically
(zkspinal/synth/hier.py): DSP48E2, LUT, SRL, FF, BRAM, the deepest register-to-register logic (LUT levels,
longest carry chain).  TRIDENT's published figures (zkspinal/bench/anchors.py) are printed alongside.  Targets: rates
(TARGETS) and multiplier utilization (MIN_UTILIZATION) per profile and arity, each profile's whole top within
AREA_LIMITS, the c1100 top within MAX_LUT_PER_DSP; a miss prints a TARGET MISSED line.
PC2 (zkspinal/bench/pc2.py): the Poseidon time of Filecoin's PC2 for one 32 GiB sector at the measured rates and at
TRIDENT's published ones (the report adds neptune on this CPU from the poseidon-model bench).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import random
import sys
import tempfile
import time
from pathlib import Path

from zkspinal.paths import ROOT

from zkspinal.sim import poseidon_harness as H
import reference_model.poseidon as P
from zkspinal.sim import rtl, simrun
from zkspinal.bench import anchors, pc2
from zkspinal.synth import fit, hier as hier_synth
from vivado_stub.boards import core_mhz

TRIDENT = anchors.TRIDENT
# hashes per second at --mhz by configuration and arity (issue 21: the C1100 profiles; c1100: the earlier issue)
TARGETS = {"pc2": {8: 3.5e6, 11: 2.5e6}, "arity2": {2: 10e6}, "c1100": {2: 4e6, 11: 1e6}}
# issue 21: at every arity a profile serves, at least this share of its multipliers busy
MIN_UTILIZATION = {"pc2": 0.9, "arity2": 0.9}
# issue "Field multipliers at half the LUTs": the whole top's yosys LUT1..LUT6 per DSP48E2 (TRIDENT: 130)
MAX_LUT_PER_DSP = {"PoseidonAxis_c1100": 110}
# issue 21: each profile's whole top (the card also holds the XDMA platform); its LUTs, BRAM and URAM against the
# C1100's budget: zkspinal/synth/fit.py
AREA_LIMITS = {f"PoseidonAxis_{c}": {"dsp": 5500, "lut_levels": 8, "carry_bits": 96,
                                     "chains_per_path": 1} for c in ("pc2", "arity2")}
# the board every PoseidonAxis top is built for (vivado/bd_c1100.tcl)
BOARD = "c1100"
NEPTUNE = ROOT / "build" / "refs" / "neptune" / "release" / "neptune-ref"
# what PoseidonSweep's output depends on: (directory, file pattern)
SWEEP_SOURCES = [(ROOT / "hw" / "src" / "zkspinal" / d, "*.scala") for d in ("field", "poseidon")] + [
    (ROOT / "constants" / "poseidon", "*")]


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


def print_pc2(measured: list, mhz: float) -> None:
    print(f"PC2 of one 32 GiB sector: {pc2.work_text()}")
    for res in measured:
        rates = {m["arity"]: m["mhash_s"] * 1e6 for m in res["arities"]}
        s = pc2.seconds(rates)
        if s is not None:
            print(f"  {res['top']} at {mhz:.0f} MHz: {s / 60:.1f} min of Poseidon per sector (target <= 9 min)")
    print(f"  TRIDENT (published rates): {pc2.seconds(TRIDENT['hash_per_s']) / 60:.1f} min")


def sweep(out_dir: Path, grid: list[str] = ()) -> dict:
    """The generator's schedule for a grid of configurations (PoseidonSweep; `grid`: its --members/--units/
    --multipliers arguments, its default grid when empty), cached by the md5 of its inputs and the grid."""
    h = hashlib.md5(" ".join(grid).encode())
    for d, pattern in SWEEP_SOURCES:
        for f in sorted(x for x in d.rglob(pattern) if x.is_file()):
            h.update(f.relative_to(ROOT).as_posix().encode() + f.read_bytes())
    cache = out_dir / f"poseidon-sweep-{h.hexdigest()[:12]}.json"
    if not cache.exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(".tmp")
        p = subprocess.run([str(ROOT / "mill"), "--no-daemon", "hw.runMain", "zkspinal.poseidon.PoseidonSweep",
                            "--out", str(tmp), *grid], cwd=ROOT, capture_output=True, text=True)
        if p.returncode != 0 or not tmp.exists():
            raise RuntimeError(f"PoseidonSweep failed ({p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
        tmp.rename(cache)
    data = json.loads(cache.read_text())
    for c in data["configs"]:
        c["cycles_per_hash"] = [b / (c["engines"] * c["members"]) for b in c["beats_per_group"]]
    return data


def measure_config(config: str, hashes: int, seed: int, real_sim: bool, mhz: float) -> dict:
    """Cycles per hash of every arity of PoseidonAxis_<config> (from its _model twin unless real_sim)."""
    top = f"PoseidonAxis_{config}"
    meta = simrun.top_info(top)
    mults = meta["mont_muls"] + meta["const_muls"]
    print(f"{top}: {meta['engines']} engine(s) x ({meta['sbox_units']} S-box units of 3 Montgomery + "
          f"{meta['multipliers_per_engine']} constant) multipliers = {mults} ({meta['dsp_tiles']} DSP tiles by the "
          f"generator), {meta['members']} hashes per ring position, {meta['slots']} positions per engine, "
          f"{'optimized' if meta['optimized'] else 'plain'} schedule", flush=True)
    sim_top = top
    twin = f"{top}_model"
    if not real_sim and twin in rtl.known_tops():
        tmeta = simrun.top_info(twin)
        same = ("slots", "members", "beats_per_group", "engine_latency", "mont_mul_latency", "const_mul_latency", "rob_depth",
                "arities")
        differ = [k for k in same if tmeta[k] != meta[k]]
        if differ:
            raise RuntimeError(f"{twin} differs from {top} in {', '.join(differ)}: its cycles would not be {top}'s")
        sim_top = twin
        print(f"cycles from {twin} (multiplier model; slots, beats and latencies equal {top}'s)", flush=True)
    rows = []
    for arity, beats in zip(meta["arities"], meta["beats_per_group"]):
        ring = meta["engines"] * meta["slots"] * meta["members"]
        m = measure(sim_top, arity, max(hashes, 3 * ring + 50), seed + arity, ring)
        planned = beats / (meta["engines"] * meta["members"])
        # the generator's promise: with every ring position full, `members` hashes per group program per engine
        if abs(m["cycles_per_hash"] - planned) > 1e-9 * planned:
            raise AssertionError(f"{top} arity {arity}: {m['cycles_per_hash']} cycles/hash measured, the schedule "
                                 f"says {beats} beats / ({meta['engines']} engines x {meta['members']} members) = "
                                 f"{planned}")
        products = meta["products_per_hash"][meta["arities"].index(arity)]
        m.update({"beats": beats, "planned_cycles_per_hash": planned, "products": products,
                  "utilization": products / (mults * m["cycles_per_hash"]), "mhash_s": mhz / m["cycles_per_hash"]})
        rows.append(m)
        print(f"  arity {arity}: {m['cycles_per_hash']:.2f} cycles/hash (= {beats} beats per group / "
              f"{meta['engines'] * meta['members']} hashes; {m['hashes']} hashes, {m['sim_cycles']} cycles simulated in {m['sim_seconds']:.0f} s)",
              flush=True)
    return {"config": config, "top": top, "simulated": sim_top, "meta": meta, "arities": rows}


def area_targets_text(top: str) -> str | None:
    parts = []
    if top in MAX_LUT_PER_DSP:
        parts.append(f"the whole `{top}` at most {MAX_LUT_PER_DSP[top]} LUT per DSP48E2")
    lim = AREA_LIMITS.get(top)
    if lim:
        parts.append(f"the whole `{top}` at most {lim['dsp']:,} DSP48E2, {lim['lut_levels']} LUT "
                     f"levels and one carry chain of at most {lim['carry_bits']} bits per path")
    return "; ".join(parts) or None


def area_verdicts(syn: dict) -> list[str]:
    """Area target checks on the yosys result of a whole top (empty when met or when the top has no target)."""
    top, out = syn["top"], []
    limit = MAX_LUT_PER_DSP.get(top)
    if limit is not None and syn["lut"] > limit * syn["dsp"]:
        out.append(f"{top}: {syn['lut']:,} LUT on {syn['dsp']:,} DSP48E2, "
                   f"{anchors.lut_per_dsp(syn['lut'], syn['dsp'])} per DSP > {limit}")
    for k, lim in AREA_LIMITS.get(top, {}).items():
        if syn.get(k, 0) > lim:
            out.append(f"{top}: {syn[k]:,} {k.replace('_', ' ')} > {lim:,}")
    return out


def rate_verdicts(res: dict) -> list[str]:
    """Rate and utilization target checks of one measured configuration (empty when met or without targets)."""
    out = []
    for m in res["arities"]:
        tg = TARGETS.get(res["config"], {}).get(m["arity"])
        if tg and m["mhash_s"] * 1e6 < tg:
            out.append(f"{res['top']} arity {m['arity']}: {m['mhash_s']:.3f} Mhash/s < {tg / 1e6:.1f}")
        lo = MIN_UTILIZATION.get(res["config"])
        if lo and m["utilization"] < lo:
            out.append(f"{res['top']} arity {m['arity']}: {m['utilization']:.1%} of the multipliers busy < {lo:.0%}")
    return out


def print_area_verdicts(syn: dict) -> None:
    missed = area_verdicts(syn)
    for m in missed:
        print(f"TARGET MISSED: {m}")
    if not missed and area_targets_text(syn["top"]):
        print(f"all Poseidon area targets met ({area_targets_text(syn['top'])}); "
              f"{anchors.lut_per_dsp(syn['lut'], syn['dsp'])} LUT per DSP48E2")


def print_table(res: dict, mhz: float) -> None:
    tr = TRIDENT
    print(f"\n{res['top']} at {mhz:.0f} MHz (cycles from Verilator simulation; {tr['source']}: published, "
          f"{tr['dsp']} DSP at {tr['mhz']} MHz)")
    print(f"{'arity':>5} {'beats':>6} {'cyc/hash':>9} {'latency':>8} {'products':>9} {'util':>6} {'Mhash/s':>8} "
          f"{'target':>7} {'TRIDENT':>8} {'x':>6}")
    for m in res["arities"]:
        t_rate = tr["hash_per_s"].get(m["arity"])
        tg = TARGETS.get(res["config"], {}).get(m["arity"])
        tg_s = f"{tg / 1e6:.1f}" if tg else "-"
        tr_s = f"{t_rate / 1e6:.3f}" if t_rate else "-"
        x_s = f"{m['mhash_s'] * 1e6 / t_rate:.2f}" if t_rate else "-"
        print(f"{m['arity']:>5} {m['beats']:>6} {m['cycles_per_hash']:>9.2f} {m['latency']:>8} {m['products']:>9} "
              f"{m['utilization']:>6.1%} {m['mhash_s']:>8.3f} {tg_s:>7} {tr_s:>8} {x_s:>6}")
    for miss in rate_verdicts(res):
        print(f"TARGET MISSED: {miss}")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="bench poseidon", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="pc2", help="the configuration measured and synthesized")
    ap.add_argument("--synth-also", default="", help="comma-separated --also configurations synthesized too")
    ap.add_argument("--also", default="", help="comma-separated configurations measured too (no synthesis)")
    ap.add_argument("--hashes", type=int, default=1000, help="hashes per arity (the rings must fill: > engines x slots)")
    ap.add_argument("--mhz", type=float, default=core_mhz("c1100"),
                    help="clock for the projections (default: the C1100 block design's core clock)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--real-sim", action="store_true", help="simulate the real top, not its _model twin")
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--no-sweep", action="store_true", help="skip the generator's schedule for a grid of configurations")
    ap.add_argument("--sweep-grid", default="",
                    help="the sweep's grid as MEMBERS/UNITS/MULTIPLIERS, e.g. 1,2/1,2/2,8 (default: PoseidonSweep's)")
    ap.add_argument("--json", type=Path, default=ROOT / "build" / "bench" / "poseidon.json")
    return ap


def synth_targets(argv: list[str]) -> list[tuple[str, str]]:
    """The yosys run main(argv) asks for: the --config top, hierarchically (report.py starts it early)."""
    a = parser().parse_args(argv)
    return [] if a.no_synth else [("hier", f"PoseidonAxis_{c}") for c in [a.config, *a.synth_also.split(",")] if c]


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    a = ap.parse_args(argv)
    configs = [a.config] + [c for c in a.also.split(",") if c and c != a.config]
    measured = [measure_config(c, a.hashes, a.seed, a.real_sim, a.mhz) for c in configs]
    main_res = measured[0]
    meta = main_res["meta"]
    sw = None
    if not a.no_sweep:
        t = time.time()
        grid = []
        if a.sweep_grid:
            parts = a.sweep_grid.split("/")
            if len(parts) != 3:
                ap.error(f"--sweep-grid {a.sweep_grid!r}: expected MEMBERS/UNITS/MULTIPLIERS")
            grid = [x for k, v in zip(("--members", "--units", "--multipliers"), parts) for x in (k, v)]
        sw = sweep(a.json.parent, grid)
        print(f"generator schedule of {len(sw['configs'])} configurations (PoseidonSweep, {time.time() - t:.0f} s)")
        shape = ("engines", "members", "sbox_units", "multipliers_per_engine")
        by_shape = {tuple(c[k] for k in shape): c for c in sw["configs"]}
        for res in measured:
            m = res["meta"]
            c = by_shape.get(tuple(m[k] for k in shape))
            mine = dict(zip(m["arities"], m["beats_per_group"]))
            theirs = dict(zip(sw["arities"], c["beats_per_group"])) if c else {}
            if c and ({a: theirs[a] for a in mine} != mine or c["dsp_tiles"] != m["dsp_tiles"]):
                raise AssertionError(f"PoseidonSweep's {c['name']} differs from the emitted {res['top']}: "
                                     f"{theirs} / {c['dsp_tiles']} vs {mine} / {m['dsp_tiles']}")
    syn = None
    if not a.no_synth:
        t = time.time()
        syn = hier_synth.run(simrun.RTL / meta["file"], main_res["top"])
        print(f"  yosys: {time.time() - t:.0f} s", flush=True)
    also_syn = [] if a.no_synth else [hier_synth.run(simrun.RTL / f"PoseidonAxis_{c}.v", f"PoseidonAxis_{c}")
                                      for c in a.synth_also.split(",") if c]
    for res in measured:
        print_table(res, a.mhz)
    print_pc2(measured, a.mhz)
    fits = {}
    for y in ([syn] if syn else []) + also_syn:
        print(f"yosys synth_xilinx (xcup), whole {y['top']}: {y['dsp']} DSP48E2, {y['lut']} LUT ({y['lut_sites']} LUT6 "
              f"sites with small LUTs paired), {y['ff']} FF, {y['srl']} SRL, {y['lutram']} LUTRAM, {y['bram36']} "
              f"BRAM36, {y['uram']} URAM; deepest path {y['lut_levels']} LUT levels (in {y['deepest_module']}), "
              f"longest carry chain {y['carry_bits']} bits, at most {y.get('chains_per_path', 0)} chain(s) on one path")
        print_area_verdicts(y)
        hier_synth.print_memories(y)
        rows, _ = fit.check_and_record(y["top"], BOARD, y, simrun.top_info(y["top"])["md5"])
        fit.print_table(y["top"], BOARD, rows)
        fits[y["top"]] = rows
    a.json.parent.mkdir(parents=True, exist_ok=True)
    syn_out = {k: v for k, v in syn.items() if k != "depth_per_module"} if syn else None
    also_out = [{k: v for k, v in y.items() if k != "depth_per_module"} for y in also_syn]
    a.json.write_text(json.dumps({"top": main_res["top"], "simulated": main_res["simulated"], "mhz": a.mhz,
                                  "meta": meta, "arities": main_res["arities"], "measured": measured,
                                  "sweep": sw, "synth": syn_out, "synth_also": also_out,
                                  "fit": {"board": BOARD, "tops": fits},
                                  "trident": {"rate": TRIDENT["hash_per_s"], "dsp": TRIDENT["dsp"],
                                              "mhz": TRIDENT["mhz"], "source": TRIDENT["source"]},
                                  "targets": TARGETS.get(a.config, {})}, indent=1))
    print(f"results in {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
