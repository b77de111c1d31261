"""The Poseidon work of Filecoin's PC2 for one 32 GiB sector, and its time at given hash rates.

Counts (Filecoin proofs, 32 GiB sector, SDR with 11 layers):
  nodes        = 32 GiB / 32-byte nodes = 2^30
  tree_c       = one column hash per node: 2^30 hashes of arity 11 (the node's 11 layer labels), then an octree
                 over those 2^30 column digests
  tree_r_last  = an octree over the 2^30 nodes of the replica
  each octree  = 8 sub-trees of 2^27 leaves (arity 8 in every level: (2^27 - 1) / 7 hashes each) and one arity-8
                 hash over the 8 sub-tree roots: 8 * (2^27 - 1) / 7 + 1 = 153,391,689 hashes
So PC2 hashes 2^30 preimages of arity 11 and 2 x 153,391,689 of arity 8 (tree_d is SHA-256, not Poseidon).
"""
from __future__ import annotations

NODES = 1 << 30
SUB_TREES = 8
SUB_TREE_LEAVES = NODES // SUB_TREES
OCTREE_HASHES = SUB_TREES * (SUB_TREE_LEAVES - 1) // 7 + 1
WORK = {11: NODES, 8: 2 * OCTREE_HASHES}


def octree_hashes(leaves: int) -> int:
    """Hashes of an arity-8 tree over `leaves` (a power of 8): (leaves - 1) / 7."""
    assert leaves > 0 and (leaves & (leaves - 1)) == 0 and (leaves.bit_length() - 1) % 3 == 0, leaves
    return (leaves - 1) // 7


assert OCTREE_HASHES == SUB_TREES * octree_hashes(SUB_TREE_LEAVES) + 1 == 153_391_689


def seconds(rates: dict[int, float]) -> float | None:
    """Poseidon time of one sector's PC2 at `rates` (arity -> hashes/s); None when an arity is missing."""
    if any(not rates.get(a) for a in WORK):
        return None
    return sum(n / rates[a] for a, n in WORK.items())


def work_text() -> str:
    return (f"{WORK[11]:,} arity-11 column hashes (2^30 nodes of a 32 GiB sector) + 2 x {OCTREE_HASHES:,} arity-8 "
            f"hashes (tree_c and tree_r_last: 8 octrees of 2^27 leaves and one hash over their roots)")
