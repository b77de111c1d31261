"""sw/msm-fpga (the prover crate: bases resident in the cards' point stores, arkworks' types) against arkworks' own
VariableBaseMSM, through the XDMA emulator on MsmAxis_prover_model (BLS12-377, scalars below r, two adders, a point
store).  The crate's example `compare` (examples/compare.rs) runs the MSMs and the comparison: random and adversarial
sets (zeros, ones, r - 1, a base repeated with P == Q and P == -Q, infinity among the bases, a prefix, no scalars), a
batch of 4 through msm_batch with the host's time outside the card's busy intervals, two base sets side by side and a
store filled until it refuses one; refused input (off-curve and non-subgroup bases, more scalars than bases, a card of
another curve); two cards (one MSM split by windows, a batch split by MSMs) and a card that fails mid-MSM.  `cargo
test` runs the crate's unit tests.  Long tier: the BN254 and BLS12-381 twins of the prover top."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from zkspinal import refs
from zkspinal.paths import BUILD, top_info
from zkspinal.tools.sw import PRELOAD, ROOT, build_sw, emulator

CRATE = ROOT / "sw" / "msm-fpga"
# its own target directory: host-msm is a dependency here and a root (with its C libraries) in build/cargo, and
# cargo names a dependency's cdylib and staticlib without a hash, so the two builds would overwrite each other
TARGET = BUILD / "cargo-msm-fpga"
EXE = TARGET / "release" / "examples" / "compare"
TOP = "MsmAxis_prover_model"
SLOW = {"ZKEMU_TIMEOUT_MS": "600000"}


@pytest.fixture(scope="module")
def built():
    build_sw()
    refs.cargo_build(CRATE, TARGET, "--examples")


PROVE = TARGET / "release" / "examples" / "prove"


def windows(top: str = TOP) -> str:
    """the top's window layout for the crate's Options (the board layouts are the crate's default)"""
    return ",".join(map(str, top_info(top)["windows"]))


# memcheck for a Rust program: invalid accesses and definite leaks are errors; rayon's global pool never joins its
# threads, so their thread-local blocks show as possibly lost and are not reported
MEMCHECK = ["valgrind", "-q", "--leak-check=full", "--errors-for-leak-kinds=definite", "--show-possibly-lost=no",
            "--error-exitcode=99"]


def run_example(exe, args, wrap: list[str] | None = None, timeout_ms: int | None = None):
    """timeout_ms: the emulator's (ZKEMU_TIMEOUT_MS) when longer than SLOW's, and this run's"""
    e = dict(os.environ, LD_PRELOAD=str(PRELOAD), **SLOW)
    if timeout_ms:
        e["ZKEMU_TIMEOUT_MS"] = str(timeout_ms)
    return subprocess.run([*(wrap or []), str(exe), *map(str, args)], env=e, capture_output=True,
                          text=True, timeout=max(3600, 2 * (timeout_ms or 0) / 1000))


def compare(dev: str, case: str, n: int, seed: int, curve: str = "bls12_377", top: str = TOP, layout: str = ""):
    return run_example(EXE, [curve, dev, n, seed, case, layout or windows(top)])


def prove(dev: str, hashes: int, seed: int, curve: str = "bls12_377", top: str = TOP, timeout_ms: int | None = None):
    """the prove example on `dev`; timeout_ms: its transfers' and the emulator's timeout (real multipliers)"""
    return run_example(PROVE, [curve, dev, hashes, seed, windows(top), *([timeout_ms] if timeout_ms else [])],
                       timeout_ms=timeout_ms)


@pytest.fixture(scope="module")
def dev(built):
    with emulator(TOP) as d:
        yield d


def test_cargo_unit_tests():
    r = subprocess.run([refs.cargo(), "test", "--release", "--locked", "--lib", "--quiet"], cwd=CRATE,
                       env=dict(os.environ, CARGO_TARGET_DIR=str(TARGET)), capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"test result: ok\. \d+ passed; 0 failed", r.stdout), r.stdout


def test_sets_vs_arkworks(dev, seed):
    r = compare(dev, "sets", 256, seed)
    assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
    for what in ("random", "zeros", "ones", "r-1", "half-ones", "edges"):
        assert f"ok {what}: 256 scalars" in r.stdout, r.stdout
    assert "ok prefix: 129 scalars" in r.stdout and "ok no scalars: zero" in r.stdout, r.stdout


def test_batch_overlap(dev, seed):
    """msm_batch of 4: every result equals arkworks', and the host's time outside the card's busy intervals (from
    the start register's write to the last bucket record) is at most 10 % of the batch (the issue's target)"""
    r = compare(dev, "batch", 256, seed)
    assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
    m = re.search(r"ok batch: 4 MSMs of 256 equal arkworks'; jobs per card \[4\].*\(([\d.]+) %\)", r.stdout)
    assert m, r.stdout
    print(r.stdout.strip().splitlines()[-1])
    assert float(m.group(1)) <= 10.0, r.stdout


def test_base_sets_side_by_side(dev, seed):
    r = compare(dev, "two-sets", 256, seed)
    assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
    for what in ("set A: 256", "set B: 133", "set A again: 256", "set C in A's blocks: 65", "set B after C: 133"):
        assert f"ok {what} scalars" in r.stdout, r.stdout


def test_store_full(dev, seed):
    """10,752 points of store in blocks of 42: sets of 1,024 points take 25 blocks, so 10 fit and the 11th is refused
    naming the card and what the store holds; the last set that fitted still computes"""
    r = compare(dev, "store-full", 1024, seed)
    assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
    assert re.search(r"ok store full after 10 sets of 1024 \(10752 points free at first\): \S+xdma0: 1024 bases need "
                     r"25 blocks of 42 points; the point store has 256 blocks \(10752 points\), 250 of them held by 10 "
                     r"base set\(s\)", r.stdout), r.stdout
    assert "ok the last set that fitted (a prefix): 64 scalars" in r.stdout, r.stdout


@pytest.mark.parametrize("case,msg", [("off-curve", "refused: base 3 is not on bls12_377"),
                                      ("not-in-subgroup", "refused: base 5 is not in the prime-order subgroup of bls12_377"),
                                      ("too-many-scalars", "refused: 65 scalars for 64 bases")])
def test_refused_input(dev, case, msg):
    r = compare(dev, case, 64, 1)
    assert r.returncode == 2 and msg in r.stdout, r.stdout + r.stderr


def test_groth16_on_the_card(dev, seed):
    """a Groth16 proof of a MiMC preimage (645 constraints; the key's A, B, L and H queries resident, 3,965 points)
    with its G1 MSMs on the card: byte for byte ark-groth16's proof for the same r and s, and its verifier accepts it"""
    r = prove(dev, 1, seed, timeout_ms=600_000)
    assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
    assert "circuit: MiMC chain of 1 hash(es) on bls12_377, 645 constraints" in r.stdout, r.stdout
    assert "ok the proof bytes equal arkworks'" in r.stdout and "ok Groth16::verify" in r.stdout, r.stdout
    print(r.stdout)
    bad = run_example(PROVE, ["bls12_377", dev, 1, seed, windows(), 0])  # a timeout of 0 ms: usage, nothing sent
    assert bad.returncode == 2 and "TIMEOUT_MS is a number of milliseconds" in bad.stderr, bad.stderr


def test_memcheck(dev):
    """the crate under valgrind: base sets side by side, one freed and its blocks loaded again, MSMs on each; a refused
    input; no invalid access, no definite leak"""
    for case, rc, says in (("two-sets", 0, "ok set B after C: 13 scalars"),
                           ("too-many-scalars", 2, "refused: 17 scalars for 16 bases")):
        r = run_example(EXE, ["bls12_377", dev, 16, 1, case, windows()], wrap=MEMCHECK)
        assert r.returncode == rc and "==" not in r.stderr, f"{case}: exit {r.returncode}\n{r.stdout}{r.stderr[-3000:]}"
        assert says in r.stdout, r.stdout


def test_card_of_another_curve(dev):
    r = compare(dev, "sets", 64, 1, curve="bn254", layout="6x41,8")  # the BN254 twin's layout
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"{dev}: the card's engine is for bls12_377 (curve code 0), not bn254: refused, nothing sent" in r.stderr, r.stderr


def test_missing_device(built, tmp_path):
    r = compare(str(tmp_path / "xdma5"), "sets", 64, 1)
    assert r.returncode == 1 and "xdma5_" in r.stderr and "No such file or directory" in r.stderr, r.stderr


def test_two_cards(built, seed):
    """one MSM split by windows over two cards (found by discovery), a batch split by MSMs; then card 1 failing its
    DMA mid-MSM: named, dropped, and the MSM still equals arkworks' from card 0"""
    from zkspinal.tools.sw import zkemu
    with zkemu.cards([TOP] * 2) as c:
        r = compare(f"all:{c.dir}", "sets", 256, seed)
        assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
        assert "ok random: 256 scalars" in r.stdout and "dropped" not in r.stdout, r.stdout
        r = compare(",".join(c.prefixes), "batch", 256, seed)
        assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
        m = re.search(r"jobs per card \[(\d+), (\d+)\]", r.stdout)
        assert m and int(m.group(1)) > 0 and int(m.group(2)) > 0 and int(m.group(1)) + int(m.group(2)) == 4, r.stdout
    with zkemu.cards([TOP] * 2, extra={1: ["--dma-error-after-beats", "1000"]}) as c:
        r = compare(",".join(c.prefixes), "sets", 256, seed)
        assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
        assert "ok random: 256 scalars" in r.stdout, r.stdout
        assert f"dropped {c.prefixes[1]}: " in r.stdout and "Input/output error" in r.stdout, r.stdout


@pytest.mark.long
@pytest.mark.parametrize("curve", ["bn254", "bls12_381"])
def test_other_curves_long(curve, seed):
    build_sw()
    refs.cargo_build(CRATE, TARGET, "--examples")
    top = f"MsmAxis_{curve}_prover_model"
    with emulator(top) as d:
        for case in ("sets", "batch", "two-sets"):
            r = compare(d, case, 256, seed, curve=curve, top=top)
            assert r.returncode == 0, f"{curve} {case} SEED={seed}: {r.stdout}{r.stderr}"
            print(r.stdout)
        r = prove(d, 1, seed, curve=curve, top=top)
        assert r.returncode == 0 and "ok the proof bytes equal arkworks'" in r.stdout, r.stdout + r.stderr
        assert "ok Groth16::verify" in r.stdout, r.stdout
        print(r.stdout)


@pytest.mark.long
@pytest.mark.parametrize("top", ["MsmAxis_vu9p_model", "MsmAxis_vu9p"])
def test_groth16_2to12_vu9p_long(top, seed):
    """the 2^12-constraint circuit (7 MiMC hashes, 4,509 constraints; queries of 4,511, 4,511, 4,510 and 8,191
    points resident) on the VU9P engine in its board layout (13x13,12x7): its multiplier-model twin, and the real top
    (the real multipliers: a build of hours here)"""
    build_sw()
    refs.cargo_build(CRATE, TARGET, "--examples")
    with emulator(top) as d:
        # the real multipliers simulate at a few hundred cycles a second: a bucket phase of the 8,191-point H query
        # makes no transfer progress for longer than the default 10 minutes
        r = prove(d, 7, seed, top=top, timeout_ms=None if top.endswith("_model") else 24 * 3600 * 1000)
    print(r.stdout)
    assert r.returncode == 0, f"SEED={seed}: {r.stdout}{r.stderr}"
    assert "4509 constraints" in r.stdout and "ok the proof bytes equal arkworks'" in r.stdout, r.stdout
    assert "ok Groth16::verify" in r.stdout, r.stdout


def test_run_sh_prove_usage():
    """`./run.sh prove` (what test_groth16_on_the_card runs, behind run.sh): its usage, and an unknown option refused"""
    run = lambda *a: subprocess.run([str(ROOT / "run.sh"), "prove", *a], cwd=ROOT, capture_output=True, text=True,
                                    timeout=600)
    r = run("--help")
    assert r.returncode == 0 and "usage: ./run.sh prove [--curve bls12_377|bn254|bls12_381] [--hashes N]" in r.stdout, \
        r.stdout + r.stderr
    r = run("--bogus")
    assert r.returncode != 0 and "prove: unknown option --bogus" in r.stderr, r.stdout + r.stderr
