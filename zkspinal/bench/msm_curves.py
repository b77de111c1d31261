"""The MSM engine on every curve but BLS12-377 (whose engine `bench msm` measures in depth): each board top's
multiplier-model twin in Verilator, its rate targets, and the real top's yosys figures against its board.

    python -m zkspinal.bench.msm_curves [--tops T1,T2,...] [--npow 14] [--store-npow 12] [--no-synth] [--json FILE]

For each twin (default: MsmAxis_bn254_vu9p_model, MsmAxis_bn254_c1100_model, MsmAxis_bls12_381_vu9p_model) this
runs zkspinal.bench.msm with one random set of 2^--npow points (the projection of one 2^26 bucket phase at the
board's core clock) and the half-ones set of 2^--store-npow points from the point store (the issue's busy target
for the hot set), and, without --no-synth, the real top's hierarchical yosys run with its use of the board's part and,
on the VU9P, of each SLR.  The targets per curve and board (issue "MSM on BN254 and BLS12-381 G1"): one 2^26 bucket
phase at most msm.ONE_MSM_MAX_S, every adder >= 99 % busy on random scalars and >= 90 % on half-ones from the point
store, the whole top at most msm.ENGINE_MAX_DSP DSP48E2 and core + platform at most 55 % of the LUT6 sites + SRL of
the part and of each SLR, at most 8 LUT levels and one carry chain of at most 96 bits per path.  A miss prints a
TARGET MISSED line.  The on-demand board tops are emitted first when missing (zkspinal.sim.rtl.ensure).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from zkspinal.bench import msm
from zkspinal.synth import fit

TOPS = ("MsmAxis_bn254_vu9p_model", "MsmAxis_bn254_c1100_model", "MsmAxis_bls12_381_vu9p_model")


real_top = msm.real_top


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m zkspinal.bench.msm_curves", description=__doc__.split("\n")[0])
    ap.add_argument("--tops", default=",".join(TOPS), help="the multiplier-model twins to run")
    ap.add_argument("--npow", type=int, default=14, help="random set of 2^N points (the projection)")
    ap.add_argument("--store-npow", type=int, default=12, help="half-ones set of 2^N points from the point store")
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    return ap


def synth_targets(argv: list[str]) -> list[tuple[str, str]]:
    """The yosys runs main(argv) asks for (report.py starts them early): each twin's as `bench msm` asks for it."""
    args = parser().parse_args(argv)
    return [] if args.no_synth else [t for top in args.tops.split(",") if top
                                     for t in msm.synth_targets(["--top", top])]


def lut_figures(run: dict) -> dict | None:
    """The LUT6 sites + SRL use with the platform of the part and of the fullest SLR (the routability target)."""
    rows = [r for r in ((run.get("fit") or {}).get("tops") or {}).get(real_top(run["top"]), []) if r["resource"] == "lut"]
    if not rows:
        return None
    part = next(r for r in rows if r["scope"] == "part")
    slrs = [r for r in rows if r["scope"] != "part"]
    worst = max(slrs, key=lambda r: r["percent"]) if slrs else None
    return {"part_percent": part["percent"], "part_core": part["core"],
            "slr": worst["scope"] if worst else None, "slr_percent": worst["percent"] if worst else None}


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    from zkspinal.sim import rtl

    twins = [t for t in args.tops.split(",") if t]
    rtl.ensure(twins + ([] if args.no_synth else [real_top(t) for t in twins]))
    runs, missed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for twin in twins:
            out = Path(tmp) / f"{twin}.json"
            rc = msm.main(["--top", twin, "--npows", str(args.npow), "--adversarial-npow", str(args.store_npow),
                           "--sets", "", "--resident", "half_ones", "--sample-cycles", "0", "--seed", str(args.seed),
                           "--json", str(out)] + (["--no-synth"] if args.no_synth else []))
            if rc:
                raise RuntimeError(f"bench msm --top {twin} exited with {rc}")
            run = json.loads(out.read_text())
            # the routability target applies to these tops too (fit.misses holds a top that is not shipped only to
            # fitting): core + platform at most 55 % of the LUTs of the part and of each SLR
            fits = (run.get("fit") or {}).get("tops", {}).get(real_top(twin))
            extra = [m for m in (fit.target_misses(real_top(twin), run["board"], fits) if fits else [])
                     if m not in run["missed"]]
            for m in extra:
                print(f"TARGET MISSED: {m}")
            run["missed"] += extra
            missed += run["missed"]
            runs.append(run)
    print(f"MSM per curve: {len(runs)} top(s), " + ("every target met" if not missed else f"{len(missed)} target(s) missed"))
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
