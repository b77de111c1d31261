"""Smoke test of ./run.sh bench --quick: the report is produced and its numbers are sane (non-zero, utilizations
at most 1, projections consistent with the measured cycles and the stated clock), and the README section is the
report's."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from buildlock import locked
from conftest import ROOT
from tests.bench import readme

pytestmark = pytest.mark.xdist_group("bench")


@pytest.fixture(scope="module")
def report():
    """One quick report per test run, whichever worker asks first (the others wait for it and read it)."""
    out = ROOT / "build" / "bench-smoke"
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID", str(os.getpid()))
    marker = out / "run-id"
    with locked(ROOT / "build" / "bench-smoke.lock"):
        if not (marker.exists() and marker.read_text() == run_id):
            marker.unlink(missing_ok=True)
            env = dict(os.environ, CI="1")  # progress bars off
            proc = subprocess.run([sys.executable, "-m", "tests.bench", "--quick", "--out", str(out)], cwd=ROOT,
                                  env=env, capture_output=True, text=True, timeout=1800)
            assert proc.returncode == 0, f"bench --quick failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
            marker.write_text(run_id)
    return out


def test_report_files(report):
    md = (report / "report.md").read_text()
    for title in ("Field arithmetic", "Keccak-f[1600]", "Poseidon golden model", "MSM host side", "Published anchors"):
        assert title in md, f"report.md lacks its {title} section"
    assert (report / "keccak_rate_vs_luts.png").stat().st_size > 1000


def test_field_figures(report):
    rows = json.loads((report / "report.json").read_text())["figures"]["field"]["rows"]
    assert rows
    for r in rows:
        assert r["latency"] > 0 and 0.99 <= r["ops_per_cycle"] <= 1.0, r
    montmul = [r for r in rows if r["name"].startswith("MontMul_")]
    assert montmul and all(0 < r["dsp"] <= 260 for r in montmul), montmul


def test_keccak_projection_consistent(report):
    k = json.loads((report / "report.json").read_text())["figures"]["keccak"]
    for u in k["units"]:
        assert u["cycles_per_perm"] > 0
        # the projection is the stated clock divided by the measured cycles
        assert u["perms_per_s_unit"] == pytest.approx(k["mhz"] * 1e6 / u["cycles_per_perm"], rel=1e-9)
        assert u["lut_unit"] > 0
    # more rounds per cycle never takes more cycles per permutation
    cycles = [u["cycles_per_perm"] for u in sorted(k["units"], key=lambda u: u["rpc"])]
    assert cycles == sorted(cycles, reverse=True)
    assert k["cpu_rate"] > 0


def test_cpu_baselines(report):
    f = json.loads((report / "report.json").read_text())["figures"]
    assert all(r["hash_per_s"] > 0 for r in f["poseidon-model"]["rows"])
    assert all(r["convert_points_per_s"] > 0 and r["arkworks_msm_s"] > 0 for r in f["msm-host"]["rows"])
    assert all(v > 0 for v in f["host"]["stages"].values())


def test_readme_section_splices_report(report, tmp_path):
    fake = tmp_path / "README.md"
    fake.write_text(f"# x\n{readme.BEGIN}\nSECTION-BEFORE-SPLICE\n{readme.END}\ntail\n")
    assert readme.main(["--report", str(report / "report.md"), "--readme", str(fake)]) == 0
    text = fake.read_text()
    assert "SECTION-BEFORE-SPLICE" not in text and "### Field arithmetic" in text and text.endswith("tail\n")
    assert readme.main(["--report", str(report / "report.md"), "--readme", str(fake), "--check"]) == 0
