"""Runs the ScalaTest elaboration checks of hw/test (configuration requires, Karatsuba plans, DSP budgets)."""
import subprocess

from conftest import ROOT


def test_scala_elaboration():
    proc = subprocess.run([str(ROOT / "mill"), "--no-daemon", "hw.test"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, f"mill hw.test failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
