"""Documented board facts and the checks of a block design against them (part, pins of the constraints files,
every top-level port constrained, the floorplan of floorplan.py).  A mixin of check.Checker."""
from __future__ import annotations

import re
from pathlib import Path

# Documented board facts.  Sources: C1100 (U55C/U55N/Varium C1100) the verilog-pcie project's
# example/Alveo/fpga/fpga_au55.xdc; VCU1525 the Corundum project's fpga/mqnic/VCU1525/fpga_100g/fpga.xdc and, for the
# DIMMs, its AU200/AU250/VCU1525 XDC (fpga/mqnic/AU200).
BOARDS = {
    "c1100": {"part": "xcu55n-fsvh2892-2L-e", "xdma_bytes": 32, "lanes": "X8",
              "pins": {"pcie_refclk_clk_p": "AR15", "pcie_refclk_clk_n": "AR14", "pcie_perstn": "BF41",
                       "sysclk_clk_p": "BK10", "sysclk_clk_n": "BL10", "hbm_cattrip": "BE45"},
              # the package's HBM2 (PG276; the card's 8 GB): two 4-high stacks of 16 AXI3 ports and 16 pseudo-channels
              # of 256 MiB, in switch groups of 4 ports and 4 pseudo-channels; AXI ports at 450 MHz, reference and APB
              # clocks of 100 MHz (vivado/bd_c1100.tcl); the stacks' catastrophic-temperature flags drive hbm_cattrip
              "memory": {"type": "HBM", "stacks": 2, "stack_ports": 16, "group_ports": 4, "pc_bytes": 256 << 20,
                         "axi_mhz": 450, "cattrip": "hbm_cattrip"}},
    "vu9p": {"part": "xcvu9p-fsgd2104-2L-e", "xdma_bytes": 64, "lanes": "X16",
             "pins": {"pcie_refclk_clk_p": "AM11", "pcie_refclk_clk_n": "AM10", "pcie_perstn": "BD21",
                      "sysclk_clk_p": "AU19", "sysclk_clk_n": "AV19"},
             # four DDR4 DIMMs (16 GB 72-bit RDIMMs, one rank of x4 devices, 2400 MT/s), pins in the table below;
             # the SLR of each DIMM's I/O banks, as the public shells of the VCU1525 / Alveo U200 place them.  Their
             # 300 MHz references: c0 AY37/AY38, c1 AW20/AW19, c2 F32/E32, c3 J16/H16 (the same XDC as above)
             "memory": {"type": "DDR4", "pins": "vu9p_ddr4_pins.tsv", "slrs": ["SLR0", "SLR1", "SLR1", "SLR2"],
                        "refclk": {"c0": ("AY37", "AY38"), "c1": ("AW20", "AW19"), "c2": ("F32", "E32"),
                                   "c3": ("J16", "H16")},
                        "signals": {"adr": 17, "ba": 2, "bg": 2, "ck_t": 1, "ck_c": 1, "cke": 1, "cs_n": 1, "odt": 1,
                                    "act_n": 1, "par": 1, "reset_n": 1, "dq": 72, "dqs_t": 18, "dqs_c": 18},
                        "config": {"C0.DDR4_MemoryType": "RDIMMs", "C0.DDR4_MemoryPart": "MTA18ASF2G72PZ-2G3",
                                   "C0.DDR4_DataWidth": "72", "C0.DDR4_Ecc": "true", "C0.DDR4_TimePeriod": "833",
                                   "C0.DDR4_InputClockPeriod": "3332", "C0.DDR4_AxiSelection": "true",
                                   "C0.CS_WIDTH": "1"}},
             # three SLRs; PCIe (quads 224..227) in SLR1: the same project's VCU1525 placement.xdc puts its PCIe
             # pblock on clock regions X4Y5:X5Y8 (rows 5..9 are SLR1).  The MSM adders go to the SLRs beside it.  6,840
             # DSP48E2 in three equal SLRs.
             "floorplan": {"slrs": 3, "slr_dsp": 6840 // 3, "slr_uram": 960 // 3, "shell": "SLR1",
                           "adders": ["SLR0", "SLR2"]}},
}


def core_mhz(board: str) -> int:
    """The core clock bd_<board>.tcl builds by default (`core_mhz` of its board dict), which is also the clock every
    projection of the benchmark report is made at."""
    from vivado_stub.rtl import ROOT
    text = (ROOT / "vivado" / f"bd_{board}.tcl").read_text()
    m = re.search(rf"set zk_board_{board} \[dict create name {board} core_mhz (\d+) ", text)
    if m is None:
        raise ValueError(f"vivado/bd_{board}.tcl: no core_mhz in the board dict zk_board_{board}")
    return int(m[1])


class BoardChecks:
    def check_board(self):
        b = BOARDS[self.board]
        if self.rec["result"].get("part") != b["part"]:
            self.bad(f"part {self.rec['result'].get('part')!r}, board {self.board} is {b['part']}")
        xdcs = [Path(x) for x in self.rec["result"].get("xdc", [])] + [
            Path(f) for f in self.rec["result"].get("files", []) if f.endswith(".xdc")]
        pins = {}
        for x in xdcs:
            for line in x.read_text().splitlines():
                line = line.split("#", 1)[0]
                m = re.search(r"(?:PACKAGE_PIN|LOC)\s+(\w+).*get_ports\s+\{?\s*(\w+(?:\[\d+\])?)", line)
                if m:
                    pins[m[2]] = m[1]
        if not xdcs:
            self.bad("no constraints file in the project")
        given = set(pins)
        ddr = {p: v for p, v in pins.items() if p.startswith("ddr4_")}
        pins = {p: v for p, v in pins.items() if p not in ddr}
        if pins != b["pins"]:
            self.bad(f"board pins {pins} differ from the documented {b['pins']}")
        self.check_memory_pins(ddr)
        needed = set()
        for p in self.rec["ports"]:
            needed.add(p.strip("/"))
        for p, ip in self.rec["intf_ports"].items():
            if "diff_clock" in ip["vlnv"]:
                needed |= {p.strip("/") + "_clk_p", p.strip("/") + "_clk_n"}
        if needed - given:
            self.bad(f"top-level ports without a pin: {sorted(needed - given)}")
        self.board_facts = b
        self.check_floorplan(xdcs)

    def check_memory_pins(self, pins: dict[str, str]):
        """The DDR4 pins a build's XDC gives: every channel the design has gets each DDR4 signal at its width (one
        rank, x4 devices, ECC: board facts), its reference clock on the documented pins, no pin twice, none for a
        channel the design does not have, and all of them as the board's pin table says."""
        mem = BOARDS[self.board].get("memory")
        channels = sorted(int(p[len("/ddr4_c"):]) for p in self.rec["intf_ports"] if re.fullmatch(r"/ddr4_c\d+", p))
        if not mem or mem["type"] != "DDR4":
            # no DDR4, or the HBM in the package: no memory pins of ours
            if channels or pins:
                self.bad(f"board {self.board} has no DDR4 channels")
            return
        table = {}
        for line in (Path(__file__).resolve().parents[1] / "constraints" / mem["pins"]).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                ch, sig, locs = line.split("\t")
                table[(ch, sig)] = locs.split()
        want = {}
        for c in channels:
            ch = f"c{c}"
            for sig, n in mem["signals"].items():
                locs = table.get((ch, sig), [])
                if len(locs) < n:
                    self.bad(f"DDR4 {ch} {sig}: the pin table has {len(locs)} pins, the DIMM needs {n}")
                names = [f"ddr4_{ch}_{sig}"] if sig in ("act_n", "par", "reset_n") else [
                    f"ddr4_{ch}_{sig}[{i}]" for i in range(n)]
                want |= dict(zip(names, locs))
            p, n = mem["refclk"][ch]
            want |= {f"ddr4_{ch}_refclk_clk_p": p, f"ddr4_{ch}_refclk_clk_n": n}
        if pins != want:
            diff = sorted(set(pins.items()) ^ set(want.items()))[:6]
            self.bad(f"DDR4 pins of the build differ from the board's ({len(pins)} given, {len(want)} expected; "
                     f"first differences {diff})")
        taken = list(pins.values()) + list(BOARDS[self.board]["pins"].values())
        if len(set(taken)) != len(taken):
            self.bad(f"a package pin is given twice: {sorted(p for p in set(taken) if taken.count(p) > 1)}")
