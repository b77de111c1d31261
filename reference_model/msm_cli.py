"""Command line of the MSM model: python -m reference_model.msm <command> ...

  Every command takes --curve bls12_377|bn254|bls12_381 (default bls12_377; the JSON form is bls12_377's only).
  run      --input FILE.json|DIR [--windows SPEC] [--assume-g1] [--method pippenger|double-and-add]
           [--engine model]
           prints the result as `0x<x> 0x<y>` (96 hex digits each) or `infinity`
  gen      --npow K --seed S --out DIR [--trivial] [--json FILE]
           writes DIR/points and DIR/scalars (and the same input as JSON)
  streams  --input FILE.json|DIR --out DIR [--windows SPEC] [--assume-g1]
           writes what the hardware consumes and returns: scalars.bin (the scalar stream), points.bin (point
           records), buckets.bin (the bucket read-out the engine must produce), exceptions.txt, result.txt
  post     --input FILE.json|DIR --buckets FILE [--windows SPEC] [--partials N] [--assume-g1]
           post-processes a bucket read-out (e.g. from the RTL) and prints the result like `run`
Bad input (a point not on the curve, a scalar >= r, unequal counts, malformed JSON or records) prints
`msm: error: <what, naming the item>` on stderr and exits with status 1; usage errors exit with status 2.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from . import msm, msm_data, msm_formats
from .curves import ADDERS, adder_of


# engines that compute `run` here: the golden model (the RTL engine is zkspinal/tools/msm_rtl.py, reached through
# ./run.sh msm --engine rtl, since it needs the simulators)
ENGINES = ("model",)


def _layout(spec, adder):
    try:
        if not spec:
            return msm.default_layout(adder)
        return dataclasses.replace(msm.WindowLayout.parse(spec), order=adder.curve.order)
    except ValueError as e:
        raise msm_data.MsmInputError(f"--windows: {e}") from None


def _input(args):
    """(points, scalars) of --input on --curve"""
    if args.curve != "bls12_377" and not Path(args.input).is_dir():
        raise msm_data.MsmInputError(f"{args.input}: the JSON form is read for bls12_377 only here; use a data-set "
                                     "directory (gen --curve) for other curves")
    return msm_data.load_any(args.input, curve=args.adder.curve)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m reference_model.msm", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    def curve(p):
        p.add_argument("--curve", choices=tuple(ADDERS), default="bls12_377",
                       help="the curve of the points and scalars (default bls12_377)")

    def common(p, need_input=True):
        if need_input:
            p.add_argument("--input", required=True, help="JSON file or data-set directory")
        curve(p)
        p.add_argument("--windows", help="window widths, e.g. 13x13,12x7 (default: twenty windows of 13, then 12 "
                                         "bits, over the curve's scalar bits: 13x13,12x7 on bls12_377)")
        p.add_argument("--assume-g1", action="store_true",
                       help="skip the subgroup test (points outside G1 are then not routed to the host path)")

    p = sub.add_parser("run", help="compute an MSM")
    common(p)
    p.add_argument("--method", choices=("pippenger", "double-and-add"), default="pippenger")
    p.add_argument("--engine", choices=ENGINES, default="model",
                   help="model: this package (./run.sh msm --engine rtl runs the RTL)")
    p = sub.add_parser("gen", help="generate a data set")
    p.add_argument("--npow", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    p.add_argument("--trivial", action="store_true")
    curve(p)
    p.add_argument("--json", help="also write the input in the JSON form to this file")
    p = sub.add_parser("streams", help="write the hardware's input streams and expected bucket read-out")
    common(p)
    p.add_argument("--out", required=True)
    p = sub.add_parser("post", help="post-process a bucket read-out")
    common(p)
    p.add_argument("--buckets", required=True)
    p.add_argument("--partials", type=int, default=0,
                   help="partial bucket records after the buckets (the engine's PARTIALS register)")
    return ap


def _run(args) -> str:
    layout = _layout(args.windows, args.adder)
    points, scalars = _input(args)
    if args.method == "double-and-add":
        return msm.format_result(msm.msm_double_and_add(points, scalars, args.adder.curve))
    return msm.format_result(msm.msm_pippenger(points, scalars, layout, check_subgroup=not args.assume_g1,
                                               adder=args.adder))


def _gen(args) -> str:
    if not 0 <= args.npow <= 30:
        raise msm_data.MsmInputError(f"--npow {args.npow}: use 0 .. 30")
    if not 0 <= args.seed < 1 << 64:
        raise msm_data.MsmInputError(f"--seed {args.seed}: use 0 .. 2^64-1")
    points, scalars = msm_data.generate(args.npow, args.seed, args.trivial, curve=args.adder.curve)
    msm_data.save(args.out, points, scalars, args.adder.curve)
    if args.json and args.curve != "bls12_377":
        raise msm_data.MsmInputError("--json: the JSON form is written for bls12_377 only here")
    if args.json:
        Path(args.json).write_text(json.dumps(msm_data.to_json(points, scalars), indent=1) + "\n")
    return f"wrote {len(points)} points and scalars to {args.out}"


def _streams(args) -> str:
    layout, adder = _layout(args.windows, args.adder), args.adder
    points, scalars = _input(args)
    pre = msm.precompute_points(points, check_subgroup=not args.assume_g1, adder=adder)
    buckets = msm.accumulate_buckets(layout, pre.records, scalars, adder)
    result = msm.postprocess(layout, buckets, points, scalars, pre.exceptions, adder=adder)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "scalars.bin").write_bytes(msm_formats.scalar_stream(scalars))
    (out / "points.bin").write_bytes(msm_formats.pack_point_records(pre.records, adder))
    (out / "buckets.bin").write_bytes(msm_formats.pack_bucket_records(layout, buckets, adder=adder))
    (out / "exceptions.txt").write_text("".join(f"{i}\n" for i in pre.exceptions))
    (out / "result.txt").write_text(msm.format_result(result) + "\n")
    return msm.format_result(result)


def _post(args) -> str:
    adder = args.adder
    layout = dataclasses.replace(_layout(args.windows, adder), partials=args.partials)
    points, scalars = _input(args)
    pre = msm.precompute_points(points, check_subgroup=not args.assume_g1, adder=adder)
    try:
        data = Path(args.buckets).read_bytes()
        buckets = msm_formats.unpack_bucket_records(layout, data, adder.curve.p, adder)
    except OSError as e:
        raise msm_data.MsmInputError(f"{args.buckets}: {e.strerror}") from None
    except msm_formats.FormatError as e:
        raise msm_data.MsmInputError(f"{args.buckets}: {e}") from None
    return msm.format_result(msm.postprocess(layout, buckets, points, scalars, pre.exceptions, adder=adder))


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    args.adder = adder_of(args.curve)
    try:
        print({"run": _run, "gen": _gen, "streams": _streams, "post": _post}[args.cmd](args))
    except msm_data.MsmInputError as e:
        print(f"msm: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
