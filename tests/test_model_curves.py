"""reference_model/curves: generic Weierstrass code against py_ecc (BLS12-381 G1), BLS12-377 G1, the twisted
Edwards map against arkworks' published constants, and the hardware mixed addition against plain affine addition."""
from __future__ import annotations

import random

import pytest
from py_ecc import optimized_bls12_381 as ecc

from reference_model.curves import FQ, FR, G1, HW, MIXED_ADD_SCHEDULE, TE, NoEdwardsImage, mixed_add
from reference_model.curves import bls12_381
from reference_model.curves.precomputed import SCHEDULE_OUTPUTS
from reference_model.field import from_mont

RNG_SEED = 20240505

# arkworks 0.5 (ark-bls12-377, curves/g1.rs): MontCurveConfig::COEFF_A/B, TECurveConfig::COEFF_D, TE generator
ARK_MONT_A = 228097355113300204138531148905234651262148041026195375645000724271212049151994375092458297304264351187709081232384
ARK_MONT_B = 10189023633222963290707194929886294091415157242906428298294512798502806398782149227503530278436336312243746741931
ARK_TE_D = 122268283598675559488486339158635529096981886914877139579534153582033676785385790730042363341236035746924960903179
ARK_TE_GEN = (71222569531709137229370268896323705690285216175189308202338047559628438110820800641278662592954630774340654489393,
              6177051365529633638563236407038680211609544222665285371549726196884440490905471891908272386851767077598415378235)


def rand_g1(rng, curve=G1):
    return curve.mul(curve.generator, rng.randrange(1, curve.order))


# ---- generic Weierstrass code against py_ecc on BLS12-381 G1 ---------------------------------------------
def _ecc_affine(P):
    if ecc.is_inf(P):
        return None
    x, y = ecc.normalize(P)
    return int(x.n), int(y.n)


def test_weierstrass_matches_py_ecc_bls12_381():
    rng = random.Random(RNG_SEED)
    C = bls12_381.G1
    assert C.generator == _ecc_affine(ecc.G1)
    for _ in range(6):
        a, b = rng.randrange(1, C.order), rng.randrange(1, C.order)
        Pa, Pb = ecc.multiply(ecc.G1, a), ecc.multiply(ecc.G1, b)
        A, B = C.mul(C.generator, a), C.mul(C.generator, b)
        assert A == _ecc_affine(Pa) and B == _ecc_affine(Pb)
        assert C.add(A, B) == _ecc_affine(ecc.add(Pa, Pb))
        assert C.double(A) == _ecc_affine(ecc.double(Pa))
        assert C.neg(A) == _ecc_affine(ecc.neg(Pa))
        assert C.add(A, C.neg(A)) is None
        k = rng.randrange(0, 1 << 300)   # integer multiples beyond r too
        assert C.mul(A, k) == _ecc_affine(ecc.multiply(Pa, k % C.order))
        assert C.is_on_curve(A) and ecc.is_on_curve(Pa, ecc.b)
    assert C.mul(C.generator, C.order) is None
    assert C.in_subgroup(C.generator)


def test_weierstrass_jacobian_special_cases():
    rng = random.Random(RNG_SEED + 1)
    P = rand_g1(rng)
    J = G1.to_jacobian(P)
    assert G1.to_affine(G1.jac_add(J, J)) == G1.double(P)                       # P + P through add
    assert G1.jac_add(J, G1.jac_neg(J))[2] == 0                                 # P + (-P)
    assert G1.to_affine(G1.jac_add(J, G1.INFINITY_JAC)) == P
    assert G1.to_affine(G1.jac_mul(J, 0)) is None and G1.mul(None, 5) is None
    assert G1.add(None, P) == P and G1.add(P, None) == P and G1.is_on_curve(None)
    pts = [rand_g1(rng) for _ in range(5)] + [None]
    scaled = []
    for Q in pts:
        X, Y, Z = G1.to_jacobian(Q)
        z = rng.randrange(1, FQ.p)
        scaled.append((X * z * z % FQ.p, Y * z ** 3 % FQ.p, Z * z % FQ.p))
    assert G1.batch_to_affine(scaled) == pts


# ---- BLS12-377 G1 ---------------------------------------------------------------------------------------
def test_bls12_377_group_order_and_subgroup():
    rng = random.Random(RNG_SEED + 2)
    assert G1.order == FR.p and FR.p.bit_length() == 253 and FQ.p.bit_length() == 377
    assert G1.in_subgroup(G1.generator)
    while True:                                          # a random curve point, almost surely outside G1
        P = G1.lift_x(rng.randrange(FQ.p), odd_y=rng.random() < 0.5)
        if P is not None:
            break
    assert G1.is_on_curve(P) and not G1.in_subgroup(P)
    assert G1.mul(P, G1.order * G1.cofactor) is None     # #E = h * r
    assert G1.in_subgroup(G1.clear_cofactor(P))
    assert not G1.is_on_curve((P[0], (P[1] + 1) % FQ.p))
    assert not G1.is_on_curve((P[0], P[1] + FQ.p))      # non-canonical coordinates are rejected


# ---- twisted Edwards map ----------------------------------------------------------------------------------
def test_edwards_constants_match_arkworks():
    assert TE.s == ARK_MONT_B and TE.mont_a == ARK_MONT_A and TE.d == ARK_TE_D
    assert TE.to_edwards(G1.generator) == ARK_TE_GEN
    assert TE.is_on_curve(ARK_TE_GEN)


def test_edwards_map_is_a_homomorphism():
    rng = random.Random(RNG_SEED + 3)
    assert TE.to_edwards(None) == (0, 1) and TE.from_edwards((0, 1)) is None
    for _ in range(8):
        P, Q = rand_g1(rng), rand_g1(rng)
        EP, EQ = TE.to_edwards(P), TE.to_edwards(Q)
        assert TE.is_on_curve(EP) and TE.from_edwards(EP) == P
        assert TE.to_edwards(G1.add(P, Q)) == TE.affine_add(EP, EQ)
        assert TE.to_edwards(G1.neg(P)) == ((-EP[0]) % FQ.p, EP[1])
        k = rng.randrange(FR.p)
        assert TE.to_affine(TE.mul(TE.to_extended(EP), k)) == TE.to_edwards(G1.mul(P, k))
        # extended addition and doubling against the affine law
        assert TE.to_affine(TE.add(TE.to_extended(EP), TE.to_extended(EQ))) == TE.affine_add(EP, EQ)
        assert TE.to_affine(TE.double(TE.to_extended(EP))) == TE.affine_add(EP, EP)


def test_points_without_edwards_image():
    ex = TE.exceptional_points()
    assert len(ex) == 5                                     # three with y = 0, two with s*(x+1) = -1
    assert sum(1 for P in ex if P[1] == 0) == 3
    for P in ex:
        assert G1.is_on_curve(P) and not G1.in_subgroup(P) and not TE.has_image(P)
        assert G1.mul(P, 4) is None                          # orders 2 and 4
        with pytest.raises(NoEdwardsImage):
            TE.to_edwards(P)
    assert TE.from_edwards((0, FQ.p - 1)) == (FQ.p - 1, 0)  # (0, -1) is the 2-torsion point (-1, 0)
    assert TE.has_image(G1.generator) and TE.has_image(None)


# ---- the hardware mixed addition --------------------------------------------------------------------------
def _acc_of(P, rng):
    """accumulator for P with a random projective Z"""
    X, Y, Z, T = TE.to_extended(TE.to_edwards(P))
    z = rng.randrange(1, FQ.p)
    return HW.from_extended(tuple(v * z % FQ.p for v in (X, Y, Z, T)))


def _acc_point(S):
    return TE.from_edwards(TE.to_affine(HW.to_extended(S)))


def test_schedule_shape():
    ops = [op for _, _, op, _, _ in MIXED_ADD_SCHEDULE]
    assert ops.count("mont_mul") == 7 and ops.count("mod_add") + ops.count("mod_sub") == 6
    assert max(stage for stage, *_ in MIXED_ADD_SCHEDULE) == 4
    assert {dst for _, dst, *_ in MIXED_ADD_SCHEDULE} >= set(SCHEDULE_OUTPUTS)


def test_mixed_add_against_affine_addition():
    rng = random.Random(RNG_SEED + 4)
    for _ in range(40):
        P, Q = rand_g1(rng), rand_g1(rng)
        S, q = _acc_of(P, rng), HW.precompute(TE.to_edwards(Q))
        out = mixed_add(FQ, S, q)
        assert HW.consistent(out)
        assert _acc_point(out) == G1.add(P, Q)
        neg = mixed_add(FQ, S, q, negate=True)
        assert neg == mixed_add(FQ, S, HW.neg(q))             # swap trick == negated operand, bit for bit
        assert _acc_point(neg) == G1.add(P, G1.neg(Q))
        # the same point as the unified extended formula (a different projective representative)
        assert TE.equal(HW.to_extended(out), TE.add(HW.to_extended(S), TE.to_extended(TE.to_edwards(Q))))


def test_mixed_add_edge_cases():
    rng = random.Random(RNG_SEED + 5)
    P = rand_g1(rng)
    S, q = _acc_of(P, rng), HW.precompute(TE.to_edwards(P))
    assert _acc_point(mixed_add(FQ, S, q)) == G1.double(P)        # P + P: unified, no special case
    assert _acc_point(mixed_add(FQ, S, q, negate=True)) is None   # P - P
    assert _acc_point(mixed_add(FQ, HW.IDENTITY_S, q)) == P       # O + P
    assert _acc_point(mixed_add(FQ, S, HW.IDENTITY_Q)) == P       # P + O
    assert _acc_point(mixed_add(FQ, HW.IDENTITY_S, HW.IDENTITY_Q)) is None
    assert HW.precompute((0, 1)) == HW.IDENTITY_Q and HW.from_extended(TE.IDENTITY) == HW.IDENTITY_S
    # O + P from the identity accumulator, value by value: (8(y-x), 8(y+x), 16, 4xy)
    x, y = TE.to_edwards(P)
    p = FQ.p
    assert [from_mont(FQ, v) for v in mixed_add(FQ, HW.IDENTITY_S, q)] == \
        [8 * (y - x) % p, 8 * (y + x) % p, 16, 4 * x * y % p]
    # a long chain stays consistent and right
    S, R = HW.IDENTITY_S, None
    for _ in range(30):
        Q = rand_g1(rng)
        neg = rng.random() < 0.5
        S = mixed_add(FQ, S, HW.precompute(TE.to_edwards(Q)), negate=neg)
        R = G1.add(R, G1.neg(Q) if neg else Q)
        assert HW.consistent(S)
    assert _acc_point(S) == R


def test_operands_are_reduced_montgomery_words():
    rng = random.Random(RNG_SEED + 6)
    for _ in range(10):
        P = rand_g1(rng)
        q = HW.precompute(TE.to_edwards(P))
        assert all(0 <= v < FQ.p for v in q)
        x, y = TE.to_edwards(P)
        half = FQ.inv(2)
        assert [from_mont(FQ, v) for v in q] == [(y - x) * half % FQ.p, (y + x) * half % FQ.p,
                                                 4 * TE.d * x * y % FQ.p]
    bad = list(_acc_of(rand_g1(rng), rng))
    bad[3] = (bad[3] + 1) % FQ.p
    assert not HW.consistent(tuple(bad))


# ---- BN254 and BLS12-381 G1 (the Weierstrass MSM curves) against py_ecc ----------------------------------
def _ecc_of(name):
    from py_ecc import optimized_bn128
    return {"bn254": optimized_bn128, "bls12_381": ecc}[name]


@pytest.mark.parametrize("name", ["bn254", "bls12_381"])
def test_weierstrass_curves_against_py_ecc(name):
    from reference_model.curves import CURVES
    C, E = CURVES[name], _ecc_of(name)
    rng = random.Random(RNG_SEED + 7)
    assert C.generator == _ecc_affine_of(E, E.G1) and C.b == E.b.n and C.p == E.field_modulus
    assert C.order == E.curve_order and C.in_subgroup(C.generator)
    for _ in range(4):
        a, b = rng.randrange(1, C.order), rng.randrange(1, C.order)
        Pa, Pb = E.multiply(E.G1, a), E.multiply(E.G1, b)
        A, B = C.mul(C.generator, a), C.mul(C.generator, b)
        assert A == _ecc_affine_of(E, Pa) and C.add(A, B) == _ecc_affine_of(E, E.add(Pa, Pb))
        assert C.double(A) == _ecc_affine_of(E, E.double(Pa))


def _ecc_affine_of(E, P):
    if E.is_inf(P):
        return None
    x, y = E.normalize(P)
    return int(x.n), int(y.n)


def test_curve_facts():
    from reference_model.curves import CURVES
    bn, b381 = CURVES["bn254"], CURVES["bls12_381"]
    assert (bn.p.bit_length(), bn.order.bit_length(), bn.cofactor) == (254, 254, 1)
    assert (bn.order - 1) % (1 << 28) == 0
    assert (b381.p.bit_length(), b381.order.bit_length(), b381.cofactor % 2) == (381, 255, 1)
    # neither has a point of order 2: y = 0 needs x^3 = -b, and for q = 1 mod 3 that has a root only if -b is a cube
    for C in (bn, b381):
        assert C.p % 3 == 1 and pow(-C.b % C.p, (C.p - 1) // 3, C.p) != 1
    assert pow(-CURVES["bls12_377"].b % FQ.p, (FQ.p - 1) // 3, FQ.p) == 1   # BLS12-377 has one (x = -1)


# ---- XYZZ bucket addition (the Weierstrass adder's formulas) ---------------------------------------------
@pytest.mark.parametrize("name", ["bn254", "bls12_381", "bls12_377"])
def test_xyzz_bucket_add_every_case(name):
    from reference_model.curves import CURVES, xyzz
    C = CURVES[name]
    rng = random.Random(RNG_SEED + 8)
    p = C.p

    def rescaled(P):
        """P in XYZZ with a random Z (ZZ = Z^2, ZZZ = Z^3): the representative a bucket holds"""
        z = rng.randrange(1, p)
        return P[0] * z * z % p, P[1] * z ** 3 % p, z * z % p, z ** 3 % p

    P, Q = rand_g1(rng, C), rand_g1(rng, C)
    B = rescaled(P)
    cases = {
        "add": (B, Q, C.add(P, Q)),
        "load": (xyzz.INFINITY, Q, Q),
        "skip": (B, None, P),
        "double": (B, P, C.double(P)),
        "cancel": (B, C.neg(P), None),
    }
    for case, (bucket, point, want) in cases.items():
        out, met = xyzz.bucket_add(C, bucket, point)
        assert met == case and xyzz.to_affine(C, out) == want, case
        assert xyzz.is_infinity(out) or out[2] ** 3 % p == out[3] ** 2 % p, case   # ZZ^3 = ZZZ^2 holds
    assert xyzz.bucket_add(C, xyzz.INFINITY, None) == (xyzz.INFINITY, "skip")
    # a long accumulation with every case in it equals the affine sum
    acc, want, seen = xyzz.INFINITY, None, set()
    pts = [rand_g1(rng, C) for _ in range(6)]
    for _ in range(60):
        Q = rng.choice(pts + [None] + [xyzz.to_affine(C, acc)] + ([C.neg(xyzz.to_affine(C, acc))] if want else []))
        acc, met = xyzz.bucket_add(C, acc, Q)
        want = C.add(want, Q)
        seen.add(met)
        assert xyzz.to_affine(C, acc) == want
    assert seen >= {"add", "skip", "double", "load"}
    # the host's XYZZ + XYZZ sum
    for X, Y in ((P, Q), (P, P), (P, C.neg(P)), (None, Q), (P, None)):
        bx = rescaled(X) if X else xyzz.INFINITY
        by = rescaled(Y) if Y else xyzz.INFINITY
        assert xyzz.to_affine(C, xyzz.add(C, bx, by)) == C.add(X, Y)


@pytest.mark.parametrize("name", ["bn254", "bls12_381"])
def test_xyzz_datapath_is_the_efd_formulas(name):
    """The adder's data path (xyzz.datapath) gives madd-2008-s and mdbl-2008-s-1 value for value."""
    from reference_model.curves import CURVES, xyzz
    C = CURVES[name]
    rng = random.Random(RNG_SEED + 9)
    p = C.p
    for _ in range(10):
        P, Q = rand_g1(rng, C), rand_g1(rng, C)
        z = rng.randrange(1, p)
        B = (P[0] * z * z % p, P[1] * z ** 3 % p, z * z % p, z ** 3 % p)
        assert xyzz.datapath(p, B, xyzz.record(C, Q)) == (xyzz.madd(C, B, Q), "add")
        assert xyzz.datapath(p, B, xyzz.record(C, C.neg(Q)), negate=True) == (xyzz.madd(C, B, Q), "add")
        assert xyzz.datapath(p, B, xyzz.record(C, P)) == (xyzz.mdbl(C, P), "double")
        assert xyzz.datapath(p, B, xyzz.record(C, C.neg(P)), negate=True) == (xyzz.mdbl(C, P), "double")
