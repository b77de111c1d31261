"""The port convention of the zkspinal system tops, read from the emitted Verilog in Python (independently of
vivado/lib/zk_rtl.tcl, which the checker holds against it)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "build" / "rtl"

AXIS_SIGNALS = ("tdata", "tkeep", "tlast", "tuser", "tvalid", "tready")
IDENT_PORTS = ("ident_kind", "ident_config", "ident_version")  # CoreIdentity.fields, in the system block's word order
# AXI4 with bursts (a memory master: the MSM point store's channels m_axi_mem<c>); the ids are optional
AXI4_SIGNALS = ("awid", "awaddr", "awlen", "awsize", "awburst", "awvalid", "awready", "wdata", "wstrb", "wlast",
                "wvalid", "wready", "bid", "bresp", "bvalid", "bready", "arid", "araddr", "arlen", "arsize", "arburst",
                "arvalid", "arready", "rid", "rdata", "rresp", "rlast", "rvalid", "rready")
AXI4_OPTIONAL = ("awid", "bid", "arid", "rid")
AXIL_SIGNALS = ("awvalid", "awready", "awaddr", "awprot", "wvalid", "wready", "wdata", "wstrb", "bvalid", "bready",
                "bresp", "arvalid", "arready", "araddr", "arprot", "rvalid", "rready", "rdata", "rresp")


@dataclass
class Interfaces:
    ports: dict[str, tuple[str, int]]                              # name -> (in|out, width)
    axis: dict[str, dict] = field(default_factory=dict)            # prefix -> {mode, bytes, signals}
    axil: dict[str, dict] = field(default_factory=dict)            # prefix -> {mode, addr, data}
    axi: dict[str, dict] = field(default_factory=dict)             # prefix -> {mode, addr, data, id, signals}
    status: list[str] = field(default_factory=list)                # status_* outputs
    status_in: list[str] = field(default_factory=list)             # status_<i> inputs (system block)
    reset_out: list[str] = field(default_factory=list)             # core_aresetn
    aux_clocks: list[str] = field(default_factory=list)            # icap_clk: a clock no interface belongs to
    ident: list[str] = field(default_factory=list)                 # ident_* outputs (a core's identity)
    ident_in: list[str] = field(default_factory=list)              # ident_* inputs (the system block's)


def ports(top: str, rtl: Path = RTL) -> dict[str, tuple[str, int]]:
    text = (rtl / f"{top}.v").read_text()
    m = re.search(rf"module\s+{re.escape(top)}\s*\((.*?)\);", text, re.S)
    if not m:
        raise ValueError(f"module {top} not in {rtl / (top + '.v')}")
    out = {}
    for d, hi, lo, name in re.findall(r"^\s*(input|output)\s+(?:wire|reg)?\s*(?:\[(\d+):(\d+)\])?\s*(\w+)", m.group(1), re.M):
        out[name] = ("in" if d == "input" else "out", int(hi) - int(lo) + 1 if hi else 1)
    return out


def interfaces(top: str, rtl: Path = RTL) -> Interfaces:
    p = ports(top, rtl)
    ifs = Interfaces(p)
    used = set()
    for name, (d, _) in p.items():
        m = re.fullmatch(r"(.*)_tvalid", name)
        if m and f"{m[1]}_tready" in p and f"{m[1]}_tdata" in p:
            sig = [s for s in AXIS_SIGNALS if f"{m[1]}_{s}" in p]
            used |= {f"{m[1]}_{s}" for s in sig}
            ifs.axis[m[1]] = {"mode": "slave" if d == "in" else "master", "bytes": p[f"{m[1]}_tdata"][1] // 8,
                              "signals": sig}
        m = re.fullmatch(r"(.*)_awvalid", name)
        if m and f"{m[1]}_awlen" in p:
            missing = [s for s in AXI4_SIGNALS if f"{m[1]}_{s}" not in p and s not in AXI4_OPTIONAL]
            if missing:
                raise ValueError(f"{top} {m[1]}: AXI4 ports {missing} are missing")
            sig = [s for s in AXI4_SIGNALS if f"{m[1]}_{s}" in p]
            used |= {f"{m[1]}_{s}" for s in sig}
            ifs.axi[m[1]] = {"mode": "slave" if d == "in" else "master", "addr": p[f"{m[1]}_awaddr"][1],
                             "data": p[f"{m[1]}_wdata"][1], "id": p.get(f"{m[1]}_awid", ("", 0))[1], "signals": sig}
        elif m:
            used |= {f"{m[1]}_{s}" for s in AXIL_SIGNALS if f"{m[1]}_{s}" in p}
            ifs.axil[m[1]] = {"mode": "slave" if d == "in" else "master", "addr": p[f"{m[1]}_awaddr"][1],
                              "data": p[f"{m[1]}_wdata"][1]}
    for name, (d, w) in p.items():
        if name in used or (name in ("aclk", "aresetn") and d == "in"):
            continue
        if name.startswith("status_") and d == "out":
            ifs.status.append(name)
        elif re.fullmatch(r"status_\d+", name) and d == "in":
            ifs.status_in.append(name)
        elif name == "core_aresetn" and d == "out":
            ifs.reset_out.append(name)
        elif name == "icap_clk" and d == "in" and w == 1:
            ifs.aux_clocks.append(name)
        elif name in IDENT_PORTS and w == 32:
            (ifs.ident if d == "out" else ifs.ident_in).append(name)
        else:
            raise ValueError(f"{top}: port {name} ({d}, {w} bits) follows no convention")
    for attr in ("ident", "ident_in"):
        got = getattr(ifs, attr)
        if got and set(got) != set(IDENT_PORTS):
            raise ValueError(f"{top}: identity ports {got}: all of {IDENT_PORTS} or none")
        if got:
            setattr(ifs, attr, list(IDENT_PORTS))
    return ifs


def manifest(rtl: Path = RTL) -> dict:
    return json.loads((rtl / "manifest.json").read_text())
