"""Prime fields and the Montgomery arithmetic exactly as the zkspinal hardware computes it.

Names mirror hw/src/zkspinal/field: FieldConfig, ModAdd, ModSub, MontMul, ConstMul, MontConvert.

Montgomery domain: R = 2^n with n = p.bit_length() (the hardware multiplies n-bit operands, so R is the
smallest power of two above p).  A value x is held as x~ = x*R mod p, always fully reduced (< p): every core
ends with the conditional subtraction, there are no lazily reduced outputs.
"""
from __future__ import annotations

from dataclasses import dataclass, field as dc_field

import gmpy2
from gmpy2 import mpz


@dataclass(frozen=True)
class FieldConfig:
    name: str
    p: int
    n: int = dc_field(init=False)
    R: int = dc_field(init=False)
    r_mod_p: int = dc_field(init=False)      # R mod p: Montgomery form of 1
    r2_mod_p: int = dc_field(init=False)     # R^2 mod p
    r_inv: int = dc_field(init=False)        # R^-1 mod p
    p_inv_neg: int = dc_field(init=False)    # -p^-1 mod R (the Montgomery constant p')

    def __post_init__(self):
        p = self.p
        if p < 3 or not gmpy2.is_prime(p):
            raise ValueError(f"{self.name}: modulus is not an odd prime")
        n = p.bit_length()
        R = 1 << n
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "R", R)
        object.__setattr__(self, "r_mod_p", R % p)
        object.__setattr__(self, "r2_mod_p", R * R % p)
        object.__setattr__(self, "r_inv", int(gmpy2.invert(R, p)))
        object.__setattr__(self, "p_inv_neg", int((-gmpy2.invert(p, R)) % R))

    # plain field operations (canonical representatives)
    def add(self, a: int, b: int) -> int:
        return (a + b) % self.p

    def sub(self, a: int, b: int) -> int:
        return (a - b) % self.p

    def neg(self, a: int) -> int:
        return (-a) % self.p

    def mul(self, a: int, b: int) -> int:
        return int(mpz(a) * b % self.p)

    def pow(self, a: int, e: int) -> int:
        return int(gmpy2.powmod(a, e, self.p))

    def inv(self, a: int) -> int:
        if a % self.p == 0:
            raise ZeroDivisionError("inverse of zero")
        return int(gmpy2.invert(a, self.p))

    # Montgomery domain
    def to_mont(self, x: int) -> int:
        return int(mpz(x) * self.R % self.p)

    def from_mont(self, x: int) -> int:
        return int(mpz(x) * self.r_inv % self.p)


# One line per prime.  The Scala side (hw/src/zkspinal/field/FieldConfig.scala) lists the same primes;
# tests/test_model_field.py checks both lists agree through the emitted manifest.
FIELDS = {
    f.name: f
    for f in (
        FieldConfig("bls12_381_fr", 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001),
        FieldConfig("bls12_377_fq", 0x01AE3A4617C510EAC63B05C06CA1493B1A22D9F300F5138F1EF3622FBA094800170B5D44300000008508C00000000001),
        FieldConfig("bls12_377_fr", 0x12AB655E9A2CA55660B44D1E5C37B00159AA76FED00000010A11800000000001),
        FieldConfig("bn254_fq", 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47),
        FieldConfig("bn254_fr", 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001),
        FieldConfig("bls12_381_fq", 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB),
    )
}


def get(name: str) -> FieldConfig:
    try:
        return FIELDS[name]
    except KeyError:
        raise KeyError(f"unknown field {name!r}; known: {', '.join(FIELDS)}") from None


# --- models of the hardware cores, step by step as the RTL computes them ---------------------------

def mod_add(f: FieldConfig, a: int, b: int) -> int:
    """ModAdd: s = a + b and d = a + b - p in parallel; d if it did not borrow, else s."""
    s = a + b
    d = s - f.p
    return d if d >= 0 else s


def mod_sub(f: FieldConfig, a: int, b: int) -> int:
    """ModSub: d = a - b and e = a - b + p in parallel; d if it did not borrow, else e."""
    d = a - b
    return d if d >= 0 else d + f.p


def mod_sum(f: FieldConfig, *xs: int) -> int:
    """ModSum: X = the exact sum, q = floor((X >> s) * 2^s / p) for s = bitLength(p) - 1, r = X - q p (< 2p),
    r - p if it did not borrow, else r."""
    x = sum(xs)
    s = f.p.bit_length() - 1
    r = x - ((x >> s) << s) // f.p * f.p
    assert 0 <= r < 2 * f.p
    d = r - f.p
    return d if d >= 0 else r


def mont_reduce(f: FieldConfig, t: int) -> int:
    """Montgomery reduction of t < R*p: m = (t mod R)*p' mod R, u = (t + m*p)/R, one conditional subtraction.

    The hardware adds only the high halves: t + m*p is a multiple of R and the low halves sum to 0 or R,
    so u = (t >> n) + (m*p >> n) + (t mod R != 0)."""
    n, R = f.n, f.R
    t = mpz(t)
    lo = t & (R - 1)
    m = (lo * f.p_inv_neg) & (R - 1)
    u = (t >> n) + ((m * f.p) >> n) + (1 if lo else 0)
    assert u == (t + m * f.p) >> n
    v = u - f.p
    return int(v if v >= 0 else u)


def mont_mul(f: FieldConfig, a: int, b: int) -> int:
    """MontMul: a*b*R^-1 mod p for a, b < p (Montgomery-domain operands give a Montgomery-domain product)."""
    return mont_reduce(f, mpz(a) * b)


def const_mul(f: FieldConfig, x: int, c: int) -> int:
    """ConstMul: x*c mod p for any n-bit x (digit folding with precomputed c*2^(17k) mod p; the result is
    the same residue in whichever domain x is)."""
    return int(mpz(x) * c % f.p)


def to_mont(f: FieldConfig, x: int) -> int:
    """MontConvert toMont: ConstMul by R mod p."""
    return const_mul(f, x, f.r_mod_p)


def from_mont(f: FieldConfig, x: int) -> int:
    """MontConvert fromMont: ConstMul by R^-1 mod p."""
    return const_mul(f, x, f.r_inv)
