"""Benchmark of the MSM host side (sw/host-msm): point conversion rate and bucket post-processing time for a window
layout, next to arkworks' own CPU MSM of the same points, all measured in the same run on this machine.

    python -m zkspinal.bench.msm_host [--npow 16 20] [--windows 13x13,12x7] [--reps 3] [--json FILE]

For each size the tool generates the data set (the model's gen), converts the points as the host would for the FPGA
(from the 96-byte encodings, all cores), computes the bucket read-out with its software model of the engine,
post-processes it, runs arkworks' VariableBaseMSM, and checks both results agree.  Times are the best of --reps.
The crate is built by zkspinal/tools/host_msm.py (build_host), as for the tests.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from zkspinal.bench import anchors

from zkspinal.tools.host_msm import ROOT, build_host

# Hardcaml's published host figures (ZPrize 2022, AWS f1.2xlarge host): 2^26 points converted in 1,167.98 s,
# post-processing 0.470 s per 2^26 MSM.
HARDCAML_CONVERT_POINTS_PER_S = anchors.HARDCAML["points"] / anchors.HARDCAML["host_convert_s"]
HARDCAML_POST_S = anchors.HARDCAML["host_post_s"]


def run_bench(exe: Path, npow: int, windows: str | None, reps: int) -> dict:
    cmd = [str(exe), "bench", "--npow", str(npow), "--reps", str(reps)]
    if windows:
        cmd += ["--windows", windows]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench msm-host", description=__doc__.split("\n")[0])
    ap.add_argument("--npow", type=int, nargs="+", default=[16, 20])
    ap.add_argument("--windows", default=None, help="window layout (default 13x13,12x7)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", help="also write the measurements to this file")
    args = ap.parse_args(argv)
    exe = build_host()
    rows = []
    print(f"MSM host side (sw/host-msm), BLS12-377 G1, {os.cpu_count()} CPUs, best of {args.reps}")
    hdr = (f"{'points':>9} {'buckets':>8} {'convert s':>10} {'points/s':>11} {'post s':>8} "
           f"{'arkworks MSM s':>15} {'post/arkworks':>13}")
    print(hdr)
    for k in args.npow:
        r = run_bench(exe, k, args.windows, args.reps)
        rows.append(r)
        print(f"{'2^%d' % k:>9} {r['buckets']:>8} {r['convert_s']:>10.4f} {r['convert_points_per_s']:>11,.0f} "
              f"{r['post_s']:>8.4f} {r['arkworks_msm_s']:>15.4f} {r['post_s'] / r['arkworks_msm_s']:>13.3f}")
    best = max(r["convert_points_per_s"] for r in rows)
    print(f"conversion: {best:,.0f} points/s here vs Hardcaml's {HARDCAML_CONVERT_POINTS_PER_S:,.0f} points/s "
          f"(2^26 in {(1 << 26) / best:,.1f} s vs 1,168 s)")
    print(f"post-processing ({rows[0]['windows']}, {rows[0]['buckets']} buckets): "
          f"{min(r['post_s'] for r in rows):.4f} s here vs Hardcaml's {HARDCAML_POST_S} s")
    print("every post-processed result matched arkworks' MSM of the same points")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
