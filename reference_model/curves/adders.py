"""The MSM engine's bucket adders as the model sees them: what a point record holds, what a bucket holds, one bucket
addition, and the way back to the curve for the host.  One class per adder of hw/src/zkspinal/msm:

  TwistedEdwardsAdder  BLS12-377 G1 through its a = -1 twisted Edwards model: a point record is (QM, QP, QT), a
                       bucket (U, V, W, T) (curves.precomputed); complete on G1, so no special case.
  XyzzAdder            a short Weierstrass curve with a = 0 (BN254, BLS12-381 G1): a point record is (x, y, m) with
                       m = 3x^2 (the doubling case's slope numerator, made by the host), a bucket (X, Y, ZZ, ZZZ)
                       (curves.xyzz); the special cases (load, skip, double, cancel) resolved exactly.

Every value of a record or a bucket is a Montgomery-domain word (< p), as the hardware holds it.  The XYZZ formulas
are polynomials in the coordinates, so computing them on canonical values and converting at the boundary gives the
same words as Montgomery multipliers computing them on Montgomery words.

ADDERS maps the MSM's curve names (zk-msm's --curve) to their adder.
"""
from __future__ import annotations

from gmpy2 import mpz

from . import bls12_377, bls12_381, bn254, xyzz
from .precomputed import HardwarePoints, mixed_add
from .twisted_edwards import EdwardsForm
from .weierstrass import Affine, Jacobian, WeierstrassCurve


class TwistedEdwardsAdder:
    kind = "twisted_edwards"
    skips_infinity = False  # the identity record goes through the complete formulas
    record_coords = 3      # QM, QP, QT
    bucket_coords = 4      # U, V, W, T

    def __init__(self, name: str, curve: WeierstrassCurve):
        self.name, self.curve, self.field = name, curve, curve.field
        self.te = EdwardsForm.of(curve, alpha=-1)
        self.hw = HardwarePoints(self.te)
        self.identity_record = self.hw.IDENTITY_Q
        self.identity_bucket = self.hw.IDENTITY_S

    def representable(self, P: Affine) -> bool:
        """P has a record of its own (else the host adds its term: an exception)"""
        return self.te.has_image(P)

    def record(self, P: Affine) -> tuple:
        return self.hw.precompute(self.te.to_edwards(P))

    def add(self, B: tuple, Q: tuple, negate: bool = False) -> tuple:
        return mixed_add(self.field, B, Q, negate)

    def merge(self, B1: tuple, B2: tuple) -> tuple:
        """B1 + B2 of two buckets (a partial bucket into its bucket)"""
        te, hw = self.te, self.hw
        return hw.from_extended(te.add(hw.to_extended(B1), hw.to_extended(B2)))

    def to_jacobian(self, B: tuple) -> Jacobian:
        """the bucket's point in the curve's Jacobian coordinates (one inversion: the host does it once per window
        sum, not per bucket)"""
        return self.curve.to_jacobian(self.te.from_edwards(self.te.to_affine(self.hw.to_extended(B))))

    def equivalent(self, a: tuple, b: tuple) -> bool:
        return self.te.equal(self.hw.to_extended(a), self.hw.to_extended(b))


class XyzzAdder:
    kind = "xyzz"
    skips_infinity = True   # the engine drops every addition of the point at infinity (record all zero)
    record_coords = 3      # x, y, 3x^2
    bucket_coords = 4      # X, Y, ZZ, ZZZ
    # (0, 0) is on no curve y^2 = x^3 + b with b != 0: the record of the point at infinity (the lane drops it)
    identity_record = (0, 0, 0)

    def __init__(self, name: str, curve: WeierstrassCurve):
        if curve.a != 0:
            raise ValueError(f"{curve.name}: the XYZZ adder's formulas are the a = 0 ones")
        self.name, self.curve, self.field = name, curve, curve.field
        self.identity_bucket = self._mont(xyzz.INFINITY)

    def _mont(self, B: tuple) -> tuple:
        return tuple(self.field.to_mont(v) for v in B)

    def _plain(self, B: tuple) -> tuple:
        return tuple(self.field.from_mont(v) for v in B)

    def representable(self, P: Affine) -> bool:
        return True

    def record(self, P: Affine) -> tuple:
        return self.identity_record if P is None else self._mont(xyzz.record(self.curve, P))

    def point_of(self, Q: tuple) -> Affine:
        return None if Q[:2] == (0, 0) else self._plain(Q[:2])

    def add(self, B: tuple, Q: tuple, negate: bool = False) -> tuple:
        return self.add_case(B, Q, negate)[0]

    def add_case(self, B: tuple, Q: tuple, negate: bool = False) -> tuple[tuple, str]:
        """(B + Q or B - Q, the case met: xyzz.CASES); the point at infinity is skipped (the lane drops it)"""
        if self.point_of(Q) is None:
            return B, "skip"
        return self.add_raw_case(B, Q, negate)

    def add_raw_case(self, B: tuple, Q: tuple, negate: bool = False) -> tuple[tuple, str]:
        """the adder's data path on any Montgomery words (xyzz.datapath): (output, case)"""
        out, case = xyzz.datapath(self.curve.p, self._plain(B), self._plain(Q), negate)
        return self._mont(out), case

    def add_raw(self, B: tuple, Q: tuple, negate: bool = False) -> tuple:
        return self.add_raw_case(B, Q, negate)[0]

    def merge(self, B1: tuple, B2: tuple) -> tuple:
        return self._mont(xyzz.add(self.curve, self._plain(B1), self._plain(B2)))

    def to_jacobian(self, B: tuple) -> Jacobian:
        """(X, Y, ZZ, ZZZ) -> Jacobian (X ZZ ZZZ^2, Y ZZ^3 ZZZ^2, ZZ ZZZ): the same point with no inversion"""
        X, Y, ZZ, ZZZ = (mpz(v) for v in self._plain(B))
        if ZZ == 0:
            return self.curve.INFINITY_JAC
        p = self.curve.p
        t = ZZZ * ZZZ % p
        return X * ZZ % p * t % p, Y * ZZ % p * ZZ % p * ZZ % p * t % p, ZZ * ZZZ % p

    def equivalent(self, a: tuple, b: tuple) -> bool:
        c = self.curve
        return xyzz.to_affine(c, self._plain(a)) == xyzz.to_affine(c, self._plain(b))


ADDERS = {
    "bls12_377": TwistedEdwardsAdder("bls12_377", bls12_377.G1),
    "bn254": XyzzAdder("bn254", bn254.G1),
    "bls12_381": XyzzAdder("bls12_381", bls12_381.G1),
}


def adder_of(curve: str):
    """the adder of a curve by its MSM name (bn254) or its G1's (bn254_g1: a top's manifest entry)"""
    try:
        return ADDERS[curve.removesuffix("_g1")]
    except KeyError:
        raise ValueError(f"unknown curve {curve!r}; known: {', '.join(ADDERS)}") from None
