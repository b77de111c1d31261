#!/usr/bin/env python3
"""keccak-speed: the SNAP hls_sponge test_speed checksum on the CPU program or on the KeccakSpeed RTL.

  ./run.sh keccak-speed --rounds R --elements N --freq F --runs M [--engine cpu|rtl] [--units U] [--rpc K]

Prints the checksum as 16 hex digits on one line (stdout).  --verbose adds the measured rate (cpu) or the
simulated cycle count (rtl) on stderr.  Invalid parameters (freq 0, rounds 0, negative or non-numeric values,
values above 2^32 - 1) are reported on stderr with a non-zero exit status (2).

cpu: sw/keccak-cpu/keccak-cpu (built with make when missing or stale), --threads threads.
rtl: zk-keccak speed (libzkxdma) against the XDMA emulator serving KeccakSpeed_r<K>_u<U> (Verilator): the path a
     card takes; the top is emitted first when build/rtl lacks it or a generator source is newer.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from zkspinal.paths import ROOT
from zkspinal.sim import rtl
from zkspinal.sim.buildlock import make

CPU_DIR = ROOT / "sw" / "keccak-cpu"
CPU_BIN = CPU_DIR / "keccak-cpu"
U32_MAX = (1 << 32) - 1


def u32(lo: int):
    """argparse type: a decimal (or 0x-hex) integer in [lo, 2^32 - 1], no sign."""
    def parse(text: str) -> int:
        if not re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)", text.strip()):
            raise argparse.ArgumentTypeError(f"'{text}' is not a non-negative integer")
        v = int(text, 0) if text.strip().lower().startswith("0x") else int(text)
        if not lo <= v <= U32_MAX:
            raise argparse.ArgumentTypeError(f"{v} is out of range [{lo}, {U32_MAX}]")
        return v
    return parse


def build_cpu() -> Path:
    proc = make(CPU_DIR, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"building {CPU_BIN} failed:\n{proc.stdout}{proc.stderr}")
    return CPU_BIN


def run_cpu(rounds: int, runs: int, elements: int, freq: int, threads: int | None = None) -> dict:
    """Runs the CPU program; returns checksum, permutations, seconds, rate."""
    cmd = [str(build_cpu()), "--rounds", str(rounds), "--runs", str(runs), "--elements", str(elements),
           "--freq", str(freq)] + (["--threads", str(threads)] if threads else [])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    lines = proc.stdout.split("\n")
    fields = lines[1].split()
    stats = dict(zip(fields[0::2], fields[1::2]))
    return {"checksum": int(lines[0], 16), "permutations": int(stats["permutations"]),
            "seconds": float(stats["seconds"]), "rate": float(stats["rate"]), "threads": int(stats["threads"])}


def speed_top(rpc: int, units: int) -> str:
    return f"KeccakSpeed_r{rpc}_u{units}"


class stdout_to_stderr:
    """Sends file descriptor 1 to stderr (the simulator build logs) so stdout carries only the checksum."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        os.dup2(2, 1)

    def __exit__(self, *exc):
        sys.stdout.flush()
        os.dup2(self.saved, 1)
        os.close(self.saved)


def run_rtl(rounds: int, runs: int, elements: int, freq: int, rpc: int = 2, units: int = 1) -> dict:
    """One job on KeccakSpeed_r<rpc>_u<units> the way a card runs it: zk-keccak (libzkxdma) against the XDMA emulator
    (Verilator); returns what zk-keccak read back (checksum, cycles, permutations)."""
    top = speed_top(rpc, units)
    with stdout_to_stderr():
        rtl.ensure([top])
        make(ROOT / "sw", check=True)
    cmd = [sys.executable, "-m", "zkemu", "with", top, "--", str(ROOT / "sw" / "build" / "zk-keccak"),
           "-d", "@DEV", "speed", "-r", str(rounds), "-n", str(runs), "-e", str(elements), "-f", str(freq)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"zk-keccak on the emulated {top} failed ({r.returncode}): {r.stderr[-2000:]}")
    fields = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    return {"checksum": int(fields["checksum"], 16), "cycles": int(fields["cycles"]),
            "perms": int(fields["permutations"])}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="keccak-speed", description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=u32(1), required=True, help="NB_ROUNDS: permutations per run (>= 1)")
    p.add_argument("--runs", type=u32(0), required=True, help="NB_TEST_RUNS: runs 0 .. M-1")
    p.add_argument("--elements", type=u32(0), required=True, help="nb_elmts: run r counts when N > r %% F")
    p.add_argument("--freq", type=u32(1), required=True, help="freq (>= 1)")
    p.add_argument("--engine", choices=["cpu", "rtl"], default="cpu")
    p.add_argument("--units", type=u32(1), default=1, help="rtl: parallel test_speed units of the top")
    p.add_argument("--rpc", type=int, choices=[1, 2, 3, 4, 6, 8, 12, 24], default=2,
                   help="rtl: Keccak rounds per cycle of the top's cores (24 = pipelined)")
    p.add_argument("--threads", type=u32(1), default=None, help="cpu: worker threads (default: online CPUs)")
    p.add_argument("--verbose", action="store_true", help="rate / cycle count on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.engine == "cpu":
            res = run_cpu(args.rounds, args.runs, args.elements, args.freq, args.threads)
            note = (f"{res['permutations']} permutations in {res['seconds']:.3f} s: {res['rate']:.4g} per second "
                    f"({res['threads']} threads)")
        else:
            res = run_rtl(args.rounds, args.runs, args.elements, args.freq, args.rpc, args.units)
            note = (f"{speed_top(args.rpc, args.units)}: {res['perms']} permutations in {res['cycles']} cycles "
                    f"({res['cycles'] / max(res['perms'], 1):.3f} cycles per permutation, all units)")
    except (RuntimeError, AssertionError) as e:
        print(f"keccak-speed: {e}", file=sys.stderr)
        return 1
    print(f"{res['checksum']:016x}")
    if args.verbose:
        print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
