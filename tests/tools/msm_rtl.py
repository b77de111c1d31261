#!/usr/bin/env python3
"""msm-rtl: an MSM with the bucket phase on the MsmAxis RTL (Verilator) and the host steps of the model.

  ./run.sh msm --engine rtl --input FILE.json|DIR [--top MsmAxis_vu9p_model] [--verbose]
  python tests/tools/msm_rtl.py --input FILE.json|DIR ...

Points are precomputed as the host does (reference_model.msm.precompute_points; points without a twisted Edwards
image or outside G1 go to the host path), scalars and records stream into the simulated engine
(tests/tb/msm_axis_tb.py, testcase run_job), the bucket read-out is post-processed by the model, and the result
prints like `python -m reference_model.msm run`.  --verbose prints the engine's counters on stderr.
Bad input exits with status 1 and `msm: error: ...` as the model CLI does.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from reference_model import msm, msm_data  # noqa: E402


def layout_of(top: str) -> msm.WindowLayout:
    import simrun

    info = simrun.top_info(top)
    return msm.WindowLayout(tuple(info["windows"]), order=int(info["bound"], 16), partials=info["partials"])


def ensure_emitted(top: str) -> None:
    import subprocess

    import simrun

    try:
        simrun.top_info(top)
    except RuntimeError:
        subprocess.run([str(ROOT / "mill"), "--no-daemon", "hw.runMain", "zkspinal.system.Emit", "--only", top],
                       cwd=ROOT, check=True, stdout=sys.stderr)


def run_engine(top: str, scalars, records, seed: int = 1, throttle: float = 0.0, harness: str = "cpp",
               sample: int = 0) -> dict:
    """Streams one job through the simulated engine; returns its counters and buckets[j][k-1] (tuples).
    harness: "cpp" (tests/tools/msm_harness.cpp, fast) or "cocotb" (tests/tb/msm_axis_tb.py run_job).
    sample > 0 (cpp only): `samples` holds the busy/stall/phase registers read every `sample` cycles."""
    import simrun

    if harness == "cpp":
        from tools import msm_cpp

        res = msm_cpp.run(top, scalars, records, pause=int(100 * throttle), seed=seed, sample=sample)
        if res["error"]:
            raise RuntimeError(f"engine error {res['error']:#x}")
        return res

    with tempfile.TemporaryDirectory() as tmp:
        job, out = Path(tmp) / "job.json", Path(tmp) / "out.json"
        job.write_text(json.dumps({"scalars": [str(s) for s in scalars],
                                   "records": [[str(v) for v in q] for q in records]}))
        simrun.run(top, "tb.msm_axis_tb", "verilator", testcase="run_job", seed=seed, quiet=True,
                   extra_env={"ZK_MSM_IN": str(job), "ZK_MSM_OUT": str(out), "ZK_THROTTLE": str(throttle)})
        res = json.loads(out.read_text())
    res["buckets"] = [[tuple(int(v) for v in S) for S in w] for w in res["buckets"]]
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="msm-rtl", description=__doc__.split("\n")[0])
    ap.add_argument("--input", required=True, help="JSON file or data-set directory")
    ap.add_argument("--top", default="MsmAxis_vu9p_model", help="emitted MsmAxis top (default MsmAxis_vu9p_model: the multiplier model, cycle-identical)")
    ap.add_argument("--harness", choices=("cpp", "cocotb"), default="cpp",
                    help="C++ Verilator harness (default) or the cocotb testbench")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    try:
        points, scalars = msm_data.load_any(args.input)
        ensure_emitted(args.top)
        layout = layout_of(args.top)
        bad = [i for i, s in enumerate(scalars) if s >= layout.order]
        if bad:
            raise msm_data.MsmInputError(f"scalars[{bad[0]}] is >= the engine's bound {layout.order:#x}")
        pre = msm.precompute_points(points)
        res = run_engine(args.top, scalars, pre.records, harness=args.harness)
        result = msm.postprocess(layout, res["buckets"], points, scalars, pre.exceptions)
    except msm_data.MsmInputError as e:
        print(f"msm: error: {e}", file=sys.stderr)
        return 1
    if args.verbose:
        busy = res["busy"] / max(1, res["acc_cycles"])
        print(f"rtl {args.top}: {len(points)} points, cycles {res['cycles']}, accumulate {res['acc_cycles']}, "
              f"adder busy {res['busy']} ({busy:.2%}), stalls {res['stalls']}, deferred {res['deferred']}, "
              f"host exceptions {len(pre.exceptions)}", file=sys.stderr)
    print(msm.format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
