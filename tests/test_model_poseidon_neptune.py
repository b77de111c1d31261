"""reference_model.poseidon against the crates.io crate `neptune` (Filecoin's Poseidon), bit for bit.

The helper tests/refs/neptune (neptune 13, default-features = false, blstrs scalars) is built by zkspinal.refs
into build/refs/neptune when missing or older than its sources.  It reads the
same stdin format as `python -m reference_model.poseidon` and also prints neptune's constants (--constants).
"""
from __future__ import annotations

import io
import random
import subprocess
from pathlib import Path

import pytest

from reference_model import field as fieldmod
from reference_model.poseidon import HashType, cli, digests, poseidon_constants
from reference_model.poseidon import constants as constfiles
from zkspinal import refs

pytestmark = pytest.mark.xdist_group("neptune")

P = fieldmod.get("bls12_381_fr").p
ARITIES = (2, 4, 8, 11)


@pytest.fixture(scope="module")
def neptune() -> Path:
    try:
        return refs.neptune_ref()
    except RuntimeError as e:
        pytest.fail(str(e))


def preimage_text(rows) -> str:
    return "".join(" ".join(f"0x{x:064x}" for x in r) + "\n" for r in rows)


def parse(text: str) -> list[list[int]]:
    return [[int(x, 16) for x in line.split()] for line in text.splitlines()]


def edge_preimages(width: int) -> list[list[int]]:
    return [[0] * width, [P - 1] * width, [1] * width, [(P - 1) if i % 2 else 0 for i in range(width)],
            list(range(width)), [P - 1 - i for i in range(width)], [2**254 - 1] * width, [2**64 - 1] * width]


def generated(arity: int, n: int, seed: int, width: int | None = None, extra: list[str] = ()) -> list[list[int]]:
    """Random preimages from the CLI's --gen (uniform, with edge values mixed in)."""
    out = io.StringIO()
    args = ["--arity", str(arity), "--gen", str(n), "--seed", str(seed), *extra]
    assert cli.main(args, stdout=out) == 0
    rows = parse(out.getvalue())
    assert all(len(r) == (width or arity) for r in rows)
    return rows


def check_digests(binary, arity, rows, ht: HashType, strength="standard", cli_args=()):
    text = preimage_text(rows)
    args = ["--arity", str(arity), "--strength", strength, "--hash-type", ht.kind]
    if ht.kind == "constant":
        args += ["--length", str(ht.value)]
    if ht.kind == "custom":
        args += ["--custom-id", str(ht.value)]
    ref_static = [int(x, 16) for x in refs.run_neptune(args + ["--mode", "static"], text)]
    ref_correct = [int(x, 16) for x in refs.run_neptune(args + ["--mode", "correct"], text)]
    assert ref_static == ref_correct, "neptune's own two modes disagree"
    assert len(ref_static) == len(rows)
    ours_opt = digests(rows, arity, ht, strength)
    ours_plain = digests(rows, arity, ht, strength, optimized=False)
    for i, (r, o, pl) in enumerate(zip(ref_static, ours_opt, ours_plain)):
        assert o == r, f"{ht} arity {arity} {strength}: optimized differs from neptune on preimage {i}: {rows[i]}"
        assert pl == r, f"{ht} arity {arity} {strength}: plain differs from neptune on preimage {i}: {rows[i]}"
    if cli_args is not None:
        out, err = io.StringIO(), io.StringIO()
        rc = cli.main(args + list(cli_args), stdin=io.StringIO(text), stdout=out, stderr=err)
        assert rc == 0, err.getvalue()
        assert [int(x, 16) for x in out.getvalue().split()] == ref_static


@pytest.mark.parametrize("arity", ARITIES)
def test_merkle_random_and_edges(neptune, arity):
    rows = generated(arity, 200, 100 + arity) + edge_preimages(arity)
    check_digests(neptune, arity, rows, HashType("merkle"))
    check_digests(neptune, arity, rows[:20], HashType("merkle"), cli_args=["--plain"])


@pytest.mark.parametrize("arity", ARITIES)
def test_other_hash_types(neptune, arity):
    rng = random.Random(arity)
    types = [HashType("constant", n) for n in sorted({1, max(1, arity // 2), arity})]
    types += [HashType("encryption"), HashType("custom", 1), HashType("custom", rng.randrange(2, 257)),
              HashType("custom", 256), HashType("sponge")]
    for ht in types:
        width = ht.preimage_length(arity)
        rows = generated(arity, 25, rng.randrange(1 << 30), width,
                         ["--hash-type", "constant", "--length", str(width)]) + edge_preimages(width)[:3]
        check_digests(neptune, arity, rows, ht)


@pytest.mark.parametrize("arity", ARITIES)
def test_strengthened(neptune, arity):
    rows = generated(arity, 50, 200 + arity) + edge_preimages(arity)[:2]
    check_digests(neptune, arity, rows, HashType("merkle"), "strengthened")


def neptune_constants(binary, arity: int, strength: str) -> dict[str, list[int]]:
    d: dict[str, list[int]] = {}
    for line in refs.run_neptune(["--arity", str(arity), "--strength", strength, "--constants"]):
        kind, *vals = line.split()
        d.setdefault(kind, []).extend(int(v, 0) for v in vals)
    return d


def check_constants(binary, arity: int, strength: str) -> None:
    ref = neptune_constants(binary, arity, strength)
    c = poseidon_constants(arity, strength)
    assert ref["rounds"] == [c.params.r_f, c.params.r_p]
    assert ref["rc"] == c.round_constants_flat
    assert ref["mds"] == [x for row in c.mds for x in row]
    assert ref["crc"] == c.compressed_rc
    assert ref["pre"] == [x for row in c.pre_sparse for x in row]
    assert ref["sparse_w"] == [x for sp in c.sparse for x in sp.dot]
    assert ref["sparse_v"] == [x for sp in c.sparse for x in sp.upd]
    if strength == "standard" and arity in constfiles.ARITIES:
        # the committed files hold neptune's values in neptune's order
        files = {name: [int(x, 16) for x in (constfiles.DEFAULT_OUT / str(arity) / f"{name}.canon.txt")
                        .read_text().splitlines()[1:]] for name in constfiles.tables(c)}
        t = c.t
        sparse_ref = []
        for k in range(c.params.r_p):
            sparse_ref += ref["sparse_w"][k * t:(k + 1) * t] + ref["sparse_v"][k * (t - 1):(k + 1) * (t - 1)]
        assert files == {"round_constants": ref["rc"], "mds": ref["mds"], "compressed_rc": ref["crc"],
                         "pre_sparse": ref["pre"], "sparse": sparse_ref}


@pytest.mark.parametrize("strength", ["standard", "strengthened"])
@pytest.mark.parametrize("arity", ARITIES)
def test_constants_match_neptune(neptune, arity, strength):
    check_constants(neptune, arity, strength)


@pytest.mark.long
@pytest.mark.parametrize("strength", ["standard", "strengthened"])
@pytest.mark.parametrize("arity", range(1, 17))
def test_all_arities(neptune, arity, strength):
    check_constants(neptune, arity, strength)
    rows = generated(arity, 200, 300 + arity) + edge_preimages(arity)
    check_digests(neptune, arity, rows, HashType("merkle"), strength)


@pytest.mark.long
@pytest.mark.parametrize("arity", ARITIES)
def test_soak(neptune, arity):
    """100,000 preimages per arity through the CLI with two workers, against neptune."""
    text = io.StringIO()
    assert cli.main(["--arity", str(arity), "--gen", "100000", "--seed", str(400 + arity)], stdout=text) == 0
    ours = io.StringIO()
    assert cli.main(["--arity", str(arity), "--jobs", "2"], stdin=io.StringIO(text.getvalue()), stdout=ours) == 0
    assert ours.getvalue().splitlines() == refs.run_neptune(["--arity", str(arity)], text.getvalue())


def test_bench_mode(neptune):
    """`--bench` (the report's CPU baseline) hashes what it says: its fold is the sum of the model's digests of the
    preimages it names (element i of hash n is n * width + i + 1), and a bad duration is a usage error."""
    arity = 2
    r = subprocess.run([str(neptune), "--arity", str(arity), "--bench", "0.05"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    f = dict(zip(r.stdout.split()[::2], r.stdout.split()[1::2]))
    n = int(f["hashes"])
    assert n >= 1024 and n % 1024 == 0 and float(f["rate"]) > 0, r.stdout
    rows = [[k * arity + i + 1 for i in range(arity)] for k in range(n)]
    got = [int(d, 16) for d in refs.run_neptune(["--arity", str(arity)], preimage_text(rows))]
    assert got == digests(rows, arity)
    assert int(f["fold"], 16) == sum(got) % P
    for bad in ("0", "-1", "x", "4000"):
        b = subprocess.run([str(neptune), "--arity", "2", "--bench", bad], capture_output=True, text=True)
        assert b.returncode == 2 and "--bench" in b.stderr, (bad, b.stderr)
