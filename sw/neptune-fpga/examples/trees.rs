//! Builds Filecoin's two PC2 trees for a sector of LEAVES nodes through the card (neptune_fpga::tree over
//! FpgaBatchHasher) and with neptune's own CPU tree builders (TreeBuilder, ColumnTreeBuilder with no GPU batcher),
//! and compares every row:
//!   tree_c       LEAVES columns of 11 labels (random, edge values mixed in), column hashes (arity 11), octree;
//!   tree_r_last  LEAVES replica nodes, octree, the 2 lowest rows above the base discarded as Filecoin does.
//! LEAVES = 8^k x S with S in {1, 2, 4}: S > 1 is a Filecoin compound tree (S sub-trees under one top node of
//! arity S, hashed on the CPU: the PC2 profile has no arity 2 or 4).
//!
//!   trees PREFIX LEAVES MAX_BATCH SEED [TIMEOUT_MS]       (PREFIX as for examples/compare.rs)
//! prints `ok LEAVES leaves ...: tree_c root 0x.., tree_r_last root 0x.., N hashes on the card, T s`; exit 1 on an
//! error, 3 on a difference (which row and node).
#![allow(deprecated)] // neptune 13 takes generic-array 0.14 arrays
mod common;
use std::process::exit;
use std::time::Instant;

use common::element;

use blstrs::Scalar as Fr;
use ff::PrimeField;
use generic_array::typenum::{U11, U2, U4, U8};
use generic_array::GenericArray;
use neptune::column_tree_builder::{ColumnTreeBuilder, ColumnTreeBuilderTrait};
use neptune::poseidon::{Poseidon, PoseidonConstants};
use neptune::tree_builder::{TreeBuilder, TreeBuilderTrait};
use neptune::Error;
use neptune_fpga::tree::{build_column_tree, build_tree, compound_root, tree_height, CpuHasher};
use neptune_fpga::FpgaBatchHasher;

/// Filecoin discards the two rows above tree_r_last's base (they are rebuilt from the replica when proving)
const R_LAST_DISCARD: usize = 2;

fn hex(x: &Fr) -> String {
    x.to_repr().as_ref().iter().rev().map(|b| format!("{b:02x}")).collect()
}

/// the first node where two (base, rows) layouts differ
fn differs(what: &str, got: &(Vec<Fr>, Vec<Fr>), want: &(Vec<Fr>, Vec<Fr>)) -> Option<String> {
    for (name, g, w) in [("base row", &got.0, &want.0), ("rows", &got.1, &want.1)] {
        if g.len() != w.len() {
            return Some(format!("{what} {name}: {} nodes, neptune {}", g.len(), w.len()));
        }
        if let Some(i) = (0..g.len()).find(|&i| g[i] != w[i]) {
            return Some(format!("{what} {name} node {i}: 0x{}, neptune 0x{}", hex(&g[i]), hex(&w[i])));
        }
    }
    None
}

fn top<S: neptune::Arity<Fr>>(roots: &[Fr]) -> Result<(Fr, Fr), Error> {
    let ours = compound_root::<S, _>(&mut CpuHasher::<S>::new(1), roots)?;
    let theirs = Poseidon::new_with_preimage(roots, &PoseidonConstants::<Fr, S>::new()).hash();
    Ok((ours, theirs))
}

fn run(prefix: &str, leaves: usize, max_batch: usize, seed: u64, timeout: u32) -> Result<i32, Error> {
    let subs = [1usize, 2, 4].into_iter().find(|s| leaves % s == 0 && tree_height(leaves / s, 8).is_ok())
        .ok_or_else(|| Error::Other(format!("{leaves} leaves: not 8^k, 2 x 8^k or 4 x 8^k")))?;
    let sub = leaves / subs;
    let mut x = seed | 1;
    let columns: Vec<GenericArray<Fr, U11>> =
        (0..leaves).map(|_| GenericArray::from_exact_iter((0..11).map(|_| element(&mut x))).unwrap()).collect();
    let replica: Vec<Fr> = (0..leaves).map(|_| element(&mut x)).collect();
    let prefixes: Vec<&str> = prefix.split(',').collect();
    let (mut h11, mut h8) = match prefix.strip_prefix("all:") {
        Some(dir) => (FpgaBatchHasher::<U11>::all_cards(dir, 0, max_batch, timeout)?,
                      FpgaBatchHasher::<U8>::all_cards(dir, 0, max_batch, timeout)?),
        None => (FpgaBatchHasher::<U11>::new_multi(&prefixes, 0, max_batch, timeout)?,
                 FpgaBatchHasher::<U8>::new_multi(&prefixes, 0, max_batch, timeout)?),
    };
    let discard = R_LAST_DISCARD.min(tree_height(sub, 8)? - 1);
    let (mut c_roots, mut r_roots, mut card_secs) = (Vec::new(), Vec::new(), 0.0);
    for s in 0..subs {
        let cols = &columns[s * sub..(s + 1) * sub];
        let nodes = &replica[s * sub..(s + 1) * sub];
        let t0 = Instant::now();
        let tree_c = build_column_tree::<U11, U8, _, _>(&mut h11, &mut h8, cols, 0)?;
        let tree_r = build_tree::<U8, _>(&mut h8, nodes, discard)?;
        card_secs += t0.elapsed().as_secs_f64();
        // neptune's own builders, CPU path (no batcher)
        let want_c = ColumnTreeBuilder::<Fr, U11, U8>::new(None, None, sub)?.add_final_columns(cols)?;
        let want_r = TreeBuilder::<Fr, U8>::new(None, sub, discard)?.add_final_leaves(nodes)?;
        for d in [differs(&format!("tree_c sub-tree {s}"), &tree_c, &want_c),
                  differs(&format!("tree_r_last sub-tree {s}"), &tree_r, &want_r)].into_iter().flatten() {
            eprintln!("trees: {d}");
            return Ok(3);
        }
        c_roots.push(*tree_c.1.last().unwrap());
        r_roots.push(*tree_r.1.last().unwrap());
    }
    let roots = |r: &[Fr]| -> Result<(Fr, Fr), Error> {
        match subs {
            1 => Ok((r[0], r[0])),
            2 => top::<U2>(r),
            _ => top::<U4>(r),
        }
    };
    let ((c_root, c_want), (r_root, r_want)) = (roots(&c_roots)?, roots(&r_roots)?);
    if c_root != c_want || r_root != r_want {
        eprintln!("trees: the compound roots differ from neptune's top hash");
        return Ok(3);
    }
    let hashes = leaves + 2 * subs * (sub - 1) / 7; // columns + two octrees' internal nodes (sum of 8^i = (n-1)/7)
    println!("ok {leaves} leaves ({subs} sub-tree{}): tree_c root 0x{}, tree_r_last root 0x{}, {hashes} hashes on the \
              card, {card_secs:.2} s", if subs > 1 { "s" } else { "" }, hex(&c_root), hex(&r_root));
    Ok(0)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 5 || a.len() > 6 {
        eprintln!("usage: trees PREFIX LEAVES MAX_BATCH SEED [TIMEOUT_MS]");
        exit(2);
    }
    let num = |s: &str, what: &str| -> u64 {
        s.parse().unwrap_or_else(|_| {
            eprintln!("trees: {what} '{s}' is not a number");
            exit(2)
        })
    };
    let leaves = num(&a[2], "LEAVES") as usize;
    let batch = num(&a[3], "MAX_BATCH") as usize;
    let seed = num(&a[4], "SEED");
    let timeout = if a.len() == 6 { num(&a[5], "TIMEOUT_MS") as u32 } else { 60000 };
    match run(&a[1], leaves, batch, seed, timeout) {
        Ok(code) => exit(code),
        Err(e) => {
            eprintln!("trees: {e}");
            exit(1)
        }
    }
}
