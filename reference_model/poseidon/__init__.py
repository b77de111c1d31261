"""Filecoin-compatible Poseidon (the neptune instance) over BLS12-381 Fr: the golden model of the Poseidon cores.

Modules:
  params      R_F / R_P for arity 1..16, standard and strengthened
  grain       round constants from the Grain LFSR
  instance    MDS matrix and the optimized constants (compressed round constants, pre-sparse, sparse matrices)
  hash_type   domain tags and preimage layout (MerkleTree, ConstantLength, Encryption, Custom, Sponge)
  permutation the plain and the optimized permutation step by step, with operation counts (the specification
              the hardware follows; its docstring gives the round schedule)
  kernel      the same schedules as generated straight-line code, for checking long hardware runs
  constants   writes / checks constants/poseidon/<arity>/*.txt
  cli         python -m reference_model.poseidon

All values are canonical field elements (0 <= x < p); reference_model.field converts to Montgomery form.
"""
from __future__ import annotations

import multiprocessing
from typing import Iterable, Sequence

from .hash_type import MERKLE, ConstantLength, Custom, Encryption, HashType, MerkleTree, Sponge
from .instance import PoseidonConstants, SparseMatrix, poseidon_constants
from .kernel import compiled_kernel
from .params import PoseidonParams, round_numbers
from .permutation import OpCount, count_ops, permute_optimized, permute_plain

__all__ = [
    "HashType", "MerkleTree", "ConstantLength", "Encryption", "Custom", "Sponge", "MERKLE",
    "PoseidonParams", "PoseidonConstants", "SparseMatrix", "poseidon_constants", "round_numbers",
    "OpCount", "count_ops", "permute_plain", "permute_optimized", "compiled_kernel",
    "digest", "digests", "digest_counted",
]


def _initial_states(preimages: Iterable[Sequence[int]], arity: int, hash_type: HashType, p: int):
    n = hash_type.preimage_length(arity)
    tag = hash_type.tag(arity)
    pad = [0] * (arity - n)
    for pre in preimages:
        if len(pre) != n:
            raise ValueError(f"{hash_type} with arity {arity} takes {n} elements, got {len(pre)}")
        for x in pre:
            if not 0 <= x < p:
                raise ValueError(f"preimage element {x:#x} is not a field element (0 <= x < p)")
        yield [tag, *pre, *pad]


def digest(preimage: Sequence[int], arity: int | None = None, hash_type: HashType = MERKLE,
           strength: str = "standard", optimized: bool = True) -> int:
    """Poseidon digest of one preimage (arity defaults to len(preimage))."""
    return digests([preimage], arity if arity is not None else len(preimage), hash_type, strength, optimized)[0]


def _digests_chunk(args) -> list[int]:
    preimages, arity, hash_type, strength, optimized = args
    return digests(preimages, arity, hash_type, strength, optimized)


def digests(preimages: Iterable[Sequence[int]], arity: int, hash_type: HashType = MERKLE,
            strength: str = "standard", optimized: bool = True, jobs: int = 1) -> list[int]:
    """Digests of many preimages with the fast kernel; `jobs` > 1 spreads them over worker processes."""
    if jobs > 1:
        pre = list(preimages)
        step = max(1, -(-len(pre) // (4 * jobs)))
        chunks = [(pre[i:i + step], arity, hash_type, strength, optimized) for i in range(0, len(pre), step)]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return [d for part in pool.map(_digests_chunk, chunks) for d in part]
    c = poseidon_constants(arity, strength)
    k = compiled_kernel(arity, strength, optimized)
    return [int(d) for d in k(_initial_states(preimages, arity, hash_type, c.p))]


def digest_counted(preimage: Sequence[int], arity: int | None = None, hash_type: HashType = MERKLE,
                   strength: str = "standard", optimized: bool = True) -> tuple[int, OpCount]:
    """Instrumented mode: the digest through the step-by-step permutation and the field operations it took."""
    arity = arity if arity is not None else len(preimage)
    c = poseidon_constants(arity, strength)
    (state,) = _initial_states([preimage], arity, hash_type, c.p)
    n = OpCount()
    out = (permute_optimized if optimized else permute_plain)(c, state, n)
    return out[1], n
