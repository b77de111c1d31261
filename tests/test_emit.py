"""The emitter's Verilog does not depend on how many threads elaborate it: tops emitted on one thread have the md5s
that the run's own emit (one thread per CPU, several tops at once) wrote into build/rtl/manifest.json."""
import json
import os
import subprocess

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
