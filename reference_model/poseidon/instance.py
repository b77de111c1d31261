"""All constants of one Poseidon instance: round constants, MDS matrix, and the optimized ("static") set.

States are row vectors and every round matrix A is applied as s x A (s'[j] = sum_i s[i]*A[i][j]).  The MDS
matrix is symmetric, so this is also M x s.

Plain round r:  s = sbox(s + RC_r) x M   (sbox on every lane in full rounds, on lane 0 in partial rounds).

Compressed round constants (the constant of the next round is moved in front of this round's matrix:
(x x M) + c = (x + c x M^-1) x M):
  pre            = RC_0                                    added to the input state, before any S-box
  full_first[r]  = RC_{r+1} x M^-1        r < R_f - 1      added after the S-boxes of first-half round r
  full_first[R_f-1] = acc x M^-1                           acc: the partial rounds' constants folded back
  partial[k]     = lane 0 of the folded constant, k < R_P  added to lane 0 after the S-box of partial round k
  full_second[r] = RC_{R_f+R_P+r+1} x M^-1  r < R_f - 1    added after the S-boxes of second-half round r
                                                           (the last round adds none)
Folding the partial rounds runs backwards: acc = RC_{R_f+R_P}; for r = R_f+R_P-1 down to R_f:
inv = acc x M^-1, partial[r-R_f] = inv[0], acc = RC_r + (0, inv[1], ..., inv[t-1]) -- lanes 1.. pass the
partial S-box unchanged, so their constants keep moving back.  Flat order (neptune's): pre, full_first[0..R_f),
partial[0..R_P), full_second[0..R_f-1): t*R_F + R_P values.

Sparse factorization: any A = A' x A'' with A' = [[1, 0], [0, Â]] (Â = A without row/column 0) and
A'' = [[A00, A[0][1:]], [ŵ, I]], ŵ = Â^-1 x A[1:][0].  A' keeps lane 0 and never mixes lanes 1.. into it, so it
commutes with a partial round's lane-0 S-box and constant and moves into the previous round's matrix.
Starting with A = M for the last partial round: S_k = A'' and A = M x A' for the round before; after the first
partial round the leftover gives the pre-sparse matrix P = M x A' used by the last first-half full round.
A sparse matrix S_k is stored as dot_k = column 0 of S_k (t values: s0' = sum_i dot_k[i]*s_i) and
upd_k = row 0 of S_k without its first entry (t-1 values: s_i' = s_i + upd_k[i-1]*s0 for i >= 1).
(neptune calls these w_hat and v_rest.)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import gmpy2

from . import grain
from . import matrix as mx
from .params import PoseidonParams


def cauchy_mds(t: int, p: int) -> mx.Matrix:
    """M[i][j] = 1/(x_i + y_j) with x_i = i, y_j = t + j: a Cauchy matrix (all x distinct, all y distinct, no
    x_i + y_j = 0), so every square submatrix is invertible (MDS)."""
    return [[int(gmpy2.invert(i + t + j, p)) for j in range(t)] for i in range(t)]


@dataclass(frozen=True)
class SparseMatrix:
    dot: tuple[int, ...]    # column 0 (t values): the new lane 0 is the dot product with the state
    upd: tuple[int, ...]    # row 0 without entry 0 (t-1 values): lane i >= 1 gains upd[i-1] * old lane 0

    def to_matrix(self) -> mx.Matrix:
        t = len(self.dot)
        m = mx.identity(t)
        for i in range(t):
            m[i][0] = self.dot[i]
        for j in range(1, t):
            m[0][j] = self.upd[j - 1]
        return m


def sparse_factor(a: mx.Matrix, p: int) -> tuple[mx.Matrix, mx.Matrix]:
    """(A', A'') with A = A' x A'' (see the module docstring)."""
    t = len(a)
    a_hat = mx.minor(a, 0, 0)
    w = [a[i][0] for i in range(1, t)]
    w_hat = mx.mat_vec(mx.invert(a_hat, p), w, p)
    a1 = mx.identity(t)
    for i in range(1, t):
        for j in range(1, t):
            a1[i][j] = a_hat[i - 1][j - 1]
    a2 = mx.identity(t)
    a2[0] = list(a[0])
    for i in range(1, t):
        a2[i][0] = w_hat[i - 1]
    return a1, a2


class PoseidonConstants:
    """Everything the plain and the optimized permutation need, derived from the parameters."""

    def __init__(self, params: PoseidonParams):
        self.params = params
        t, p, r_p = params.t, params.p, params.r_p
        self.t = t
        self.p = p
        flat = grain.round_constants(p, t, params.r_f, r_p)
        self.round_constants_flat = flat
        self.round_constants = [flat[r * t:(r + 1) * t] for r in range(params.rounds)]
        self.mds = cauchy_mds(t, p)
        self.mds_inv = mx.invert(self.mds, p)
        self._compress()
        self._factor()

    def _compress(self) -> None:
        t, p, half, r_p = self.t, self.p, self.params.half, self.params.r_p
        rc, minv = self.round_constants, self.mds_inv
        self.crc_pre = list(rc[0])
        self.crc_full_first = [mx.vec_mat(rc[r + 1], minv, p) for r in range(half - 1)]
        acc = list(rc[half + r_p])
        partial_rev = []
        for r in range(half + r_p - 1, half - 1, -1):
            inv = mx.vec_mat(acc, minv, p)
            partial_rev.append(inv[0])
            acc = [rc[r][0]] + [(rc[r][i] + inv[i]) % p for i in range(1, t)]
        self.crc_full_first.append(mx.vec_mat(acc, minv, p))
        self.crc_partial = partial_rev[::-1]
        self.crc_full_second = [mx.vec_mat(rc[half + r_p + r + 1], minv, p) for r in range(half - 1)]
        self.compressed_rc = (self.crc_pre + [c for v in self.crc_full_first for c in v] + self.crc_partial
                              + [c for v in self.crc_full_second for c in v])
        assert len(self.compressed_rc) == t * self.params.r_f + r_p

    def _factor(self) -> None:
        p = self.p
        a = self.mds
        sparse_rev = []
        for _ in range(self.params.r_p):
            a1, a2 = sparse_factor(a, p)
            sparse_rev.append(SparseMatrix(tuple(a2[i][0] for i in range(self.t)), tuple(a2[0][1:])))
            a = mx.mat_mul(self.mds, a1, p)
        self.pre_sparse = a
        self.sparse = sparse_rev[::-1]       # sparse[k] is used by partial round k


@lru_cache(maxsize=None)
def poseidon_constants(arity: int, strength: str = "standard") -> PoseidonConstants:
    """The (cached) constants of the Filecoin instance for `arity`."""
    return PoseidonConstants(PoseidonParams(arity, strength))
