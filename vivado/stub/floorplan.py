"""The floorplan of a board's constraints (pblocks of whole SLRs) against the block design: every adder of the MSM
engine (MsmLane lanes_a, from the manifest's `adders`) in exactly one pblock of one SLR of its own, next to the
shell's SLR; every cell on the core's stream and register paths (XDMA, FIFOs, width converters, frame adapters,
the AXI4-Lite interconnect, the system block, the engine's own logic outside its adders) in the shell's pblock, so
no block-design net crosses an SLR boundary and the only crossings are the engine's lane ports (registered on both
sides, checked on the Verilog by MsmElaborationSpec).  Cells left to the placer: clocking (the MMCM sits by its
input pin), resets and constants (quasi-static), the flash controller (its ICAP sits at the configuration site).
A mixin of check.Checker."""
from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path

# cells the placer may put anywhere (see above), by block-design name
FREE_CELLS = ("refclk_buf", "core_clk", "rst_core", "rst_xdma", "const_*", "flash")


def pblocks(xdc_text: str) -> dict[str, dict]:
    """{name: {"slrs": [...], "include": [glob...], "exclude": [glob...], "primitives_only": bool}} of an XDC."""
    out: dict[str, dict] = {}
    for raw in xdc_text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if m := re.match(r"create_pblock\s+(\S+)$", line):
            out[m[1]] = {"slrs": [], "include": [], "exclude": [], "primitives_only": False}
        elif m := re.match(r"resize_pblock\s+\[get_pblocks\s+(\S+)\]\s+-add\s+\{([^}]*)\}", line):
            out[m[1]]["slrs"] += [s for s in m[2].split() if re.fullmatch(r"SLR\d", s)]
            if any(not re.fullmatch(r"SLR\d", s) for s in m[2].split()):
                out[m[1]]["slrs"].append("(not a whole SLR)")
        elif m := re.match(r"add_cells_to_pblock\s+\[get_pblocks\s+(\S+)\]\s+\[get_cells\s+(.*)\]$", line):
            pb, args = out[m[1]], m[2]
            if f := re.search(r"-filter\s+\{([^}]*)\}", args):
                pb["include"] += re.findall(r"NAME\s*=~\s*(\S+)", f[1])
                pb["exclude"] += re.findall(r"NAME\s*!~\s*(\S+)", f[1])
                pb["primitives_only"] |= "IS_PRIMITIVE" in f[1]
            elif lst := re.search(r"\{([^}]*)\}", args):
                pb["include"] += lst[1].split()
    return out


def owners(pbs: dict[str, dict], cell: str) -> list[str]:
    """The pblocks whose cell patterns take `cell` (a hierarchical path, or a primitive below one)."""
    found = []
    for name, pb in pbs.items():
        hit = any(fnmatch.fnmatchcase(cell, p) or cell.startswith(p.rstrip("*") + "/") and "*" not in p
                  for p in pb["include"])
        if hit and not any(fnmatch.fnmatchcase(cell, p) for p in pb["exclude"]):
            found.append(name)
    return found


class FloorplanChecks:
    def check_floorplan(self, xdcs: list[Path]):
        fp = self.board_facts.get("floorplan")
        if not fp:
            return
        pbs: dict[str, dict] = {}
        for x in xdcs:
            pbs |= pblocks(x.read_text())
        for name, pb in pbs.items():
            if len(pb["slrs"]) != 1:
                self.bad(f"pblock {name} covers {pb['slrs'] or 'no region'}: a floorplan pblock is one whole SLR")
            elif int(pb["slrs"][0][3:]) >= fp["slrs"]:
                self.bad(f"pblock {name} is on {pb['slrs'][0]}: the {self.board} part has SLR0..SLR{fp['slrs'] - 1}")
        slr = {name: int(pb["slrs"][0][3:]) for name, pb in pbs.items() if len(pb["slrs"]) == 1}
        inst = f"zk_{self.board}_i"
        shell_slr = int(fp["shell"][3:])

        def placed(cell: str, what: str) -> int | None:
            own = owners(pbs, cell)
            if len(own) != 1:
                self.bad(f"{what} ({cell}) is in {len(own)} floorplan pblocks {own}: it needs exactly one")
                return None
            return slr.get(own[0])

        # the shell: every cell on the core's paths, and the engine's logic outside its adders
        for path in self.rec["cells"]:
            name = path.strip("/")
            if "/" in name or any(fnmatch.fnmatchcase(name, p) for p in FREE_CELLS):
                continue
            if name == "core":
                s = placed(f"{inst}/core/inst/logic_reg", "the core's own logic")
            else:
                s = placed(f"{inst}/{name}", f"block-design cell {name}")
            if s is not None and s != shell_slr:
                self.bad(f"cell {name} is placed in SLR{s}, the shell is in {fp['shell']}: a stream or register "
                         f"path would cross an SLR boundary without registers")
        # the adders
        core = self.rec["cells"].get("/core", {}).get("vlnv", "::").split(":")[2]
        manifest = json.loads((self.rtl_dir / "manifest.json").read_text())
        adders = int(manifest.get(core, {}).get("adders", 0)) if manifest.get(core, {}).get("kind") == "MsmAxis" else 0
        if adders > 1 and adders > len(fp["adders"]):
            self.bad(f"{core} has {adders} adders; the {self.board} floorplan places {len(fp['adders'])}")
        used: dict[int, int] = {}
        for a in range(adders if adders > 1 else 0):
            lane = f"{inst}/core/inst/core/lanes_{a}"
            s = placed(lane, f"adder {a}")
            if placed(f"{lane}/adder/some_dsp", f"adder {a}'s multipliers") != s:
                self.bad(f"adder {a}: its multipliers are not in its lane's pblock")
            if s is None:
                continue
            if s in used:
                self.bad(f"adders {used[s]} and {a} share SLR{s}: each adder needs an SLR of its own")
            used[s] = a
            if s == shell_slr:
                self.bad(f"adder {a} shares the shell's {fp['shell']}: an adder needs an SLR of its own")
            elif abs(s - shell_slr) != 1:
                self.bad(f"adder {a} in SLR{s} is not next to the shell's {fp['shell']}: its ports would cross "
                         f"{abs(s - shell_slr)} SLR boundaries")
