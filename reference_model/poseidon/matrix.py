"""Small dense matrices over F_p (lists of rows of ints), for deriving the Poseidon constants.

Conventions: a state is a row vector; `vec_mat(v, m)` is v x m (entry j = sum_i v[i]*m[i][j]), the product every
Poseidon round applies; `mat_vec(m, v)` is m x v.
"""
from __future__ import annotations

import gmpy2
from gmpy2 import mpz

Matrix = list[list[int]]


def identity(n: int) -> Matrix:
    return [[1 if i == j else 0 for j in range(n)] for i in range(n)]


def transpose(m: Matrix) -> Matrix:
    return [list(col) for col in zip(*m)]


def mat_mul(a: Matrix, b: Matrix, p: int) -> Matrix:
    bt = transpose(b)
    return [[int(sum(mpz(x) * y for x, y in zip(row, col)) % p) for col in bt] for row in a]


def vec_mat(v: list[int], m: Matrix, p: int) -> list[int]:
    return [int(sum(mpz(v[i]) * m[i][j] for i in range(len(v))) % p) for j in range(len(m[0]))]


def mat_vec(m: Matrix, v: list[int], p: int) -> list[int]:
    return [int(sum(mpz(x) * y for x, y in zip(row, v)) % p) for row in m]


def minor(m: Matrix, i: int, j: int) -> Matrix:
    """m without row i and column j."""
    return [[x for c, x in enumerate(row) if c != j] for r, row in enumerate(m) if r != i]


def invert(m: Matrix, p: int) -> Matrix:
    """Gauss-Jordan inverse mod p; raises ValueError for a singular matrix."""
    n = len(m)
    a = [[mpz(x) % p for x in row] + [mpz(1 if i == j else 0) for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        piv = next((r for r in range(col, n) if a[r][col] != 0), None)
        if piv is None:
            raise ValueError("matrix is singular")
        a[col], a[piv] = a[piv], a[col]
        inv = gmpy2.invert(a[col][col], p)
        a[col] = [x * inv % p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [(x - f * y) % p for x, y in zip(a[r], a[col])]
    return [[int(x) for x in row[n:]] for row in a]


def determinant(m: Matrix, p: int) -> int:
    """Determinant mod p by Gaussian elimination."""
    n = len(m)
    a = [[mpz(x) % p for x in row] for row in m]
    det = mpz(1)
    for col in range(n):
        piv = next((r for r in range(col, n) if a[r][col] != 0), None)
        if piv is None:
            return 0
        if piv != col:
            a[col], a[piv] = a[piv], a[col]
            det = -det
        det = det * a[col][col] % p
        inv = gmpy2.invert(a[col][col], p)
        for r in range(col + 1, n):
            if a[r][col] != 0:
                f = a[r][col] * inv % p
                a[r] = [(x - f * y) % p for x, y in zip(a[r], a[col])]
    return int(det % p)


def is_identity(m: Matrix) -> bool:
    return m == identity(len(m))
