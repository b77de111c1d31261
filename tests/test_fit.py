"""Every shipped top fits its part (zkspinal/synth/fit.py, vivado/fit/budgets.tsv, vivado/fit/records.tsv,
vivado/lib/zk_fit.tcl).

Quick tier: the recorded yosys figures of every top the Vivado scripts build by default or as a documented profile
fit their board with the platform's share, on the part and on every SLR the floorplan places them in, and meet the
budget targets; the records are what fit.py computes from them; a deliberately oversized configuration (255 Keccak
test_speed units of one round per cycle, KeccakSpeed_r1_u255) synthesized by yosys does not fit the C1100, its table says
so and the Vivado build refuses it before packaging anything.  Long tier: each shipped top synthesized again (yosys,
cached by the Verilog's md5) and checked, its record equal to the fresh figures.
"""
from __future__ import annotations

import re
import subprocess

import pytest

from vivado_stub import budgets as B
from zkspinal.paths import ROOT
from zkspinal.sim import simrun
from zkspinal.synth import fit, hier

OVERSIZED = "KeccakSpeed_r1_u255"


def test_budgets_are_consistent():
    """Each board's SLRs add up to its part; the platform's share is inside every region it names."""
    for name, b in B.budgets().items():
        assert b["part"] and set(b["part"]) == set(B.RESOURCES), name
        if b["slrs"]:
            for r in B.RESOURCES:
                assert sum(s[r] for s in b["slrs"].values()) == b["part"][r], (name, r)
        for where, share in b["platform"].items():
            cap = b["part"] if where == "part" else b["slrs"][where]
            assert all(0 <= share[r] < cap[r] for r in B.RESOURCES), (name, where)


@pytest.mark.parametrize("top, board", sorted(B.SHIPPED.items()))
def test_shipped_top_fits(top, board):
    """The recorded figures of a shipped top fit its board and meet the budget targets."""
    rec = B.records().get(top)
    if rec is None and top in B.PENDING:
        pytest.skip(f"{top}: no record yet ({B.PENDING[top]})")
    assert rec is not None, f"no record of {top} in {B.RECORDS}: python -m zkspinal.synth.fit {top} records it"
    assert rec["board"] == board
    assert_targets(top, board, fit.table(board, rec["part"], rec["slrs"]))


def assert_targets(top, board, rows):
    """A shipped top's table meets the budget targets, or misses exactly its known miss (vivado/stub/budgets.py
    KNOWN_MISSES: it fits, and misses the LUT budget of the scopes listed there)."""
    misses = fit.target_misses(top, board, rows)
    if top not in B.KNOWN_MISSES:
        assert misses == []
        return
    reason, scopes = B.KNOWN_MISSES[top]
    assert misses, f"{top} meets its budget targets now: remove it from KNOWN_MISSES ({reason})"
    assert fit.overflows(top, board, rows) == []
    missed = {r["scope"] for r in rows if r["resource"] == "lut" and r["percent"] > fit.BUDGET_TARGETS["lut"][1]}
    assert len(misses) == len(missed) and missed == set(scopes), (misses, reason)


@pytest.mark.parametrize("top", sorted(B.OTHER))
def test_other_top_fits(top):
    """The recorded figures of every other top a block design accepts fit each board it is built on."""
    rec = B.records().get(top)
    if rec is None and top in B.PENDING:
        pytest.skip(f"{top}: no record yet ({B.PENDING[top]})")
    assert rec is not None, f"no record of {top} in {B.RECORDS}: python -m zkspinal.synth.fit --all records it"
    assert rec["board"] == B.board_of(top)
    for board in B.OTHER[top]:
        assert fit.overflows(top, board, fit.table(board, rec["part"])) == [], board
    if top in B.UNPLACED:  # its part fits, its board's floorplan does not place it: the overflow must be there
        over = fit.overflows(top, rec["board"], fit.table(rec["board"], rec["part"], rec["slrs"]))
        assert over, f"{top} is placed now: remove it from UNPLACED ({B.UNPLACED[top]})"
        return
    if top in B.LUT_TARGET_ALSO:  # the routability target on its own board: the part and each SLR placed
        rows = fit.table(rec["board"], rec["part"], rec["slrs"])
        lut = [m for m in fit.target_misses(top, rec["board"], rows) if "LUT6 sites + SRL" in m]
        assert lut == [], lut


def test_every_buildable_top_is_listed():
    """Each emitted top of a kind the block designs build is shipped, another buildable top, a simulation twin or
    the oversized test configuration: a new configuration cannot slip past the fit check."""
    kinds = ("PoseidonAxis", "MsmAxis", "KeccakSpongeAxis", "KeccakSpeed", "PairFixture")
    emitted = [t for t in simrun.manifest() if t.startswith(tuple(k + "_" for k in kinds))]
    assert emitted
    loose = [t for t in emitted if t not in B.SHIPPED and t not in B.OTHER and not t.endswith("_model")
             and t != OVERSIZED]
    assert loose == [], f"add them to vivado/stub/budgets.py OTHER (with their boards): {loose}"


def oversized_record(tmp_path):
    """KeccakSpeed_r1_u255 through yosys (hierarchically: the unit's one-round core mapped once) and its record."""
    syn = hier.run(simrun.RTL / simrun.top_info(OVERSIZED)["file"], OVERSIZED, depth=False)
    records = tmp_path / "records.tsv"
    rows, misses = fit.check_and_record(OVERSIZED, "c1100", syn, simrun.top_info(OVERSIZED)["md5"], records=records)
    return syn, rows, misses, records


def assert_build_refuses(tmp_path, records):
    """vivado/build.tcl with `records` as the fit records stops on OVERSIZED's LUTs before packaging anything."""
    proc = subprocess.run(["tclsh", str(ROOT / "vivado" / "stub" / "run.tcl"), str(tmp_path / "rec.jsonl"),
                           str(ROOT / "vivado" / "build.tcl"), "--board", "c1100", "--core", OVERSIZED,
                           "--out", str(tmp_path / "out"), "--ip", str(tmp_path / "ip")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "ZK_FIT_RECORDS": str(records)})
    assert proc.returncode != 0
    assert f"{OVERSIZED} does not fit the c1100 part" in proc.stderr + proc.stdout
    assert "LUT6 sites + SRL" in proc.stderr + proc.stdout
    assert "ipx::package_project" not in (tmp_path / "rec.jsonl").read_text()


def test_build_refuses_a_record_over_the_part(tmp_path):
    """A record one LUT6 site past the C1100 with its platform share: vivado/build.tcl refuses the top before
    packaging (the yosys run that gives the oversized configuration its real figures is in the long tier)."""
    b = B.budgets()["c1100"]
    over = {**dict.fromkeys(B.RESOURCES, 0), "lut": b["part"]["lut"] - B.platform_total(b)["lut"] + 1}
    records = tmp_path / "records.tsv"
    B.write_record(OVERSIZED, "c1100", simrun.top_info(OVERSIZED)["md5"], over, path=records)
    assert fit.overflows(OVERSIZED, "c1100", fit.table("c1100", over))
    assert_build_refuses(tmp_path, records)


@pytest.mark.long
def test_oversized_configuration_does_not_fit(tmp_path):
    """255 Keccak units of one round per cycle overflow the C1100's LUTs: the table marks it, the Vivado build refuses."""
    syn, rows, misses, records = oversized_record(tmp_path)
    lut = next(r for r in rows if r["scope"] == "part" and r["resource"] == "lut")
    assert not lut["fits"] and lut["core"] == syn["lut_sites"] + syn["srl"] > 870_720 - 62_000
    assert any("does not fit c1100" in m and "LUT6 sites + SRL" in m for m in misses), misses
    assert B.records(records)[OVERSIZED]["part"] == fit.use(syn)
    assert_build_refuses(tmp_path, records)


@pytest.mark.long
@pytest.mark.parametrize("top", [*sorted(B.SHIPPED), *sorted(B.OTHER)])
def test_top_synthesized_fits(tmp_path, top):
    """The top's Verilog of today through yosys: it fits (a shipped one meets the budget targets too), and its record
    holds these figures."""
    board = B.board_of(top)
    info = simrun.top_info(top)
    syn = hier.run(simrun.RTL / info["file"], top, depth=False)
    rows, misses = fit.check_and_record(top, board, syn, info["md5"], info.get("adders", 0) if board == "vu9p" else 0,
                                        records=tmp_path / "records.tsv", verilog=simrun.RTL / info["file"])
    if top in B.SHIPPED:
        assert_targets(top, board, rows)
    elif top in B.UNPLACED:  # the part fits, the floorplan's placement does not
        assert fit.overflows(top, board, fit.table(board, fit.use(syn))) == [] and fit.overflows(top, board, rows)
    else:
        assert fit.overflows(top, board, rows) == []
    assert B.records(tmp_path / "records.tsv")[top] == {**B.records()[top], "md5": info["md5"]}


def tcl_problems(records, tops, board):
    """zk::fit::problems of each top on board, as the Vivado build computes them (ZK_FIT_RECORDS = records)."""
    script = records.parent / "problems.tcl"
    script.write_text(f"source {ROOT / 'vivado' / 'lib' / 'zk_fit.tcl'}\n"
                      f"foreach top {{{' '.join(tops)}}} {{ puts \"$top\\t[join [lindex [zk::fit::problems {board} $top] 1] |]\" }}\n")
    proc = subprocess.run(["tclsh", str(script)], capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "ZK_FIT_RECORDS": str(records)})
    assert proc.returncode == 0, proc.stderr
    out = {}
    for line in proc.stdout.splitlines():
        top, _, problems = line.partition("\t")
        out[top] = sorted(re.findall(r"^(\w+): (.+?) \d+ \+ platform", p)[0] for p in problems.split("|") if p)
    return out


@pytest.mark.parametrize("board", sorted(B.budgets()))
def test_vivado_rule_is_the_tables(tmp_path, board):
    """The Vivado build's check (zk_fit.tcl) and fit.table refuse the same regions and resources: records at 0 %,
    at the capacity less the platform's share (fits exactly), one over it, per resource, on the part and each SLR."""
    b = B.budgets()[board]
    plat = B.platform_total(b)
    scopes = {"part": (b["part"], plat), **{s: (cap, b["platform"].get(s, dict.fromkeys(B.RESOURCES, 0)))
                                            for s, cap in b["slrs"].items()}}
    records, cases = tmp_path / "records.tsv", {}
    for scope, (cap, share) in scopes.items():
        for r in B.RESOURCES:
            for extra in (0, 1):
                fig = {k: 0 for k in B.RESOURCES}
                fig[r] = cap[r] - share[r] + extra
                top = f"T_{scope}_{r}_{extra}"
                part = fig if scope == "part" else dict.fromkeys(B.RESOURCES, 0)
                slrs = {} if scope == "part" else {s: (fig if s == scope else dict.fromkeys(B.RESOURCES, 0))
                                                   for s in b["slrs"]}
                B.write_record(top, board, "0" * 32, part, slrs, records)
                cases[top] = (part, slrs)
    tcl = tcl_problems(records, sorted(cases), board)
    for top, (part, slrs) in cases.items():
        rows = fit.table(board, part, slrs)
        py = sorted((r["scope"], B.NAMES[r["resource"]]) for r in rows if not r["fits"])
        assert tcl[top] == py, top
        assert bool(py) == top.endswith("_1"), top
