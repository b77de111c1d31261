"""reference_model.field against independent references: py_ecc's BLS12-381 arithmetic, the curves' defining
polynomials in the BLS parameter x, plain Python integers, and the Scala FieldConfig (through the manifest)."""
from __future__ import annotations

import random

import pytest
from py_ecc.bls12_381 import curve_order
from py_ecc.fields.field_elements import FQ

from reference_model import field as F
from zkspinal import paths

SEED = 20261123


class Bls381Fr(FQ):
    """py_ecc's generic prime-field element over the BLS12-381 scalar field."""
    field_modulus = curve_order


def edge_values(f: F.FieldConfig) -> list[int]:
    return [0, 1, 2, f.p - 1, f.p - 2, f.p >> 1, (f.p >> 1) + 1, f.r_mod_p, f.r2_mod_p, f.r_inv]


def test_primes_from_the_bls_parameter():
    """r = x^4 - x^2 + 1 and q = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x for the curves' published seeds x."""
    x381 = -0xD201000000010000
    x377 = 0x8508C00000000001
    assert F.get("bls12_381_fr").p == x381 ** 4 - x381 ** 2 + 1
    assert F.get("bls12_377_fr").p == x377 ** 4 - x377 ** 2 + 1
    assert F.get("bls12_377_fq").p == (x377 - 1) ** 2 * (x377 ** 4 - x377 ** 2 + 1) // 3 + x377
    assert [F.get(n).n for n in ("bls12_381_fr", "bls12_377_fq", "bls12_377_fr")] == [255, 377, 253]


def test_bls12_381_fr_against_py_ecc():
    f = F.get("bls12_381_fr")
    assert f.p == curve_order
    r = random.Random(SEED)
    values = edge_values(f) + [r.randrange(f.p) for _ in range(300)]
    for a in values:
        b = r.choice(values)
        pa, pb = Bls381Fr(a), Bls381Fr(b)
        assert f.add(a, b) == int(pa + pb) == F.mod_add(f, a, b)
        assert f.sub(a, b) == int(pa - pb) == F.mod_sub(f, a, b)
        assert f.mul(a, b) == int(pa * pb)
        if a:
            assert f.inv(a) == int(Bls381Fr(1) / pa)
        # the Montgomery product of Montgomery forms is the Montgomery form of the product
        assert f.from_mont(F.mont_mul(f, f.to_mont(a), f.to_mont(b))) == int(pa * pb)


@pytest.mark.parametrize("name", list(F.FIELDS))
def test_montgomery_constants(name):
    f = F.get(name)
    assert f.R == 1 << f.n and f.R // 2 < f.p < f.R
    assert (f.p * f.p_inv_neg + 1) % f.R == 0
    assert f.r_mod_p == f.R % f.p and f.r2_mod_p == f.R * f.R % f.p
    assert f.r_inv * f.R % f.p == 1


@pytest.mark.parametrize("name", list(F.FIELDS))
def test_hardware_models_against_integers(name):
    """The step-by-step models of the cores give the plain results, including edge values and every operand the
    unchecked cores accept (any n-bit value)."""
    f = F.get(name)
    r = random.Random(SEED ^ f.n)
    values = edge_values(f) + [r.randrange(f.p) for _ in range(500)]
    for a in values:
        b = r.choice(values)
        assert F.mod_add(f, a, b) == (a + b) % f.p
        assert F.mod_sub(f, a, b) == (a - b) % f.p
        assert F.mont_mul(f, a, b) == a * b * pow(f.R, -1, f.p) % f.p
        assert F.to_mont(f, a) == a * f.R % f.p and F.from_mont(f, F.to_mont(f, a)) == a
    for x in [f.p, f.p + 1, f.R - 1, r.randrange(f.p, f.R)]:
        c = r.randrange(f.p)
        assert F.const_mul(f, x, c) == x * c % f.p
    # ModSum: any number of operands below 2^n (its table covers sums up to 32 of them), including all n-bit ones
    top = (1 << f.n) - 1
    for k in (2, 3, 13, 27, 32):
        for xs in [[f.p - 1] * k, [top] * k, [0] * k] + [[r.choice(values + [top]) for _ in range(k)] for _ in range(50)]:
            assert F.mod_sum(f, *xs) == sum(xs) % f.p
    # the largest product the reduction sees: (p-1)^2 < R*p, one conditional subtraction suffices
    assert F.mont_reduce(f, (f.p - 1) ** 2) == (f.p - 1) ** 2 * f.r_inv % f.p


def test_unknown_field_and_composite_modulus():
    with pytest.raises(KeyError, match="unknown field"):
        F.get("bn254")
    with pytest.raises(ValueError, match="not an odd prime"):
        F.FieldConfig("composite", 91)


def test_scala_and_python_list_the_same_primes():
    """Every field top the Scala generator emitted carries the modulus of the Python field of the same name."""
    manifest = paths.manifest()
    seen = {}
    for top, info in manifest.items():
        if "field" in info and "p" in info:
            seen[info["field"]] = int(info["p"], 16)
    assert set(seen) == set(F.FIELDS), f"Scala fields {sorted(seen)} != Python fields {sorted(F.FIELDS)}"
    for name, p in seen.items():
        assert p == F.get(name).p, name
