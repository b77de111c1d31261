"""The C++ Verilator harness of MsmAxis (sw/emu/bench_msm_axis.cpp): build and run one job.

build(top) compiles build/rtl/<top>.v with the harness, the emulator's bus helpers and the top's port glue into
build/sim/cpp/<top>[_waves]/msm_harness (cached by the md5 of every source).  run(top, scalars, records, pause, seed,
sample) streams one job and returns the counters and the buckets; sample > 0 adds `samples`, the
BUSY/STALLS/CONSUMED/PHASE registers read every `sample` cycles during the job.  resident=True (a top with a point
store): the points are loaded into the store first, on card memory models (sw/emu/zkemu_mem.h: `mem_latency` cycles
to a read's first beat, each beat held back with probability `mem_stall` percent), and the job streams only scalars.
WAVES=1 builds with FST tracing and writes build/sim/cpp/<top>_waves/msm.fst.
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from zkspinal.paths import SW, top_info
from zkspinal.sim import simrun
from reference_model import msm_formats as MF
from reference_model.curves import adder_of
from reference_model.msm import WindowLayout

HARNESS = SW / "emu" / "bench_msm_axis.cpp"


def build(top: str, waves: bool | None = None) -> Path:
    """Builds (or reuses) the harness of `top` through the one Verilator build (sw/emu/verilate.py), on the
    emulator's port mapping: the harness, the emulator's bus helpers (zkemu_bus.cpp) and the port glue of `top`
    (zkemu.card.port_glue, named after the build directory)."""
    from zkemu import card

    if waves is None:
        waves = os.environ.get("WAVES", "0") == "1"
    out = simrun.SIM_BUILD / "cpp" / (top + ("_waves" if waves else ""))
    return card.build_harness(top, HARNESS, out, "msm_harness", verilator_opt="-O3", waves=waves)


def run(top: str, scalars, records, pause: int = 0, seed: int = 1, count: int | None = None,
        scalar_bytes: bytes | None = None, point_bytes: bytes | None = None, sample: int = 0,
        resident: bool = False, mem_latency: int = 40, mem_stall: int = 10) -> dict:
    """One job; `buckets` is None when the engine reported an error (see `error`)."""
    exe = build(top)
    info = top_info(top)
    adder = adder_of(info["curve"])   # the top's curve: its records (MsmRecord for its n) and its bucket form
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "s.bin").write_bytes(MF.scalar_stream(scalars) if scalar_bytes is None else scalar_bytes)
        (t / "p.bin").write_bytes(MF.pack_point_records(records, adder) if point_bytes is None else point_bytes)
        options = ["--resident", "--mem-latency", str(mem_latency), "--mem-stall", str(mem_stall)] if resident else []
        args = [str(exe), *options, str(t / "s.bin"), str(t / "p.bin"), str(len(scalars) if count is None else count),
                str(t / "b.bin"), str(t / "out.json"), str(pause), str(seed), str(sample)]
        if os.environ.get("WAVES", "0") == "1":
            args.append(str(exe.parent / "msm.fst"))
        proc = subprocess.run(args, capture_output=True, text=True)
        if not (t / "out.json").exists():
            raise RuntimeError(f"msm_harness failed ({proc.returncode}): {proc.stderr[-2000:]}")
        res = json.loads((t / "out.json").read_text())
        data = (t / "b.bin").read_bytes()
    res["buckets"] = (MF.unpack_bucket_records(WindowLayout.of_top(info), data, adder.curve.p, adder)
                      if res["error"] == 0 else None)
    res["latency"] = info["latency"]
    return res
