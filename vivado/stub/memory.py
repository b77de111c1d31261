"""Checks of the card memory a block design gives a core's AXI4 masters m_axi_mem<c> (the MSM point store), by the
board's memory type (boards.py): a DDR4 controller per channel (the VU9P) or a port of the package's HBM per channel
(the C1100), and the board's HBM catastrophic-temperature output.  A mixin of check.Checker."""
from __future__ import annotations

from vivado_stub import catalog
from vivado_stub.boards import BOARDS

# The HBM layout checked without a board (the C1100's facts in boards.py otherwise): switch groups of 4 ports and
# 4 pseudo-channels of 256 MiB; an AXI port runs at 450 MHz at most (PG276: 256 bits x 450 MHz is one pseudo-channel's
# 14.4 GB/s)
HBM_LAYOUT = {"group_ports": 4, "pc_bytes": 256 << 20, "stack_ports": catalog.HBM_STACK_PORTS}
HBM_AXI_MAX_MHZ = 450.0


def channel(end: str) -> int:
    """c of a core's memory master <cell>/m_axi_mem<c> (-1 for another name)"""
    name = end.split("/")[-1]
    return int(name[len("m_axi_mem"):]) if name.startswith("m_axi_mem") and name[len("m_axi_mem"):].isdigit() else -1


class MemoryChecks:
    def point_store(self, end: str) -> dict:
        """The manifest's point_store of the core whose master `end` is ({} when it has none)."""
        from vivado_stub import rtl

        top = self.zk_tops.get(end.rsplit("/", 1)[0])
        return (rtl.manifest(self.rtl_dir).get(top) or {}).get("point_store") or {} if top else {}

    def memory_facts(self) -> dict | None:
        return (BOARDS.get(self.board) or {}).get("memory") if self.board else None

    def check_memory(self, spaces: list[dict]):
        masters = {f"{cell}/{n}": a for cell, ifs in self.zk.items() for n, a in ifs.axi.items()
                   if a["mode"] == "master"}
        known = {a["space"] for a in spaces}
        if known - set(masters):
            self.bad(f"address spaces {sorted(known - set(masters))} belong to no memory channel")
        mem = self.memory_facts()
        hbms = [c for c, cell in self.rec["cells"].items() if ":hbm:" in cell["vlnv"]]
        if (mem or {}).get("type") == "HBM" or (mem is None and hbms):
            self.check_hbm(masters, spaces, mem or {}, hbms)
        else:
            self.check_ddr4(masters, spaces, mem)
        if mem and mem.get("cattrip"):
            self.check_cattrip(mem["cattrip"], hbms)

    # ------------------------------------------------------------ DDR4
    def check_ddr4(self, masters: dict[str, dict], spaces: list[dict], mem: dict | None):
        """Each AXI4 master m_axi_mem<c> of a core reaches DDR4 controller ddr4_<c> through AXI stages (its clock
        crossing, SLR crossings), and its address space maps that controller alone at 0 over 2^addr bytes; the
        controllers are set up as the board's memory facts say (boards.py) and there is one per master."""
        ddrs = {c: cell for c, cell in self.rec["cells"].items() if ":ddr4:" in cell["vlnv"]}
        if len(ddrs) != len(masters):
            self.bad(f"{len(ddrs)} DDR4 controllers for {len(masters)} memory channels of the core")
        for end, a in masters.items():
            c = channel(end)
            ddr = f"/ddr4_{c}"
            if ddr not in ddrs:
                self.bad(f"{end}: no DDR4 controller {ddr}")
                continue
            self.trace_aximm(end, f"{ddr}/C0_DDR4_S_AXI")
            seg = f"{ddr}/C0_DDR4_MEMORY_MAP/C0_DDR4_ADDRESS_BLOCK"
            maps = [(x["seg"], int(x["offset"], 0), int(x["range"], 0)) for x in spaces if x["space"] == end]
            if maps != [([seg], 0, 1 << a["addr"])]:
                self.bad(f"{end}: address map {maps}, expected {seg} at 0 over 2^{a['addr']} bytes")
            props = ddrs[ddr]["props"]
            if props.get("CONFIG.C0.DDR4_AxiDataWidth") != str(a["data"]):
                self.bad(f"{ddr}: AXI data {props.get('CONFIG.C0.DDR4_AxiDataWidth')} bits, {end} has {a['data']}")
            if int(props.get("CONFIG.C0.DDR4_AxiAddressWidth", 0)) < a["addr"]:
                self.bad(f"{ddr}: {props.get('CONFIG.C0.DDR4_AxiAddressWidth')}-bit addresses, {end} has {a['addr']}")
            if mem:
                for k, v in mem["config"].items():
                    if props.get(f"CONFIG.{k}") != v:
                        self.bad(f"{ddr}: {k} {props.get(f'CONFIG.{k}')!r}, the board's DIMMs need {v!r}")
                if c >= len(mem["slrs"]):
                    self.bad(f"{end}: the board has {len(mem['slrs'])} DIMMs")
            # the controller's reference clock is its own port
            ref = [e for e in self.intf_of.get(f"{ddr}/C0_SYS_CLK", []) if e != f"{ddr}/C0_SYS_CLK"]
            if ref != [f"/ddr4_c{c}_refclk"]:
                self.bad(f"{ddr}/C0_SYS_CLK is connected to {ref}, not the port /ddr4_c{c}_refclk")
            port = [e for e in self.intf_of.get(f"{ddr}/C0_DDR4", []) if e != f"{ddr}/C0_DDR4"]
            if port != [f"/ddr4_c{c}"]:
                self.bad(f"{ddr}/C0_DDR4 is connected to {port}, not the port /ddr4_c{c}")

    # ------------------------------------------------------------ HBM
    def check_hbm(self, masters: dict[str, dict], spaces: list[dict], mem: dict, hbms: list[str]):
        """One HBM for the core's channels (none without them, no DDR4 controller): channel c on port 4c alone
        (SAXI_<4c>, every other port disabled), reached through AXI stages with a multi-clock SmartConnect where the
        clocks differ, its window the pseudo-channels of that port's switch group at c * 1 GiB (HBM_MEM<4c+k> at
        c * 1 GiB + k * 256 MiB, one per 256 MiB of its 2^addr bytes); the clocks at the frequencies the IP is told,
        its AXI and APB resets away from the host's RESET pulse."""
        layout = HBM_LAYOUT | {k: mem[k] for k in HBM_LAYOUT if k in mem}
        if any(":ddr4:" in cell["vlnv"] for cell in self.rec["cells"].values()):
            self.bad("DDR4 controllers in a design whose card memory is HBM")
        if len(hbms) != (1 if masters else 0):
            self.bad(f"{len(hbms)} HBM cells for {len(masters)} memory channels of the core (one HBM for all)")
        if len(hbms) != 1 or hbms[0] not in self.models:
            return
        hbm = hbms[0]
        group, pc = layout["group_ports"], layout["pc_bytes"]
        window = group * pc
        stacks = int(self.rec["cells"][hbm]["props"].get("CONFIG.USER_HBM_STACK", 2))
        if stacks > mem.get("stacks", stacks):
            self.bad(f"{hbm}: {stacks} stacks, board {self.board} has {mem['stacks']}")
        ports = sorted(int(n[len("SAXI_"):]) for n in self.models[hbm].intfs)
        want = sorted(group * channel(end) for end in masters)
        if ports != want:
            self.bad(f"{hbm}: AXI ports {ports} enabled, the core's channels need {want} (channel c on port {group}c)")
        for end, a in masters.items():
            c = channel(end)
            port = f"{hbm}/SAXI_{group * c:02d}"
            stages = self.trace_aximm(end, port)
            self.check_crossing(end, port, stages)
            # the port forwards the core's addresses as they are: channel c's must carry the base c * window
            # (the manifest's point_store: its own memory of 2^address_bits bytes in windows of 2^window_bits)
            store = self.point_store(end)
            own = store.get("address_bits", a["addr"])
            if (1 << store.get("window_bits", 0)) != window:
                self.bad(f"{end}: its addresses are not in windows of {window} bytes, one switch group each "
                         f"(window_bits {store.get('window_bits', 0)}): port {group}c sees them unchanged")
            if (1 << own) > window:
                self.bad(f"{end}: 2^{own} bytes, an HBM channel has {window} "
                         f"(its switch group's pseudo-channels)")
            maps = sorted((x["seg"], int(x["offset"], 0), int(x["range"], 0)) for x in spaces if x["space"] == end)
            expect = [([f"{port}/HBM_MEM{group * c + k:02d}"], c * window + k * pc, pc)
                      for k in range(max(1, min(group, (1 << own) // pc)))]
            if maps != expect:
                self.bad(f"{end}: address map {maps}, expected its group's pseudo-channels {expect}")
        self.check_hbm_clocks(hbm, mem, ports)

    def check_crossing(self, start: str, goal: str, stages: list[str]):
        """Where the master's clock is not the port's, the path crosses in a multi-clock SmartConnect."""
        here, there = self.intf_domains(start), self.intf_domains(goal)
        if here and there and here != there and not any(
                ":smartconnect:" in self.rec["cells"][s]["vlnv"] and
                int(self.rec["cells"][s]["props"].get("CONFIG.NUM_CLKS", 1)) > 1 for s in stages):
            self.bad(f"memory path {start} -> {goal}: no SmartConnect crosses from {sorted(here)} to {sorted(there)}")

    def check_hbm_clocks(self, hbm: str, mem: dict, ports: list[int]):
        props = self.rec["cells"][hbm]["props"]
        stacks = int(props.get("CONFIG.USER_HBM_STACK", 2))
        if str(props.get("CONFIG.USER_APB_EN", "")).lower() != "false":
            self.bad(f"{hbm}: USER_APB_EN {props.get('CONFIG.USER_APB_EN')!r}: Vivado's initialization, "
                     f"no user APB port")
        axi = float(props.get("CONFIG.USER_AXI_CLK_FREQ", 0))
        if axi > HBM_AXI_MAX_MHZ or (mem.get("axi_mhz") and axi != mem["axi_mhz"]):
            self.bad(f"{hbm}: USER_AXI_CLK_FREQ {axi:g} MHz (the board's {mem.get('axi_mhz')}, "
                     f"at most {HBM_AXI_MAX_MHZ:g})")
        checks = [(f"AXI_{xx:02d}_ACLK", axi) for xx in ports]
        for s in range(stacks):
            checks += [(f"HBM_REF_CLK_{s}", float(props.get(f"CONFIG.USER_HBM_REF_CLK_{s}", 0))),
                       (f"APB_{s}_PCLK", float(props.get(f"CONFIG.USER_APB_PCLK_{s}", 0)))]
            if str(props.get(f"CONFIG.USER_SWITCH_ENABLE_{s:02d}", "")).upper() != "TRUE":
                self.bad(f"{hbm}: stack {s}'s switch is off: a port reaches only its own pseudo-channel")
            sel = props.get(f"CONFIG.USER_CLK_SEL_LIST{s}", "")
            stack_ports = [xx for xx in ports if xx // HBM_LAYOUT["stack_ports"] == s]
            if stack_ports and sel not in {f"AXI_{xx:02d}_ACLK" for xx in stack_ports}:
                self.bad(f"{hbm}: USER_CLK_SEL_LIST{s} {sel!r}: the switch's clock is an enabled port's of stack {s}")
        for pin, mhz in checks:
            d = self.clock_domain(hbm, pin)
            got = self.clock_mhz(d) if d else None
            if d and got != mhz:
                self.bad(f"{hbm}/{pin}: {got} MHz from {d}, the IP is set for {mhz:g}")
        for pin in [f"AXI_{xx:02d}_ARESET_N" for xx in ports] + [f"APB_{s}_PRESET_N" for s in range(stacks)]:
            if self.host_reset(f"{hbm}/{pin}"):
                self.bad(f"{hbm}/{pin} follows the host's RESET pulse: the HBM's resets belong before any traffic")

    def cattrip_sources(self, end: str, depth: int = 0) -> set[str]:
        """The drivers behind a net, through 1-bit OR gates."""
        d = self.driver.get(self.net_of.get(end))
        if d is None or depth > 4:
            return set()
        cell = self.rec["cells"].get(self.split(d)[0], {})
        if ":util_vector_logic:" in cell.get("vlnv", "") and cell["props"].get("CONFIG.C_OPERATION") == "or":
            return {s for op in ("Op1", "Op2") for s in self.cattrip_sources(f"{self.split(d)[0]}/{op}", depth + 1)}
        return {d}

    def check_cattrip(self, port: str, hbms: list[str]):
        """The board's HBM catastrophic-temperature output: the OR of every stack's DRAM_<s>_STAT_CATTRIP with an HBM,
        a constant 0 without one."""
        got = self.cattrip_sources(f"/{port}")
        if len(hbms) == 1 and hbms[0] in self.models:
            want = {f"{hbms[0]}/{p}" for p in self.models[hbms[0]].pins if p.endswith("_STAT_CATTRIP")}
            if got != want:
                self.bad(f"/{port} is driven by {sorted(got)}, not by every HBM stack's flag {sorted(want)}")
        elif not hbms:
            cell = self.rec["cells"].get(self.split(next(iter(got), "/none/x"))[0], {})
            constant = ":xlconstant:" in cell.get("vlnv", "") and cell["props"].get("CONFIG.CONST_VAL") == "0"
            if len(got) != 1 or not constant:
                self.bad(f"/{port} is driven by {sorted(got)}: without an HBM it is held low")

    # ------------------------------------------------------------ paths
    def trace_aximm(self, start: str, goal: str) -> list[str]:
        """Follows AXI4 interface nets master -> slave from start through one-in one-out AXI stages (SmartConnect,
        register slice); the stages passed."""
        end, stages = start, []
        for _ in range(6):
            other = [e for e in self.intf_of.get(end, []) if e != end]
            if not other:
                self.bad(f"memory path {start} -> {goal} breaks at {end}")
                return stages
            if other[0] == goal:
                return stages
            cell, _ = self.split(other[0])
            outs = [n for n, i in self.models.get(cell, catalog.IpModel()).intfs.items()
                    if i.mode == "master" and i.kind == "aximm"]
            if len(outs) != 1:
                self.bad(f"memory path {start} -> {goal} reaches {other[0]}, not an AXI stage")
                return stages
            stages.append(cell)
            end = f"{cell}/{outs[0]}"
        self.bad(f"memory path {start} -> {goal} too long")
        return stages
