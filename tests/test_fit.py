"""Every shipped top fits its part (zkspinal/synth/fit.py, vivado/fit/budgets.tsv, vivado/fit/records.tsv,
vivado/lib/zk_fit.tcl).

Quick tier: the recorded yosys figures of every top the Vivado scripts build by default or as a documented profile
fit their board with the platform's share, on the part and on every SLR the floorplan places them in, and meet the
budget targets; the records are what fit.py computes from them; a deliberately oversized configuration (sixteen fully
pipelined Keccak test_speed units, KeccakSpeed_r24_u16) synthesized by yosys does not fit the C1100, its table says
so and the Vivado build refuses it before packaging anything.  Long tier: each shipped top synthesized again (yosys,
cached by the Verilog's md5) and checked, its record equal to the fresh figures.
"""
from __future__ import annotations

import subprocess

import pytest

from vivado_stub import budgets as B
from zkspinal.paths import ROOT
from zkspinal.sim import simrun
from zkspinal.synth import fit, hier

OVERSIZED = "KeccakSpeed_r24_u16"


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
    rows = fit.table(board, rec["part"], rec["slrs"])
    assert fit.target_misses(top, board, rows) == []


def oversized_record(tmp_path):
    """KeccakSpeed_r24_u16 through yosys (hierarchically: one Keccak round mapped once) and its record."""
    syn = hier.run(simrun.RTL / simrun.top_info(OVERSIZED)["file"], OVERSIZED, depth=False)
    records = tmp_path / "records.tsv"
    rows, misses = fit.check_and_record(OVERSIZED, "c1100", syn, simrun.top_info(OVERSIZED)["md5"], records=records)
    return syn, rows, misses, records


def test_oversized_configuration_does_not_fit(tmp_path):
    """Sixteen fully pipelined Keccak units overflow the C1100's LUTs: the table marks it, the Vivado build refuses."""
    syn, rows, misses, records = oversized_record(tmp_path)
    lut = next(r for r in rows if r["scope"] == "part" and r["resource"] == "lut")
    assert not lut["fits"] and lut["core"] == syn["lut_sites"] + syn["srl"] > 870_720 - 62_000
    assert any("does not fit c1100" in m and "LUT6 sites + SRL" in m for m in misses), misses
    assert B.records(records)[OVERSIZED]["part"] == fit.use(syn)
    proc = subprocess.run(["tclsh", str(ROOT / "vivado" / "stub" / "run.tcl"), str(tmp_path / "rec.jsonl"),
                           str(ROOT / "vivado" / "build.tcl"), "--board", "c1100", "--core", OVERSIZED,
                           "--out", str(tmp_path / "out"), "--ip", str(tmp_path / "ip")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "ZK_FIT_RECORDS": str(records)})
    assert proc.returncode != 0
    assert f"{OVERSIZED} does not fit the c1100 part" in proc.stderr + proc.stdout
    assert "LUT6 sites + SRL" in proc.stderr + proc.stdout
    assert "ipx::package_project" not in (tmp_path / "rec.jsonl").read_text()


@pytest.mark.long
@pytest.mark.parametrize("top, board", sorted(B.SHIPPED.items()))
def test_shipped_top_synthesized_fits(tmp_path, top, board):
    """The shipped top's Verilog of today through yosys: it fits, and its record holds these figures."""
    info = simrun.top_info(top)
    syn = hier.run(simrun.RTL / info["file"], top, depth=False)
    rows, misses = fit.check_and_record(top, board, syn, info["md5"], info.get("adders", 0) if board == "vu9p" else 0,
                                        records=tmp_path / "records.tsv")
    assert misses == []
    assert B.records(tmp_path / "records.tsv")[top] == {**B.records()[top], "md5": info["md5"]}
