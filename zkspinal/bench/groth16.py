"""Groth16 on this CPU against the card: the report's Groth16 row (issue "Provers call the card").

    python -m zkspinal.bench.groth16 [--curve bls12_377] [--npows 20] [--project 24] [--seed 1] [--json FILE]

For each 2^k of --npows, sw/msm-fpga's example `groth16_cost` proves the MiMC chain circuit of 2^k constraints with
arkworks (ark-groth16) on all cores and on one (RAYON_NUM_THREADS=1), and times the steps apart: synthesis, the QAP
witness map, the four G1 MSMs and the G2 MSM on the key's queries, and the host's post-processing of one read-out of
the curve's board engine.  --project N extends the largest measured size to 2^N (a proof too large to set up here):
MSMs scaled by n / log2 n (Pippenger), the witness map by n log2 n (FFTs), synthesis by n, each from its measured
time; those rows say "projected".  The card's side (`sections.groth16`, with `bench msm`'s cycles) is computed where
the report joins the two.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

from zkspinal import refs
from zkspinal.paths import BUILD, ROOT

CRATE = ROOT / "sw" / "msm-fpga"
TARGET = BUILD / "cargo-msm-fpga"  # see tests/test_sw_msm_fpga.py: not build/cargo
EXE = TARGET / "release" / "examples" / "groth16_cost"
STEPS = ("synthesize_s", "witness_map_s")
MSMS = ("a", "b", "l", "h", "g2")


def measure(curve: str, k: int, seed: int, threads: int | None) -> dict:
    env = dict(os.environ)
    env.pop("RAYON_NUM_THREADS", None)
    if threads:
        env["RAYON_NUM_THREADS"] = str(threads)
    r = subprocess.run([str(EXE), curve, str(k), str(seed)], env=env, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"groth16_cost {curve} {k}: {r.stderr.strip()}")
    out = json.loads(r.stdout)
    out["projected"] = False
    return out


def project(m: dict, k: int) -> dict:
    """a measured run `m` scaled to 2^k constraints (see the module's docstring)"""
    n0, n1 = 2 ** m["log2"], 2 ** k
    msm = (n1 / math.log2(n1)) / (n0 / math.log2(n0))
    fft = (n1 * math.log2(n1)) / (n0 * math.log2(n0))
    lin = n1 / n0
    p = dict(m, log2=k, constraints=round(m["constraints"] * lin), projected=True, projected_from=m["log2"],
             setup_s=None)
    p["sizes"] = {q: round(v * lin) for q, v in m["sizes"].items()}
    p["msm_s"] = {q: v * msm for q, v in m["msm_s"].items()}
    p["synthesize_s"] = m["synthesize_s"] * lin
    p["witness_map_s"] = m["witness_map_s"] * fft
    p["prove_s"] = p["synthesize_s"] + p["witness_map_s"] + sum(p["msm_s"].values())
    return p


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m zkspinal.bench.groth16", description=__doc__.split("\n")[0])
    ap.add_argument("--curve", default="bls12_377")
    ap.add_argument("--npows", default="20", help="measured sizes, 2^k constraints (comma-separated)")
    ap.add_argument("--project", default="24", help="sizes projected from the largest measured one ('' for none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    return ap


def main(argv=None) -> int:
    a = parser().parse_args(argv)
    refs.cargo_build(CRATE, TARGET, "--examples")
    runs = []
    for k in (int(x) for x in a.npows.split(",") if x):
        for threads in (None, 1):
            m = measure(a.curve, k, a.seed, threads)
            runs.append(m)
            print(f"2^{k} constraints ({m['constraints']:,}), {m['threads']} thread(s): arkworks' proof {m['prove_s']:.3f} s "
                  f"(synthesis {m['synthesize_s']:.3f}, witness map {m['witness_map_s']:.3f}, G1 MSMs "
                  + ", ".join(f"{q.upper()} {m['msm_s'][q]:.3f}" for q in "albh") + f", G2 {m['msm_s']['g2']:.3f}); "
                  f"post-processing one board read-out ({m['readout_records']:,} records) {m['post_s']:.3f} s",
                  flush=True)
    measured = [r for r in runs if not r["projected"]]
    for k in (int(x) for x in a.project.split(",") if x):
        for threads in sorted({r["threads"] for r in measured}, reverse=True):
            base = max((r for r in measured if r["threads"] == threads), key=lambda r: r["log2"])
            if k > base["log2"]:
                p = project(base, k)
                runs.append(p)
                print(f"2^{k} constraints, {threads} thread(s), projected from 2^{base['log2']}: arkworks' proof "
                      f"{p['prove_s']:.1f} s")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"curve": a.curve, "runs": runs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
