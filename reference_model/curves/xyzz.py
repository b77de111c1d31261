"""XYZZ coordinates on a short Weierstrass curve with a = 0 (BN254, BLS12-381 G1, BLS12-377 G1): the bucket form of
the Weierstrass MSM adder.

A point (X, Y, ZZ, ZZZ) stands for the affine (X / ZZ, Y / ZZZ) with ZZ^3 = ZZZ^2; ZZ = 0 is the point at infinity
whatever X and Y hold (the engine's buckets start as (0, 0, 0, 0)).  A bucket accumulates affine points (the MSM's
inputs) by mixed addition (hw/src/zkspinal/msm/XyzzAdder.scala computes the same values):

  madd-2008-s (EFD, 8M + 2S), bucket (X1, Y1, ZZ1, ZZZ1) + affine (x2, y2):
    P = x2*ZZ1 - X1,  R = y2*ZZZ1 - Y1,  PP = P^2,  PPP = P*PP,  Q = X1*PP
    X3 = R^2 - PPP - 2Q,  Y3 = R(Q - X3) - Y1*PPP,  ZZ3 = ZZ1*PP,  ZZZ3 = ZZZ1*PPP
  mdbl-2008-s-1 (EFD, 4M + 3S, a = 0), affine (x1, y1) doubled:
    U = 2y1,  V = U^2,  W = U*V,  S = x1*V,  M = 3x1^2
    X3 = M^2 - 2S,  Y3 = M(S - X3) - W*y1,  ZZ3 = V,  ZZZ3 = W

The formulas are incomplete; `bucket_add` resolves each special case exactly and says which one it met:
  load     the bucket is at infinity: it becomes (x2, y2, 1, 1)
  skip     the point is the point at infinity: the bucket is unchanged
  double   P = 0 and R = 0 (the point equals the bucket): the bucket becomes 2*(x2, y2) by mdbl
  cancel   P = 0 and R != 0 (the point is minus the bucket): madd-2008-s itself gives ZZ3 = ZZZ3 = 0, infinity
           (as (R^2, -R^3, 0, 0))
  add      otherwise: madd-2008-s
"""
from __future__ import annotations

from gmpy2 import mpz

from .weierstrass import Affine, WeierstrassCurve

INFINITY = (0, 0, 0, 0)
CASES = ("add", "load", "skip", "double", "cancel")


def from_affine(P: Affine) -> tuple:
    return INFINITY if P is None else (P[0], P[1], 1, 1)


def is_infinity(B: tuple) -> bool:
    return B[2] == 0


def to_affine(curve: WeierstrassCurve, B: tuple) -> Affine:
    if is_infinity(B):
        return None
    X, Y, ZZ, ZZZ = B
    f = curve.field
    return f.mul(X, f.inv(ZZ)), f.mul(Y, f.inv(ZZZ))


def mdbl(curve: WeierstrassCurve, P: Affine) -> tuple:
    """2P of an affine point, in XYZZ (mdbl-2008-s-1, a = 0); infinity for y = 0 (no such point on these curves)."""
    assert curve.a == 0, "mdbl-2008-s-1 is the a = 0 form"
    if P is None or P[1] == 0:
        return INFINITY
    p = curve.p
    x1, y1 = mpz(P[0]), mpz(P[1])
    U = 2 * y1 % p
    V = U * U % p
    W = U * V % p
    S = x1 * V % p
    M = 3 * (x1 * x1 % p) % p
    X3 = (M * M - 2 * S) % p
    Y3 = (M * (S - X3) - W * y1) % p
    return int(X3), int(Y3), int(V), int(W)


def madd(curve: WeierstrassCurve, B: tuple, P: tuple[int, int]) -> tuple:
    """madd-2008-s: right when the bucket is not at infinity and the point is not +-B (then infinity)."""
    p = curve.p
    X1, Y1, ZZ1, ZZZ1 = (mpz(v) for v in B)
    x2, y2 = mpz(P[0]), mpz(P[1])
    Pd = (x2 * ZZ1 - X1) % p
    R = (y2 * ZZZ1 - Y1) % p
    PP = Pd * Pd % p
    PPP = Pd * PP % p
    Q = X1 * PP % p
    X3 = (R * R - PPP - 2 * Q) % p
    Y3 = (R * (Q - X3) - Y1 * PPP) % p
    return int(X3), int(Y3), int(ZZ1 * PP % p), int(ZZZ1 * PPP % p)


def datapath(p: int, B: tuple, Q: tuple, negate: bool = False) -> tuple[tuple, str]:
    """The adder's data path step by step (hw/src/zkspinal/msm/XyzzAdder.scala) on any reduced values mod p:
    bucket B = (X, Y, ZZ, ZZZ), record Q = (x, y, m) (m = 3x^2 for a curve point), the sign.  Returns (the output,
    the case: load, double, cancel or add).  Plain (canonical) values: the hardware computes the same on Montgomery
    words."""
    X, Y, ZZ, ZZZ = (mpz(v) for v in B)
    x, y, m = (mpz(v) for v in Q)
    qs = (-y) % p if negate else y                     # the signed ordinate q'
    if ZZ == 0:
        return (int(x), int(qs), 1, 1), "load"
    A, Bp = x * ZZ % p, y * ZZZ % p                    # stage 1
    P = (A - X) % p                                    # stage 2
    R = (Bp + Y) % p if negate else (Bp - Y) % p       # R~: -R when negated
    double = P == 0 and R == 0
    if double:                                         # stage 3: mdbl-2008-s-1 of (x, q') on the same path
        P, R, X, Y, ZZ, ZZZ = 2 * qs % p, m, x, qs, mpz(1), mpz(1)
    PP, RR = P * P % p, R * R % p
    PPP, Qv, ZZ3 = P * PP % p, X * PP % p, ZZ * PP % p  # stage 4
    X3 = (RR - (0 if double else PPP) - 2 * Qv) % p    # stage 5
    ZZZ3, YP = ZZZ * PPP % p, Y * PPP % p
    D = (X3 - Qv) % p if negate and not double else (Qv - X3) % p   # stage 6
    Y3 = (R * D - YP) % p                              # stages 7, 8
    case = "double" if double else ("cancel" if P == 0 else "add")
    return (int(X3), int(Y3), int(ZZ3), int(ZZZ3)), case


def classify(curve: WeierstrassCurve, B: tuple, P: Affine) -> str:
    """Which case of the module docstring a bucket B and an affine point P meet."""
    if P is None:
        return "skip"
    return datapath(curve.p, B, record(curve, P))[1]


def record(curve: WeierstrassCurve, P: tuple[int, int]) -> tuple:
    """the point record (x, y, 3x^2) of an affine point"""
    return P[0], P[1], 3 * P[0] * P[0] % curve.p


def bucket_add(curve: WeierstrassCurve, B: tuple, P: Affine) -> tuple[tuple, str]:
    """(B + P in XYZZ, the case met), exact in every case: the adder's data path, and skip for infinity."""
    if P is None:
        return B, "skip"
    return datapath(curve.p, B, record(curve, P))


def add(curve: WeierstrassCurve, B1: tuple, B2: tuple) -> tuple:
    """B1 + B2 of two XYZZ points (add-2008-s, 12M + 2S, with the special cases by affine fallback): the host's
    running sums over buckets."""
    if is_infinity(B1):
        return B2
    if is_infinity(B2):
        return B1
    p = curve.p
    X1, Y1, ZZ1, ZZZ1 = (mpz(v) for v in B1)
    X2, Y2, ZZ2, ZZZ2 = (mpz(v) for v in B2)
    U1, U2 = X1 * ZZ2 % p, X2 * ZZ1 % p
    S1, S2 = Y1 * ZZZ2 % p, Y2 * ZZZ1 % p
    if U1 == U2:
        if S1 == S2:
            return mdbl(curve, to_affine(curve, B1))
        return INFINITY
    Pd = (U2 - U1) % p
    R = (S2 - S1) % p
    PP = Pd * Pd % p
    PPP = Pd * PP % p
    Q = U1 * PP % p
    X3 = (R * R - PPP - 2 * Q) % p
    Y3 = (R * (Q - X3) - S1 * PPP) % p
    ZZ3 = ZZ1 * ZZ2 % p * PP % p
    ZZZ3 = ZZZ1 * ZZZ2 % p * PPP % p
    return int(X3), int(Y3), int(ZZ3), int(ZZZ3)
