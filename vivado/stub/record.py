"""Reads a record written by the Vivado command stub (vivado_stub.tcl: JSON lines of flat facts) into dicts:
cells, ports, interface ports, nets, interface nets, addresses, packaged components, runs, reports."""
from __future__ import annotations

import json
from pathlib import Path


def load(path: Path) -> dict:
    rec = {"cells": {}, "ports": {}, "intf_ports": {}, "nets": [], "intf_nets": [], "addresses": [], "components": {},
           "runs": [], "reports": [], "cfgmem": [], "dropped": [], "result": {}, "props": {}, "bitstreams": {}}
    for line in path.read_text().splitlines():
        f = json.loads(line)
        t = f.pop("t")
        if t == "result":
            rec["result"] = f
        elif t == "cell":
            rec["cells"][f["path"]] = {"vlnv": f["vlnv"], "props": {}}
        elif t == "cell_prop":
            rec["cells"][f["path"]]["props"][f["k"]] = f["v"]
        elif t == "port":
            rec["ports"][f["path"]] = f | {"props": {}}
        elif t == "intf_port":
            rec["intf_ports"][f["path"]] = f | {"props": {}}
        elif t == "port_prop":
            (rec["ports"].get(f["path"]) or rec["intf_ports"][f["path"]])["props"][f["k"]] = f["v"]
        elif t in ("net", "intf_net"):
            rec[t + "s"].append(f["ends"])
        elif t == "address":
            rec["addresses"].append(f)
        elif t == "component":
            rec["components"][f["name"]] = f | {"bus": {}, "props": {}, "blocks": {}, "spaces": {}}
        elif t == "component_prop":
            rec["components"][f["component"]]["props"][f["k"]] = f["v"]
        elif t == "bus":
            rec["components"][f["component"]]["bus"][f["name"]] = {"props": {}, "maps": {}, "params": {}}
        elif t in ("bus_prop", "port_map", "bus_param"):
            b = rec["components"][f["component"]]["bus"][f["bus"]]
            if t == "port_map":
                b["maps"][f["logical"]] = f["physical"]
            else:
                b["props" if t == "bus_prop" else "params"][f["k"]] = f["v"]
        elif t == "block":
            rec["components"][f["component"]]["blocks"][f"{f['mm']}/{f['name']}"] = {}
        elif t == "block_prop":
            rec["components"][f["component"]]["blocks"][f"{f['mm']}/{f['block']}"][f["k"]] = f["v"]
        elif t == "address_space":
            rec["components"][f["component"]]["spaces"][f["name"]] = {}
        elif t == "address_space_prop":
            rec["components"][f["component"]]["spaces"][f["space"]][f["k"]] = f["v"]
        elif t in ("run", "report"):
            rec[t + "s"].append(f)
        elif t == "bitstream":
            p = f["props"]
            rec["bitstreams"][f["file"]] = dict(zip(p[::2], p[1::2]))
        elif t in ("cfgmem", "dropped"):
            rec[t].append(f)
        elif t == "prop":
            rec["props"].setdefault(f["obj"], {})[f["k"]] = f["v"]
    return rec
