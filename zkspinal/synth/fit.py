"""Does a whole top fit its board?  The yosys figures of a top (zkspinal/synth/hier.py) against the part's capacity
and its platform's share (vivado/fit/budgets.tsv, through vivado_stub.budgets), for the part and, where the
board's floorplan places parts of the top in SLRs of their own (the MSM adders on the VU9P), per SLR.

  use(syn)          the figures a budget counts: LUT6 sites + SRL (a shift register takes a LUT site), FF, DSP48E2,
                    BRAM36, URAM288
  placement(...)    the top's use per SLR as the board's XDC pblocks place it: each adder lane (MsmLane, with
                    its adder and bucket memories) in its SLR, except the Montgomery products the XDC puts in
                    another (the shell's), the rest in the shell's SLR
  table(...)        rows (scope, resource, core, platform, capacity, percent); a row over 100 % does not fit
"""
from __future__ import annotations

import re
from pathlib import Path

from vivado_stub import budgets as B
from vivado_stub.boards import BOARDS
from zkspinal.paths import ROOT

RESOURCES = B.RESOURCES


def use(fig: dict) -> dict[str, int]:
    """The budgeted figures of a yosys result (or of one module's subtree in it)."""
    return {"lut": int(fig.get("lut_sites", fig.get("lut", 0))) + int(fig.get("srl", 0)), "ff": int(fig["ff"]),
            "dsp": int(fig["dsp"]), "bram36": int(round(fig["bram36"] + 0.49)), "uram": int(fig["uram"])}


# the module one adder's pblock holds (vivado/stub/floorplan.py: MsmLane lanes_a)
LANE_MODULE = "MsmLane"


def xdc_of(board: str) -> Path:
    """The board's constraints, whose pblocks are the floorplan (vivado/constraints/<board>.xdc)."""
    return ROOT / "vivado" / "constraints" / f"{board}.xdc"


def placement(board: str, syn: dict, adders: int = 0, verilog: Path | None = None) -> dict[str, dict[str, int]]:
    """{SLRn: use} of a top on a board with a floorplan, placed as the board's XDC places its cells: each adder lane
    (MsmLane, with its adder and bucket memories) in its pblock's SLR, each Montgomery product of the lane's adder
    (instances read from `verilog`) in the SLR of the pblock that takes it (on the VU9P two of the seven sit in the
    shell's SLR: one lane's DSPs exceed an SLR's), the rest of the top in the shell's SLR; a split lane (MsmConfig.split:
    the lane instance `hub` in the Verilog) is the hub, in the SLR the XDC gives it, less each product and bucket
    memory of its regions, in theirs.  {} when the board has no floorplan or the top no adder (a one-adder engine's
    lane goes to the first adder pblock, as lane 0 of two)."""
    from vivado_stub import floorplan

    fp = BOARDS[board].get("floorplan")
    if not fp or adders < 1:
        return {}
    # one module per lane when the lanes differ (their windows): MsmLane, MsmLane_1, ... in lane order
    mods = syn.get("modules", {})
    lanes = sorted(((name, m) for name, m in mods.items()
                    if re.fullmatch(LANE_MODULE + r"(_\d+)?", name)), key=lambda kv: (len(kv[0]), kv[0]))
    per_lane = [use(m) for _, m in lanes for _ in range(m["instances"])]
    if len(per_lane) != adders:
        raise ValueError(f"{syn['top']}: {len(per_lane)} {LANE_MODULE} instances in the yosys result, {adders} adders")
    pbs = floorplan.pblocks(xdc_of(board).read_text())
    core = f"zk_{board}_i/core/inst/core"

    def slr_of(cell: str) -> str:
        own = floorplan.owners(pbs, cell)
        if len(own) != 1 or len(pbs[own[0]]["slrs"]) != 1:
            raise ValueError(f"{xdc_of(board).name}: {cell} is in pblocks {own}; the floorplan gives it exactly one SLR")
        return pbs[own[0]]["slrs"][0]

    out = {f"SLR{i}": dict.fromkeys(RESOURCES, 0) for i in range(fp["slrs"])}
    out[fp["shell"]] = use(syn)

    def move(u: dict, src: str, dst: str) -> None:
        for r in RESOURCES:
            out[src][r] -= u[r]
            out[dst][r] += u[r]

    products = floorplan.adder_product_modules(verilog) if verilog else []
    if verilog and floorplan.split_hub(verilog):
        # the split lane (MsmConfig.split): the hub where the XDC puts it, each product and bucket memory of a region
        # in its region's SLR
        hub = f"{core}/hub"
        home = slr_of(f"{hub}/scheduler_reg")
        move(per_lane[0], fp["shell"], home)
        parts = [(m, f"{hub}/adder/{name}/dsp") for m, name in products] + \
                [(m, f"{hub}/{name}/mem_reg") for m, name in floorplan.lane_memory_modules(verilog)]
        for module, cell in parts:
            if (where := slr_of(cell)) != home:
                move(use(mods[module]), home, where)
        return out
    for k, lane in enumerate(per_lane):
        home = slr_of(f"{core}/lanes_{k}/scheduler_reg")
        move(lane, fp["shell"], home)
        for module, name in products:
            where = slr_of(f"{core}/lanes_{k}/adder/{name}/dsp")
            if where != home:
                move(use(mods[module]), home, where)
    return out


def table(board: str, part_use: dict, slr_use: dict | None = None) -> list[dict]:
    """One row per scope and resource: the core's use, the platform's share, the capacity, the percentage."""
    b = B.budgets()[board]
    rows = []
    scopes = [("part", part_use, b["part"], B.platform_total(b))]
    for slr, u in sorted((slr_use or {}).items()):
        scopes.append((slr, u, b["slrs"][slr], b["platform"].get(slr, dict.fromkeys(RESOURCES, 0))))
    for scope, u, cap, plat in scopes:
        for r in RESOURCES:
            total = u[r] + plat[r]
            rows.append({"scope": scope, "resource": r, "core": u[r], "platform": plat[r], "capacity": cap[r],
                         "percent": 100.0 * total / cap[r], "core_percent": 100.0 * u[r] / cap[r],
                         "fits": total <= cap[r]})
    return rows


def overflows(top: str, board: str, rows: list[dict]) -> list[str]:
    """A line per resource the top (with the platform) does not fit."""
    return [f"{top} does not fit {board} ({r['scope']}): {B.NAMES[r['resource']]} {r['core']:,} + platform "
            f"{r['platform']:,} = {r['core'] + r['platform']:,} > {r['capacity']:,}" for r in rows if not r["fits"]]


def print_table(top: str, board: str, rows: list[dict]) -> None:
    print(f"{top} on {board}: use of the part (core + platform share, vivado/fit/budgets.tsv)")
    print(f"  {'scope':<6} {'resource':<17} {'core':>10} {'platform':>9} {'capacity':>10} {'core %':>7} {'total %':>8}")
    for r in rows:
        print(f"  {r['scope']:<6} {B.NAMES[r['resource']]:<17} {r['core']:>10,} {r['platform']:>9,} {r['capacity']:>10,} "
              f"{r['core_percent']:>6.1f}% {r['percent']:>7.1f}%{'' if r['fits'] else '  DOES NOT FIT'}")
    shipped = top in B.SHIPPED
    missed = target_misses(top, board, rows) if shipped else overflows(top, board, rows)
    for line in missed:
        print(f"TARGET MISSED: {line}")
    if not missed:
        print(f"  {top} fits {board}" + (f"; budget targets met ({budget_targets_text()})" if shipped else ""))


# The budget targets of the shipped tops (issue "Every shipped top fits its part"): the core's BRAM36 and URAM288 at
# most 90 % of the part's, LUT6 sites + SRL with the platform's share at most 55 % of the part's, on the part and on
# every SLR the floorplan gives the top
BUDGET_TARGETS = {"bram36": ("core", 90.0), "uram": ("core", 90.0), "lut": ("total", 55.0)}


def budget_targets_text() -> str:
    return ("BRAM36 and URAM288 at most 90 % of the part's (and of each SLR's where the floorplan places the top), "
            "LUT6 sites + SRL with the platform's share at most 55 %")


def target_misses(top: str, board: str, rows: list[dict]) -> list[str]:
    """Overflows, then budget targets missed, one line each."""
    out = overflows(top, board, rows)
    for r in rows:
        kind, limit = BUDGET_TARGETS.get(r["resource"], (None, None))
        if kind is None:
            continue
        pct = r["core_percent"] if kind == "core" else r["percent"]
        if pct > limit:
            what = "the core's" if kind == "core" else "core + platform"
            out.append(f"{top} on {board} ({r['scope']}): {what} {B.NAMES[r['resource']]} {pct:.1f} % > {limit:.0f} %")
    return out


def check_and_record(top: str, board: str, syn: dict, md5: str, adders: int = 0,
                     records: Path = B.RECORDS, verilog: Path | None = None) -> tuple[list[dict], list[str]]:
    """The fit table of a whole top's yosys result on `board`, what it misses, and its record in `records` (by
    default vivado/fit/records.tsv: what zk_fit.tcl and tests/test_fit.py read).  A shipped top misses its overflows
    and budget targets, any other top its overflows on every board it is built on (vivado_stub.budgets.OTHER)."""
    part = use(syn)
    slrs = placement(board, syn, adders, verilog)
    rows = table(board, part, slrs)
    B.write_record(top, board, md5, part, slrs, records)
    return rows, misses(top, board, rows)


def misses(top: str, board: str, rows: list[dict]) -> list[str]:
    """The shipped top's target misses on its board; another top's overflows on each board it is built on (the
    part's figures: no floorplan places a part of it in an SLR of its own)."""
    if top in B.SHIPPED:
        return target_misses(top, board, rows)
    part = rows_use(rows)
    return [line for b in B.OTHER.get(top, (board,)) for line in overflows(top, b, table(b, part))]


def main(argv: list[str] | None = None) -> int:
    """python -m zkspinal.synth.fit [--all] [TOP ...]: synthesize each top (default: every shipped top, vivado_stub
    .budgets.SHIPPED; --all: the other buildable tops too, OTHER) hierarchically, print its use of its board's part
    and record the figures; exit 1 when one does not fit or a shipped top misses a budget target."""
    import argparse

    from zkspinal.sim import simrun
    from zkspinal.synth import hier

    ap = argparse.ArgumentParser(prog="python -m zkspinal.synth.fit", description=main.__doc__.split(":")[0])
    ap.add_argument("tops", nargs="*", help="tops to check (default: every shipped top)")
    ap.add_argument("--all", action="store_true", help="every buildable top: the shipped ones, then the others")
    a = ap.parse_args(argv)
    bad = 0
    for top in a.tops or list(B.SHIPPED) + (list(B.OTHER) if a.all else []):
        try:
            board = B.board_of(top)
        except KeyError as e:
            ap.error(str(e).strip("'\""))
        info = simrun.top_info(top)
        syn = hier.run(simrun.RTL / info["file"], top, depth=False)
        rows, missed = check_and_record(top, board, syn, info["md5"], info.get("adders", 0),
                                        verilog=simrun.RTL / info["file"])
        print_table(top, board, rows)
        for other in B.OTHER.get(top, ())[1:]:
            print_table(top, other, table(other, rows_use(rows)))
        hier.print_memories(syn)
        bad += bool(missed)
    return 1 if bad else 0


def rows_use(rows: list[dict]) -> dict[str, int]:
    """The part's figures back from a table's rows."""
    return {r["resource"]: r["core"] for r in rows if r["scope"] == "part"}


if __name__ == "__main__":
    raise SystemExit(main())
