#!/usr/bin/env python3
"""poseidon-hash: Poseidon digests computed by the PoseidonAxis RTL in simulation.

  ./run.sh hash --arity N [--sim verilator|icarus] [--config NAME] [--pause P]
  (python -m tests.tools.poseidon_hash ...)

Input (stdin) and output (stdout) use the model CLI's format (python -m reference_model.poseidon): one preimage
per line, N elements as 0x-prefixed big-endian hex separated by blanks; one digest per line, 0x + 64 lowercase hex
digits.  Every line goes to the hardware as one MerkleTree frame (the arity is the frame length), so the output
can be diffed against the model or neptune.

Bad input: a line that does not parse (a token that is not 0x-hex, more than 64 hex digits, or not N elements) is
reported before anything is simulated.  Elements >= p are sent to the hardware as they are: it flags them, and
every flagged line is reported on stderr as `line <n>: rejected by the hardware (<reasons>)`.  As with the model
CLI, the exit status is then 1 and stdout holds the digests of the lines before the first bad one.
Usage errors exit with status 2.

--sim verilator (default): the C++ harness (tests/harness/poseidon_axis_main.cpp), built on first use.
--sim icarus: cocotb with Icarus (tests/tb/poseidon_axis_tb.py, cocotb_file_stream); correct but very slow here
(one Montgomery multiplier simulates at ~60 cycles/s), meant for a handful of arity-2 hashes.
--config: c1100 (default), small or small_plain (see hw/src/zkspinal/poseidon/PoseidonConfig.scala).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import poseidon_harness as H  # noqa: E402
import simrun  # noqa: E402

TOKEN = re.compile(r"0x[0-9a-fA-F]{1,64}")
REASONS = {1: "element >= p", 2: "arity not built in", 4: "frame too long"}


def ensure_top(top: str) -> None:
    try:
        simrun.top_info(top)
    except RuntimeError:
        subprocess.run([str(ROOT / "mill"), "--no-daemon", "hw.runMain", "zkspinal.system.Emit", "--only", top],
                       cwd=ROOT, check=True, stdout=sys.stderr)


def parse(lines: list[str], arity: int) -> tuple[list[list[int]], list[str]]:
    pres, errors = [], []
    for n, line in enumerate(lines, 1):
        toks = line.split()
        bad = [t for t in toks if not TOKEN.fullmatch(t)]
        if bad:
            errors.append(f"line {n}: not a 0x-hex element of at most 64 digits: {bad[0][:80]}")
        elif len(toks) != arity:
            errors.append(f"line {n}: {len(toks)} elements, expected {arity}")
        else:
            pres.append([int(t, 16) for t in toks])
    return pres, errors


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="./run.sh hash", description="Poseidon digests from the PoseidonAxis RTL.")
    ap.add_argument("--arity", type=int, required=True)
    ap.add_argument("--sim", choices=["verilator", "icarus"], default="verilator")
    ap.add_argument("--config", default="c1100")
    ap.add_argument("--pause", type=float, default=0.0, help="random pause probability on both ports (0..0.9)")
    a = ap.parse_args(argv)
    if not 1 <= a.arity <= 16:
        ap.error("--arity must be 1..16")
    if not 0 <= a.pause <= 0.9:
        ap.error("--pause must be in 0..0.9")
    top = f"PoseidonAxis_{a.config}"
    lines = [l for l in sys.stdin.read().splitlines() if l.strip()]
    pres, errors = parse(lines, a.arity)
    if errors:
        for e in errors[:20]:
            print(e, file=sys.stderr)
        return 1
    if not pres:
        return 0
    ensure_top(top)
    with tempfile.TemporaryDirectory() as d:
        inp, outp = Path(d) / "in.bin", Path(d) / "out.bin"
        H.write_frames(inp, ((p, 0) for p in pres))
        if a.sim == "verilator":
            H.run(top, inp, outp, a.pause, a.pause)
        else:
            simrun.run(top, "tb.poseidon_axis_tb", "icarus", testcase="cocotb_file_stream", quiet=True,
                       extra_env={"ZK_IN_FILE": str(inp), "ZK_OUT_FILE": str(outp), "ZK_PAUSE": str(a.pause)})
        outs = list(H.read_outputs(outp))
    if len(outs) != len(pres):
        print(f"the hardware answered {len(outs)} of {len(pres)} frames", file=sys.stderr)
        return 1
    first_bad = None
    for n, (digest, user, _) in enumerate(outs, 1):
        if user:
            why = ", ".join(v for k, v in REASONS.items() if user & k)
            print(f"line {n}: rejected by the hardware ({why})", file=sys.stderr)
            first_bad = first_bad or n
    shown = outs if first_bad is None else outs[:first_bad - 1]
    sys.stdout.write("".join(f"0x{d:064x}\n" for d, _, _ in shown))
    return 0 if first_bad is None else 1


if __name__ == "__main__":
    sys.exit(main())
