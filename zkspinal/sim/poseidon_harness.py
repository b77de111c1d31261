"""The C++ Verilator harness of PoseidonAxis (sw/emu/bench_poseidon_axis.cpp): build, frame files, run.

Long streams (the million-hash soak, the benchmark) go through it instead of cocotb: the harness
clocks the model in a C++ loop and streams frames from a file, and the outputs are checked afterwards against the
model's fast kernel.
"""
from __future__ import annotations

import json
import os
import struct
import subprocess
from pathlib import Path


from zkspinal.paths import ROOT
import reference_model.contract as C
HARNESS = ROOT / "sw" / "emu" / "bench_poseidon_axis.cpp"
BUILD = ROOT / "build" / "harness"
IN_RECORD = C.POSEIDON_FRAME_BEAT.bytes() + 2        # TDATA, TUSER byte, TLAST byte
OUT_RECORD = C.POSEIDON_FRAME_BEAT.bytes() + 9       # TDATA, TUSER byte, the cycle (u64)


def build(top: str) -> Path:
    """Builds (or reuses) the harness binary of `top` through the one Verilator build (sw/emu/verilate.py), on the
    emulator's port mapping: the harness, the emulator's bus helpers (zkemu_bus.cpp) and the port glue of `top`
    (zkemu.card.port_glue); ZK_HARNESS_OPT: the model's C++ optimization (default -O1: the generated model is large,
    and -O1 compiles several times faster than -O2)."""
    from zkemu import card

    return card.build_harness(top, HARNESS, BUILD / top, "poseidon_axis_sim",
                              opt_fast=os.environ.get("ZK_HARNESS_OPT", "-O1"), verilator_opt="-O3")


def frame_records(beats: list[int], user_first: int = 0) -> bytes:
    """The input records of one frame (TUSER on its first beat, TLAST on its last)."""
    out = bytearray()
    for i, x in enumerate(beats):
        out += int(x).to_bytes(C.POSEIDON_FRAME_BEAT.bytes(), "little") + bytes([user_first if i == 0 else 0, 1 if i == len(beats) - 1 else 0])
    return bytes(out)


def write_frames(path: Path, frames) -> int:
    """frames: iterable of (beats, user_first); returns the number written."""
    n = 0
    with open(path, "wb") as fh:
        for beats, user in frames:
            fh.write(frame_records(beats, user))
            n += 1
    return n


def read_outputs(path: Path):
    """Yields (digest, tuser, cycle) per output beat."""
    with open(path, "rb") as fh:
        while True:
            rec = fh.read(OUT_RECORD)
            if not rec:
                return
            if len(rec) != OUT_RECORD:
                raise RuntimeError(f"{path}: truncated output record")
            d = C.POSEIDON_FRAME_BEAT.bytes()
            yield int.from_bytes(rec[:d], "little"), rec[d], struct.unpack("<Q", rec[d + 1:])[0]


def run(top: str, in_path: Path, out_path: Path, pause_in: float = 0.0, pause_out: float = 0.0, seed: int = 1,
        idle_timeout: int = 5_000_000) -> dict:
    """Runs the harness; returns its statistics (cycles, frames, AXI4-Lite counters)."""
    binary = build(top)
    r = subprocess.run([str(binary), "--in", str(in_path), "--out", str(out_path), "--pause-in", str(pause_in),
                        "--pause-out", str(pause_out), "--seed", str(seed), "--idle-timeout", str(idle_timeout)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{binary.name} ({top}) exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout.strip().splitlines()[-1])
