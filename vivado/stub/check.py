"""Checks what a Vivado script asked for, as recorded by the command stub (vivado/stub/run.tcl), against the
emitted Verilog, the IP models of vivado/stub/catalog.py and the documented board facts below.

    python -m vivado_stub.check RECORD.jsonl [--board c1100|vu9p]       (exit 1 and one line per problem)

Checks: the script ran; the part; every IP cell is known and its required inputs are driven; every pin and
interface of every zkspinal cell is connected; nets have one driver; AXI4-Stream widths match on both ends and match
the Verilog ports; clock domains meet only inside cells built for it (asynchronous FIFOs, a multi-clock SmartConnect,
reset synchronizers); resets come from their own domain; XDMA in AXI4-Stream mode with one channel per core stream;
the user BAR map (core 0x00000, system block 0x10000, flash controller 0x20000); the system block's identity inputs
driven by the core's identity outputs; the flash controller's hookup and
the configuration settings of the flash layout (flash.py); the board pins of the XDC; the floorplan (floorplan.py:
every MSM adder in an SLR of its own beside the shell, no block-design net across an SLR boundary); the card
memory (memory.py: a DDR4 controller or an HBM port per memory channel, its window, crossing, clocks and resets);
packaged IP matches the ports.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reference_model import contract as C
from vivado_stub import catalog, rtl
from vivado_stub.boards import BOARDS, BoardChecks  # noqa: F401
from vivado_stub.flash import FLASH_OFFSET, FLASH_RANGE, FlashChecks
from vivado_stub.floorplan import FloorplanChecks
from vivado_stub.memory import MemoryChecks
from vivado_stub.package import PackageChecks
from vivado_stub.record import load

# the user BAR map and the system block window: the generator's contract (reference_model/contract.py)
SYS_OFFSET, SYS_RANGE = C.USER_BAR_SYSTEM, C.SYSTEM_WINDOW_BYTES
CORE_OFFSET, CORE_RANGE = C.USER_BAR_CORE, C.USER_BAR_SYSTEM - C.USER_BAR_CORE


class Checker(BoardChecks, PackageChecks, FlashChecks, FloorplanChecks, MemoryChecks):
    def __init__(self, rec: dict, board: str | None, rtl_dir: Path = rtl.RTL):
        self.rec, self.board, self.rtl_dir = rec, board, rtl_dir
        self.problems: list[str] = []
        self.models: dict[str, catalog.IpModel] = {}
        self.zk: dict[str, rtl.Interfaces] = {}   # zkspinal cells -> their interfaces
        self.zk_tops: dict[str, str] = {}         # zkspinal cells -> their tops (the manifest's names)

    def bad(self, msg: str):
        self.problems.append(msg)

    # ------------------------------------------------------------ models of the cells
    def zk_model(self, top: str) -> tuple[catalog.IpModel, rtl.Interfaces]:
        ifs = rtl.interfaces(top, self.rtl_dir)
        m = catalog.IpModel()
        m.pins["aclk"] = catalog.Pin("in", "clk", required=True)
        m.pins["aresetn"] = catalog.Pin("in", "rst", "aclk", required=True)
        for s in ifs.status:
            m.pins[s] = catalog.Pin("out", "data", "aclk", required=True)
        for s in ifs.status_in:
            m.pins[s] = catalog.Pin("in", "data", "aclk", required=True)
        for s in ifs.reset_out:
            m.pins[s] = catalog.Pin("out", "rst", "aclk", required=True)
        for s in ifs.ident:
            m.pins[s] = catalog.Pin("out", "data", "aclk", required=True)
        for s in ifs.ident_in:
            m.pins[s] = catalog.Pin("in", "data", "aclk", required=True)
        # a second clock no pin or interface belongs to: the core crosses to it inside (FlashCtrl's icap_clk)
        for s in ifs.aux_clocks:
            m.pins[s] = catalog.Pin("in", "clk", required=True)
        for n, a in ifs.axis.items():
            m.intfs[n] = catalog.Intf(a["mode"], "axis", "aclk", a["bytes"], True)
        for n, a in ifs.axil.items():
            m.intfs[n] = catalog.Intf(a["mode"], "aximm", "aclk", None, True)
        for n, a in ifs.axi.items():
            m.intfs[n] = catalog.Intf(a["mode"], "aximm", "aclk", None, True)
        return m, ifs

    def build_models(self):
        for path, cell in self.rec["cells"].items():
            vendor, _, name, version = cell["vlnv"].split(":")
            if vendor == "xilinx.com":
                try:
                    self.models[path] = catalog.model(cell["vlnv"], cell["props"])
                except KeyError:
                    self.bad(f"{path}: IP {cell['vlnv']} is not modelled by the checker")
                except ValueError as e:   # a configuration the model refuses (an unknown HBM parameter, ...)
                    self.bad(f"{path}: {e}")
            else:
                self.models[path], self.zk[path] = self.zk_model(name)
                self.zk_tops[path] = name

    # ------------------------------------------------------------ helpers
    @staticmethod
    def split(end: str) -> tuple[str, str | None]:
        parts = end.strip("/").split("/")
        return ("/" + parts[0], parts[1]) if len(parts) == 2 else ("/" + parts[0], None)

    def pin(self, end: str) -> catalog.Pin | None:
        cell, p = self.split(end)
        if p is None:
            port = self.rec["ports"].get(end)
            if port is None:
                return None
            kind = {"clk": "clk", "rst": "rst"}.get(port["type"], "data")
            # a port driving the design is a driver (out, seen from inside)
            return catalog.Pin("out" if port["dir"] == "I" else "in", kind, None, source=kind == "clk")
        m = self.models.get(cell)
        return None if m is None else m.pins.get(p)

    def intf(self, end: str) -> catalog.Intf | None:
        cell, p = self.split(end)
        if p is None:
            port = self.rec["intf_ports"].get(end)
            if port is None:
                return None
            kind = {"diff_clock_rtl": "diff_clock", "pcie_7x_mgt_rtl": "pcie", "axis_rtl": "axis", "ddr4_rtl": "ddr4"}.get(
                port["vlnv"].split(":")[2], "other")
            return catalog.Intf("master" if port["mode"] == "Slave" else "slave", kind)
        m = self.models.get(cell)
        return None if m is None else m.intfs.get(p)

    # ------------------------------------------------------------ connectivity and domains
    def connectivity(self):
        self.net_of: dict[str, int] = {}
        self.driver: dict[int, str] = {}
        for i, ends in enumerate(self.rec["nets"]):
            drivers = []
            for e in ends:
                p = self.pin(e)
                if p is None:
                    self.bad(f"net {ends}: {e} is not a pin of its cell (or not a port)")
                    continue
                if e in self.net_of:
                    self.bad(f"{e} is on two nets")
                self.net_of[e] = i
                if p.dir == "out":
                    drivers.append(e)
            if len(drivers) != 1:
                self.bad(f"net {ends}: {len(drivers)} drivers ({drivers})")
            elif drivers:
                self.driver[i] = drivers[0]
        self.intf_of: dict[str, list[str]] = {}
        for ends in self.rec["intf_nets"]:
            if len(ends) != 2:
                self.bad(f"interface net {ends}: two ends expected")
            for e in ends:
                if self.intf(e) is None:
                    self.bad(f"interface net {ends}: {e} is not an interface of its cell (or not a port)")
                if e in self.intf_of:
                    self.bad(f"{e} is on two interface nets")
                self.intf_of[e] = ends

    def clock_domain(self, cell: str, clock_pin: str) -> str | None:
        """The clock source that drives cell/clock_pin (a source pin of a cell or an input port)."""
        if clock_pin is None:
            return None
        end = f"{cell}/{clock_pin}"
        m = self.models.get(cell)
        if m and clock_pin in m.pins and m.pins[clock_pin].source:
            return end
        net = self.net_of.get(end)
        if net is None or net not in self.driver:
            return None
        d = self.driver[net]
        dp = self.pin(d)
        if dp is None or not dp.source:
            self.bad(f"clock pin {end} is driven by {d}, not a clock source")
            return None
        return d

    def pin_domain(self, end: str) -> str | None:
        cell, p = self.split(end)
        pin = self.pin(end)
        if p is None or pin is None:
            return None
        if pin.kind == "clk":
            return None
        return self.clock_domain(cell, pin.clock)

    def intf_domains(self, end: str) -> set[str] | None:
        cell, p = self.split(end)
        i = self.intf(end)
        if p is None or i is None or i.clock is None:
            return None
        if i.clock == "*":
            return {self.clock_domain(cell, c) for c, pin in self.models[cell].pins.items() if pin.kind == "clk"} - {None}
        d = self.clock_domain(cell, i.clock)
        return {d} if d else set()

    def check_nets(self):
        for i, ends in enumerate(self.rec["nets"]):
            d = self.driver.get(i)
            if d is None:
                continue
            dpin = self.pin(d)
            if dpin.kind == "clk":
                for e in ends:
                    p = self.pin(e)
                    if e != d and p is not None and p.kind != "clk":
                        self.bad(f"clock {d} drives {e}, which is not a clock input")
                continue
            constant = self.rec["cells"].get(self.split(d)[0], {}).get("vlnv", "").split(":")[2:3] == ["xlconstant"]
            dd = self.pin_domain(d)
            for e in ends:
                if e == d:
                    continue
                p = self.pin(e)
                if p is None:
                    continue
                if p.kind == "clk":
                    self.bad(f"clock input {e} is driven by {d}, not a clock")
                    continue
                if p.kind == "rst" and dpin.kind != "rst" and not constant:
                    self.bad(f"reset input {e} is driven by {d}, not a reset")
                ed = self.pin_domain(e)
                if dd and ed and dd != ed:
                    self.bad(f"{d} ({dd}) drives {e} ({ed}): clock domains meet outside a synchronizer")
                if p.clock is not None and ed is None and self.split(e)[1] is not None and not constant:
                    cell = self.split(e)[0]
                    if self.clock_domain(cell, p.clock) is None:
                        self.bad(f"{e}: its clock {cell}/{p.clock} is not driven")

    def check_intf_nets(self):
        for ends in self.rec["intf_nets"]:
            if len(ends) != 2:
                continue
            a, b = ends
            ia, ib = self.intf(a), self.intf(b)
            if ia is None or ib is None:
                continue
            if {ia.mode, ib.mode} != {"master", "slave"}:
                self.bad(f"{a} ({ia.mode}) - {b} ({ib.mode}): one master and one slave expected")
            if ia.kind != ib.kind:
                self.bad(f"{a} ({ia.kind}) - {b} ({ib.kind}): different interface kinds")
            if ia.kind == "axis" and ia.bytes and ib.bytes and ia.bytes != ib.bytes:
                self.bad(f"{a} ({ia.bytes} bytes) - {b} ({ib.bytes} bytes): AXI4-Stream widths differ")
            da, db = self.intf_domains(a), self.intf_domains(b)
            if da is not None and db is not None:
                if not da or not db:
                    self.bad(f"{a} - {b}: the clock of one end is not driven")
                elif not (da & db):
                    self.bad(f"{a} ({sorted(da)}) - {b} ({sorted(db)}): clock domains meet outside a crossing")

    def check_cells(self):
        for cell, m in self.models.items():
            is_zk = cell in self.zk
            for n, p in m.pins.items():
                end = f"{cell}/{n}"
                if (p.required or is_zk) and end not in self.net_of:
                    self.bad(f"{end} ({p.dir} {p.kind}) is not connected")
            for n, i in m.intfs.items():
                end = f"{cell}/{n}"
                if (i.required or is_zk) and end not in self.intf_of:
                    self.bad(f"interface {end} ({i.mode} {i.kind}) is not connected")

    def check_ports(self):
        for p in list(self.rec["ports"]):
            if p not in self.net_of:
                self.bad(f"top-level port {p} is not connected")
        for p in self.rec["intf_ports"]:
            if p not in self.intf_of:
                self.bad(f"top-level interface {p} is not connected")

    def host_reset(self, end: str, depth: int = 0) -> bool:
        """Whether the reset at `end` follows the system block's core_aresetn (the host's RESET register), directly
        or through a reset synchronizer's inputs."""
        net = self.net_of.get(end)
        d = self.driver.get(net) if net is not None else None
        if d is None or depth > 4:
            return False
        cell, pin = self.split(d)
        if pin == "core_aresetn" and cell in self.zk:
            return True
        if ":proc_sys_reset:" in self.rec["cells"].get(cell, {}).get("vlnv", ""):
            return any(self.host_reset(f"{cell}/{i}", depth + 1) for i in ("ext_reset_in", "aux_reset_in"))
        return False

    def check_host_reset(self):
        """The host's RESET pulse reaches the core, the adapters and every stream FIFO and converter, so that a reset
        also flushes the streams (as the emulator does)."""
        for cell, c in self.rec["cells"].items():
            name = c["vlnv"].split(":")[2]
            pins = {"axis_data_fifo": ["s_axis_aresetn"], "axis_dwidth_converter": ["aresetn"]}.get(name, [])
            # the flash controller stays out of the host's core reset: it must not cut a flash write short
            if cell in self.zk and not name.startswith(("SystemBlock", "FlashCtrl")):
                pins = ["aresetn"]
            for p in pins:
                if f"{cell}/{p}" in self.net_of and not self.host_reset(f"{cell}/{p}"):
                    self.bad(f"{cell}/{p} does not follow the system block's reset pulse")

    def check_identity(self):
        """The system block's identity inputs come from the core's identity outputs, word for word (not from a
        constant, an adapter or another word): the host tells the card's core by them."""
        for cell, ifs in self.zk.items():
            for p in ifs.ident_in:
                net = self.net_of.get(f"{cell}/{p}")
                d = self.driver.get(net) if net is not None else None
                if d is None:
                    continue  # check_cells names it
                dcell, dpin = self.split(d)
                core = self.zk.get(dcell)
                if dpin != p or core is None or p not in core.ident:
                    self.bad(f"{cell}/{p} is driven by {d}, not by the core's {p}")

    def check_zk_widths(self):
        """The widths the checker uses for zkspinal cells are the Verilog's; the script's converters must agree."""
        for cell, ifs in self.zk.items():
            for n, a in ifs.axis.items():
                w = ifs.ports[f"{n}_tdata"][1]
                if w != 8 * a["bytes"]:
                    self.bad(f"{cell}/{n}: TDATA {w} bits")

    # ------------------------------------------------------------ XDMA, FIFOs, address map
    def check_xdma(self):
        xd = [c for c, cell in self.rec["cells"].items() if ":xdma:" in cell["vlnv"]]
        if len(xd) != 1:
            self.bad(f"{len(xd)} XDMA cells")
            return
        x = xd[0]
        props = self.rec["cells"][x]["props"]
        if props.get("CONFIG.xdma_axi_intf_mm") != "AXI_Stream":
            self.bad(f"{x}: not in AXI4-Stream mode")
        if str(props.get("CONFIG.axilite_master_en")).lower() != "true":
            self.bad(f"{x}: no AXI4-Lite master (user BAR)")
        if self.board:
            b = BOARDS[self.board]
            if props.get("CONFIG.axi_data_width") != f"{8 * b['xdma_bytes']}_bit":
                self.bad(f"{x}: data width {props.get('CONFIG.axi_data_width')}, board {8 * b['xdma_bytes']}")
            if props.get("CONFIG.pl_link_cap_max_link_width") != b["lanes"]:
                self.bad(f"{x}: link width {props.get('CONFIG.pl_link_cap_max_link_width')}, board {b['lanes']}")
        for cell, ifs in self.zk.items():
            if self.rec["cells"][cell]["vlnv"].split(":")[2].startswith(("SystemBlock", "InbandLast", "FlashCtrl")):
                continue
            ins = [n for n, a in ifs.axis.items() if a["mode"] == "slave"]
            outs = [n for n, a in ifs.axis.items() if a["mode"] == "master"]
            if int(props.get("CONFIG.xdma_rnum_chnl", 1)) != max(1, len(ins)):
                self.bad(f"{x}: {props.get('CONFIG.xdma_rnum_chnl')} H2C channels for {len(ins)} core inputs")
            if int(props.get("CONFIG.xdma_wnum_chnl", 1)) != max(1, len(outs)):
                self.bad(f"{x}: {props.get('CONFIG.xdma_wnum_chnl')} C2H channels for {len(outs)} core outputs")
            # each core stream reaches its own XDMA channel, in port order, through an asynchronous FIFO
            for k, n in enumerate(ins):
                self.trace(f"{x}/M_AXIS_H2C_{k}", f"{cell}/{n}")
            for k, n in enumerate(outs):
                self.trace(f"{cell}/{n}", f"{x}/S_AXIS_C2H_{k}")
        for c, cell in self.rec["cells"].items():
            if ":axis_data_fifo:" in cell["vlnv"]:
                p = cell["props"]
                if p.get("CONFIG.HAS_TLAST") != "1":
                    self.bad(f"{c}: FIFO without TLAST")

    def trace(self, start: str, goal: str):
        """Follows interface nets master -> slave from start, through single-input single-output stream cells."""
        end, seen = start, []
        for _ in range(8):
            other = [e for e in self.intf_of.get(end, []) if e != end]
            if not other:
                self.bad(f"stream path {start} -> {goal} breaks at {end}")
                return
            nxt = other[0]
            if nxt == goal:
                if not any(":axis_data_fifo:" in self.rec["cells"][c]["vlnv"] and
                           self.rec["cells"][c]["props"].get("CONFIG.IS_ACLK_ASYNC") == "1" for c in seen):
                    self.bad(f"stream path {start} -> {goal} has no asynchronous FIFO")
                return
            cell, _ = self.split(nxt)
            seen.append(cell)
            outs = [n for n, i in self.models.get(cell, catalog.IpModel()).intfs.items() if i.mode == "master"]
            if len(outs) != 1:
                self.bad(f"stream path {start} -> {goal} reaches {nxt}, not a stream stage")
                return
            end = f"{cell}/{outs[0]}"
        self.bad(f"stream path {start} -> {goal} too long")

    def check_addresses(self):
        memory = [a for a in self.rec["addresses"] if a["space"] != "/xdma_0/M_AXI_LITE"]
        self.check_memory(memory)
        bar = [a for a in self.rec["addresses"] if a["space"] == "/xdma_0/M_AXI_LITE"]
        segs = {a["seg"][0] if a["seg"] else "": (int(a["offset"], 0), int(a["range"], 0)) for a in bar}
        for cell, ifs in self.zk.items():
            name = self.rec["cells"][cell]["vlnv"].split(":")[2]
            for n, a in ifs.axil.items():
                seg = f"{cell}/{n}/regs"
                want = ((SYS_OFFSET, SYS_RANGE) if name.startswith("SystemBlock") else
                        (FLASH_OFFSET, FLASH_RANGE) if name.startswith("FlashCtrl") else (CORE_OFFSET, CORE_RANGE))
                if segs.get(seg) != want:
                    self.bad(f"{seg}: address {segs.get(seg)}, expected {tuple(hex(v) for v in want)}")
                elif (1 << a["addr"]) > want[1]:
                    self.bad(f"{seg}: {1 << a['addr']} bytes of registers in a {want[1]}-byte window")
        spans = sorted(segs.values())
        for (o1, r1), (o2, _) in zip(spans, spans[1:]):
            if o1 + r1 > o2:
                self.bad(f"address ranges overlap: {spans}")

    # ------------------------------------------------------------
    def run(self) -> list[str]:
        err = self.rec["result"].get("error")
        if err:
            self.bad(f"the script failed: {err.splitlines()[0]}")
            return self.problems
        self.check_components()
        if self.rec["cells"]:
            self.build_models()
            self.connectivity()
            self.check_cells()
            self.check_nets()
            self.check_intf_nets()
            self.check_ports()
            self.check_host_reset()
            self.check_zk_widths()
            self.check_identity()
            self.check_xdma()
            self.check_addresses()
            self.check_flash()
            if self.board:
                self.check_board()
        return self.problems


def check(record: Path, board: str | None = None, rtl_dir: Path = rtl.RTL) -> list[str]:
    return Checker(load(record), board, rtl_dir).run()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("record", type=Path)
    ap.add_argument("--board", choices=sorted(BOARDS))
    a = ap.parse_args()
    problems = check(a.record, a.board)
    for p in problems:
        print(p)
    print(f"{a.record}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
