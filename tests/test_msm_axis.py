"""MsmAxis (hw/src/zkspinal/msm/MsmAxis.scala) against the model: bucket read-out bit for bit for random and
adversarial scalar sets, the final MSM by host post-processing against double-and-add, the bad-input cases,
random pauses on the three streams and on AXI4-Lite.  Quick tier: the `small` layout (four 6-bit windows, scalars
below 2^24, 160 buckets); the long tier runs Hardcaml's layout on BLS12-377 scalars."""
import pytest

import simrun

SMALL = "MsmAxis_small"
SAME_TOP = pytest.mark.xdist_group(SMALL)


@SAME_TOP
def test_msm_axis_jobs():
    simrun.run(SMALL, "tb.msm_axis_tb", "verilator", testcase="msm_jobs", extra_env={"ZK_N": "24"})


@SAME_TOP
def test_msm_axis_bad_input():
    simrun.run(SMALL, "tb.msm_axis_tb", "verilator", testcase="msm_bad_input")


@pytest.mark.long
@SAME_TOP
def test_msm_axis_jobs_long():
    simrun.run(SMALL, "tb.msm_axis_tb", "verilator", testcase="msm_jobs",
               extra_env={"ZK_N": "300", "ZK_THROTTLE": "0.5"})


@pytest.mark.long
def test_msm_axis_vu9p_long():
    """Hardcaml's layout, full 253-bit scalars: random, r - 1, one bucket hammered; result vs double-and-add."""
    simrun.run("MsmAxis_vu9p", "tb.msm_axis_tb", "verilator", testcase="msm_jobs",
               extra_env={"ZK_N": "64", "ZK_THROTTLE": "0.2", "ZK_CASES": "random,max,hammer,alternating"})
