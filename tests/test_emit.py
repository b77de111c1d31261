"""The emitter's Verilog does not depend on how many threads elaborate it: tops emitted on one thread have the md5s
that the run's own emit (one thread per CPU, several tops at once) wrote into build/rtl/manifest.json.  A reader of
the manifest gets an on-demand top emitted when it asks for it."""
import json
import os
import subprocess

import pytest

from conftest import ROOT
from zkspinal.paths import RTL

# a card and its core (the card waits for the core's ports), a Poseidon and an MSM engine, a field core
TOPS = ("Card_MsmAxis_small_model", "MsmAxis_small_model", "PoseidonAxis_small", "ModAdd_bls12_381_fr")


def test_one_thread_same_verilog(tmp_path):
    proc = subprocess.run([str(ROOT / "mill"), "--no-daemon", "hw.runMain", "zkspinal.emit.Emit", "--out",
                           str(tmp_path), "--only", "|".join(TOPS)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "ZK_EMIT_JOBS": "1"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "s on 1 thread\n" in proc.stdout + proc.stderr, (proc.stdout + proc.stderr)[-2000:]
    ours = json.loads((tmp_path / "manifest.json").read_text())
    run = json.loads((RTL / "manifest.json").read_text())
    assert set(TOPS) <= set(ours)
    for top in TOPS:
        assert ours[top]["md5"] == run[top]["md5"], f"{top}: one thread {ours[top]['md5']}, build/rtl {run[top]['md5']}"


def test_top_info_emits_an_on_demand_top(tmp_path, monkeypatch):
    """rtl.top_info (simrun.top_info) of an on-demand top (on_demand.json) the manifest lacks emits it first
    (rtl.ensure), once; a top that is neither emitted nor on demand is a clear error, with no emit."""
    from zkspinal.sim import rtl, simrun

    assert simrun.top_info is rtl.top_info
    (tmp_path / "manifest.json").write_text(json.dumps({"A": {"md5": "a"}}))
    (tmp_path / "on_demand.json").write_text(json.dumps(["B"]))
    asked = []

    def ensure(tops):
        asked.append(tops)
        m = json.loads((tmp_path / "manifest.json").read_text())
        (tmp_path / "manifest.json").write_text(json.dumps({**m, **{t: {"md5": t.lower()} for t in tops}}))

    monkeypatch.setattr(rtl, "RTL", tmp_path)
    monkeypatch.setattr(rtl, "MANIFEST", tmp_path / "manifest.json")
    monkeypatch.setattr(rtl, "ON_DEMAND", tmp_path / "on_demand.json")
    monkeypatch.setattr(rtl, "ensure", ensure)
    assert rtl.top_info("A") == {"md5": "a"} and asked == []
    assert rtl.top_info("B") == {"md5": "b"} and asked == [["B"]]
    assert rtl.top_info("B") == {"md5": "b"} and asked == [["B"]]
    with pytest.raises(RuntimeError, match="top C is not in"):
        rtl.top_info("C")
    assert asked == [["B"]]
