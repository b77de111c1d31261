"""The twisted Edwards model (a = -1) of a short Weierstrass curve, and the birational map between the two.

A Weierstrass curve y^2 = x^3 + a*x + b with a root alpha of x^3 + a*x + b (a rational point (alpha, 0) of order 2)
is isomorphic to
  Montgomery  B*v^2 = u^3 + A*u^2 + u   with  s = 1/sqrt(3*alpha^2 + a),  A = 3*alpha*s,  B = s,
              (x, y) -> (u, v) = (s*(x - alpha), s*y)
  Edwards     a1*x^2 + y^2 = 1 + d1*x^2*y^2  with  a1 = (A + 2)/B,  d1 = (A - 2)/B,
              (u, v) -> (u/v, (u - 1)/(u + 1))
  Edwards with a = -1: scale x by c = sqrt(-a1):  -x^2 + y^2 = 1 + d*x^2*y^2,  d = -d1/a1.
Square roots are the smaller canonical representative; for BLS12-377 G1 this reproduces arkworks' constants
(MontCurveConfig COEFF_B = s, TECurveConfig COEFF_D = d, the twisted Edwards generator).

The map is undefined where v = 0 (the three points (x, 0) of order 2) and where u = -1 (two points of order 4 when
they exist): these points have no affine twisted Edwards image under the formulas and are handled on the host.
None of them is in the odd-order subgroup G1.  The point at infinity maps to the identity (0, 1).

Extended coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z, T*Z = X*Y (Hisil-Wong-Carter-Dawson 2008).  The unified
addition 'add-2008-hwcd-3' and doubling 'dbl-2008-hwcd' are complete on G1 (odd order), which is all we add.
"""
from __future__ import annotations

from dataclasses import dataclass

from gmpy2 import mpz

from .weierstrass import Affine, WeierstrassCurve, sqrt_mod


class NoEdwardsImage(ValueError):
    """The Weierstrass point has no affine twisted Edwards image under the birational map."""


@dataclass(frozen=True)
class EdwardsForm:
    sw: WeierstrassCurve
    alpha: int
    s: int          # Montgomery B; u = s*(x - alpha)
    mont_a: int     # Montgomery A
    a1: int         # first Edwards model a1*x^2 + y^2 = 1 + d1*x^2*y^2
    d1: int
    c: int          # sqrt(-a1): the scaling that makes a = -1
    d: int          # -x^2 + y^2 = 1 + d*x^2*y^2

    @classmethod
    def of(cls, sw: WeierstrassCurve, alpha: int) -> "EdwardsForm":
        f = sw.field
        p = f.p
        alpha %= p
        if (alpha ** 3 + sw.a * alpha + sw.b) % p:
            raise ValueError(f"{sw.name}: alpha is not a root of x^3 + a*x + b")
        root = sqrt_mod(f, 3 * alpha * alpha + sw.a)
        if not root:
            raise ValueError(f"{sw.name}: 3*alpha^2 + a is not a non-zero square: no Montgomery form")
        s = f.inv(root)
        s = min(s, p - s)
        A = 3 * alpha * s % p
        a1 = (A + 2) * f.inv(s) % p
        d1 = (A - 2) * f.inv(s) % p
        c = sqrt_mod(f, -a1)
        if c is None:
            raise ValueError(f"{sw.name}: -a1 is not a square: no twisted Edwards form with a = -1")
        return cls(sw, alpha, s, A, a1, d1, c, (-d1) * f.inv(a1) % p)

    @property
    def field(self):
        return self.sw.field

    # ---- the birational map ------------------------------------------------------------------------
    def has_image(self, P: Affine) -> bool:
        if P is None:
            return True
        p = self.field.p
        x, y = P
        return y != 0 and (self.s * (x - self.alpha) + 1) % p != 0

    def to_edwards(self, P: Affine) -> tuple[int, int]:
        """(x, y) -> (c*u/v, (u - 1)/(u + 1)) with (u, v) the Montgomery coordinates; infinity -> (0, 1)."""
        if P is None:
            return 0, 1
        if not self.has_image(P):
            raise NoEdwardsImage(f"{self.sw.name} point {P} has no twisted Edwards image")
        f, p = self.field, self.field.p
        x, y = P
        u = self.s * (x - self.alpha) % p
        # one inversion for both quotients: 1/(v*(u+1)) with v = s*y
        inv = f.inv(self.s * y * (u + 1))
        ex = self.c * u * (u + 1) % p * inv % p
        ey = (u - 1) * self.s * y % p * inv % p
        return ex, ey

    def from_edwards(self, E: tuple[int, int]) -> Affine:
        """Inverse map: u = (1 + y)/(1 - y), v = c*u/x, then (u/s + alpha, v/s).  (0, 1) -> infinity and
        (0, -1) -> (alpha, 0), the 2-torsion point the formulas cannot express."""
        f, p = self.field, self.field.p
        ex, ey = E
        if ex == 0:
            if ey == 1:
                return None
            if ey == p - 1:
                return self.alpha, 0
            raise ValueError(f"({ex}, {ey}) is not on the twisted Edwards curve")
        u = (1 + ey) * f.inv(1 - ey) % p
        v = self.c * u * f.inv(ex) % p
        s_inv = f.inv(self.s)
        return (u * s_inv + self.alpha) % p, v * s_inv % p

    def exceptional_points(self) -> list:
        """Every Weierstrass point without an affine twisted Edwards image: the roots of x^3 + a*x + b (y = 0)
        and the points with u = s*(x - alpha) = -1."""
        f, p, sw = self.field, self.field.p, self.sw
        out = []
        # x^3 + a x + b = (x - alpha)(x^2 + alpha x + (alpha^2 + a))
        disc = (alpha2 := self.alpha * self.alpha) - 4 * (alpha2 + sw.a)
        xs = {self.alpha}
        r = sqrt_mod(f, disc)
        if r is not None:
            for sgn in (1, -1):
                xs.add((-self.alpha + sgn * r) * f.inv(2) % p)
        out += [(x, 0) for x in sorted(xs)]
        x = (self.alpha - f.inv(self.s)) % p
        y = sqrt_mod(f, x ** 3 + sw.a * x + sw.b)
        if y is not None:
            out += sorted({(x, y), (x, (-y) % p)})
        return out

    # ---- affine twisted Edwards ---------------------------------------------------------------------
    def is_on_curve(self, E: tuple[int, int]) -> bool:
        x, y = E
        p = self.field.p
        xx, yy = x * x, y * y
        return (-xx + yy - 1 - self.d * xx * yy) % p == 0

    def affine_add(self, E1, E2) -> tuple[int, int]:
        """The Edwards addition law with its two divisions (a = -1)."""
        f, p = self.field, self.field.p
        (x1, y1), (x2, y2) = E1, E2
        k = self.d * x1 * x2 * y1 * y2 % p
        return (x1 * y2 + y1 * x2) * f.inv(1 + k) % p, (y1 * y2 + x1 * x2) * f.inv(1 - k) % p

    # ---- extended coordinates -----------------------------------------------------------------------
    IDENTITY = (mpz(0), mpz(1), mpz(1), mpz(0))

    def to_extended(self, E: tuple[int, int]) -> tuple:
        x, y = E
        return mpz(x), mpz(y), mpz(1), mpz(x) * y % self.field.p

    def to_affine(self, X4: tuple) -> tuple[int, int]:
        X, Y, Z, T = X4
        f, p = self.field, self.field.p
        zi = f.inv(int(Z))
        return int(X * zi % p), int(Y * zi % p)

    def neg(self, X4: tuple) -> tuple:
        X, Y, Z, T = X4
        p = self.field.p
        return (-X) % p, Y, Z, (-T) % p

    def add(self, P1: tuple, P2: tuple) -> tuple:
        """add-2008-hwcd-3 (a = -1, unified): A = (Y1-X1)(Y2-X2), B = (Y1+X1)(Y2+X2), C = 2d*T1*T2,
        D = 2*Z1*Z2, E = B-A, F = D-C, G = D+C, H = B+A, (X3, Y3, T3, Z3) = (E*F, G*H, E*H, F*G)."""
        X1, Y1, Z1, T1 = P1
        X2, Y2, Z2, T2 = P2
        p = self.field.p
        A = (Y1 - X1) * (Y2 - X2) % p
        B = (Y1 + X1) * (Y2 + X2) % p
        C = 2 * self.d * T1 % p * T2 % p
        D = 2 * Z1 * Z2 % p
        E, F, G, H = B - A, D - C, D + C, B + A
        return E * F % p, G * H % p, F * G % p, E * H % p

    def double(self, P1: tuple) -> tuple:
        """dbl-2008-hwcd with a = -1."""
        X1, Y1, Z1, _ = P1
        p = self.field.p
        A, B = X1 * X1 % p, Y1 * Y1 % p
        C = 2 * Z1 * Z1 % p
        E = ((X1 + Y1) ** 2 - A - B) % p
        G = (B - A) % p
        F = (G - C) % p
        H = (-A - B) % p
        return E * F % p, G * H % p, F * G % p, E * H % p

    def mul(self, P1: tuple, k: int) -> tuple:
        """Integer multiple k*P1 (k >= 0), left-to-right double-and-add."""
        R = self.IDENTITY
        for bit in bin(k)[2:] if k else "":
            R = self.double(R)
            if bit == "1":
                R = self.add(R, P1)
        return R

    def equal(self, P1: tuple, P2: tuple) -> bool:
        """Projective equality X1*Z2 == X2*Z1 and Y1*Z2 == Y2*Z1."""
        p = self.field.p
        return (P1[0] * P2[2] - P2[0] * P1[2]) % p == 0 and (P1[1] * P2[2] - P2[1] * P1[2]) % p == 0
