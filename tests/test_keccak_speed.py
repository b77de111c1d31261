"""KeccakSpeed (hw/src/zkspinal/keccak/KeccakSpeed.scala) against the CPU program (sw/keccak-cpu) and the model
for small NB_ROUNDS on several (nb_elmts, freq) pairs, through its AXI4-Lite registers with random pauses;
refused starts (freq 0, nb_rounds 0, test_choice), writes while busy; and the keccak-speed CLI
(zkspinal/tools/keccak_speed.py) with both engines and with invalid parameters."""
import json
import re
import subprocess
import sys

import pytest

from zkspinal.sim import simrun
from conftest import ROOT
from reference_model import keccak as K
from zkspinal.tools import keccak_speed as cli

# (rounds, runs, nb_elmts, freq): one run only, the seed's every-k pattern, nb_elmts = freq, nb_elmts > freq,
# nothing selected, no runs, single-permutation runs, longer runs
CASES = [(5, 64, 1, 65536), (8, 48, 3, 7), (3, 50, 4, 4), (6, 33, 10, 3), (2, 100, 1, 16), (16, 20, 0, 5),
         (4, 0, 1, 1), (1, 30, 2, 9), (40, 12, 12, 12)]


def expected_cases(cases=CASES):
    """Expected checksums from the CPU program, each also checked against the model."""
    out = []
    for rounds, runs, elements, freq in cases:
        cpu = cli.run_cpu(rounds, runs, elements, freq, threads=2)["checksum"]
        assert cpu == K.checksum(rounds, runs, elements, freq), (rounds, runs, elements, freq)
        out.append({"rounds": rounds, "runs": runs, "elements": elements, "freq": freq, "checksum": cpu})
    return out


# Icarus runs the design at a few hundred cycles per second: it gets the cases with the fewest permutations
ICARUS_CASES = [(5, 64, 1, 65536), (8, 48, 3, 7), (16, 20, 0, 5), (4, 0, 1, 1), (1, 30, 2, 9)]


@pytest.fixture(scope="module")
def cases():
    return json.dumps(expected_cases())


# tests that simulate the same top share an xdist group: simrun builds are not safe against concurrent builders
SAME_TOP = pytest.mark.xdist_group("KeccakSpeed_r2_u2")


@SAME_TOP
def test_keccak_speed(sim, cases):
    env = {"ZK_CASES": cases if sim == "verilator" else json.dumps(expected_cases(ICARUS_CASES))}
    simrun.run("KeccakSpeed_r2_u2", "zkspinal.tb.keccak_speed_tb", sim, extra_env=env)


@pytest.mark.parametrize("top", ["KeccakSpeed_r24_u2", "KeccakSpeed_r1_u1"])
def test_keccak_speed_cores(top, cases):
    simrun.run(top, "zkspinal.tb.keccak_speed_tb", "verilator", extra_env={"ZK_CASES": cases})


@pytest.mark.long
@pytest.mark.parametrize("top", [f"KeccakSpeed_r{r}_u1" for r in (2, 3, 4, 6, 8, 12, 24)] + ["KeccakSpeed_r2_u4"])
def test_keccak_speed_long(top):
    big = [(200, 64, 5, 8), (1000, 40, 1, 2), (64, 300, 7, 10)]
    simrun.run(top, "zkspinal.tb.keccak_speed_tb", "verilator", testcase="cocotb_cases_throttled",
               extra_env={"ZK_CASES": json.dumps(expected_cases(big + CASES))})


# ---- the CLI
def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "zkspinal.tools.keccak_speed", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_cli_cpu_table_row():
    proc = run_cli("--rounds", 100000, "--elements", 2, "--freq", 65536, "--runs", 65536)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "2ccef6d61b67ad2f\n"


@SAME_TOP
def test_cli_rtl_matches_cpu():
    args = ["--rounds", 7, "--elements", 2, "--freq", 5, "--runs", 23]
    cpu = run_cli(*args)
    rtl = run_cli(*args, "--engine", "rtl", "--units", 2)
    assert cpu.returncode == 0 and rtl.returncode == 0, cpu.stderr + rtl.stderr[-3000:]
    assert re.fullmatch(r"[0-9a-f]{16}\n", rtl.stdout), repr(rtl.stdout)
    assert rtl.stdout == cpu.stdout == f"{K.checksum(7, 23, 2, 5):016x}\n"


@pytest.mark.parametrize("bad, message", [
    (["--freq", "0"], "--freq: 0 is out of range"),
    (["--freq", "-3"], "--freq: '-3' is not a non-negative integer"),
    (["--elements", "ten"], "--elements: 'ten' is not a non-negative integer"),
    (["--rounds", "0"], "--rounds: 0 is out of range"),
    (["--runs", "4294967296"], "--runs: 4294967296 is out of range"),
    (["--rounds", "1.5"], "--rounds: '1.5' is not a non-negative integer"),
    (["--engine", "gpu"], "--engine: invalid choice"),
    (["--units", "0", "--engine", "rtl"], "--units: 0 is out of range"),
])
def test_cli_invalid(bad, message):
    args = {"--rounds": "3", "--elements": "1", "--freq": "4", "--runs": "8"}
    flags = []
    for k, v in args.items():
        if k not in bad:
            flags += [k, v]
    proc = run_cli(*flags, *bad)
    assert proc.returncode != 0 and proc.stdout == ""
    assert message in proc.stderr, proc.stderr


def test_cli_rtl_missing_top():
    proc = run_cli("--rounds", 2, "--elements", 1, "--freq", 2, "--runs", 4, "--engine", "rtl", "--units", 3)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "no top KeccakSpeed_r2_u3" in proc.stderr and "KeccakSpeed_r2_u4" in proc.stderr
