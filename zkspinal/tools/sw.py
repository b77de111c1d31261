"""Host software under test: builds sw/ (make), starts the XDMA emulator (sw/emu/card.py) and runs the tools
through it exactly as on a card, with LD_PRELOAD=libzkemu.so and -d <emulator dir>/xdma0."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from zkemu import card as zkemu
from zkspinal.sim.buildlock import make

from zkspinal.paths import ROOT
SW = ROOT / "sw"
BIN = SW / "build"
PRELOAD = BIN / "libzkemu.so"
VALGRIND = ["valgrind", "-q", "--leak-check=full", "--show-leak-kinds=all", "--errors-for-leak-kinds=all",
            "--error-exitcode=99"]


# the tops the tests drive (the smallest of each kind)
SPEED_TOP = "KeccakSpeed_r1_u1"
SPONGE_TOP = "KeccakSpongeAxis_r1"
PAIR_TOP = "PairFixture_d16"
PAIR_DEPTH = 16
POSEIDON_TOP = "PoseidonInband_small"  # PoseidonAxis behind InbandLast, as on the C1100 design
# MsmAxis as on the VU9P design, four 6-bit windows, scalars < 2^24.  The quick tier runs the engine with the
# multiplier's simulation model (same products, same latency: hw/.../field/MontgomeryMulModel.scala), whose emulator
# builds in about a minute; the real multipliers (193 MB of generated C++, a quarter of an hour to compile here) run
# the same tool in the long tier (MSM_REAL_TOP), and inside the engine in tests/test_msm_adder.py.
MSM_TOP = "MsmAxis_small2_model"  # two adders (windows 0, 2 and 1, 3)
MSM_REAL_TOP = "MsmAxis_small"


def build_sw() -> Path:
    make(SW, check=True)
    return BIN


def emulator(top: str, extra: list[str] | None = None, ports: list[str] | None = None):
    """context manager: the emulator of `top` running; yields the device prefix for -d"""
    return zkemu.emulator(top, extra, ports=ports)


def tool(name: str, *args, preload: bool = True, valgrind: bool = False, env: dict | None = None,
         timeout: float = 120, stdin: str | None = None, wrap: list[str] | None = None) -> subprocess.CompletedProcess:
    """runs sw/build/<name> through the emulator's interposer; valgrind=True: memcheck; wrap: another wrapper"""
    e = dict(os.environ)
    e.pop("ZKXDMA_DEVICE", None)
    if preload:
        e["LD_PRELOAD"] = str(PRELOAD)
    e.update(env or {})
    cmd = [*(VALGRIND if valgrind else wrap or []), str(BIN / name), *map(str, args)]
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=timeout, input=stdin)


def ok(r: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert r.returncode == 0, f"{r.args} exited {r.returncode}: {r.stderr}"
    return r
