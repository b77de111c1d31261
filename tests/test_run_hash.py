"""`./run.sh hash`: the card's path in simulation (run.sh -> zk-poseidon -> libzkxdma -> the XDMA emulator ->
PoseidonInband_small under Verilator, and back), one data format (the card's), no Python in the data path: digests
equal the model's, bad input a clear message and exit 2 before anything reaches the core."""
from __future__ import annotations

import subprocess

import reference_model.poseidon as P
from conftest import ROOT


def run_hash(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / "run.sh"), "hash", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=1800)


def test_hash_through_the_emulator():
    pres = [[0, 1], [P.poseidon_constants(2).p - 1, 5], [3, 4, 5, 6]]
    r = run_hash("".join(" ".join(hex(x) for x in pre) + "\n" for pre in pres), "--config", "small")
    assert r.returncode == 0, r.stderr[-3000:]
    want = [f"0x{P.digest(pre):064x}" for pre in pres]
    assert r.stdout.split() == want, (r.stdout, want)


def test_hash_bad_input():
    r = run_hash("0x0 0x1\n0xzz 0x1\n", "--arity", "2")
    assert r.returncode == 2 and ":2:" in r.stderr, r.stderr[-2000:]
    p = P.poseidon_constants(2).p
    r = run_hash(f"0x0 {hex(p)}\n", "--arity", "2")
    assert r.returncode == 2 and r.stdout == "", r.stderr[-2000:]
    r = run_hash("0x0 0x1\n", "--config", "no_such")
    assert r.returncode == 1 and "no_such" in r.stderr, r.stderr[-2000:]
