"""Fast Poseidon kernels: the schedules of permutation.py generated as straight-line Python per instance.

A kernel maps an iterable of initial states (t field elements each) to the list of digests (lane 1 after the
permutation, as gmpy2 mpz).  The generator unrolls every round and lane with the constants bound to local
names, so a hash costs only its big-number operations: no loops, indexing or attribute look-ups.

Reduction is lazy, which changes no result (every value is reduced mod p before it is returned):
  - an S-box input may be any non-negative integer: x^2 and x^4 are reduced mod p, x^5 + c is not;
  - a matrix output is reduced once, after its whole dot product;
  - in partial rounds the lanes 1..t-1 accumulate s_i + upd*x without reduction (each round adds < p^2, so
    they stay below (R_P + 1)*p^2) until they enter a dot product or an S-box;
  - the last round computes only lane 1 of its matrix product.
tests/test_model_poseidon.py checks the kernels against permutation.py.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable, Sequence

from gmpy2 import mpz

from .instance import PoseidonConstants, poseidon_constants

Kernel = Callable[[Iterable[Sequence[int]]], list]


class _Emitter:
    def __init__(self):
        self.lines: list[str] = []
        self.consts: dict[int, str] = {}      # value -> local name (shared between equal constants)

    def k(self, value: int) -> str:
        name = self.consts.get(value)
        if name is None:
            name = self.consts[value] = f"k{len(self.consts)}"
        return name

    def emit(self, line: str) -> None:
        self.lines.append("        " + line)

    def sbox(self, x: str, post: int | None) -> str:
        """Code computing x^5 (+ post) into x, unreduced."""
        tail = f" + {self.k(post)}" if post is not None else ""
        return f"a = {x} * {x} % P; {x} = a * a % P * {x}{tail}"

    def matrix(self, lanes: list[str], m, only: int | None = None) -> None:
        """s = s x m (all lanes, or only lane `only` into `d`)."""
        cols = range(len(lanes)) if only is None else [only]
        exprs = []
        for j in cols:
            terms = " + ".join(f"{lanes[i]} * {self.k(m[i][j])}" for i in range(len(lanes)))
            exprs.append(f"({terms}) % P")
        if only is None:
            self.emit(f"{', '.join(lanes)} = {', '.join(exprs)}")
        else:
            self.emit(f"d = {exprs[0]}")


def _source(c: PoseidonConstants, optimized: bool) -> tuple[str, dict[str, mpz]]:
    e = _Emitter()
    t, half, r_p = c.t, c.params.half, c.params.r_p
    s = [f"s{i}" for i in range(t)]
    e.emit(f"{', '.join(s)} = st")
    if optimized:
        e.emit("; ".join(f"{s[i]} = {s[i]} + {e.k(c.crc_pre[i])}" for i in range(t)))
        for r in range(half):
            for i in range(t):
                e.emit(e.sbox(s[i], c.crc_full_first[r][i]))
            e.matrix(s, c.mds if r < half - 1 else c.pre_sparse)
        for k, sp in enumerate(c.sparse):
            e.emit(e.sbox("s0", c.crc_partial[k]) + "; x = s0 % P")
            e.emit("s0 = (" + " + ".join(
                ("x" if i == 0 else s[i]) + f" * {e.k(sp.dot[i])}" for i in range(t)) + ") % P")
            for i in range(1, t):
                e.emit(f"{s[i]} = {s[i]} + x * {e.k(sp.upd[i - 1])}")
        for r in range(half):
            for i in range(t):
                e.emit(e.sbox(s[i], c.crc_full_second[r][i] if r < half - 1 else None))
            if r < half - 1:
                e.matrix(s, c.mds)
            else:
                e.matrix(s, c.mds, only=1)
    else:
        for r, rc in enumerate(c.round_constants):
            full = r < half or r >= half + r_p
            for i in range(t):
                if full or i == 0:
                    e.emit(f"{s[i]} = {s[i]} + {e.k(rc[i])}; " + e.sbox(s[i], None))
                else:
                    e.emit(f"{s[i]} = {s[i]} + {e.k(rc[i])}")
            if r < c.params.rounds - 1:
                e.matrix(s, c.mds)
            else:
                e.matrix(s, c.mds, only=1)
    e.emit("append(d)")
    names = {name: mpz(v) for v, name in e.consts.items()}
    head = ["def kernel(states):",
            "    P = _P",
            # bind every constant to a local once per call
            *(f"    {name} = _K['{name}']" for name in names),
            "    out = []",
            "    append = out.append",
            "    for st in states:"]
    return "\n".join(head + e.lines + ["    return out", ""]), names


@lru_cache(maxsize=None)
def compiled_kernel(arity: int, strength: str = "standard", optimized: bool = True) -> Kernel:
    """The compiled kernel for one instance and schedule."""
    c = poseidon_constants(arity, strength)
    src, names = _source(c, optimized)
    scope = {"_P": mpz(c.p), "_K": names}
    exec(compile(src, f"<poseidon kernel arity={arity} {strength} {'optimized' if optimized else 'plain'}>",
                 "exec"), scope)
    return scope["kernel"]


def kernel_source(arity: int, strength: str = "standard", optimized: bool = True) -> str:
    """The generated source (for reading and debugging)."""
    return _source(poseidon_constants(arity, strength), optimized)[0]
