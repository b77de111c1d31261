"""Checks of the flash controller's hookup (FlashCtrl_<board>: SPI configuration flash through STARTUPE3, IPROG
through ICAPE3) and of the configuration settings the flash layout needs.  A mixin of check.Checker.

FlashCtrl has two clocks: aclk (its AXI4-Lite slave, on the XDMA clock) and icap_clk (ICAPE3, at most 200 MHz,
DS923).  No interface or pin of the cell belongs to icap_clk: the crossing between the two is inside the core
(BufferCC of a toggle and of the quasi-static WBSTAR, hw/src/zkspinal/system/FlashCtrl.scala), so the domain rules
of check.Checker hold at its boundary and only the clock's source and frequency are checked here."""
from __future__ import annotations

import re
from pathlib import Path

from reference_model import contract as C

FLASH_OFFSET, FLASH_RANGE = C.USER_BAR_FLASH, C.USER_BAR_MAP_BYTES - C.USER_BAR_FLASH  # the contract's user BAR map
BAR_MIN = 0x40000            # sw/ maps 0x30000 bytes of the user BAR (ZK_USER_MAP_BYTES); the BAR is a power of two
ICAP_MAX_MHZ = 200.0         # ICAPE3 (DS923)
# the bitstream settings of the flash layout (sw/README.md, "Flash layout"): x4 SPI boot, 32-bit addresses,
# fallback to the golden image when the update image fails
CONFIG_PROPS = {"CONFIG_MODE": "SPIx4", "BITSTREAM.CONFIG.SPI_BUSWIDTH": "4",
                "BITSTREAM.CONFIG.SPI_32BIT_ADDR": "YES", "BITSTREAM.CONFIG.CONFIGFALLBACK": "ENABLE"}
PRIMITIVES = ("ICAPE3", "STARTUPE3")   # one each per device


def flash_cells(checker) -> list[str]:
    return [c for c in checker.zk if checker.rec["cells"][c]["vlnv"].split(":")[2].startswith("FlashCtrl_")]


class FlashChecks:
    def clock_mhz(self, end: str) -> float | None:
        """Frequency of a clock source: a clock wizard output, the XDMA's axi_aclk, a top-level clock port."""
        cell, pin = self.split(end)
        if pin is None:
            p = self.rec["ports"].get(end) or self.rec["intf_ports"].get(end) or {}
            hz = p.get("props", {}).get("CONFIG.FREQ_HZ")
            return int(hz) / 1e6 if hz else None
        c = self.rec["cells"].get(cell, {})
        name, props = c.get("vlnv", "::x:").split(":")[2], c.get("props", {})
        m = re.fullmatch(r"clk_out(\d)", pin)
        if name == "clk_wiz" and m:
            f = props.get(f"CONFIG.CLKOUT{m[1]}_REQUESTED_OUT_FREQ")
            return float(f) if f else None
        if name == "xdma" and pin == "axi_aclk":
            return float(props.get("CONFIG.axisten_freq", 250))
        return None

    def check_flash(self):
        cells = flash_cells(self)
        if self.board:
            want = f"FlashCtrl_{self.board}"
            got = [self.rec["cells"][c]["vlnv"].split(":")[2] for c in cells]
            if got != [want]:
                self.bad(f"flash controller: cells {got}, board {self.board} needs one {want}")
        # one ICAPE3 and one STARTUPE3 per device: count them in the Verilog of every zkspinal cell
        for prim in PRIMITIVES:
            n = sum(len(re.findall(rf"^\s*{prim}\b", (self.rtl_dir / f"{self.rec['cells'][c]['vlnv'].split(':')[2]}.v")
                                   .read_text(), re.M)) for c in self.zk)
            if n > 1:
                self.bad(f"{n} {prim} primitives in the design (one per device)")
        xdma = next((c for c, cell in self.rec["cells"].items() if ":xdma:" in cell["vlnv"]), None)
        for c in cells:
            for clk in self.zk[c].aux_clocks:
                d = self.clock_domain(c, clk)
                mhz = self.clock_mhz(d) if d else None
                if d and mhz is None:
                    self.bad(f"{c}/{clk}: driven by {d}, whose frequency the checker cannot tell")
                elif mhz is not None and mhz > ICAP_MAX_MHZ:
                    self.bad(f"{c}/{clk}: {mhz:g} MHz from {d}, ICAPE3 runs at {ICAP_MAX_MHZ:g} MHz at most")
            if xdma and self.clock_domain(c, "aclk") != f"{xdma}/axi_aclk":
                self.bad(f"{c}/aclk: not the XDMA's axi_aclk (the flash window sits in the XDMA clock domain)")
        if cells and xdma:
            props = self.rec["cells"][xdma]["props"]
            scale = {"Kilobytes": 1 << 10, "Megabytes": 1 << 20, "Gigabytes": 1 << 30}.get(
                props.get("CONFIG.axilite_master_scale", "Megabytes"), 0)
            size = int(props.get("CONFIG.axilite_master_size", 1)) * scale
            if size < BAR_MIN:
                self.bad(f"{xdma}: user BAR of {size} bytes, the flash window needs {BAR_MIN}")
            for a in self.rec["addresses"]:
                if a["space"] == f"{xdma}/M_AXI_LITE" and int(a["offset"], 0) + int(a["range"], 0) > size:
                    self.bad(f"{a['seg']}: beyond the user BAR ({size} bytes)")
        if cells and self.board:
            self.check_config_props()
        if cells:
            self.check_flash_images()

    def check_config_props(self):
        xdcs = [Path(x) for x in self.rec["result"].get("xdc", [])] + [
            Path(f) for f in self.rec["result"].get("files", []) if f.endswith(".xdc")]
        got = {}
        for x in xdcs:
            for line in x.read_text().splitlines():
                m = re.match(r"\s*set_property\s+(\S+)\s+(\S+)\s+\[current_design\]", line.split("#", 1)[0])
                if m:
                    got[m[1]] = m[2]
        for k, v in CONFIG_PROPS.items():
            if got.get(k) != v:
                self.bad(f"configuration property {k} = {got.get(k)!r} in the constraints, the flash layout needs {v}")

    def check_flash_images(self):
        """With a flash image (write_cfgmem), the golden bitstream jumps to the update slot at half the flash
        (NEXT_CONFIG_ADDR), the update bitstream does not (it would reboot into itself)."""
        for cfg in self.rec["cfgmem"]:
            half = int(cfg["size"]) << 19
            loads = cfg["loadbit"].split()
            slots = {int(loads[i + 1], 0): loads[i + 2] for i in range(0, len(loads) - 2, 3) if loads[i] == "up"}
            if set(slots) != {0, half}:
                self.bad(f"{cfg['file']}: bitstreams at {sorted(hex(s) for s in slots)}, the layout has 0 and {half:#x}")
                continue
            golden = self.rec["bitstreams"].get(slots[0], {})
            update = self.rec["bitstreams"].get(slots[half], {})
            if int(golden.get("BITSTREAM.CONFIG.NEXT_CONFIG_ADDR", "-1"), 0) != half:
                self.bad(f"golden {slots[0]}: NEXT_CONFIG_ADDR {golden.get('BITSTREAM.CONFIG.NEXT_CONFIG_ADDR')}, "
                         f"expected {half:#x}")
            if golden.get("BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT") != "ENABLE":
                self.bad(f"golden {slots[0]}: NEXT_CONFIG_REBOOT not ENABLE")
            if update.get("BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT") != "DISABLE":
                self.bad(f"update {slots[half]}: NEXT_CONFIG_REBOOT {update.get('BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT')}")
