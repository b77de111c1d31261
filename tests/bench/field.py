"""Benchmark of the field cores: measured latency and rate, yosys resources and logic depth, per prime.

    python -m tests.bench.field [--fields NAME,...] [--sim verilator|icarus] [--no-synth] [--json FILE] [--md FILE]

For each prime of reference_model.field.FIELDS:
  latency, ops/cycle  measured in simulation through the Stream wrapper (always-valid input, always-ready output,
                      tests/tb/field_tb.py cocotb_full_rate): cycles from the first input handshake to the first
                      result, and results per cycle once the pipeline is full; the core latency the generator
                      computed (manifest) is printed beside it;
  DSP / LUT / FF / CARRY4  yosys `synth_xilinx -family xcup` of the bare core (MontMul, ConstMul, RomConstMul,
                      ModAdd);
  depth               the most LUT levels between two registers and the longest carry chain (bits) of any path.
Targets (issue: foundation): the 255-bit Montgomery multiplier at most 260 DSP48E2, the 377-bit one at most 520,
no register-to-register path over 8 LUT levels plus one carry chain of at most 96 bits.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import simrun  # noqa: E402
from tests.bench import synth  # noqa: E402
from reference_model.field import FIELDS  # noqa: E402

# RomConstMul: the ROM-indexed constant multiplier Poseidon uses (ExpandedConstMul + a table of 13 constants)
CORES = ("MontMul", "ConstMul", "RomConstMul", "ModAdd")
DSP_TARGET = {255: 260, 253: 260, 377: 520}
MAX_LUT_LEVELS = 8
MAX_CARRY_BITS = 96


def measure(top: str, sim: str, count: int) -> dict:
    """Latency and accepted operations per cycle of a Stream top, from simulation."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = Path(tmp.name)
    try:
        simrun.run(top, "tb.field_tb", sim, testcase="cocotb_full_rate", quiet=True,
                   extra_env={"ZK_TOP": top, "ZK_BENCH_OUT": str(out), "ZK_RATE_OPS": str(count)})
        return json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)


def bench_field(name: str, sim: str, do_synth: bool, count: int) -> list[dict]:
    rows = []
    for core in CORES:
        info = simrun.top_info(f"{core}_{name}")
        row = {"field": name, "bits": info["n"], "core": core, "core_latency": info["latency"],
               "dsp_tiles": info["dsp_tiles"]}
        row.update({k: v for k, v in measure(f"{core}Stream_{name}", sim, count).items() if k != "top"})
        if do_synth:
            s = synth.run(simrun.RTL / info["file"], f"{core}_{name}")
            row.update({k: s[k] for k in ("dsp", "lut", "ff", "carry4", "lut_levels", "carry_bits", "chains_per_path")})
        rows.append(row)
        print(f"  measured {core}_{name}", file=sys.stderr, flush=True)
    return rows


def verdicts(rows: list[dict]) -> list[str]:
    """Target checks on the measured rows (empty when all are met)."""
    bad = []
    for r in rows:
        if "dsp" not in r:
            continue
        if r["core"] == "MontMul" and r["dsp"] > DSP_TARGET.get(r["bits"], 520):
            bad.append(f"{r['field']} MontMul uses {r['dsp']} DSP48E2 > {DSP_TARGET.get(r['bits'], 520)}")
        if r["lut_levels"] > MAX_LUT_LEVELS or r["carry_bits"] > MAX_CARRY_BITS or r["chains_per_path"] > 1:
            bad.append(f"{r['field']} {r['core']}: {r['lut_levels']} LUT levels, {r['carry_bits']}-bit carry chain, "
                       f"{r['chains_per_path']} chains on one path")
    return bad


def markdown(rows: list[dict], sim: str) -> str:
    has_synth = any("dsp" in r for r in rows)
    head = ["field", "bits", "core", "latency (cycles)", "ops/cycle", "DSP tiles"]
    if has_synth:
        head += ["DSP48E2", "LUT", "FF", "CARRY4", "LUT levels", "carry chain (bits)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["field"], str(r["bits"]), r["core"], f"{r['core_latency']} (+2 stream FIFO: {r['latency_cycles']})",
                 f"{r['ops_per_cycle']:.3f}", str(r["dsp_tiles"])]
        if has_synth:
            cells += [str(r[k]) for k in ("dsp", "lut", "ff", "carry4", "lut_levels", "carry_bits")]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Latency and rate measured with {sim} (always-valid, always-ready streams); resources and depth from "
                 "yosys `synth_xilinx -family xcup` (CARRY4 chains: 4 bits each). Targets: MontMul at most 260 DSP48E2 "
                 "(255-bit) / 520 (377-bit); at most 8 LUT levels and one carry chain of at most 96 bits per path.")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="bench field", description=__doc__.split("\n\n")[0])
    ap.add_argument("--fields", default=",".join(FIELDS), help="comma-separated field names")
    ap.add_argument("--sim", default=os.environ.get("ZK_BENCH_SIM", "verilator"), choices=simrun.SIMULATORS)
    ap.add_argument("--ops", type=int, default=500, help="operations per rate measurement")
    ap.add_argument("--no-synth", action="store_true", help="skip the yosys estimates")
    ap.add_argument("--json", help="write the rows as JSON")
    ap.add_argument("--md", help="write the table as Markdown")
    return ap


def synth_targets(argv: list[str]) -> list[tuple[str, str]]:
    """The yosys runs main(argv) asks for: ("flat", top) per core and field (report.py starts them early)."""
    args = parser().parse_args(argv)
    if args.no_synth:
        return []
    return [("flat", f"{core}_{name}") for name in args.fields.split(",") if name in FIELDS for core in CORES]


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    names = [n for n in args.fields.split(",") if n]
    unknown = [n for n in names if n not in FIELDS]
    if unknown:
        ap.error(f"unknown field(s) {', '.join(unknown)}; known: {', '.join(FIELDS)}")
    rows = [row for n in names for row in bench_field(n, args.sim, not args.no_synth, args.ops)]
    table = markdown(rows, args.sim)
    print("\nField arithmetic (python -m tests.bench.field):\n")
    print(table)
    if args.json:
        Path(args.json).write_text(json.dumps({"sim": args.sim, "rows": rows}, indent=1))
    if args.md:
        Path(args.md).write_text(table + "\n")
    missed = verdicts(rows)
    for m in missed:
        print(f"TARGET MISSED: {m}")
    if not missed and not args.no_synth:
        print("all field targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
