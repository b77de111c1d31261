"""The Poseidon permutation, plain and optimized, step by step, with an operation count.

Both functions take the initial state (t field elements: domain tag, preimage, padding) and return the final
state; the digest is lane 1.  Every field operation goes through OpCount so that the instrumented counts are
the operations actually executed.  (kernel.py holds the fast, generated versions of the same schedules.)

Plain schedule (R = R_F + R_P rounds, R_f = R_F/2):
  for r in 0..R-1:
    s_i += RC_r[i] for every lane i
    full round (r < R_f or r >= R_f + R_P): s_i = s_i^5 for every lane; partial round: s_0 = s_0^5 only
    s = s x M            (s'_j = sum_i s_i * M[i][j]; M symmetric)

Optimized schedule -- the order the Poseidon hardware follows (constants as named in instance.py):
  0. s_i += pre[i] for every lane                                           (t additions)
  1. first-half full rounds r = 0 .. R_f-1:
       s_i = s_i^5 + full_first[r][i] for every lane                        (3 products + 1 addition per lane)
       s = s x M for r < R_f-1; s = s x P (pre-sparse) for r = R_f-1        (t*t constant products)
  2. partial rounds k = 0 .. R_P-1:
       s_0 = s_0^5 + partial[k]                                             (3 products, 1 addition)
       x = s_0 (after the S-box and the constant)
       s_0 = sum_i dot_k[i] * s_i                                           (t constant products)
       s_i = s_i + upd_k[i-1] * x for i = 1 .. t-1                          (t-1 constant products)
  3. second-half full rounds r = 0 .. R_f-1:
       s_i = s_i^5 (+ full_second[r][i] for r < R_f-1; the last round adds no constant)
       s = s x M
  digest = s_1
S-box x^5 = x * (x^2)^2: three products (x^2, x^4, x^4 * x).
Products per hash: S-box 3*(t*R_F + R_P); constant R_F*t^2 + R_P*(2t-1) (optimized) or (R_F+R_P)*t^2 (plain).
"""
from __future__ import annotations

from dataclasses import dataclass

from gmpy2 import mpz

from .instance import PoseidonConstants


@dataclass
class OpCount:
    """Field operations of one or more hashes: general products (S-box), products by a constant, additions."""
    sbox_mul: int = 0
    const_mul: int = 0
    add: int = 0

    @property
    def mul(self) -> int:
        return self.sbox_mul + self.const_mul

    def __add__(self, other: "OpCount") -> "OpCount":
        return OpCount(self.sbox_mul + other.sbox_mul, self.const_mul + other.const_mul, self.add + other.add)


class _Field:
    """F_p operations that count themselves."""

    def __init__(self, p: int, count: OpCount):
        self.p = mpz(p)
        self.count = count

    def add(self, a, b):
        self.count.add += 1
        return (a + b) % self.p

    def mul_const(self, a, c):
        self.count.const_mul += 1
        return a * c % self.p

    def sbox(self, x):
        self.count.sbox_mul += 3
        x2 = x * x % self.p
        x4 = x2 * x2 % self.p
        return x4 * x % self.p

    def dot(self, v, col):
        """sum_i v[i]*col[i]: len(v) constant products, len(v)-1 additions."""
        acc = self.mul_const(v[0], col[0])
        for a, c in zip(v[1:], col[1:]):
            acc = self.add(acc, self.mul_const(a, c))
        return acc

    def vec_mat(self, v, m):
        return [self.dot(v, [row[j] for row in m]) for j in range(len(v))]


def _check_state(c: PoseidonConstants, state) -> list:
    if len(state) != c.t:
        raise ValueError(f"state must have t = {c.t} elements, got {len(state)}")
    for x in state:
        if not 0 <= x < c.p:
            raise ValueError("state elements must be field elements (0 <= x < p)")
    return [mpz(x) for x in state]


def permute_plain(c: PoseidonConstants, state, count: OpCount | None = None) -> list[int]:
    f = _Field(c.p, count if count is not None else OpCount())
    s = _check_state(c, state)
    half, r_p = c.params.half, c.params.r_p
    for r, rc in enumerate(c.round_constants):
        s = [f.add(x, k) for x, k in zip(s, rc)]
        if r < half or r >= half + r_p:
            s = [f.sbox(x) for x in s]
        else:
            s[0] = f.sbox(s[0])
        s = f.vec_mat(s, c.mds)
    return [int(x) for x in s]


def permute_optimized(c: PoseidonConstants, state, count: OpCount | None = None) -> list[int]:
    f = _Field(c.p, count if count is not None else OpCount())
    s = _check_state(c, state)
    half = c.params.half
    # 0. the first round's constants, before any S-box
    s = [f.add(x, k) for x, k in zip(s, c.crc_pre)]
    # 1. first-half full rounds; the last one mixes with the pre-sparse matrix
    for r in range(half):
        s = [f.add(f.sbox(x), k) for x, k in zip(s, c.crc_full_first[r])]
        s = f.vec_mat(s, c.mds if r < half - 1 else c.pre_sparse)
    # 2. partial rounds with one sparse matrix each
    for k, sp in enumerate(c.sparse):
        x = f.add(f.sbox(s[0]), c.crc_partial[k])
        s[0] = x
        s0 = f.dot(s, sp.dot)
        s = [s0] + [f.add(s[i], f.mul_const(x, sp.upd[i - 1])) for i in range(1, c.t)]
    # 3. second-half full rounds; the last one adds no constant
    for r in range(half):
        s = [f.sbox(x) for x in s]
        if r < half - 1:
            s = [f.add(x, k) for x, k in zip(s, c.crc_full_second[r])]
        s = f.vec_mat(s, c.mds)
    return [int(x) for x in s]


def count_ops(c: PoseidonConstants, optimized: bool = True) -> OpCount:
    """Field operations of one hash (the schedule does not depend on the data)."""
    n = OpCount()
    (permute_optimized if optimized else permute_plain)(c, [0] * c.t, n)
    return n
