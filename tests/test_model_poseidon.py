"""reference_model.poseidon: known answers, plain == optimized, constants against their defining properties,
operation counts, committed constant files, and the command-line interface."""
from __future__ import annotations

import io
import itertools
import random
import re
import subprocess
import sys

import pytest

from reference_model import field as fieldmod
from reference_model.poseidon import (HashType, OpCount, count_ops, digest, digest_counted, digests, compiled_kernel,
                                      permute_optimized, permute_plain, poseidon_constants, round_numbers)
from reference_model.poseidon import cli, constants as constfiles, matrix as mx
from reference_model.poseidon.grain import Grain
from zkspinal.paths import ROOT

P = fieldmod.get("bls12_381_fr").p
ARITIES = (2, 4, 8, 11)

# neptune's own tests: MerkleTree hash of [0, 1, ..., arity-1]
KNOWN_ANSWERS = {
    2: 0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff,
    4: 0x58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d,
    8: 0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6,
    11: 0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163,
}
# domain.md (derived): products per hash, optimized and plain
MULS_OPTIMIZED = {2: 584, 4: 992, 8: 2004, 11: 2922}
MULS_PLAIN = {2: 804, 4: 1888, 8: 5652, 11: 9819}
EDGES = [0, 1, 2, P - 1, P - 2, (P - 1) // 2, 2**64 - 1, 2**128, 2**254 - 1]


def random_preimages(rng: random.Random, n: int, width: int) -> list[list[int]]:
    return [[rng.choice(EDGES) if rng.random() < 0.125 else rng.randrange(P) for _ in range(width)]
            for _ in range(n)]


def hash_types(arity: int) -> list[HashType]:
    return [HashType("merkle"), HashType("constant", 1), HashType("constant", arity),
            HashType("constant", max(1, arity // 2)), HashType("encryption"), HashType("custom", 1),
            HashType("custom", 256), HashType("sponge")]


# --- known answers and equivalence of the schedules ----------------------------------------------------------

@pytest.mark.parametrize("arity", ARITIES)
def test_known_answers(arity):
    pre = list(range(arity))
    c = poseidon_constants(arity)
    state = [(1 << arity) - 1] + pre
    assert permute_plain(c, state)[1] == KNOWN_ANSWERS[arity]
    assert permute_optimized(c, state)[1] == KNOWN_ANSWERS[arity]
    assert digest(pre) == KNOWN_ANSWERS[arity]
    assert digest(pre, optimized=False) == KNOWN_ANSWERS[arity]


@pytest.mark.parametrize("arity", ARITIES)
def test_plain_equals_optimized_random(arity):
    """1,000 random preimages (edge values mixed in) per arity in every hash type: the plain and the optimized
    kernel agree, and each kernel agrees with its step-by-step permutation on a sample."""
    rng = random.Random(1000 + arity)
    c = poseidon_constants(arity)
    types = hash_types(arity)
    for ht in types:
        n = 1000 if ht.kind == "merkle" else 1000 // len(types) + 1
        pre = random_preimages(rng, n, ht.preimage_length(arity))
        opt = digests(pre, arity, ht)
        plain = digests(pre, arity, ht, optimized=False)
        assert opt == plain, f"{ht}: plain and optimized differ"
        assert len(set(opt)) == len({tuple(x) for x in pre}), f"{ht}: digest collision"
        for x, d in list(zip(pre, opt))[:8]:
            state = ht.initial_state(x, arity)
            assert permute_optimized(c, state)[1] == d
            assert permute_plain(c, state)[1] == d


@pytest.mark.parametrize("arity", ARITIES)
def test_edge_states(arity):
    """States made only of edge values, including a tag other than the hash types' (the permutation itself)."""
    c = poseidon_constants(arity)
    t = arity + 1
    states = [[v] * t for v in (0, 1, P - 1)]
    states += [[(P - 1) if i % 2 else 0 for i in range(t)], [i for i in range(t)]]
    for s in states:
        full_opt = permute_optimized(c, s)
        assert full_opt == permute_plain(c, s), s
        assert [int(x) for x in compiled_kernel(arity)([s])] == [full_opt[1]]
        assert [int(x) for x in compiled_kernel(arity, optimized=False)([s])] == [full_opt[1]]


@pytest.mark.parametrize("arity", [1, 3, 16])
def test_other_arities_and_strengthened(arity):
    rng = random.Random(arity)
    for strength in ("standard", "strengthened"):
        pre = random_preimages(rng, 30, arity)
        assert digests(pre, arity, strength=strength) == digests(pre, arity, strength=strength, optimized=False)
    assert digests(pre, arity, strength="standard") != digests(pre, arity, strength="strengthened")


def test_digests_in_worker_processes():
    pre = random_preimages(random.Random(5), 300, 4)
    assert digests(pre, 4, jobs=2) == digests(pre, 4)


def test_permutation_rejects_bad_states():
    c = poseidon_constants(2)
    with pytest.raises(ValueError):
        permute_plain(c, [0, 0])
    with pytest.raises(ValueError):
        permute_optimized(c, [0, 0, P])
    with pytest.raises(ValueError):
        digests([[0, P]], 2)
    with pytest.raises(ValueError):
        digests([[0, 1, 2]], 2)


# --- hash types -------------------------------------------------------------------------------------------

def test_domain_tags():
    assert [HashType("merkle").tag(a) for a in ARITIES] == [0x3, 0xF, 0xFF, 0x7FF]
    assert HashType("constant", 3).tag(8) == 3 << 64
    assert HashType("encryption").tag(4) == 1 << 32
    assert HashType("custom", 7).tag(4) == 7 << 40
    assert HashType("sponge").tag(11) == 0
    tags = {ht.tag(8) for ht in [HashType("merkle"), HashType("encryption"), HashType("sponge")]
            + [HashType("constant", n) for n in range(1, 9)] + [HashType("custom", i) for i in range(1, 257)]}
    assert len(tags) == 3 + 8 + 256, "domain tags must not collide"


def test_constant_length_padding():
    ht = HashType("constant", 3)
    assert ht.initial_state([5, 6, 7], 8) == [3 << 64, 5, 6, 7, 0, 0, 0, 0, 0]
    c = poseidon_constants(8)
    assert digest([5, 6, 7], 8, ht) == permute_plain(c, [3 << 64, 5, 6, 7] + [0] * 5)[1]
    # zero padding is not the same as a shorter preimage under another tag
    assert digest([5, 6, 7], 8, ht) != digest([5, 6, 7, 0, 0, 0, 0, 0], 8, HashType("constant", 8))


def test_hash_type_errors():
    for bad in (lambda: HashType("custom", 0), lambda: HashType("custom", 257), lambda: HashType("constant", 0),
                lambda: HashType("tree"), lambda: HashType("constant", 5).preimage_length(4)):
        with pytest.raises(ValueError):
            bad()


# --- parameters and constants ------------------------------------------------------------------------------

def test_round_numbers():
    # neptune's tables: standard R_P for width t, strengthened R_P for arity
    standard = {2: 55, 3: 55, 4: 56, 5: 56, 6: 56, 7: 56, 8: 57, 9: 57, 10: 57, 11: 57, 12: 57, 13: 57, 14: 57,
                15: 57, 16: 59, 17: 59}
    strengthened = {1: 69, 2: 69, 3: 70, 4: 70, 5: 70, 6: 70, 7: 72, 8: 72, 9: 72, 10: 72, 11: 72, 16: 74}
    for t, rp in standard.items():
        assert round_numbers(t - 1) == (8, rp), t
    for a, rp in strengthened.items():
        assert round_numbers(a, "strengthened") == (8, rp), a
    with pytest.raises(ValueError):
        round_numbers(2, "weak")


def test_grain_lfsr():
    """The LFSR recurrence and the initial state encoding (field 01, S-box 0001, 255, t, R_F, R_P, 30 ones)."""
    g = Grain.__new__(Grain)
    bits = []
    for w, v in ((2, 1), (4, 1), (12, 255), (12, 3), (10, 8), (10, 55), (30, 2**30 - 1)):
        bits += [(v >> i) & 1 for i in range(w - 1, -1, -1)]
    g.state = sum(b << i for i, b in enumerate(bits))
    seq = list(bits)
    for _ in range(400):
        seq.append(seq[-80] ^ seq[-67] ^ seq[-57] ^ seq[-42] ^ seq[-29] ^ seq[-18])
    assert [g.step() for _ in range(400)] == seq[80:]
    c = poseidon_constants(2)
    assert len(c.round_constants_flat) == 189 and all(0 <= x < P for x in c.round_constants_flat)
    assert len(set(c.round_constants_flat)) == 189
    assert [len(poseidon_constants(a).round_constants_flat) for a in ARITIES] == [189, 320, 585, 780]


@pytest.mark.parametrize("arity", ARITIES)
def test_mds_is_cauchy_and_invertible(arity):
    c = poseidon_constants(arity)
    t = c.t
    m = c.mds
    xs, ys = list(range(t)), [t + j for j in range(t)]
    # Cauchy: M[i][j] * (x_i + y_j) = 1, with distinct x, distinct y and no x_i + y_j = 0 mod p
    assert all(m[i][j] * (xs[i] + ys[j]) % P == 1 for i in range(t) for j in range(t))
    assert len(set(xs)) == t and len(set(ys)) == t and all((x + y) % P for x in xs for y in ys)
    assert m == mx.transpose(m)
    assert mx.determinant(m, P) != 0
    assert mx.is_identity(mx.mat_mul(m, c.mds_inv, P))
    # every square submatrix is non-singular (all of them for t <= 5, a random sample above)
    rng = random.Random(t)
    subsets = [(rows, cols) for k in range(1, t + 1) for rows in itertools.combinations(range(t), k)
               for cols in itertools.combinations(range(t), k)]
    if len(subsets) > 400:
        subsets = rng.sample(subsets, 400)
    for rows, cols in subsets:
        assert mx.determinant([[m[i][j] for j in cols] for i in rows], P) != 0, (rows, cols)


@pytest.mark.parametrize("arity", ARITIES)
def test_optimized_matrices(arity):
    """Sparse matrices have the sparse shape, and the pre-sparse matrix times all sparse matrices is M^(R_P+1):
    with S-boxes that are the identity the partial section of both schedules is the same linear map."""
    c = poseidon_constants(arity)
    t, r_p = c.t, c.params.r_p
    assert len(c.sparse) == r_p
    prod = c.pre_sparse
    for sp in c.sparse:
        s = sp.to_matrix()
        assert mx.is_identity(mx.minor(s, 0, 0))
        assert s[0][0] == c.mds[0][0]
        prod = mx.mat_mul(prod, s, P)
    power = mx.identity(t)
    for _ in range(r_p + 1):
        power = mx.mat_mul(power, c.mds, P)
    assert prod == power
    assert mx.determinant(c.pre_sparse, P) != 0


@pytest.mark.parametrize("arity", ARITIES)
def test_compressed_round_constants(arity):
    """Each moved constant, mixed forward through M, gives back the plain round constant it replaces; the
    folded partial-round constants give back the plain schedule with identity S-boxes."""
    c = poseidon_constants(arity)
    t, half, r_p, rc = c.t, c.params.half, c.params.r_p, c.round_constants
    assert c.crc_pre == rc[0]
    for r in range(half - 1):
        assert mx.vec_mat(c.crc_full_first[r], c.mds, P) == rc[r + 1]
        assert mx.vec_mat(c.crc_full_second[r], c.mds, P) == rc[half + r_p + r + 1]
    assert len(c.compressed_rc) == t * c.params.r_f + r_p
    # linear check of the folding: from the state after the S-boxes of round half-1, the plain schedule with
    # identity partial S-boxes and the optimized one reach the same state before the S-boxes of round half+r_p
    rng = random.Random(arity)
    s = [rng.randrange(P) for _ in range(t)]
    plain = mx.vec_mat(s, c.mds, P)
    for r in range(half, half + r_p):
        plain = mx.vec_mat([(x + k) % P for x, k in zip(plain, rc[r])], c.mds, P)
    plain = [(x + k) % P for x, k in zip(plain, rc[half + r_p])]
    opt = mx.vec_mat([(x + k) % P for x, k in zip(s, c.crc_full_first[half - 1])], c.pre_sparse, P)
    for k, sp in enumerate(c.sparse):
        opt[0] = (opt[0] + c.crc_partial[k]) % P
        opt = mx.vec_mat(opt, sp.to_matrix(), P)
    assert opt == plain


@pytest.mark.parametrize("arity", ARITIES)
def test_operation_counts(arity):
    c = poseidon_constants(arity)
    t, r_f, r_p = c.t, c.params.r_f, c.params.r_p
    opt, plain = count_ops(c), count_ops(c, optimized=False)
    assert opt.mul == MULS_OPTIMIZED[arity] and plain.mul == MULS_PLAIN[arity]
    assert opt.sbox_mul == plain.sbox_mul == 3 * (t * r_f + r_p)
    assert opt.const_mul == r_f * t * t + r_p * (2 * t - 1)
    assert plain.const_mul == (r_f + r_p) * t * t
    d, n = digest_counted(list(range(arity)))
    assert d == KNOWN_ANSWERS[arity] and n == opt
    if arity == 2:
        assert (opt.sbox_mul, opt.const_mul) == (237, 347)   # domain.md's split for t = 3
    assert OpCount(1, 2, 3) + OpCount(4, 5, 6) == OpCount(5, 7, 9)


# --- the committed constant files ---------------------------------------------------------------------------

def test_committed_constants_match_generator():
    assert constfiles.check() == [], "regenerate with python -m reference_model.poseidon.constants"


def test_constants_check_detects_changes(tmp_path):
    constfiles.write(tmp_path)
    assert constfiles.check(tmp_path) == []
    victim = tmp_path / "4" / "sparse.mont.txt"
    lines = victim.read_text().splitlines(keepends=True)
    lines[7] = "0x" + "0" * 64 + "\n"
    victim.write_text("".join(lines))
    (tmp_path / "8" / "mds.canon.txt").unlink()
    assert sorted(constfiles.check(tmp_path)) == ["4/sparse.mont.txt", "8/mds.canon.txt"]
    assert constfiles.main(["--check", "--out", str(tmp_path)]) == 1
    assert constfiles.main(["--out", str(tmp_path)]) == 0
    assert constfiles.main(["--check", "--out", str(tmp_path)]) == 0


@pytest.mark.parametrize("arity", ARITIES)
def test_constant_files_format(arity):
    f = fieldmod.get("bls12_381_fr")
    c = poseidon_constants(arity)
    t = c.t
    expect_len = {"round_constants": t * c.params.rounds, "mds": t * t, "compressed_rc": t * c.params.r_f + c.params.r_p,
                  "pre_sparse": t * t, "sparse": c.params.r_p * (2 * t - 1)}
    for name, n in expect_len.items():
        canon = (constfiles.DEFAULT_OUT / str(arity) / f"{name}.canon.txt").read_text().splitlines()
        mont = (constfiles.DEFAULT_OUT / str(arity) / f"{name}.mont.txt").read_text().splitlines()
        for lines in (canon, mont):
            assert lines[0].startswith("# ") and "generated by python -m reference_model.poseidon.constants" in lines[0]
            assert len(lines) == n + 1
            assert all(re.fullmatch(r"0x[0-9a-f]{64}", x) for x in lines[1:])
        cv = [int(x, 16) for x in canon[1:]]
        mv = [int(x, 16) for x in mont[1:]]
        assert all(v < P for v in cv + mv)
        assert mv == [fieldmod.to_mont(f, v) for v in cv]
        assert [fieldmod.from_mont(f, v) for v in mv] == cv
    rc_lines = (constfiles.DEFAULT_OUT / str(arity) / "round_constants.canon.txt").read_text().splitlines()
    rc = [int(x, 16) for x in rc_lines[1:]]
    assert rc == c.round_constants_flat


# --- command-line interface -----------------------------------------------------------------------------

def run_cli(args: list[str], text: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = cli.main(args, stdin=io.StringIO(text), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def fmt(row) -> str:
    return " ".join(f"0x{x:x}" for x in row)


@pytest.mark.parametrize("arity", ARITIES)
def test_cli_digests(arity):
    rng = random.Random(arity)
    pre = [list(range(arity))] + random_preimages(rng, 40, arity)
    text = "\n".join(fmt(r) for r in pre) + "\n"
    rc, out, err = run_cli(["--arity", str(arity)], text)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert all(re.fullmatch(r"0x[0-9a-f]{64}", x) for x in lines)
    assert [int(x, 16) for x in lines] == digests(pre, arity)
    assert int(lines[0], 16) == KNOWN_ANSWERS[arity]
    assert run_cli(["--arity", str(arity), "--plain"], text)[1] == out
    assert run_cli(["--arity", str(arity), "--optimized", "--jobs", "2"], text)[1] == out
    # upper-case digits, 64-digit zero-padded elements, tabs and surrounding blanks are all the same input
    text2 = "\n".join("  " + "\t".join(f"0x{x:064X}" for x in r) + " " for r in pre)   # no final newline
    assert run_cli(["--arity", str(arity)], text2)[1] == out


def test_cli_hash_types():
    pre = [[7, 8, 9]]
    rc, out, _ = run_cli(["--arity", "4", "--hash-type", "constant", "--length", "3"], "0x7 0x8 0x9\n")
    assert rc == 0 and int(out, 16) == digest(pre[0], 4, HashType("constant", 3))
    for kind, extra, ht in (("encryption", [], HashType("encryption")), ("sponge", [], HashType("sponge")),
                            ("custom", ["--custom-id", "9"], HashType("custom", 9)),
                            ("constant", [], HashType("constant", 4)), ("merkle", [], HashType("merkle"))):
        rc, out, _ = run_cli(["--arity", "4", "--hash-type", kind, *extra], "0x1 0x2 0x3 0x4\n")
        assert rc == 0 and int(out, 16) == digest([1, 2, 3, 4], 4, ht), kind
    rc, out, _ = run_cli(["--arity", "2", "--strength", "strengthened"], "0x0 0x1\n")
    assert rc == 0 and int(out, 16) == digest([0, 1], 2, strength="strengthened") != KNOWN_ANSWERS[2]


BAD_LINES = [
    ("0x1\n", "line 1: expected 2 elements, got 1"),
    ("0x1 0x2 0x3\n", "line 1: expected 2 elements, got 3"),
    ("\n", "line 1: expected 2 elements, got 0"),
    ("0x1 12\n", "line 1: element 2 '12' is not 0x-prefixed hex"),
    ("0x1 0X2\n", "line 1: element 2 '0X2' is not 0x-prefixed hex"),
    ("0xg1 0x2\n", "line 1: element 1 '0xg1' is not hex"),
    ("0x 0x2\n", "line 1: element 1 '0x' is not hex"),
    ("0x1_0 0x2\n", "line 1: element 1 '0x1_0' is not hex"),
    ("0x-1 0x2\n", "line 1: element 1 '0x-1' is not hex"),
    ("0x1,0x2\n", "line 1: expected 2 elements, got 1"),
    (f"0x{P:x} 0x2\n", f"line 1: element 1 0x{P:x} is not below the field modulus p"),
    (f"0x2 0x{2**256 - 1:x}\n", "line 1: element 2 0x" + "f" * 64 + " is not below the field modulus p"),
    ("0x1 0x1" + "0" * 64 + "\n", "line 1: element 2 has 65 hex digits, more than 64 (above 2^256)"),
]


@pytest.mark.parametrize("line,message", BAD_LINES)
def test_cli_bad_input(line, message):
    good = "0x0 0x1\n0x5 0x6\n"
    rc, out, err = run_cli(["--arity", "2"], good + line + good)
    assert rc == 1
    assert err.startswith(f"poseidon: {message.replace('line 1', 'line 3')}"), err
    assert len(err.splitlines()) == 1
    # the digests of the lines before the first bad line, and nothing after it
    assert out.splitlines() == [f"0x{d:064x}" for d in digests([[0, 1], [5, 6]], 2)]


def test_cli_many_bad_lines():
    text = "".join("0x1\n" if i % 2 else "0x1 0x2\n" for i in range(100))
    rc, out, err = run_cli(["--arity", "2"], text)
    lines = err.splitlines()
    assert rc == 1 and len(out.splitlines()) == 1
    assert lines[0] == "poseidon: line 2: expected 2 elements, got 1"
    assert lines[19] == "poseidon: line 40: expected 2 elements, got 1"
    assert lines[20] == "poseidon: ... and 30 more bad lines" and len(lines) == 21


def test_cli_reduce():
    rows = [[P, 5], [P + 5, 2**256 - 1], [2**255, 0]]
    rc, out, err = run_cli(["--arity", "2", "--reduce"], "\n".join(fmt(r) for r in rows) + "\n")
    assert rc == 0 and err == ""
    assert [int(x, 16) for x in out.split()] == digests([[x % P for x in r] for r in rows], 2)
    rc, out, err = run_cli(["--arity", "2", "--reduce"], "0x1 0x1" + "0" * 64 + "\n")
    assert rc == 1 and "line 1: element 2 has 65 hex digits" in err


@pytest.mark.parametrize("args", [[], ["--arity", "0"], ["--arity", "17"], ["--arity", "2", "--plain", "--optimized"],
                                  ["--arity", "2", "--hash-type", "custom"],
                                  ["--arity", "2", "--hash-type", "custom", "--custom-id", "300"],
                                  ["--arity", "2", "--hash-type", "constant", "--length", "3"],
                                  ["--arity", "2", "--length", "1"], ["--arity", "2", "--gen", "-1"],
                                  ["--arity", "2", "--jobs", "0"], ["--arity", "2", "--hash-type", "tree"]])
def test_cli_usage_errors(args):
    rc, out, err = run_cli(args)
    assert rc == 2 and out == "" and "error" in err


def test_cli_gen_determinism():
    a = run_cli(["--arity", "4", "--gen", "300", "--seed", "7"])
    assert a == run_cli(["--arity", "4", "--gen", "300", "--seed", "7"])
    assert a[1] != run_cli(["--arity", "4", "--gen", "300", "--seed", "8"])[1]
    rc, out, _ = a
    rows = [[int(x, 16) for x in line.split()] for line in out.splitlines()]
    assert rc == 0 and len(rows) == 300 and all(len(r) == 4 for r in rows)
    flat = [x for r in rows for x in r]
    assert all(x < P for x in flat)
    assert {0, 1, P - 1} <= set(flat), "edge values are mixed in"
    assert len(set(flat)) > 1000
    # generated lines hash without error, --reduce generation goes above p
    assert run_cli(["--arity", "4"], out)[0] == 0
    red = run_cli(["--arity", "4", "--gen", "300", "--seed", "7", "--reduce"])[1]
    vals = [int(x, 16) for x in red.split()]
    assert any(x >= P for x in vals) and all(x < 2**256 for x in vals)
    assert run_cli(["--arity", "4"], red)[0] == 1
    assert run_cli(["--arity", "4", "--reduce"], red)[0] == 0
    assert len(run_cli(["--arity", "3", "--hash-type", "constant", "--length", "2", "--gen", "5"])[1].split()) == 10
    assert run_cli(["--arity", "2", "--gen", "0"]) == (0, "", "")


def test_cli_count():
    rc, out, err = run_cli(["--arity", "2", "--count"], "0x0 0x1\n0x3 0x4\n")
    assert rc == 0 and int(out.split()[0], 16) == KNOWN_ANSWERS[2]
    assert ("per hash: 237 S-box products + 347 constant products = 584 products, 347 additions; 2 hashes"
            in err)
    rc, out, err = run_cli(["--arity", "11", "--count", "--plain"], fmt(range(11)) + "\n")
    assert rc == 0 and "= 9819 products" in err and int(out, 16) == KNOWN_ANSWERS[11]


def test_cli_module_entry_point():
    """python -m reference_model.poseidon and python -m reference_model.poseidon.constants as subprocesses."""
    r = subprocess.run([sys.executable, "-m", "reference_model.poseidon", "--arity", "8"], cwd=ROOT,
                       input="0x0 0x1 0x2 0x3 0x4 0x5 0x6 0x7\n0x1 0xzz 0x0 0x0 0x0 0x0 0x0 0x0\n",
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stdout == f"0x{KNOWN_ANSWERS[8]:064x}\n"
    assert r.stderr == "poseidon: line 2: element 2 '0xzz' is not hex\n"
    r = subprocess.run([sys.executable, "-m", "reference_model.poseidon", "--arity", "2"], cwd=ROOT,
                       input=b"0x0 0x1\n0x1 0x\xff\x00\n", capture_output=True)
    assert r.returncode == 1 and r.stdout == f"0x{KNOWN_ANSWERS[2]:064x}\n".encode()
    assert r.stderr.decode().startswith("poseidon: line 2: element 2 ") and r.stderr.endswith(b"is not hex\n")
    r = subprocess.run([sys.executable, "-m", "reference_model.poseidon.constants", "--check"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
