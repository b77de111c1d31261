"""MsmAxis (hw/src/zkspinal/msm/MsmAxis.scala) against the model: bucket read-out (as curve points) for random and
adversarial scalar sets, the final MSM by host post-processing against double-and-add, the bad-input cases,
random pauses on the three streams and on AXI4-Lite.  Quick tier: the `small` layout (four 6-bit windows, scalars
below 2^24, 160 buckets); the long tier runs Hardcaml's layout on BLS12-377 scalars."""
import json
import subprocess

import pytest

from zkspinal.sim import simrun
from zkspinal.tools.host_msm import build_host
from reference_model import msm_data

# the engine with the multiplier model (hw/src/zkspinal/msm/MontgomeryMulModel.scala: same results, same latency,
# cycle-identical) builds in a minute; the real multipliers are checked in test_msm_adder.py and, inside the whole
# engine, by the long tier (test_msm_axis_real_long)
SMALL = "MsmAxis_small_model"
SMALL2 = "MsmAxis_small2_model"   # the same layout on two adders (windows 0, 2 and 1, 3)
# BN254 G1 on the XYZZ adder, the same layouts (the one-adder one in the long tier: the quick tier has the one-adder
# layout on BLS12-377 and BLS12-381, the XYZZ adder on two lanes); BLS12-381 G1 (four-beat bucket records) on the
# small one
BN254 = ("MsmAxis_bn254_small_model", "MsmAxis_bn254_small2_model")
BLS12_381 = "MsmAxis_bls12_381_small_model"
TOPS = pytest.mark.parametrize("top", [pytest.param(t, marks=[pytest.mark.xdist_group(t)]
                                                    + ([pytest.mark.long] if t == BN254[0] else []))
                                       for t in (SMALL, SMALL2) + BN254 + (BLS12_381,)])


def check_with_arkworks(results, tmp_path, top=SMALL):
    """Every post-processed RTL result against arkworks' own MSM (sw/host-msm `msm`) of the same input; on BN254
    and BLS12-381 against py_ecc's (bn128, bls12_381)."""
    lines = results.read_text().splitlines()
    assert lines, "the testbench reported no post-processed job"
    if "bn254" in top or "bls12_381" in top:
        return check_with_py_ecc(lines, "bls12_381" if "bls12_381" in top else "bn254")
    host = build_host()
    for i, line in enumerate(lines):
        job = json.loads(line)
        points = [tuple(int(c) for c in P) if P else None for P in job["points"]]
        d = tmp_path / f"job{i}"
        msm_data.save(d, points, [int(s) for s in job["scalars"]])
        ark = subprocess.run([str(host), "msm", "--dir", str(d)], capture_output=True, text=True, check=True)
        assert ark.stdout.strip() == job["result"], f"job {i}: RTL + post-processing differs from arkworks"


def check_with_py_ecc(lines, curve: str):
    if curve == "bn254":
        from py_ecc import optimized_bn128 as E
    else:
        from py_ecc import optimized_bls12_381 as E
    for i, line in enumerate(lines):
        job = json.loads(line)
        acc = E.Z1
        for P, s in zip(job["points"], job["scalars"]):
            if P:
                acc = E.add(acc, E.multiply((E.FQ(int(P[0])), E.FQ(int(P[1])), E.FQ.one()), int(s)))
        want = "infinity" if E.is_inf(acc) else "0x%096x 0x%096x" % tuple(int(c.n) for c in E.normalize(acc))
        assert job["result"] == want, f"job {i}: RTL + post-processing differs from py_ecc"


@TOPS
def test_msm_axis_jobs(tmp_path, top):
    results = tmp_path / "results.jsonl"
    simrun.run(top, "zkspinal.tb.msm_axis_tb", "verilator", testcase="msm_jobs",
               extra_env={"ZK_N": "24", "ZK_MSM_RESULTS": str(results)})
    check_with_arkworks(results, tmp_path, top)


@TOPS
def test_msm_axis_bad_input(top):
    simrun.run(top, "zkspinal.tb.msm_axis_tb", "verilator", testcase="msm_bad_input")


# tops with a point store: BLS12-377 (21 records of three beats to a 4 KiB page), BN254 (32 of two beats)
STORES = pytest.mark.parametrize("top", [pytest.param(t, marks=pytest.mark.xdist_group(t))
                                         for t in (SMALL2, BN254[1])])


@STORES
def test_msm_axis_resident(tmp_path, top):
    """Resident points (the point store on two cocotbext-axi RAMs): a load, then jobs that stream only scalars."""
    results = tmp_path / "results.jsonl"
    simrun.run(top, "zkspinal.tb.msm_axis_tb", "verilator", testcase="msm_resident",
               extra_env={"ZK_N": "24", "ZK_MSM_RESULTS": str(results)})
    check_with_arkworks(results, tmp_path, top)


@STORES
def test_msm_axis_resident_bad_input(top):
    simrun.run(top, "zkspinal.tb.msm_axis_tb", "verilator", testcase="msm_resident_bad_input")


@STORES
def test_msm_axis_resident_bases(tmp_path, top):
    """Point sets side by side (BASE, BLOCK): two sets at two bases, resident jobs on each in both orders, loads and
    resident starts past CAPACITY refused."""
    results = tmp_path / "results.jsonl"
    simrun.run(top, "zkspinal.tb.msm_axis_tb", "verilator", testcase="msm_resident_bases",
               extra_env={"ZK_MSM_RESULTS": str(results)})
    check_with_arkworks(results, tmp_path, top)


@pytest.mark.long
@TOPS
def test_msm_axis_jobs_long(top):
    simrun.run(top, "zkspinal.tb.msm_axis_tb", "verilator", testcase="msm_jobs",
               extra_env={"ZK_N": "300", "ZK_THROTTLE": "0.5"})


@pytest.mark.long
def test_msm_axis_real_long():
    """The engine with its real Montgomery multipliers (a long Verilator build), every scalar set."""
    simrun.run("MsmAxis_small", "zkspinal.tb.msm_axis_tb", "verilator", testcase="msm_jobs", extra_env={"ZK_N": "16"},
               build_args=("-fno-inline",))


@pytest.mark.long
@pytest.mark.parametrize("name, npow", [("random", 14), ("half_ones", 10), ("below16", 10), ("max", 7), ("hammer", 7),
                                        ("alternating", 7), ("equal", 7)])
def test_msm_axis_vu9p_long(name, npow):
    """The VU9P configuration's twin (two adders, Hardcaml's layout, the multiplier model) through the C++ harness
    (random pauses on the three streams): 2^14 random points, and the adversarial sets; buckets (partial records
    merged) against the model as curve points, per-adder additions against the digits."""
    import random

    from reference_model import msm
    from zkspinal.sim import msm_harness as msm_cpp
    from zkspinal.tools.msm_rtl import layout_of
    from reference_model.msm_data import scalar_set

    top = "MsmAxis_vu9p_model"
    layout = layout_of(top)
    info = simrun.top_info(top)
    seed = simrun.seed_from_env()
    r = random.Random(seed)
    points, _ = msm_data.generate(npow, seed & 0xFFFF)
    records = msm.precompute_points(points).records
    scalars = scalar_set(name, layout, len(points), r)
    res = msm_cpp.run(top, scalars, records, pause=30, seed=seed)
    assert res["error"] == 0, res
    assert res["adder_busy"] == msm.additions_per_adder(layout, scalars, info["adders"], info["shared_windows"])
    assert msm.same_buckets(res["buckets"], msm.accumulate_buckets(layout, records, scalars)), f"{name}: replay with SEED={seed}"


@pytest.mark.long
def test_msm_rtl_cli_vs_arkworks(tmp_path):
    """./run.sh msm --engine rtl (zk-msm through the XDMA emulator on MsmAxis_vu9p_model, the card's path) on a
    generated data set against arkworks' MSM."""
    from conftest import ROOT

    host = build_host()
    subprocess.run([str(host), "gen", "--npow", "8", "--seed", "3", "--out", str(tmp_path)], check=True)
    rtl = subprocess.run([str(ROOT / "run.sh"), "msm", "--engine", "rtl", "--input", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert rtl.returncode == 0, rtl.stderr
    ark = subprocess.run([str(host), "msm", "--dir", str(tmp_path)], capture_output=True, text=True, check=True)
    assert rtl.stdout.strip() == ark.stdout.strip()
