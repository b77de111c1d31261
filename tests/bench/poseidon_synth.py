"""yosys estimate of a whole PoseidonAxis top, hierarchically.

tests/bench/synth.py flattens the design, which makes yosys map every Montgomery multiplier instance again (20
in the c1100 top: hours here).  This keeps the hierarchy: every distinct module is mapped once by
`synth_xilinx -family xcup` and `stat -top` multiplies the cell counts by the instance counts, so the totals are
those of the whole top.  The logic depth (synth.py's measure: LUT levels and carry chains between sequential
cells) is taken per module, with sub-module instances as endpoints: every module boundary in these tops is
registered on the inside (FlowCore inputs and results are registers), so no register-to-register path crosses one.
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

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tests.bench import synth  # noqa: E402


def _hierarchy_counts(stat: str) -> dict:
    """Cell counts of the last `design hierarchy` section of a yosys `stat -top` report."""
    part = stat[stat.rindex("=== design hierarchy ==="):]
    counts = defaultdict(int)
    for m in re.finditer(r"^\s+(\w+)\s+(\d+)\s*$", part, re.M):
        counts[m.group(1)] += int(m.group(2))
    return counts


def run(verilog: Path, top: str) -> dict:
    key = hashlib.md5(verilog.read_bytes() + top.encode() + b"hier").hexdigest()
    out = synth.CACHE / f"{top}-hier-{key[:12]}"
    result_file = out / "result.json"
    if result_file.exists():
        return json.loads(result_file.read_text())
    out.mkdir(parents=True, exist_ok=True)
    netlist, stat = out / "netlist.json", out / "stat.txt"
    (out / "synth.ys").write_text("\n".join([
        f"read_verilog {verilog.resolve()}",
        f"synth_xilinx -family xcup -top {top} -noiopad -noclkbuf",
        f"tee -q -o {stat} stat -top {top}",
        f"write_json {netlist}"]))
    p = subprocess.run(["yosys", "-q", "-l", str(out / "yosys.log"), str(out / "synth.ys")], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"yosys failed on {top}: see {out / 'yosys.log'}\n{p.stderr[-2000:]}")
    c = _hierarchy_counts(stat.read_text())
    design = json.loads(netlist.read_text())
    modules = design["modules"]
    saved = set(synth.SEQUENTIAL)
    synth.SEQUENTIAL.update(modules)  # sub-module instances are endpoints
    try:
        depth = {name: synth._depth(m) for name, m in modules.items()}
    finally:
        synth.SEQUENTIAL.clear()
        synth.SEQUENTIAL.update(saved)
    worst = max(depth.items(), key=lambda kv: (kv[1]["lut_levels"], kv[1]["carry_bits"]))
    result = {
        "top": top, "dsp": c["DSP48E2"], "lut": sum(c[f"LUT{i}"] for i in range(1, 7)),
        "ff": sum(c[t] for t in ("FDRE", "FDSE", "FDCE", "FDPE")), "srl": c["SRL16E"] + c["SRLC32E"],
        "lutram": sum(c[t] for t in ("RAM32M", "RAM64M", "RAM32X1D", "RAM64X1D", "RAM128X1D", "RAM32M16", "RAM64M8")),
        "carry4": c["CARRY4"], "bram36": c["RAMB36E2"] + c["RAMB18E2"] / 2, "uram": c["URAM288"] + c["URAM288_BASE"],
        "lut_levels": max(d["lut_levels"] for d in depth.values()),
        "carry_bits": max(d["carry_bits"] for d in depth.values()),
        "deepest_module": worst[0], "depth_per_module": depth,
    }
    result_file.write_text(json.dumps(result, indent=1))
    netlist.unlink()
    return result


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]), sys.argv[2]), indent=1))
