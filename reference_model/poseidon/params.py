"""Poseidon instance parameters: width, S-box, round numbers (R_F, R_P) for arity 1..16.

Round numbers follow the Poseidon paper's security inequalities as Filecoin's implementation evaluates them
(128-bit security, the field counted as 256 bits, alpha = 5, single-precision arithmetic):
  R_F >= max(ceil(rf_stat), ceil(0.43*M + log2(t) - R_P), ceil(0.21*n - R_P), ceil((0.14*n - 1 - R_P)/(t - 1)))
with rf_stat = 6 (statistical attacks, paper eq. 2), the interpolation bound (eq. 3) and the two Groebner-basis
bounds (eq. 4/5).  Among all secure even R_F in 2..1000 and R_P in 4..199 we add the security margin (R_F + 2,
R_P * 1.075 rounded up) and keep the pair with the fewest S-boxes t*R_F + R_P (ties: the smaller R_F).
"Strengthened" adds 25% to R_P, rounded up.  The bounds are evaluated in IEEE single precision, as the reference
does, so that a bound that lands on an integer rounds the same way.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field as dc_field
from functools import lru_cache

from reference_model import field as fieldmod

SECURITY_BITS = 128          # M in the paper
PRIME_BITS = 256             # n: the field size the round-number search assumes (BLS12-381 Fr is 255 bits)
ALPHA = 5                    # S-box x^5 (gcd(5, p-1) = 1 for BLS12-381 Fr)
STRENGTHS = ("standard", "strengthened")
MAX_ARITY = 16


def _f32(x: float) -> float:
    """Round a double to the nearest IEEE single (every +,-,*,/ below is exact in double, then rounded once,
    which equals the single-precision result)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def round_numbers_are_secure(t: int, r_f: int, r_p: int) -> bool:
    """True if (R_F, R_P) meet all four lower bounds on R_F for width t."""
    m, n = float(SECURITY_BITS), float(PRIME_BITS)
    rf_stat = 6.0 if m <= (n - 3.0) * (t + 1.0) else 10.0
    rf_interp = _f32(_f32(_f32(_f32(0.43) * m) + _f32(math.log2(t))) - r_p)
    rf_grob_1 = _f32(_f32(_f32(0.21) * n) - r_p)
    rf_grob_2 = _f32(_f32(_f32(_f32(_f32(0.14) * n) - 1.0) - r_p) / _f32(t - 1.0))
    # Rust's `f32 as usize` saturates negative values to 0.
    rf_max = max(max(0, math.ceil(b)) for b in (rf_stat, rf_interp, rf_grob_1, rf_grob_2))
    return r_f >= rf_max


@lru_cache(maxsize=None)
def round_numbers_standard(t: int) -> tuple[int, int]:
    """(R_F, R_P) for width t with the security margin: the cheapest secure pair, then R_F + 2, R_P * 1.075."""
    if t < 2:
        raise ValueError("width t must be at least 2")
    best = None
    for r_f in range(2, 1001, 2):
        for r_p in range(4, 200):
            if not round_numbers_are_secure(t, r_f, r_p):
                continue
            rf_m = r_f + 2
            rp_m = math.ceil(_f32(_f32(1.075) * r_p))
            cost = t * rf_m + rp_m
            if best is None or cost < best[0] or (cost == best[0] and rf_m < best[1]):
                best = (cost, rf_m, rp_m)
            break  # a larger R_P with the same R_F only costs more
    assert best is not None
    return best[1], best[2]


def round_numbers(arity: int, strength: str = "standard") -> tuple[int, int]:
    """(R_F, R_P) for a hash of `arity` elements (width t = arity + 1)."""
    if strength not in STRENGTHS:
        raise ValueError(f"strength must be one of {STRENGTHS}, not {strength!r}")
    r_f, r_p = round_numbers_standard(arity + 1)
    if strength == "strengthened":
        r_p = math.ceil(r_p * 1.25)
    return r_f, r_p


@dataclass(frozen=True)
class PoseidonParams:
    """One Poseidon instance: BLS12-381 Fr, x^5, width t = arity + 1."""
    arity: int
    strength: str = "standard"
    field: fieldmod.FieldConfig = dc_field(default_factory=lambda: fieldmod.get("bls12_381_fr"))
    t: int = dc_field(init=False)
    r_f: int = dc_field(init=False)          # full rounds (half before, half after the partial rounds)
    r_p: int = dc_field(init=False)          # partial rounds
    half: int = dc_field(init=False)         # R_f = R_F / 2

    def __post_init__(self):
        if not 1 <= self.arity <= MAX_ARITY:
            raise ValueError(f"arity must be 1..{MAX_ARITY}, not {self.arity}")
        if self.field.name != "bls12_381_fr":
            raise ValueError("the Filecoin Poseidon instance is defined over bls12_381_fr only")
        r_f, r_p = round_numbers(self.arity, self.strength)
        object.__setattr__(self, "t", self.arity + 1)
        object.__setattr__(self, "r_f", r_f)
        object.__setattr__(self, "r_p", r_p)
        object.__setattr__(self, "half", r_f // 2)

    @property
    def p(self) -> int:
        return self.field.p

    @property
    def rounds(self) -> int:
        return self.r_f + self.r_p

    def describe(self) -> str:
        return (f"poseidon {self.field.name} arity {self.arity} (t={self.t}, R_F={self.r_f}, R_P={self.r_p}, "
                f"{self.strength})")
