"""Resource and logic-depth estimates with yosys `synth_xilinx -family xcup` (UltraScale+).

run(verilog, top) returns the cell counts (DSP48E2, LUT, FF, CARRY4, BRAM, URAM) and the deepest
register-to-register logic of the mapped netlist:
  lut_levels  the most LUTs on any path between sequential elements (FFs, DSP/BRAM registers, ports);
              MUXF7/F8 count as part of the LUT they extend, not as a level;
  carry_bits  the longest CARRY4 chain (4 bits per CARRY4: yosys never emits CARRY8, so a chain of k CARRY4 is
              a 4k-bit carry chain, k/2 CARRY8 on the device);
  chains_per_path the most distinct carry chains any single path goes through;
and lut_sites, the LUT6 sites the LUTs need once two small LUTs may share one site: a site is a LUT6_2 whose two
outputs (O6, O5) share at most five inputs, which Vivado fills by combining LUTs (yosys reports single-output LUTs).
The estimate pairs, greedily, LUTs of at most five inputs that share an input net and use at most five distinct
nets together (pairs without a common net, which Vivado may also combine, are not counted: an upper bound on sites).
Results are cached by the md5 of the Verilog under build/synth/.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from zkspinal.sim.buildlock import locked

from zkspinal import paths
from zkspinal.paths import ROOT
CACHE = ROOT / "build" / "synth"
# part of every cache key: bump when the figures computed from a netlist change (2: lut_sites, 3: DSP cascades)
ANALYSIS_VERSION = b"3"

# cells whose outputs start a path and whose inputs end one: registers, shift registers, block and distributed RAMs
# (every LUTRAM primitive synth_xilinx maps to: their writes are clocked), DSP slices
SEQUENTIAL = {"FDRE", "FDSE", "FDCE", "FDPE", "LDCE", "LDPE", "SRL16E", "SRLC32E", "RAMB18E2", "RAMB36E2",
              "URAM288", "URAM288_BASE", "RAM32M", "RAM64M", "RAM32X1D", "RAM64X1D", "RAM128X1D", "RAM256X1D",
              "RAM32X1S", "RAM64X1S", "RAM128X1S", "RAM256X1S", "RAM512X1S", "RAM32M16", "RAM64M8", "RAM64X8SW",
              "RAM32X16DR8", "DSP48E2"}
LUTS = {f"LUT{i}" for i in range(1, 7)}
TRANSPARENT = {"MUXF7", "MUXF8", "MUXF9", "INV", "BUFG", "IBUF", "OBUF"}  # no LUT level of their own


# the shortest register chain synthesis maps to a shift register (SRL16E/SRLC32E): synth_xilinx's and Vivado's default
DEFAULT_SHREG_MIN = 3


def shreg_min_size(verilog: Path, top: str) -> int:
    """The top's `shreg_min_size` (manifest.json beside its Verilog; the Vivado build passes the same value to
    synth_design): shorter register chains stay in flip-flops."""
    rtl = Path(verilog).parent
    if not (rtl / "manifest.json").exists():
        return DEFAULT_SHREG_MIN
    return int(paths.manifest(rtl).get(top, {}).get("shreg_min_size", DEFAULT_SHREG_MIN))


def synth_commands(top: str, flatten: bool, shreg_min: int = DEFAULT_SHREG_MIN) -> list[str]:
    """synth_xilinx for UltraScale+; with another `shreg_min`, its map_luts step is run here with that minimum
    shift-register length (the step's own commands for -family xcup, `yosys -h synth_xilinx`), the rest as usual."""
    base = f"synth_xilinx -family xcup -top {top}{' -flatten' if flatten else ''} -noiopad -noclkbuf"
    if shreg_min == DEFAULT_SHREG_MIN:
        return [base]
    return [f"{base} -run :map_luts", "opt_expr -mux_undef -noclkinv", "abc -luts 2:2,3,6:5,10,20", "clean",
            "techmap -map +/xilinx/ff_map.v", f"xilinx_srl -fixed -minlen {shreg_min}",
            "techmap -map +/xilinx/lut_map.v -map +/xilinx/cells_map.v -D LUT_WIDTH=6", "xilinx_dffopt",
            "opt_lut_ins -tech xilinx", f"{base} -run finalize:"]


def cache_tag(shreg_min: int) -> bytes:
    """what a non-default synthesis option adds to a cache key (nothing for the defaults: older results stay valid)"""
    return b"" if shreg_min == DEFAULT_SHREG_MIN else f"shreg{shreg_min}".encode()


def _ys_script(verilog: Path, top: str, json_out: Path, shreg_min: int = DEFAULT_SHREG_MIN) -> str:
    return "\n".join([
        f"read_verilog {verilog}",
        *synth_commands(top, True, shreg_min),
        "stat",
        f"write_json {json_out}",
    ])


def _counts(cells: dict) -> dict:
    by_type = defaultdict(int)
    for c in cells.values():
        by_type[c["type"]] += 1
    return {
        "dsp": by_type["DSP48E2"],
        "lut": sum(by_type[t] for t in LUTS),
        "ff": sum(by_type[t] for t in ("FDRE", "FDSE", "FDCE", "FDPE")),
        "srl": by_type["SRL16E"] + by_type["SRLC32E"],
        "lutram": sum(by_type[t] for t in ("RAM32M", "RAM64M", "RAM32X1D", "RAM64X1D", "RAM128X1D", "RAM32M16",
                                             "RAM64M8")),
        "carry4": by_type["CARRY4"],
        "bram36": by_type["RAMB36E2"] + by_type["RAMB18E2"] / 2,
        "uram": by_type["URAM288"] + by_type["URAM288_BASE"],
        "cell_types": dict(sorted(by_type.items())),
    }


def lut_sites(cells: dict) -> int:
    """LUT6 sites after pairing small LUTs that share an input (see the module docstring)."""
    small, big = [], 0
    for name, c in cells.items():
        t = c["type"]
        if t not in LUTS:
            continue
        ins = frozenset(b for port, bits in c["connections"].items() if port.startswith("I")
                        for b in bits if isinstance(b, int))
        if len(ins) >= 6:
            big += 1
        else:
            small.append(ins)
    by_net = defaultdict(list)
    for i, ins in enumerate(small):
        for b in ins:
            by_net[b].append(i)
    paired = [False] * len(small)
    pairs = 0
    for i in sorted(range(len(small)), key=lambda k: -len(small[k])):
        if paired[i]:
            continue
        for b in small[i]:
            mate = next((j for j in by_net[b][:64] if j != i and not paired[j] and len(small[i] | small[j]) <= 5), None)
            if mate is not None:
                paired[i] = paired[mate] = True
                pairs += 1
                break
    return big + len(small) - pairs


def cascades(cells: dict) -> dict:
    """How the DSP48E2s are chained: dsp_cascaded counts the DSPs whose PCIN is driven, bit for bit, by the PCOUT of
    another DSP48E2 (the dedicated cascade: no LUT or register between two links); dsp_pcin_other those whose PCIN
    comes from anything else (a LUT adder between links, or logic) and must be 0; dsp_chains the cascades (a DSP
    that drives another's PCIN and whose own PCIN is not cascaded starts one); dsp_acin the links whose A operand
    arrives through ACIN from the previous link."""
    pcout_of: dict[int, str] = {}
    for name, c in cells.items():
        if c["type"] == "DSP48E2":
            for b in c["connections"].get("PCOUT", []):
                if isinstance(b, int):
                    pcout_of[b] = name
    cascaded, other, acin = 0, 0, 0
    feeds: set[str] = set()
    fed: set[str] = set()
    for name, c in cells.items():
        if c["type"] != "DSP48E2":
            continue
        pcin = [b for b in c["connections"].get("PCIN", []) if isinstance(b, int)]
        if pcin:
            drivers = {pcout_of.get(b) for b in pcin}
            if None in drivers or len(drivers) != 1 or len(pcin) != 48:
                other += 1
            else:
                cascaded += 1
                feeds |= drivers
                fed.add(name)
        if any(isinstance(b, int) for b in c["connections"].get("ACIN", [])):
            acin += 1
    return {"dsp_cascaded": cascaded, "dsp_pcin_other": other, "dsp_chains": len(feeds - fed), "dsp_acin": acin}


def _depth(module: dict) -> dict:
    """Longest combinational paths of a flattened, mapped module."""
    cells = module["cells"]
    driver = {}  # net bit -> (cell name, port)
    for name, c in cells.items():
        for port, bits in c["connections"].items():
            if c["port_directions"].get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = (name, port)
    # carry chains: CARRY4 cells linked CO[3] -> CI
    chain_len: dict[str, int] = {}

    def carry_pred(name):
        ci = cells[name]["connections"].get("CI", [])
        if ci and isinstance(ci[0], int) and ci[0] in driver:
            d, _ = driver[ci[0]]
            if cells[d]["type"] == "CARRY4":
                return d
        return None

    def chain(name):
        # iterative: number of CARRY4 from the chain start up to this one
        stack = []
        n = name
        while n is not None and n not in chain_len:
            stack.append(n)
            n = carry_pred(n)
        base = chain_len[n] if n is not None else 0
        for s in reversed(stack):
            base += 1
            chain_len[s] = base
        return chain_len[name]

    longest_chain = max((chain(n) for n, c in cells.items() if c["type"] == "CARRY4"), default=0)

    # arrival (lut levels, carry chains) at each cell output, memoised, iterative DFS; pred: the input that set it
    arrival: dict[str, tuple[int, int]] = {}
    pred: dict[str, str] = {}  # by LUT levels
    pred_c: dict[str, str] = {}  # by carry chains
    best_c: dict[str, tuple[int, int]] = {}

    def inputs_of(name):
        c = cells[name]
        for port, bits in c["connections"].items():
            if c["port_directions"].get(port) == "input":
                for b in bits:
                    if isinstance(b, int) and b in driver:
                        yield port, driver[b][0]

    expanded: set[str] = set()  # cells whose inputs are on the stack: one met again is a combinational loop

    def node_arrival(root):
        stack = [root]
        while stack:
            n = stack[-1]
            if n in arrival:
                stack.pop()
                continue
            t = cells[n]["type"]
            if t in SEQUENTIAL:
                arrival[n] = (0, 0)
                stack.pop()
                continue
            pending = [d for _, d in inputs_of(n) if d not in arrival and cells[d]["type"] not in SEQUENTIAL]
            if pending:
                loop = [d for d in pending if d in expanded]
                if loop or n in expanded:
                    raise ValueError(f"combinational loop through {cells[loop[0] if loop else n]['type']} "
                                     f"{loop[0] if loop else n} (a cell type missing from SEQUENTIAL?)")
                expanded.add(n)
                stack.extend(pending)
                continue
            expanded.discard(n)
            luts, chains = 0, 0
            for port, d in inputs_of(n):
                dl, dc = arrival.get(d, (0, 0)) if cells[d]["type"] not in SEQUENTIAL else (0, 0)
                if t == "CARRY4" and port != "CI" and cells[d]["type"] != "CARRY4":
                    dc += 1  # entering a carry chain from logic
                elif t == "CARRY4" and port == "CI" and cells[d]["type"] != "CARRY4":
                    dc += 1
                if (dl, dc) > (luts, chains) or n not in pred:
                    pred[n] = d
                if (dc, dl) > best_c.get(n, (-1, -1)):
                    best_c[n], pred_c[n] = (dc, dl), d
                luts, chains = max(luts, dl), max(chains, dc)
            if t in LUTS:
                luts += 1
            arrival[n] = (luts, chains)
            stack.pop()
        return arrival[root]

    worst_luts, worst_chains, worst_end, chains_end = 0, 0, None, None
    # (the register or black box a path ends in, or None for an output port; the cell driving it)
    ends = [(name, d) for name, c in cells.items() if c["type"] in SEQUENTIAL for _, d in inputs_of(name)]
    ends += [(None, driver[b][0]) for port in module.get("ports", {}).values() if port["direction"] == "output"
             for b in port["bits"] if isinstance(b, int) and b in driver]
    multi: dict[str, int] = {}  # endpoint cell -> carry chains on its deepest path, where more than one
    for end, d in ends:
        if cells[d]["type"] not in SEQUENTIAL:
            l, ch = node_arrival(d)
            if l > worst_luts:
                worst_end = d
            if ch > worst_chains:
                chains_end = d
            if ch > 1:
                multi[end or d] = max(multi.get(end or d, 0), ch)
            worst_luts, worst_chains = max(worst_luts, l), max(worst_chains, ch)

    # a readable name for each net bit: the RTL signal yosys kept (netnames without hide_name), else none
    bit_name: dict[int, str] = {}
    for net, info in module.get("netnames", {}).items():
        if info.get("hide_name"):
            continue
        for i, b in enumerate(info["bits"]):
            if isinstance(b, int):
                bit_name.setdefault(b, net if len(info["bits"]) == 1 else f"{net}[{i}]")

    def signal(name):
        c = cells[name]
        for port, bits in c["connections"].items():
            if c["port_directions"].get(port) == "output":
                for b in bits:
                    if b in bit_name:
                        return f" -> {bit_name[b]}"
        return ""

    def trace(n, pred):
        """a deepest path, end first: cell type, the source location yosys recorded and the RTL signal it drives;
        the register (or black box) the path starts from last"""
        path = []
        while n is not None and len(path) < 200:
            c = cells[n]
            path.append(f"{c['type']} {c.get('attributes', {}).get('src', n)}{signal(n)}")
            n = pred.get(n)
            if n is not None and cells[n]["type"] in SEQUENTIAL:
                path.append(f"from {cells[n]['type']}{signal(n)}")
                n = None
        return path
    # every endpoint reached through more than one carry chain, by the RTL signal it drives (one line per signal)
    ends_by_signal: dict[str, int] = {}
    for n, ch in multi.items():
        sig = signal(n).removeprefix(" -> ") or f"{cells[n]['type']} {n}"
        sig = re.sub(r"\[\d+\]$", "", sig)
        ends_by_signal[sig] = max(ends_by_signal.get(sig, 0), ch)
    return {"lut_levels": worst_luts, "carry_bits": 4 * longest_chain, "chains_per_path": worst_chains,
            "deepest_path": trace(worst_end, pred), "most_chains_path": trace(chains_end, pred_c),
            "multi_chain_ends": [f"{s} ({c} chains)" for s, c in sorted(ends_by_signal.items())][:60]}


def run(verilog: Path | str, top: str, quiet: bool = True) -> dict:
    """Synthesises `top` from `verilog` (cached by content) and returns counts and depth."""
    verilog = Path(verilog)
    if shutil.which("yosys") is None:
        raise RuntimeError("yosys is not installed (./run.sh setup installs it)")
    shreg_min = shreg_min_size(verilog, top)
    key = hashlib.md5(verilog.read_bytes() + top.encode() + ANALYSIS_VERSION + cache_tag(shreg_min)).hexdigest()
    out_dir = CACHE / f"{top}-{key[:12]}"
    result_file = out_dir / "result.json"
    with locked(out_dir.with_name(out_dir.name + ".lock")):
        if result_file.exists():
            return json.loads(result_file.read_text())
        return _synthesise(verilog, top, out_dir, result_file, shreg_min)


def _synthesise(verilog: Path, top: str, out_dir: Path, result_file: Path, shreg_min: int) -> dict:
    out_dir.mkdir(parents=True, exist_ok=True)
    netlist = out_dir / "netlist.json"
    (out_dir / "synth.ys").write_text(_ys_script(verilog.resolve(), top, netlist, shreg_min))
    proc = subprocess.run(["yosys", "-q", "-l", str(out_dir / "yosys.log"), str(out_dir / "synth.ys")],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"yosys failed on {top}: see {out_dir / 'yosys.log'}\n{proc.stderr[-2000:]}")
    design = json.loads(netlist.read_text())
    module = design["modules"][top]
    result = {"top": top, "shreg_min_size": shreg_min, **_counts(module["cells"]), "lut_sites": lut_sites(module["cells"]),
              **cascades(module["cells"]), **_depth(module)}
    result_file.write_text(json.dumps(result, indent=1))
    netlist.unlink()  # large; the result and the log stay
    return result


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], sys.argv[2]), indent=1))
