"""Short Weierstrass curves y^2 = x^3 + a*x + b over a prime field, written for clarity and checked against py_ecc.

Points:
  affine     (x, y) tuples of canonical ints, the point at infinity is ``None``;
  Jacobian   (X, Y, Z) with x = X/Z^2, y = Y/Z^3; Z = 0 is the point at infinity.
The group law is the textbook one with every special case spelled out (P + O, P + (-P), P + P), so the code is a
reference, not a fast path.  Scalars are plain integers: ``mul(P, k)`` computes the integer multiple k*P, which
equals (k mod r)*P only for points of the order-r subgroup.
"""
from __future__ import annotations

from dataclasses import dataclass

import gmpy2
from gmpy2 import mpz

from ..field import FieldConfig

Affine = tuple[int, int] | None
Jacobian = tuple  # (X, Y, Z) of mpz


def sqrt_mod(f: FieldConfig, a: int) -> int | None:
    """A square root of a modulo f.p (Tonelli-Shanks), or None if a is not a square.  Returns the root whose
    canonical representative is the smaller of the two (so the choice is reproducible)."""
    p = f.p
    a %= p
    if a == 0:
        return 0
    if gmpy2.legendre(a, p) != 1:
        return None
    q, s = p - 1, 0
    while q % 2 == 0:
        q //= 2
        s += 1
    z = 2
    while gmpy2.legendre(z, p) != -1:
        z += 1
    m, c = s, gmpy2.powmod(z, q, p)
    t, r = gmpy2.powmod(a, q, p), gmpy2.powmod(a, (q + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2 = t2 * t2 % p
            i += 1
        b = gmpy2.powmod(c, 1 << (m - i - 1), p)
        m, c = i, b * b % p
        t, r = t * c % p, r * b % p
    r = int(r)
    assert r * r % p == a
    return min(r, p - r)


@dataclass(frozen=True)
class WeierstrassCurve:
    name: str
    field: FieldConfig
    a: int
    b: int
    order: int              # r: the prime order of the subgroup G1 we use
    cofactor: int           # h: #E(F_p) = h * r
    generator: tuple[int, int]

    def __post_init__(self):
        p = self.field.p
        if (4 * self.a ** 3 + 27 * self.b ** 2) % p == 0:
            raise ValueError(f"{self.name}: singular curve")
        if not gmpy2.is_prime(self.order):
            raise ValueError(f"{self.name}: subgroup order is not prime")
        if not self.is_on_curve(self.generator):
            raise ValueError(f"{self.name}: generator is not on the curve")

    @property
    def p(self) -> int:
        return self.field.p

    # ---- affine -------------------------------------------------------------------------------------
    def is_on_curve(self, P: Affine) -> bool:
        if P is None:
            return True
        x, y = P
        p = self.p
        if not (0 <= x < p and 0 <= y < p):
            return False
        return (y * y - (x * x * x + self.a * x + self.b)) % p == 0

    def neg(self, P: Affine) -> Affine:
        return None if P is None else (P[0], (-P[1]) % self.p)

    def add(self, P: Affine, Q: Affine) -> Affine:
        """Affine chord-and-tangent addition (one inversion)."""
        if P is None:
            return Q
        if Q is None:
            return P
        p = self.p
        (x1, y1), (x2, y2) = P, Q
        if x1 == x2:
            if (y1 + y2) % p == 0:
                return None
            lam = (3 * x1 * x1 + self.a) * self.field.inv(2 * y1) % p
        else:
            lam = (y2 - y1) * self.field.inv(x2 - x1) % p
        x3 = (lam * lam - x1 - x2) % p
        return x3, (lam * (x1 - x3) - y1) % p

    def double(self, P: Affine) -> Affine:
        return self.add(P, P)

    def lift_x(self, x: int, odd_y: bool = False) -> Affine:
        """The point with abscissa x and the y of the requested parity, or None if x is not on the curve."""
        y = sqrt_mod(self.field, x ** 3 + self.a * x + self.b)
        if y is None:
            return None
        if (y & 1) != odd_y:
            y = (-y) % self.p
        return x % self.p, y

    # ---- Jacobian projective coordinates ------------------------------------------------------------
    INFINITY_JAC = (mpz(1), mpz(1), mpz(0))

    def to_jacobian(self, P: Affine) -> Jacobian:
        return self.INFINITY_JAC if P is None else (mpz(P[0]), mpz(P[1]), mpz(1))

    def to_affine(self, J: Jacobian) -> Affine:
        X, Y, Z = J
        if Z == 0:
            return None
        p = self.p
        zi = gmpy2.invert(Z, p)
        zi2 = zi * zi % p
        return int(X * zi2 % p), int(Y * zi2 * zi % p)

    def batch_to_affine(self, Js: list) -> list:
        """Montgomery's trick: one inversion for the whole list."""
        p = self.p
        prefix, acc = [], mpz(1)
        for X, Y, Z in Js:
            prefix.append(acc)
            if Z != 0:
                acc = acc * Z % p
        inv = gmpy2.invert(acc, p)
        out = [None] * len(Js)
        for i in range(len(Js) - 1, -1, -1):
            X, Y, Z = Js[i]
            if Z == 0:
                continue
            zi = inv * prefix[i] % p
            inv = inv * Z % p
            zi2 = zi * zi % p
            out[i] = (int(X * zi2 % p), int(Y * zi2 * zi % p))
        return out

    def jac_double(self, J: Jacobian) -> Jacobian:
        """dbl-2007-bl (general a)."""
        X1, Y1, Z1 = J
        p = self.p
        if Z1 == 0 or Y1 == 0:
            return self.INFINITY_JAC
        XX, YY = X1 * X1 % p, Y1 * Y1 % p
        YYYY, ZZ = YY * YY % p, Z1 * Z1 % p
        S = 2 * ((X1 + YY) ** 2 - XX - YYYY) % p
        M = (3 * XX + self.a * ZZ * ZZ) % p
        X3 = (M * M - 2 * S) % p
        Y3 = (M * (S - X3) - 8 * YYYY) % p
        Z3 = ((Y1 + Z1) ** 2 - YY - ZZ) % p
        return X3, Y3, Z3

    def jac_add(self, J1: Jacobian, J2: Jacobian) -> Jacobian:
        """add-2007-bl with the special cases handled explicitly."""
        X1, Y1, Z1 = J1
        X2, Y2, Z2 = J2
        if Z1 == 0:
            return J2
        if Z2 == 0:
            return J1
        p = self.p
        Z1Z1, Z2Z2 = Z1 * Z1 % p, Z2 * Z2 % p
        U1, U2 = X1 * Z2Z2 % p, X2 * Z1Z1 % p
        S1, S2 = Y1 * Z2 * Z2Z2 % p, Y2 * Z1 * Z1Z1 % p
        if U1 == U2:
            return self.jac_double(J1) if S1 == S2 else self.INFINITY_JAC
        H = (U2 - U1) % p
        I = 4 * H * H % p
        Jv = H * I % p
        rr = 2 * (S2 - S1) % p
        V = U1 * I % p
        X3 = (rr * rr - Jv - 2 * V) % p
        Y3 = (rr * (V - X3) - 2 * S1 * Jv) % p
        Z3 = ((Z1 + Z2) ** 2 - Z1Z1 - Z2Z2) * H % p
        return X3, Y3, Z3

    def jac_neg(self, J: Jacobian) -> Jacobian:
        return J[0], (-J[1]) % self.p, J[2]

    def jac_mul(self, J: Jacobian, k: int) -> Jacobian:
        """Integer multiple k*J by left-to-right double-and-add (negative k multiplies -J)."""
        if k < 0:
            J, k = self.jac_neg(J), -k
        R = self.INFINITY_JAC
        for bit in bin(k)[2:] if k else "":
            R = self.jac_double(R)
            if bit == "1":
                R = self.jac_add(R, J)
        return R

    def mul(self, P: Affine, k: int) -> Affine:
        return self.to_affine(self.jac_mul(self.to_jacobian(P), k))

    # ---- subgroup -----------------------------------------------------------------------------------
    def in_subgroup(self, P: Affine) -> bool:
        """P is in the order-r subgroup G1 (the point at infinity is)."""
        return self.is_on_curve(P) and self.jac_mul(self.to_jacobian(P), self.order)[2] == 0

    def clear_cofactor(self, P: Affine) -> Affine:
        return self.mul(P, self.cofactor)


def fixed_base_table(curve: WeierstrassCurve, base: Affine, bits: int, digit_bits: int = 8) -> tuple:
    """(rows, digit_bits) with rows[j][m-1] = m * 2^(digit_bits*j) * base (affine) for m = 1 .. 2^digit_bits - 1:
    turns a fixed-base multiplication by a scalar of `bits` bits into ceil(bits/digit_bits) additions."""
    J = []
    step = curve.to_jacobian(base)
    for _ in range(-(-bits // digit_bits)):
        row, acc = [], step
        for _m in range(1, 1 << digit_bits):
            row.append(acc)
            acc = curve.jac_add(acc, step)
        J.extend(row)
        step = acc  # 2^digit_bits * step
    flat = curve.batch_to_affine(J)
    n = (1 << digit_bits) - 1
    return [flat[i * n:(i + 1) * n] for i in range(len(flat) // n)], digit_bits


def fixed_base_mul_many(curve: WeierstrassCurve, table, ks: list[int]) -> list:
    """k*base for every k in ks (k >= 0) from a fixed_base_table, normalised with one batch inversion."""
    rows, digit_bits = table
    mask = (1 << digit_bits) - 1
    out = []
    for k in ks:
        R = curve.INFINITY_JAC
        j = 0
        while k:
            m = k & mask
            if m:
                x, y = rows[j][m - 1]
                R = curve.jac_add(R, (mpz(x), mpz(y), mpz(1)))
            k >>= digit_bits
            j += 1
        out.append(R)
    return curve.batch_to_affine(out)
