"""Documented board facts and the checks of a block design against them (part, pins of the constraints files,
every top-level port constrained, the floorplan of floorplan.py).  A mixin of check.Checker."""
from __future__ import annotations

import re
from pathlib import Path

# Documented board facts.  Sources: C1100 (U55C/U55N/Varium C1100) the verilog-pcie project's
# example/Alveo/fpga/fpga_au55.xdc; VCU1525 the Corundum project's fpga/mqnic/VCU1525/fpga_100g/fpga.xdc.
BOARDS = {
    "c1100": {"part": "xcu55n-fsvh2892-2L-e", "xdma_bytes": 32, "lanes": "X8",
              "pins": {"pcie_refclk_clk_p": "AR15", "pcie_refclk_clk_n": "AR14", "pcie_perstn": "BF41",
                       "sysclk_clk_p": "BK10", "sysclk_clk_n": "BL10", "hbm_cattrip": "BE45"}},
    "vu9p": {"part": "xcvu9p-fsgd2104-2L-e", "xdma_bytes": 64, "lanes": "X16",
             "pins": {"pcie_refclk_clk_p": "AM11", "pcie_refclk_clk_n": "AM10", "pcie_perstn": "BD21",
                      "sysclk_clk_p": "AY37", "sysclk_clk_n": "AY38"},
             # three SLRs; PCIe (quads 224..227) in SLR1: the same project's VCU1525 placement.xdc puts its PCIe
             # pblock on clock regions X4Y5:X5Y8 (rows 5..9 are SLR1).  The MSM adders go to the SLRs beside it.  6,840
             # DSP48E2 in three equal SLRs.
             "floorplan": {"slrs": 3, "slr_dsp": 6840 // 3, "shell": "SLR1", "adders": ["SLR0", "SLR2"]}},
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
        if pins != b["pins"]:
            self.bad(f"board pins {pins} differ from the documented {b['pins']}")
        needed = set()
        for p in self.rec["ports"]:
            needed.add(p.strip("/"))
        for p, ip in self.rec["intf_ports"].items():
            if "diff_clock" in ip["vlnv"]:
                needed |= {p.strip("/") + "_clk_p", p.strip("/") + "_clk_n"}
        if needed - set(pins):
            self.bad(f"top-level ports without a pin: {sorted(needed - set(pins))}")
        self.board_facts = b
        self.check_floorplan(xdcs)
