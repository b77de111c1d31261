"""yosys estimate of a whole top with many copies of one large module (PoseidonAxis, MsmAxis), hierarchically.

zkspinal/synth/yosys.py flattens the design, which makes yosys map every Montgomery multiplier instance again (20
in the Poseidon c1100 top, 7 in the MSM adder: hours here).  This keeps the hierarchy: every distinct module is mapped once by
`synth_xilinx -family xcup` and `stat -top` multiplies the cell counts by the instance counts, so the totals are
those of the whole top.  The logic depth (synth.py's measure: LUT levels and carry chains between sequential
cells) is taken twice: per module of the hierarchical netlist (sub-module instances as endpoints), which is exact
for the arithmetic cores (FlowCore inputs and results are registers inside them), and by a second yosys pass that
flattens everything but those cores (black boxes, endpoints), so control paths that cross module boundaries (a
scheduler and its FIFOs) are measured whole; the worse of the two is the top's figure, with the deepest path's
cells in `depth_pass.deepest_path`.
LUT6 sites (synth.lut_sites) are counted per module and multiplied by the module's instance count.
Cached by the md5 of the Verilog under build/synth/.
"""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from zkspinal.paths import ROOT

from zkspinal.synth import yosys as synth
from zkspinal.sim.buildlock import locked


def _stat_sections(stat: str) -> dict:
    """Cell (or instance) counts per `=== name ===` section of a yosys `stat -top` report: one section per module,
    then `design hierarchy` (the instance tree and the whole top's cells); a name repeated later wins."""
    sections, current = {}, None
    for line in stat.splitlines():
        head = re.match(r"^=== (.+) ===", line)
        if head:
            current = sections[head.group(1)] = defaultdict(int)
            continue
        cell = re.match(r"^\s+(\w+)\s+(\d+)\s*$", line)
        if current is not None and cell:
            current[cell.group(1)] += int(cell.group(2))
    return sections


def _hierarchy_counts(stat: str) -> dict:
    """Cell counts of the last `design hierarchy` section of a yosys `stat -top` report."""
    return _stat_sections(stat)["design hierarchy"]


def _figures(counts: dict) -> dict:
    """The summed figures of synth._counts (without the cell-type breakdown)."""
    return {k: counts[k] for k in ("dsp", "lut", "ff", "srl", "lutram", "carry4", "bram36", "uram")}


def _instances(modules: dict, top: str) -> dict:
    """How many times each module occurs under `top` (the top once)."""
    counts = defaultdict(int)

    def walk(name: str, k: int) -> None:
        counts[name] += k
        for c in modules[name]["cells"].values():
            if c["type"] in modules:
                walk(c["type"], k)
    walk(top, 1)
    return counts


# Modules registered on both sides: the arithmetic cores (FlowCore: operand() and the final RegNext; ModSum is one)
# and the MSM bucket memories (a RAM's address and data ports are its registers).  The depth pass keeps them as
# black boxes (path endpoints) and flattens everything else.
REGISTERED_CORES = ("MontgomeryMul", "ExpandedConstMul", "ConstMul", "ModAdd", "ModSub", "ModSum", "KaratsubaMul",
                    "BucketMemory")


def depth_pass(verilog: Path, top: str, out: Path, shreg_min: int = synth.DEFAULT_SHREG_MIN) -> dict:
    """The deepest register-to-register logic of everything but the arithmetic cores, flattened (control logic that
    crosses module boundaries is measured whole): yosys with the cores as black boxes."""
    netlist = out / "depth.json"
    text = verilog.read_text()
    cores = sorted({m for m in re.findall(r"^module (\w+)", text, re.M) if m.startswith(REGISTERED_CORES)})
    (out / "depth.ys").write_text("\n".join([
        f"read_verilog {verilog.resolve()}",
        f"hierarchy -top {top}",
        *(f"blackbox {m}" for m in cores),
        *synth.synth_commands(top, True, shreg_min),
        f"write_json {netlist}"]))
    p = subprocess.run(["yosys", "-q", "-l", str(out / "depth.log"), str(out / "depth.ys")], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError(f"yosys (depth pass) failed on {top}: see {out / 'depth.log'}\n{p.stderr[-2000:]}")
    design = load_netlist(netlist)
    saved = set(synth.SEQUENTIAL)
    synth.SEQUENTIAL.update(cores)
    try:
        depth = synth._depth(design["modules"][top])
    finally:
        synth.SEQUENTIAL.clear()
        synth.SEQUENTIAL.update(saved)
    netlist.unlink()
    return {**depth, "black_boxes": cores}


def run(verilog: Path, top: str, depth: bool = True) -> dict:
    """The hierarchical figures of `top` and, with `depth`, the flattened control logic's depth pass (the figures a
    fit check needs come without it: a design of many identical unrolled cores flattens slowly)."""
    shreg_min = synth.shreg_min_size(verilog, top)
    key = hashlib.md5(verilog.read_bytes() + top.encode() + b"hier" + synth.ANALYSIS_VERSION +
                      synth.cache_tag(shreg_min)).hexdigest()
    out = synth.CACHE / f"{top}-hier-{key[:12]}"
    result_file, depth_file = out / "result.json", out / "depth_pass.json"
    out.mkdir(parents=True, exist_ok=True)
    with locked(out.with_name(out.name + ".lock")):  # a second caller (bench beside a test run) waits, then reads
        result = (json.loads(result_file.read_text()) if result_file.exists()
                  else hierarchical(verilog, top, out, shreg_min))
        if depth and not depth_file.exists():
            depth_file.write_text(json.dumps(depth_pass(verilog, top, out, shreg_min), indent=1))
    if not depth_file.exists():
        return result
    stat = out / "stat.txt"
    return merge(result, json.loads(depth_file.read_text()), stat.read_text() if stat.exists() else "")


def _children(stat: str, names) -> dict:
    """Module -> the modules it instantiates, from the per-module sections of a yosys `stat` report (the netlist
    is gone once a result is cached; its stat.txt stays)."""
    return {m: {c for c in cells if c in names} for m, cells in _stat_sections(stat).items() if m in names}


def merge(result: dict, flat: dict, stat: str = "") -> dict:
    """The per-module figures with the depth pass: the deepest logic of the top is the worse of the arithmetic
    cores' (per module) and the flattened control logic's.  A module's depth in `modules` covers its submodules
    too (an adder is as deep as its multipliers); `own_lut_levels`/`own_carry_bits` are its own logic's."""
    per_module = {"lut_levels": result["lut_levels"], "carry_bits": result["carry_bits"],
                  "deepest_module": result["deepest_module"]}
    out = {**result, "depth_pass": flat, "depth_cores": per_module}
    mods = out["modules"]
    kids = _children(stat, set(mods))

    depths: dict[str, tuple[int, int]] = {}

    def deepest(name: str) -> tuple[int, int]:  # (LUT levels, carry bits) of the module and everything below it
        if name not in depths:
            below = [deepest(k) for k in kids.get(name, ())]
            depths[name] = (max([mods[name].get("lut_levels", 0), *(b[0] for b in below)]),
                            max([mods[name].get("carry_bits", 0), *(b[1] for b in below)]))
        return depths[name]
    for name in mods:
        deepest(name)
    for name, m in mods.items():
        m["own_lut_levels"], m["own_carry_bits"] = m.get("lut_levels", 0), m.get("carry_bits", 0)
        m["lut_levels"], m["carry_bits"] = depths[name]
        m.pop("deepest_path", None)
    for d in out.get("depth_per_module", {}).values():
        d.pop("deepest_path", None)
    if (flat["lut_levels"], flat["carry_bits"]) > (result["lut_levels"], result["carry_bits"]):
        out["deepest_module"] = "control logic (flattened)"
    out["lut_levels"] = max(result["lut_levels"], flat["lut_levels"])
    out["carry_bits"] = max(result["carry_bits"], flat["carry_bits"])
    out["chains_per_path"] = flat["chains_per_path"]
    return out


def hierarchical(verilog: Path, top: str, out: Path, shreg_min: int = synth.DEFAULT_SHREG_MIN) -> dict:
    """synth_xilinx keeping the hierarchy; cached in out/result.json."""
    result_file = out / "result.json"
    netlist, stat = out / "netlist.json", out / "stat.txt"
    (out / "synth.ys").write_text("\n".join([
        f"read_verilog {verilog.resolve()}",
        *synth.synth_commands(top, False, shreg_min),
        f"tee -q -o {stat} stat -top {top}",
        f"write_json {netlist}"]))
    p = subprocess.run(["yosys", "-q", "-l", str(out / "yosys.log"), str(out / "synth.ys")], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"yosys failed on {top}: see {out / 'yosys.log'}\n{p.stderr[-2000:]}")
    result = {"shreg_min_size": shreg_min, **analyse(netlist, stat, top, verilog)}  # noqa: the netlist stays if the analysis fails (rerun analyse on it)
    result_file.write_text(json.dumps(result, indent=1))
    netlist.unlink()
    return result


def load_netlist(netlist: Path) -> dict:
    """A yosys write_json netlist with only what the figures read: a cell keeps its type, connections, port
    directions (one shared dict per distinct set: every LUT4 has the same) and source location; LUT INIT strings,
    other parameters and attributes are dropped as the file is parsed.  A whole Poseidon top's netlist (about 700
    MB) then fits in memory beside another job."""
    shared: dict[tuple, dict] = {}

    def lean(d: dict) -> dict:
        if "connections" in d and "type" in d:
            d.pop("parameters", None)
            src = d.get("attributes", {}).get("src")
            d["attributes"] = {"src": src} if src else {}
            pd = d.get("port_directions")
            if pd is not None:
                d["port_directions"] = shared.setdefault(tuple(sorted(pd.items())), pd)
        elif "bits" in d and "hide_name" in d:
            d.pop("attributes", None)
        return d
    with open(netlist) as f:
        return json.load(f, object_hook=lean)


# the memory primitives synth_xilinx maps a memory to: block RAM, UltraRAM and the distributed (LUT) RAMs
RAM_CELLS = ("RAMB36E2", "RAMB18E2", "URAM288", "URAM288_BASE", "RAM32M", "RAM64M", "RAM32X1D", "RAM64X1D", "RAM128X1D",
             "RAM256X1D", "RAM32M16", "RAM64M8")


def memories(modules: dict, instances: dict, verilog: Path) -> list[dict]:
    """Where each memory of the design went: per module and memory, its width and depth (the Verilog declaration),
    the primitives of one instance by type (memory_libmap names them <memory>.<copy>.<piece>: a memory read at more
    stages than the primitive has ports is copied) and the module's instances.  Memories mapped to registers have no
    primitive and are not listed."""
    decl: dict[tuple[str, str], tuple[int, int]] = {}
    module = None
    for line in verilog.read_text().splitlines():
        if m := re.match(r"module\s+(\w+)", line):
            module = m[1]
        elif m := re.search(r"reg\s+\[(\d+):0\]\s+(\w+)\s*\[0:(\d+)\];", line):
            decl[(module, m[2])] = (int(m[1]) + 1, int(m[3]) + 1)
    found: dict[tuple, dict] = {}
    for name, mod in modules.items():
        if name not in instances:
            continue
        for cname, cell in mod["cells"].items():
            if cell["type"] not in RAM_CELLS:
                continue
            m = re.match(r"\\?(\w+)\.(\d+)\.", cname)
            mem, copy = (m[1], int(m[2])) if m else (cname, 0)
            width, depth = decl.get((name, mem), (0, 0))
            row = found.setdefault((name, mem), {"module": name, "instances": instances[name], "memory": mem,
                                                 "width": width, "depth": depth, "copies": 0,
                                                 "cells": defaultdict(int)})
            row["copies"] = max(row["copies"], copy + 1)
            row["cells"][cell["type"]] += 1
    out = []
    for row in found.values():
        c = row["cells"]
        row["cells"] = dict(sorted(c.items()))
        row["bram36"] = c["RAMB36E2"] + c["RAMB18E2"] / 2
        row["uram"] = c["URAM288"] + c["URAM288_BASE"]
        row["lutram"] = sum(n for t, n in c.items() if t.startswith("RAM") and not t.startswith("RAMB"))
        out.append(row)
    return sorted(out, key=lambda r: (-(r["bram36"] + r["uram"]) * r["instances"], r["module"], r["memory"]))


def print_memories(syn: dict) -> None:
    """The memory-by-memory table of a hierarchical result (memories())."""
    rows = syn.get("memories") or []
    if not rows:
        return
    print(f"  memories of {syn['top']} (yosys: what each maps to, per instance x instances):")
    print(f"    {'module':<28} {'memory':<22} {'width':>6} {'depth':>6} {'copies':>6} {'x':>3}  {'BRAM36':>7} "
          f"{'URAM':>5} {'LUTRAM':>7}  primitives of one instance")
    for r in rows:
        print(f"    {r['module']:<28} {r['memory']:<22} {r['width']:>6} {r['depth']:>6} {r['copies']:>6} {r['instances']:>3}  "
              f"{r['bram36'] * r['instances']:>7g} {r['uram'] * r['instances']:>5} {r['lutram'] * r['instances']:>7}  "
              + ", ".join(f"{n} {t}" for t, n in r["cells"].items()))


def analyse(netlist: Path, stat: Path, top: str, verilog: Path) -> dict:
    """The figures of a mapped hierarchical netlist (yosys write_json) of `verilog` and its `stat -top` report."""
    c = _hierarchy_counts(stat.read_text())
    design = load_netlist(netlist)
    # the design's own modules (the netlist also lists the cell library: LUT6, FDRE, ... as blackboxes)
    modules = {n: m for n, m in design["modules"].items() if not m.get("attributes", {}).get("blackbox")}
    saved = set(synth.SEQUENTIAL)
    synth.SEQUENTIAL.update(modules)  # sub-module instances are endpoints
    try:
        depth = {name: synth._depth(m) for name, m in modules.items()}
    finally:
        synth.SEQUENTIAL.clear()
        synth.SEQUENTIAL.update(saved)
    worst = max(depth.items(), key=lambda kv: (kv[1]["lut_levels"], kv[1]["carry_bits"]))
    # per module: its own cells, then the totals of one instance with everything below it
    own = {name: {**_figures(synth._counts({k: v for k, v in m["cells"].items() if v["type"] not in modules})),
                  "lut_sites": synth.lut_sites(m["cells"])} for name, m in modules.items()}
    below: dict[str, dict] = {}

    def subtree(name: str) -> dict:
        if name not in below:
            tot = dict(own[name])
            for cell in modules[name]["cells"].values():
                if cell["type"] in modules:
                    for k, v in subtree(cell["type"]).items():
                        tot[k] += v
            below[name] = tot
        return below[name]
    instances = _instances(modules, top)
    total = subtree(top)
    assert total["dsp"] == c["DSP48E2"] and total["lut"] == sum(c[f"LUT{i}"] for i in range(1, 7)), \
        "per-module totals disagree with yosys' stat -top"
    result = {
        "top": top, **total,
        "lut_levels": max(d["lut_levels"] for d in depth.values()),
        "carry_bits": max(d["carry_bits"] for d in depth.values()),
        "deepest_module": worst[0], "depth_per_module": depth,
        "modules": {name: {"instances": instances[name], **subtree(name), **depth[name]} for name in instances},
        "memories": memories(modules, instances, verilog),
    }
    return result


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]), sys.argv[2]), indent=1))
