"""Benchmark of the field cores: measured latency and rate, yosys resources and logic depth, per prime.

    python -m zkspinal.bench.field [--fields NAME,...] [--cores CORE,...] [--sim verilator|icarus] [--no-synth]
                                [--json FILE] [--md FILE]

For each prime of reference_model.field.FIELDS and each core of --cores (MontMul, ConstMul, ToMont, RomConstMul,
ModAdd by default):
  latency, ops/cycle  measured in simulation through the Stream wrapper (always-valid input, always-ready output,
                      zkspinal/tb/field_tb.py cocotb_full_rate): cycles from the first input handshake to the first
                      result, and results per cycle once the pipeline is full; the core latency the generator
                      computed (manifest) is printed beside it;
  DSP48E2 / LUT / SRL / FF / CARRY4  yosys `synth_xilinx -family xcup` of the bare core; LUT counts LUT1..LUT6,
                      SRL the shift registers yosys maps into LUTs (Vivado reports both as CLB LUTs); LUT per DSP =
                      LUT / DSP48E2; beside them the generator's own LUT model (manifest: estimated_luts);
  cascaded DSP links  the DSP48E2s whose PCIN is driven by another DSP's PCOUT (yosys), of the links the generator's
                      cascades have (manifest: dsp_tiles - dsp_chains);
  depth               the most LUT levels between two registers and the longest carry chain (bits) of any path.
Targets (issue: field multipliers at half the LUTs): see AREA_TARGETS; every core at most 8 LUT levels and one
carry chain of at most 96 bits per path, no DSP48E2 whose PCIN comes from anything but a PCOUT, every link of the
generator's cascades cascaded.  --no-synth prints the generator's figures only (DSP48E2 instantiated, LUT model).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from zkspinal.paths import ROOT

from zkspinal.sim import simrun
from zkspinal.bench import anchors
from zkspinal.synth import yosys as synth
from reference_model.field import FIELDS

# RomConstMul: the ROM-indexed constant multiplier Poseidon uses (ExpandedConstMul + a table of 13 constants);
# ToMont: x * R^2 mod p, a constant multiplier too
CORES = ("MontMul", "ConstMul", "ToMont", "RomConstMul", "ModAdd")
# (cores, field widths, most DSP48E2, most LUT)
AREA_TARGETS = [
    (("MontMul",), (255, 253), 233, 18_000),
    (("MontMul",), (377,), 431, 45_000),
    (("ConstMul", "RomConstMul", "ToMont", "FromMont"), (255, 253), 150, 7_000),
]
MAX_LUT_LEVELS = 8
MAX_CARRY_BITS = 96
SYNTH_KEYS = ("dsp", "lut", "srl", "ff", "carry4", "lut_levels", "carry_bits", "chains_per_path", "dsp_cascaded",
              "dsp_pcin_other")


def measure(top: str, sim: str, count: int) -> dict:
    """Latency and accepted operations per cycle of a Stream top, from simulation."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = Path(tmp.name)
    try:
        simrun.run(top, "zkspinal.tb.field_tb", sim, testcase="cocotb_full_rate", quiet=True,
                   extra_env={"ZK_TOP": top, "ZK_BENCH_OUT": str(out), "ZK_RATE_OPS": str(count)})
        return json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)


def manifest_figures(info: dict) -> dict:
    """The generator's figures of a core top: latency, DSP48E2 instantiated, cascades, its LUT model."""
    return {"bits": info["n"], "core_latency": info["latency"], "dsp_tiles": info["dsp_tiles"],
            "dsp_chains": info.get("dsp_chains", 0), "estimated_luts": info.get("estimated_luts")}


def bench_field(name: str, cores: list[str], sim: str, do_synth: bool, count: int) -> list[dict]:
    rows = []
    for core in cores:
        info = simrun.top_info(f"{core}_{name}")
        row = {"field": name, "core": core, **manifest_figures(info)}
        row.update({k: v for k, v in measure(f"{core}Stream_{name}", sim, count).items() if k != "top"})
        if do_synth:
            s = synth.run(simrun.RTL / info["file"], f"{core}_{name}")
            row.update({k: s[k] for k in SYNTH_KEYS})
        rows.append(row)
        print(f"  measured {core}_{name}", file=sys.stderr, flush=True)
    return rows


def area_target(core: str, bits: int) -> tuple[int, int] | None:
    """(most DSP48E2, most LUT) for a core of that width, None when it has no area target."""
    for cores, widths, dsp, lut in AREA_TARGETS:
        if core in cores and bits in widths:
            return dsp, lut
    return None


def cascade_links(r: dict) -> int:
    """The DSP-to-DSP links of the generator's cascades: every DSP48E2 but the first of each cascade."""
    return r["dsp_tiles"] - r["dsp_chains"]


def _area_misses(r: dict) -> list[str]:
    target = area_target(r["core"], r["bits"])
    if target is None:
        return []
    dsp, lut = target
    bad = []
    if r["dsp"] > dsp:
        bad.append(f"{r['field']} {r['core']} uses {r['dsp']} DSP48E2 > {dsp}")
    if r["lut"] > lut:
        bad.append(f"{r['field']} {r['core']} uses {r['lut']:,} LUT > {lut:,}")
    return bad


def _depth_misses(r: dict) -> list[str]:
    if r["lut_levels"] <= MAX_LUT_LEVELS and r["carry_bits"] <= MAX_CARRY_BITS and r["chains_per_path"] <= 1:
        return []
    return [f"{r['field']} {r['core']}: {r['lut_levels']} LUT levels, {r['carry_bits']}-bit carry chain, "
            f"{r['chains_per_path']} chains on one path"]


def _cascade_misses(r: dict) -> list[str]:
    bad = []
    if r["dsp_pcin_other"]:
        bad.append(f"{r['field']} {r['core']}: {r['dsp_pcin_other']} DSP48E2 with PCIN from outside a cascade")
    if r["dsp_cascaded"] != cascade_links(r):
        bad.append(f"{r['field']} {r['core']}: {r['dsp_cascaded']} of {cascade_links(r)} DSP links cascaded")
    return bad


def verdicts(rows: list[dict]) -> list[str]:
    """Target checks on the measured rows (empty when all are met)."""
    return [m for r in rows if "dsp" in r for m in _area_misses(r) + _depth_misses(r) + _cascade_misses(r)]


def _number(v) -> str:
    return "-" if v is None else f"{v:,}"


def _links(r: dict) -> str:
    return f"{r['dsp_cascaded']} of {cascade_links(r)}" if r["dsp_tiles"] else "-"


# (header, cell of a row, needs yosys)
COLUMNS = [
    ("field", lambda r: r["field"], False),
    ("bits", lambda r: str(r["bits"]), False),
    ("core", lambda r: r["core"], False),
    ("latency (cycles)", lambda r: f"{r['core_latency']} (+2 stream FIFO: {r['latency_cycles']})", False),
    ("ops/cycle", lambda r: f"{r['ops_per_cycle']:.3f}", False),
    ("DSP48E2", lambda r: _number(r.get("dsp", r["dsp_tiles"])), False),
    ("LUT", lambda r: _number(r["lut"]), True),
    ("LUT per DSP", lambda r: _number(anchors.lut_per_dsp(r["lut"], r["dsp"])), True),
    ("LUT (generator's model)", lambda r: _number(r.get("estimated_luts")), False),
    ("SRL", lambda r: _number(r["srl"]), True),
    ("FF", lambda r: _number(r["ff"]), True),
    ("CARRY4", lambda r: _number(r["carry4"]), True),
    ("cascaded DSP links", _links, True),
    ("LUT levels", lambda r: str(r["lut_levels"]), True),
    ("carry chain (bits)", lambda r: str(r["carry_bits"]), True),
]


def targets_text() -> str:
    area = "; ".join(f"{', '.join(cores)} of {'/'.join(map(str, widths))} bits at most {dsp} DSP48E2 and {lut:,} LUT"
                     for cores, widths, dsp, lut in AREA_TARGETS)
    return (f"Targets: {area}; every core at most {MAX_LUT_LEVELS} LUT levels and one carry chain of at most "
            f"{MAX_CARRY_BITS} bits per path, no DSP48E2 whose PCIN comes from anything but another DSP's PCOUT, and "
            "every link of the generator's cascades cascaded.")


def markdown(rows: list[dict], sim: str) -> str:
    has_synth = any("dsp" in r for r in rows)
    cols = [c for c in COLUMNS if has_synth or not c[2]]
    lines = ["| " + " | ".join(h for h, _, _ in cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(cell(r) for _, cell, _ in cols) + " |" for r in rows]
    lines.append("")
    if has_synth:
        lines.append(f"Latency and rate measured with {sim} (always-valid, always-ready streams); resources and depth "
                     "from yosys `synth_xilinx -family xcup`: LUT counts LUT1..LUT6 and SRL the shift registers yosys "
                     "maps into LUTs (SRL16E/SRLC32E; Vivado reports both as CLB LUTs); LUT per DSP = LUT / DSP48E2; "
                     "LUT (generator's model): the generator's own estimate (`LutModel`); cascaded DSP links: the "
                     "DSP48E2s whose PCIN comes from another DSP's PCOUT, of the links the generator's cascades have "
                     "(DSP48E2 instantiated - cascades); CARRY4 chains: 4 bits each. " + targets_text())
    else:
        lines.append(f"Latency and rate measured with {sim} (always-valid, always-ready streams); DSP48E2 and LUT: "
                     "the generator's count and model (no yosys run).")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="bench field", description=__doc__.split("\n\n")[0])
    ap.add_argument("--fields", default=",".join(FIELDS), help="comma-separated field names")
    ap.add_argument("--cores", default=",".join(CORES), help="comma-separated cores (the tops <CORE>_<field>)")
    ap.add_argument("--sim", default=os.environ.get("ZK_BENCH_SIM", "verilator"), choices=simrun.SIMULATORS)
    ap.add_argument("--ops", type=int, default=500, help="operations per rate measurement")
    ap.add_argument("--no-synth", action="store_true", help="skip the yosys estimates")
    ap.add_argument("--json", help="write the rows as JSON")
    ap.add_argument("--md", help="write the table as Markdown")
    return ap


def _names(arg: str) -> list[str]:
    return [n for n in arg.split(",") if n]


def chosen(ap: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The --fields and --cores of args, checked against the primes and the emitted core tops."""
    names, cores = _names(args.fields), _names(args.cores)
    unknown = [n for n in names if n not in FIELDS]
    if unknown:
        ap.error(f"unknown field(s) {', '.join(unknown)}; known: {', '.join(FIELDS)}")
    tops = simrun.manifest()
    missing = [c for c in cores for n in names if f"{c}_{n}" not in tops or f"{c}Stream_{n}" not in tops]
    if missing:
        ap.error(f"no emitted top for core(s) {', '.join(sorted(set(missing)))} (build/rtl/manifest.json)")
    return names, cores


def synth_targets(argv: list[str]) -> list[tuple[str, str]]:
    """The yosys runs main(argv) asks for: ("flat", top) per core and field (report.py starts them early)."""
    ap = parser()
    args = ap.parse_args(argv)
    if args.no_synth:
        return []
    names, cores = chosen(ap, args)
    return [("flat", f"{core}_{name}") for name in names for core in cores]


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    names, cores = chosen(ap, args)
    rows = [row for n in names for row in bench_field(n, cores, args.sim, not args.no_synth, args.ops)]
    table = markdown(rows, args.sim)
    print("\nField arithmetic (python -m zkspinal.bench.field):\n")
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
