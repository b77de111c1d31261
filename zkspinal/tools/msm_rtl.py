"""The MSM engine in simulation for the benchmark and the long tests: one job through the C++ Verilator harness
(sw/emu/bench_msm_axis.cpp) or the cocotb testbench, the layout of an emitted top.  (`./run.sh msm --engine rtl`
takes the card's path instead: zk-msm through the XDMA emulator.)
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from zkspinal.paths import top_info

from reference_model import msm


def layout_of(top: str) -> msm.WindowLayout:
    """The layout of the emitted top `top`."""
    return msm.WindowLayout.of_top(top_info(top))


def run_engine(top: str, scalars, records, seed: int = 1, throttle: float = 0.0, harness: str = "cpp",
               sample: int = 0, resident: bool = False) -> dict:
    """Streams one job through the simulated engine; returns its counters and buckets[j][k-1] (tuples).
    harness: "cpp" (sw/emu/bench_msm_axis.cpp, fast) or "cocotb" (zkspinal/tb/msm_axis_tb.py run_job).
    sample > 0 (cpp only): `samples` holds the busy/stall/phase registers read every `sample` cycles.
    resident (cpp only, a top with a point store): the points are loaded into card memory first and the job streams
    only its scalars (zkspinal.sim.msm_harness.run)."""
    from zkspinal.sim import simrun

    if resident and harness != "cpp":
        raise ValueError("resident jobs run on the C++ harness")
    if harness == "cpp":
        from zkspinal.sim import msm_harness as msm_cpp

        res = msm_cpp.run(top, scalars, records, pause=int(100 * throttle), seed=seed, sample=sample,
                          resident=resident)
        if res["error"]:
            raise RuntimeError(f"engine error {res['error']:#x}")
        return res

    with tempfile.TemporaryDirectory() as tmp:
        job, out = Path(tmp) / "job.json", Path(tmp) / "out.json"
        job.write_text(json.dumps({"scalars": [str(s) for s in scalars],
                                   "records": [[str(v) for v in q] for q in records]}))
        simrun.run(top, "zkspinal.tb.msm_axis_tb", "verilator", testcase="run_job", seed=seed, quiet=True,
                   extra_env={"ZK_MSM_IN": str(job), "ZK_MSM_OUT": str(out), "ZK_THROTTLE": str(throttle)})
        res = json.loads(out.read_text())
    res["buckets"] = [[tuple(int(v) for v in S) for S in w] for w in res["buckets"]]
    return res
