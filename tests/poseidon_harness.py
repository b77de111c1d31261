"""The C++ Verilator harness of PoseidonAxis (tests/harness/poseidon_axis_main.cpp): build, frame files, run.

Long streams (the million-hash soak, the benchmark, the hash tool) go through it instead of cocotb: the harness
clocks the model in a C++ loop and streams frames from a file, and the outputs are checked afterwards against the
model's fast kernel.
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
from pathlib import Path

import simrun
from buildlock import locked

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = ROOT / "sw" / "lib" / "zk_contract.h"  # the harness includes it
HARNESS = ROOT / "tests" / "harness" / "poseidon_axis_main.cpp"
BUILD = ROOT / "build" / "harness"
IN_RECORD = 34
OUT_RECORD = 41


def build(top: str) -> Path:
    """Builds (or reuses, keyed by the md5 of the Verilog and the harness) the harness binary of `top`."""
    sources = simrun.top_sources(top)
    key = hashlib.md5(b"".join(s.read_bytes() for s in sources) + HARNESS.read_bytes() + CONTRACT.read_bytes() +
                      os.environ.get("ZK_HARNESS_OPT", "-O1").encode()).hexdigest()[:16]
    out = BUILD / top
    binary = out / "obj_dir" / "poseidon_axis_sim"
    stamp = out / ".stamp"
    with locked(out.with_name(out.name + ".lock")):  # parallel workers: one builds, the others reuse
        if binary.exists() and stamp.exists() and stamp.read_text() == key:
            return binary
        return _build(top, sources, out, binary, stamp, key)


def _build(top: str, sources: list, out: Path, binary: Path, stamp: Path, key: str) -> Path:
    subprocess.run(["rm", "-rf", str(out)], check=True)
    out.mkdir(parents=True)
    env = simrun.sim_env()
    cflags = f'-DTOP_HEADER=\\"V{top}.h\\" -DTOP_CLASS=V{top} -I{ROOT / "sw" / "lib"}'
    log = open(out / "build.log", "w")
    cmd = ["verilator", "--cc", "--exe", "-O3", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal",
           "-Wno-lint", "-Wno-style", "--top-module", top, "-CFLAGS", cflags, "-o", "poseidon_axis_sim",
           *map(str, sources), str(HARNESS)]
    r = subprocess.run(cmd, cwd=out, env=env, stdout=log, stderr=subprocess.STDOUT)
    if r.returncode == 0:
        # OPT_FAST: the generated model is large; -O1 compiles several times faster than the default -Os
        opt = os.environ.get("ZK_HARNESS_OPT", "-O1")
        r = subprocess.run(["make", "-C", "obj_dir", "-f", f"V{top}.mk", "-j", "1", "CFG_CXXFLAGS_PCH_I=-include",
                            f"OPT_FAST={opt}"],
                           cwd=out, env=env, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    if r.returncode != 0 or not binary.exists():
        raise RuntimeError(f"harness build for {top} failed: see {out / 'build.log'}")
    stamp.write_text(key)
    return binary


def frame_records(beats: list[int], user_first: int = 0) -> bytes:
    """The input records of one frame (TUSER on its first beat, TLAST on its last)."""
    out = bytearray()
    for i, x in enumerate(beats):
        out += int(x).to_bytes(32, "little") + bytes([user_first if i == 0 else 0, 1 if i == len(beats) - 1 else 0])
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
            yield int.from_bytes(rec[:32], "little"), rec[32], struct.unpack("<Q", rec[33:])[0]


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
