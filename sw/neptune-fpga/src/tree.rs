//! Filecoin's PC2 trees built through any neptune [`BatchHasher`] (the card's [`crate::FpgaBatchHasher`], or
//! neptune's CPU `SimplePoseidonBatchHasher`):
//!
//! * tree_r_last: an `A`-ary tree (A = 8) over the replica's nodes;
//! * tree_c: every column (one label per layer: 11 for 32 and 64 GiB sectors) hashed with arity `C`, then the
//!   `A`-ary tree over the column hashes;
//! * sector sizes whose node count is not a power of 8 are Filecoin compound trees: `S` sub-trees (S = 2 or 4)
//!   under one top node hashed with arity S ([`compound_root`]; [`CpuHasher`] when the card lacks arity S).
//!
//! The layout returned is that of neptune's own `TreeBuilder::add_final_leaves` and
//! `ColumnTreeBuilder::add_final_columns` (compiled only with neptune's GPU features; `examples/trees.rs` compares
//! against them): the base row, then the rows kept, bottom-up, the root last.  Rows are hashed in batches of the
//! hasher's `max_batch_size()`.
#![allow(deprecated)] // neptune 13 takes generic-array 0.14 arrays

use blstrs::Scalar as Fr;
use generic_array::GenericArray;
use neptune::poseidon::{Poseidon, PoseidonConstants};
use neptune::{Arity, BatchHasher, Error};

/// neptune's CPU Poseidon as a [`BatchHasher`] (neptune's own `SimplePoseidonBatchHasher` has no public
/// constructor): for a compound tree's top node when the card lacks its arity, and as the reference in tests.
pub struct CpuHasher<A: Arity<Fr>> {
    constants: PoseidonConstants<Fr, A>,
    max_batch: usize,
}

impl<A: Arity<Fr>> CpuHasher<A> {
    pub fn new(max_batch: usize) -> Self {
        CpuHasher { constants: PoseidonConstants::<Fr, A>::new(), max_batch }
    }
}

impl<A: Arity<Fr>> BatchHasher<Fr, A> for CpuHasher<A> {
    fn hash(&mut self, preimages: &[GenericArray<Fr, A>]) -> Result<Vec<Fr>, Error> {
        Ok(preimages.iter().map(|p| Poseidon::new_with_preimage(p, &self.constants).hash()).collect())
    }

    fn max_batch_size(&self) -> usize {
        self.max_batch
    }
}

/// rows above the base of an `arity`-ary tree over `leaves` nodes; an error unless `leaves` is a power of the arity
/// (at least the arity: a tree has a root above its base)
pub fn tree_height(leaves: usize, arity: usize) -> Result<usize, Error> {
    let (mut n, mut h) = (leaves, 0);
    while n > 1 && n % arity == 0 {
        n /= arity;
        h += 1;
    }
    if n != 1 || h == 0 {
        return Err(Error::Other(format!("{leaves} leaves: not a power of the tree arity {arity} (at least {arity})")));
    }
    Ok(h)
}

/// Hashes `preimages` with `hasher`, `max_batch_size()` at a time, into `out` (same length).
fn hash_batches<A, H>(hasher: &mut H, preimages: &[GenericArray<Fr, A>], out: &mut [Fr]) -> Result<(), Error>
where
    A: Arity<Fr>,
    H: BatchHasher<Fr, A>,
{
    let batch = hasher.max_batch_size().max(1);
    for (k, chunk) in preimages.chunks(batch).enumerate() {
        let digests = hasher.hash(chunk)?;
        if digests.len() != chunk.len() {
            return Err(Error::Other(format!("the hasher returned {} digests for {} preimages", digests.len(), chunk.len())));
        }
        out[k * batch..k * batch + chunk.len()].copy_from_slice(&digests);
    }
    Ok(())
}

/// An `A`-ary Merkle tree over `leaves` (a power of A), each node the MerkleTree Poseidon hash of its A children,
/// row by row through `hasher`.  Returns (base row, the rows above it except the `rows_to_discard` lowest), as
/// neptune's `TreeBuilder::add_final_leaves`; the root is the last element.
pub fn build_tree<A, H>(hasher: &mut H, leaves: &[Fr], rows_to_discard: usize) -> Result<(Vec<Fr>, Vec<Fr>), Error>
where
    A: Arity<Fr>,
    H: BatchHasher<Fr, A>,
{
    let arity = A::to_usize();
    let height = tree_height(leaves.len(), arity)?;
    if rows_to_discard >= height {
        return Err(Error::Other(format!("rows_to_discard {rows_to_discard}: the tree has {height} rows above its base")));
    }
    let mut kept = Vec::new();
    let mut row = leaves.to_vec();
    for level in 0..height {
        let preimages: Vec<GenericArray<Fr, A>> = row.chunks_exact(arity).map(GenericArray::clone_from_slice).collect();
        let mut next = vec![Fr::from(0u64); preimages.len()];
        hash_batches(hasher, &preimages, &mut next)?;
        if level >= rows_to_discard {
            kept.extend_from_slice(&next);
        }
        row = next;
    }
    Ok((leaves.to_vec(), kept))
}

/// tree_c: each column hashed with arity `C` by `columns_hasher` (the leaves), then [`build_tree`] over them with
/// `tree_hasher`; as neptune's `ColumnTreeBuilder::add_final_columns` (which keeps every row: rows_to_discard 0).
pub fn build_column_tree<C, A, HC, HT>(columns_hasher: &mut HC, tree_hasher: &mut HT, columns: &[GenericArray<Fr, C>],
                                       rows_to_discard: usize) -> Result<(Vec<Fr>, Vec<Fr>), Error>
where
    C: Arity<Fr>,
    A: Arity<Fr>,
    HC: BatchHasher<Fr, C>,
    HT: BatchHasher<Fr, A>,
{
    tree_height(columns.len(), A::to_usize())?;
    let mut leaves = vec![Fr::from(0u64); columns.len()];
    hash_batches(columns_hasher, columns, &mut leaves)?;
    build_tree::<A, HT>(tree_hasher, &leaves, rows_to_discard)
}

/// The root of a Filecoin compound tree: the `S` sub-tree roots hashed with arity S (MerkleTree hash type), e.g.
/// 2^13 nodes = two octrees of 2^12 under an arity-2 top, 2^14 = four under an arity-4 top.
pub fn compound_root<S, H>(hasher: &mut H, sub_roots: &[Fr]) -> Result<Fr, Error>
where
    S: Arity<Fr>,
    H: BatchHasher<Fr, S>,
{
    if sub_roots.len() != S::to_usize() {
        return Err(Error::Other(format!("{} sub-tree roots under an arity-{} top", sub_roots.len(), S::to_usize())));
    }
    let mut out = [Fr::from(0u64)];
    hash_batches(hasher, &[GenericArray::clone_from_slice(sub_roots)], &mut out)?;
    Ok(out[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use generic_array::typenum::{U11, U2, U8};

    fn cpu<A: Arity<Fr>>(batch: usize) -> CpuHasher<A> {
        CpuHasher::<A>::new(batch)
    }

    #[test]
    fn a_64_leaf_octree_is_two_rows_of_poseidon() {
        let leaves: Vec<Fr> = (0..64u64).map(Fr::from).collect();
        let c8 = PoseidonConstants::<Fr, U8>::new();
        let row1: Vec<Fr> = leaves.chunks(8).map(|p| Poseidon::new_with_preimage(p, &c8).hash()).collect();
        let root = Poseidon::new_with_preimage(&row1, &c8).hash();
        // a batch size that does not divide the row: the last batch is short
        let (base, kept) = build_tree::<U8, _>(&mut cpu::<U8>(3), &leaves, 0).unwrap();
        assert_eq!(base, leaves);
        assert_eq!(kept, [row1.clone(), vec![root]].concat());
        let (_, kept) = build_tree::<U8, _>(&mut cpu::<U8>(64), &leaves, 1).unwrap();
        assert_eq!(kept, vec![root]);
    }

    #[test]
    fn columns_then_the_octree() {
        let columns: Vec<GenericArray<Fr, U11>> =
            (0..8u64).map(|i| GenericArray::clone_from_slice(&(0..11u64).map(|j| Fr::from(i * 11 + j)).collect::<Vec<_>>())).collect();
        let c11 = PoseidonConstants::<Fr, U11>::new();
        let leaves: Vec<Fr> = columns.iter().map(|c| Poseidon::new_with_preimage(c, &c11).hash()).collect();
        let (base, kept) = build_column_tree::<U11, U8, _, _>(&mut cpu::<U11>(5), &mut cpu::<U8>(5), &columns, 0).unwrap();
        assert_eq!(base, leaves);
        assert_eq!(kept, vec![Poseidon::new_with_preimage(&leaves, &PoseidonConstants::<Fr, U8>::new()).hash()]);
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(build_tree::<U8, _>(&mut cpu::<U8>(8), &vec![Fr::from(1u64); 24], 0).is_err());
        assert!(build_tree::<U8, _>(&mut cpu::<U8>(8), &[Fr::from(1u64)], 0).is_err());
        assert!(build_tree::<U8, _>(&mut cpu::<U8>(8), &vec![Fr::from(1u64); 64], 2).is_err());
        assert!(compound_root::<U2, _>(&mut cpu::<U2>(1), &[Fr::from(1u64)]).is_err());
        assert_eq!(tree_height(4096, 8).unwrap(), 4);
    }
}
