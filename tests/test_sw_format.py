"""Host element formats (sw/lib/zkfmt.c: the SSE2/SWAR hex parser, range check, 32-byte packing) against Python
integers: random elements below p, edge values, either case, short tokens, every malformed shape."""
from __future__ import annotations

import os
import random
import subprocess

import pytest

from zkspinal.sim import simrun

from reference_model import contract as C, field
from zkspinal.tools.sw import BIN, build_sw

P = field.get("bls12_381_fr").p


@pytest.fixture(scope="module", params=["avx2", "sse2"])
def conv(request):
    """both x86-64 parsers: AVX2 where the CPU has it, and the SSE2 baseline (ZKFMT_NO_AVX2)"""
    build_sw()
    env = dict(os.environ)
    if request.param == "sse2":
        env["ZKFMT_NO_AVX2"] = "1"
    return lambda text: subprocess.run([str(BIN / "hostbench"), "--convert"], input=text, capture_output=True,
                                       text=True, timeout=60, env=env)


def word(v: int, last: bool) -> str:
    flag = C.POSEIDON_FRAME_BEAT_LAST.at().put(1) if last else 0   # the in-band end of a preimage
    return (v | flag).to_bytes(C.POSEIDON_FRAME_BEAT.bytes(), "little").hex()


def token(rng, v: int) -> str:
    digits = f"{v:x}" if rng.random() < 0.5 else f"{v:064x}"
    digits = "".join(c.upper() if rng.random() < 0.3 else c for c in digits)
    return ("0X" if rng.random() < 0.2 else "0x") + digits


def test_random_and_edge_elements(conv):
    seed = simrun.seed_from_env()
    rng = random.Random(seed)
    edges = [0, 1, 2, P - 1, P - 2, (P - 1) // 2, 2**64 - 1, 2**128, 2**254 - 1]
    lines = []
    for _ in range(400):
        k = rng.randint(1, 11)
        lines.append([rng.choice(edges) if rng.random() < 0.2 else rng.randrange(P) for _ in range(k)])
    text = "".join(" ".join(token(rng, v) for v in ln) + ("\t\n" if rng.random() < 0.1 else "\n") for ln in lines)
    r = conv(text)
    assert r.returncode == 0, r.stderr
    want = [word(v, i == len(ln) - 1) for ln in lines for i, v in enumerate(ln)]
    assert r.stdout.split() == want, f"SEED={seed}"


@pytest.mark.parametrize("bad,why", [
    ("0x", "not 0x"), ("12", "not 0x"), ("0xg1", "not 0x"), ("0x" + "1" * 65, "not 0x"),
    (f"0x{P:064x}", "not below"), (f"0x{2**256 - 1:x}", "not below"),
    ("0x1 0x2,", "not 0x"), ("0x1 " * 17, "too many"),
] + [("0x" + "a" * i + "z" + "b" * (63 - i), "not 0x") for i in (0, 7, 8, 15, 16, 31, 32, 48, 63)]
  + [("0x" + "a" * i + chr(c) + "b" * (63 - i), "not 0x") for i, c in ((3, 0x2f), (9, 0x3a), (20, 0x40), (40, 0x47),
                                                                        (50, 0x60), (60, 0x67), (5, 0xe1))])
def test_malformed(conv, bad, why):
    r = conv("0x5\n" + bad + "\n")
    assert r.returncode == 1 and "line 2: " in r.stderr and why in r.stderr, (bad, r.stderr)
    assert r.stdout.split() == [word(5, True)]
