"""Checks of packaged IP (the ipx:: part of a stub record) against the emitted Verilog's ports: bus interfaces,
port maps, modes, widths, clock associations, reset polarity, address blocks, version.  A mixin of check.Checker."""
from __future__ import annotations

from vivado_stub import rtl


class PackageChecks:
    def check_components(self):
        version = (rtl.ROOT / "vivado" / "VERSION").read_text().strip()
        for name, comp in self.rec["components"].items():
            if comp["saved"] != "1":
                self.bad(f"IP {name} was not saved")
            if comp["version"] != version:
                self.bad(f"IP {name}: version {comp['version']}, vivado/VERSION {version}")
            ifs = rtl.interfaces(name, self.rtl_dir)
            want = set(ifs.axis) | set(ifs.axil) | set(ifs.axi) | {"aclk", "aresetn"} | set(ifs.reset_out) | set(
                ifs.aux_clocks)
            if set(comp["bus"]) != want:
                self.bad(f"IP {name}: bus interfaces {sorted(comp['bus'])}, ports say {sorted(want)}")
                continue
            mapped = {}
            for bn, bus in comp["bus"].items():
                for logical, phys in bus["maps"].items():
                    if phys not in ifs.ports:
                        self.bad(f"IP {name} {bn}.{logical}: no port {phys}")
                    elif not phys.lower().endswith(logical.lower()) and logical not in ("CLK", "RST"):
                        self.bad(f"IP {name} {bn}.{logical} mapped to {phys}")
                    if phys in mapped:
                        self.bad(f"IP {name}: {phys} in {mapped[phys]} and {bn}")
                    mapped[phys] = bn
                mode = bus["props"].get("interface_mode")
                expect = (ifs.axis.get(bn) or ifs.axil.get(bn) or ifs.axi.get(bn) or {}).get("mode") or (
                    "master" if bn in ifs.reset_out else "slave")
                if mode != expect:
                    self.bad(f"IP {name} {bn}: mode {mode}, ports say {expect}")
                if bn in ifs.axis and bus["params"].get("TDATA_NUM_BYTES") != str(ifs.axis[bn]["bytes"]):
                    self.bad(f"IP {name} {bn}: TDATA_NUM_BYTES {bus['params'].get('TDATA_NUM_BYTES')}")
            loose = set(ifs.ports) - set(mapped) - set(ifs.status) - set(ifs.status_in) - set(ifs.ident) - set(ifs.ident_in)
            if loose:
                self.bad(f"IP {name}: ports in no interface: {sorted(loose)}")
            assoc = set(filter(None, comp["bus"]["aclk"]["params"].get("ASSOCIATED_BUSIF", "").split(":")))
            if assoc != set(ifs.axis) | set(ifs.axil) | set(ifs.axi):
                self.bad(f"IP {name}: aclk ASSOCIATED_BUSIF {sorted(assoc)}")
            for c in ifs.aux_clocks:
                if comp["bus"][c]["props"].get("bus_type_vlnv") != "xilinx.com:signal:clock:1.0":
                    self.bad(f"IP {name} {c}: not a clock interface")
                if comp["bus"][c]["params"].get("ASSOCIATED_BUSIF"):
                    self.bad(f"IP {name} {c}: a bus on the second clock")
            if comp["bus"]["aresetn"]["params"].get("POLARITY") != "ACTIVE_LOW":
                self.bad(f"IP {name}: aresetn polarity")
            for n, a in ifs.axil.items():
                if a["mode"] == "slave" and comp["blocks"].get(f"{n}/regs", {}).get("range") != str(1 << a["addr"]):
                    self.bad(f"IP {name} {n}: address block {comp['blocks'].get(f'{n}/regs')}")
            for n, a in ifs.axi.items():
                bus = comp["bus"][n]
                if bus["params"].get("PROTOCOL") != "AXI4" or bus["params"].get("DATA_WIDTH") != str(a["data"]):
                    self.bad(f"IP {name} {n}: AXI4 bus parameters {bus['params']}")
                if a["mode"] != "master":
                    continue
                space = comp["spaces"].get(n, {})
                if bus["props"].get("master_address_space_ref") != n or space.get("range") != str(1 << a["addr"]):
                    self.bad(f"IP {name} {n}: address space {space} (reference "
                             f"{bus['props'].get('master_address_space_ref')}), ports say 2^{a['addr']} bytes")
