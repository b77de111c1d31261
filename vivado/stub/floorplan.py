"""The floorplan of a board's constraints (pblocks of whole SLRs) against the block design: every adder of the MSM
engine (MsmLane lanes_a, from the manifest's `adders`, one-adder engines too) in exactly one pblock of one SLR of its own, next to the
shell's SLR, each of its Montgomery products (the instances of the bucket adder in the Verilog) in exactly one
pblock, and no SLR given more DSP48E2 than it has (the manifest's DSP tiles per product); every cell on the core's
stream and register paths (XDMA, FIFOs, width converters, frame adapters,
the AXI4-Lite interconnect, the system block, the engine's own logic outside its adders) in the shell's pblock, so
no block-design net crosses an SLR boundary and the only crossings are the engine's lane ports (registered on both
sides, checked on the Verilog by MsmElaborationSpec).  Cells left to the placer: clocking (the MMCM sits by its
input pin), resets and constants (quasi-static), the flash controller (its ICAP sits at the configuration site).
A mixin of check.Checker."""
from __future__ import annotations

import fnmatch
import json
import re
from collections import Counter
from pathlib import Path

# cells the placer may put anywhere (see above), by block-design name; a DDR4 controller sits by its DIMM's I/O
# banks (the board's memory facts say which SLR that is), its reset logic by it
FREE_CELLS = ("refclk_buf", "core_clk", "rst_core", "rst_xdma", "const_*", "flash", "ddr4_*", "rst_ddr*", "mem_rst")


def pblocks(xdc_text: str) -> dict[str, dict]:
    """{name: {"slrs": [...], "rules": [(include globs, exclude globs), ...]}} of an XDC: one rule per
    add_cells_to_pblock (a cell belongs when a rule's includes take it and that rule's excludes do not)."""
    out: dict[str, dict] = {}
    for raw in xdc_text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if m := re.match(r"create_pblock\s+(\S+)$", line):
            out[m[1]] = {"slrs": [], "rules": []}
        elif m := re.match(r"resize_pblock\s+\[get_pblocks\s+(\S+)\]\s+-add\s+\{([^}]*)\}", line):
            out[m[1]]["slrs"] += [s for s in m[2].split() if re.fullmatch(r"SLR\d", s)]
            if any(not re.fullmatch(r"SLR\d", s) for s in m[2].split()):
                out[m[1]]["slrs"].append("(not a whole SLR)")
        elif m := re.match(r"add_cells_to_pblock\s+\[get_pblocks\s+(\S+)\]\s+\[get_cells\s+(.*)\]$", line):
            pb, args = out[m[1]], m[2]
            if f := re.search(r"-filter\s+\{([^}]*)\}", args):
                pb["rules"].append((re.findall(r"NAME\s*=~\s*(\S+)", f[1]), re.findall(r"NAME\s*!~\s*(\S+)", f[1])))
            elif lst := re.search(r"\{([^}]*)\}", args):
                pb["rules"].append((lst[1].split(), []))
    return out


def owners(pbs: dict[str, dict], cell: str) -> list[str]:
    """The pblocks whose cell patterns take `cell` (a hierarchical path, or a primitive below one)."""
    def takes(p: str) -> bool:
        return fnmatch.fnmatchcase(cell, p) or ("*" not in p and cell.startswith(p + "/"))

    return [name for name, pb in pbs.items()
            if any(any(map(takes, inc)) and not any(fnmatch.fnmatchcase(cell, x) for x in exc) for inc, exc in pb["rules"])]


def adder_product_modules(verilog: Path) -> list[tuple[str, str]]:
    """(module, instance) of each Montgomery product inside the bucket adder (module TwistedEdwardsAdder or
    XyzzAdder) of an emitted top."""
    m = re.search(r"^module (?:TwistedEdwardsAdder|XyzzAdder)\b(.*?)^endmodule", verilog.read_text(), re.S | re.M)
    return re.findall(r"^\s+(MontgomeryMul\w*)\s+(\w+)\s*\(", m[1], re.M) if m else []


def lane_memory_modules(verilog: Path) -> list[tuple[str, str]]:
    """(module, instance) of each bucket memory of the engine's lane module(s) (MsmLane*) of an emitted top."""
    text = verilog.read_text()
    return [(mod, name) for body in re.findall(r"^module MsmLane\w*\b(.*?)^endmodule", text, re.S | re.M)
            for mod, name in re.findall(r"^\s+(BucketMemory\w*)\s+(\w+)\s*\(", body, re.M)]


def split_hub(verilog: Path) -> bool:
    """Whether the engine of an emitted top is a split lane (MsmConfig.split: its lane is the instance `hub`)."""
    return re.search(r"^\s+MsmLane\w*\s+hub\s*\(", verilog.read_text(), re.M) is not None


def uram288(width: int, depth: int) -> int:
    """URAM288 (4,096 x 72 each) that hold a width x depth memory."""
    return -(-width // 72) * -(-depth // 4096)


def memory_urams(width: int, depth: int) -> int:
    """URAM288 of a bucket memory Vivado maps to UltraRAM (BucketMemory: 1,024 buckets and more); 0 for a shallower
    one (block RAM)."""
    return uram288(width, depth) if depth >= 1024 else 0


def adder_products(verilog: Path) -> list[str]:
    """Instance names of the Montgomery products inside the bucket adder of an emitted top."""
    return [name for _, name in adder_product_modules(verilog)]


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

        mem = self.board_facts.get("memory")
        # the shell: every cell on the core's paths, and the engine's logic outside its adders
        for path in self.rec["cells"]:
            name = path.strip("/")
            if "/" in name or any(fnmatch.fnmatchcase(name, p) for p in FREE_CELLS):
                continue
            if m := re.fullmatch(r"mem(\d+)_slr", name):
                self.check_memory_crossing(int(m[1]), placed, f"{inst}/{name}/inst", shell_slr, mem)
                continue
            if name == "core":
                s = placed(f"{inst}/core/inst/logic_reg", "the core's own logic")
            else:
                s = placed(f"{inst}/{name}", f"block-design cell {name}")
            if s is not None and s != shell_slr:
                self.bad(f"cell {name} is placed in SLR{s}, the shell is in {fp['shell']}: a stream or register "
                         f"path would cross an SLR boundary without registers")
        # a memory channel whose controller is in another SLR crosses through a register slice
        for c in range(len(mem["slrs"]) if mem else 0):
            far = int(mem["slrs"][c][3:]) != shell_slr
            if f"/ddr4_{c}" in self.rec["cells"] and far and f"/mem{c}_slr" not in self.rec["cells"]:
                self.bad(f"memory channel {c}: its controller is in {mem['slrs'][c]}, the shell in {fp['shell']}, "
                         f"and no register slice mem{c}_slr crosses between them")
        # the adders
        core = self.rec["cells"].get("/core", {}).get("vlnv", "::").split(":")[2]
        info = json.loads((self.rtl_dir / "manifest.json").read_text()).get(core, {})
        adders = int(info.get("adders", 0)) if info.get("kind") == "MsmAxis" else 0
        if adders < 1:
            return
        if info.get("split"):
            self.check_split(core, info, fp, placed, f"{inst}/core/inst/core/hub", shell_slr)
            return
        if adders > len(fp["adders"]):
            self.bad(f"{core} has {adders} adders; the {self.board} floorplan places {len(fp['adders'])}")
        products = adder_products(self.rtl_dir / info["file"])
        if not products:
            self.bad(f"{core}: no Montgomery products found in its bucket adder")
            return
        per_product = int(info["dsp_tiles"]) // (adders * len(products))
        dsp = Counter()
        used: dict[int, int] = {}
        for a in range(adders):
            lane = f"{inst}/core/inst/core/lanes_{a}"
            s = placed(f"{lane}/scheduler_reg", f"adder {a}")
            for prod in products:
                ps = placed(f"{lane}/adder/{prod}/dsp", f"adder {a}'s product {prod}")
                if ps is not None:
                    dsp[ps] += per_product
            if s is None:
                continue
            # a one-adder engine's lane goes to the first adder pblock like any lane 0 (the XDC's rule is by name)
            if s in used:
                self.bad(f"adders {used[s]} and {a} share SLR{s}: each adder needs an SLR of its own")
            used[s] = a
            if s == shell_slr:
                self.bad(f"adder {a} shares the shell's {fp['shell']}: an adder needs an SLR of its own")
            elif abs(s - shell_slr) != 1:
                self.bad(f"adder {a} in SLR{s} is not next to the shell's {fp['shell']}: its ports would cross "
                         f"{abs(s - shell_slr)} SLR boundaries")
        for s, n in sorted(dsp.items()):
            if n > fp["slr_dsp"]:
                self.bad(f"SLR{s} is given {n:,} DSP48E2 of Montgomery products ({per_product} each); it has "
                         f"{fp['slr_dsp']:,}")
        self.floorplan_dsp = dict(dsp)

    def check_memory_crossing(self, c: int, placed, slice_path: str, shell_slr: int, mem: dict | None):
        """Register slice mem<c>_slr: Multi SLR Crossing on all five channels over as many SLR boundaries as lie
        between the shell and DIMM c's controller, its slr_master side in the shell's SLR, its slr_slave side in the
        controller's."""
        if not mem or c >= len(mem["slrs"]):
            self.bad(f"register slice mem{c}_slr: the board has no memory channel {c}")
            return
        far = int(mem["slrs"][c][3:])
        props = self.rec["cells"][f"/mem{c}_slr"]["props"]
        if any(props.get(f"CONFIG.REG_{ch}") != "15" for ch in ("AW", "AR", "W", "R", "B")):
            self.bad(f"mem{c}_slr: not Multi SLR Crossing (15) on every channel")
        if props.get("CONFIG.NUM_SLR_CROSSINGS") != str(abs(far - shell_slr)):
            self.bad(f"mem{c}_slr: {props.get('CONFIG.NUM_SLR_CROSSINGS')} SLR crossings, the controller is "
                     f"{abs(far - shell_slr)} SLR(s) from the shell")
        for side, want in (("slr_master_0", shell_slr), ("slr_slave_0", far)):
            s = placed(f"{slice_path}/{side}/reg", f"mem{c}_slr's {side.rsplit('_', 1)[0]} side")
            if s is not None and s != want:
                self.bad(f"mem{c}_slr's {side.rsplit('_', 1)[0]} side is placed in SLR{s}, it belongs in SLR{want}")

    def check_split(self, core: str, info: dict, fp: dict, placed, hub: str, shell_slr: int):
        """A split lane (MsmConfig.split): its hub (scheduler, the adder's additions, the crossings' registers) in the
        shell's SLR; each region, its products (hub/adder/far<r>_<name>) and its windows' bucket memories
        (hub/far<r>_memories_<k>), in one SLR of its own beside the shell's; no SLR given more DSP48E2 or URAM288 than
        it has."""
        s = placed(f"{hub}/scheduler_reg", "the split lane's hub")
        if s is not None and s != shell_slr:
            self.bad(f"{core}: the split lane's hub is placed in SLR{s}; it belongs with the shell in {fp['shell']}")
        verilog = self.rtl_dir / info["file"]
        products = adder_products(verilog)
        named = {f"far{r}_{p}" for r, ps in enumerate(info["split"]["products"]) for p in ps}
        if not products or set(products) != named:
            self.bad(f"{core}: the adder's products {sorted(products)} are not the split's {sorted(named)}")
            return
        per_product = int(info["dsp_tiles"]) // len(products)
        memories = dict((name, mod) for mod, name in lane_memory_modules(verilog))
        width = 4 * int(info["n"]) + 1
        dsp, uram, home = Counter(), Counter(), {}
        for r, (ps, windows) in enumerate(zip(info["split"]["products"], info["split"]["windows"])):
            where = set()
            for p in ps:
                ps_slr = placed(f"{hub}/adder/far{r}_{p}/dsp", f"{core}'s product far{r}_{p}")
                if ps_slr is not None:
                    dsp[ps_slr] += per_product
                    where.add(ps_slr)
            for k in windows:
                name = f"far{r}_memories_{k}"
                if name not in memories:
                    self.bad(f"{core}: no bucket memory {name} in its lane")
                    continue
                ms = placed(f"{hub}/{name}/mem_reg", f"{core}'s bucket memory {name}")
                if ms is not None:
                    uram[ms] += memory_urams(width, int(info["buckets"][k]))
                    where.add(ms)
            if len(where) != 1:
                self.bad(f"{core}: region {r} is spread over SLRs {sorted(where)}: a region takes one SLR")
                continue
            (slr,) = where
            if slr in home.values():
                self.bad(f"{core}: regions {list(home)} and {r} share SLR{slr}: each region needs an SLR of its own")
            home[r] = slr
            if slr == shell_slr or abs(slr - shell_slr) != 1:
                self.bad(f"{core}: region {r} in SLR{slr} is not an SLR beside the shell's {fp['shell']}")
        for s, n in sorted(dsp.items()):
            if n > fp["slr_dsp"]:
                self.bad(f"SLR{s} is given {n:,} DSP48E2 of Montgomery products ({per_product} each); it has "
                         f"{fp['slr_dsp']:,}")
        for s, n in sorted(uram.items()):
            if n > fp["slr_uram"]:
                self.bad(f"SLR{s} is given {n:,} URAM288 of bucket memories; it has {fp['slr_uram']:,}")
        self.floorplan_dsp = dict(dsp)
