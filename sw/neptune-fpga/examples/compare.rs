//! Hashes random preimages (xorshift from --seed; edge values 0, 1, p-1 mixed in) on the card through
//! FpgaBatchHasher and with neptune's CPU Poseidon (Poseidon::new_with_preimage(..).hash(), what neptune's
//! SimplePoseidonBatchHasher does), and compares digest by digest.
//!
//!   compare PREFIX ARITY COUNT MAX_BATCH SEED [TIMEOUT_MS]      (ARITY 2, 4, 8 or 11)
//! PREFIX: one card, several separated by commas, or `all:DIR` (every card of DIR with the arity).
//! prints `ok <count> digests, <jobs> jobs, <s> s on the card` (one card) or `ok <count> digests on <n> cards,
//! shares a+b+..., <s> s` (several); exit 1 on an error, 3 on a difference.
#![allow(deprecated)] // neptune 13 takes generic-array 0.14 arrays
mod common;
use std::process::exit;
use std::time::Instant;

use common::element;

use blstrs::Scalar as Fr;
use ff::Field;
use generic_array::typenum::{U11, U2, U4, U8};
use generic_array::GenericArray;
use neptune::poseidon::{Poseidon, PoseidonConstants};
use neptune::{Arity, BatchHasher};
use neptune_fpga::FpgaBatchHasher;

fn run<A: Arity<Fr>>(prefix: &str, count: usize, max_batch: usize, seed: u64, timeout: u32) -> i32 {
    let mut x = seed | 1;
    let pre: Vec<GenericArray<Fr, A>> =
        (0..count).map(|_| GenericArray::<Fr, A>::from_exact_iter((0..A::to_usize()).map(|_| element(&mut x))).unwrap()).collect();
    let constants = PoseidonConstants::<Fr, A>::new();
    let want: Vec<Fr> = pre.iter().map(|p| Poseidon::new_with_preimage(p, &constants).hash()).collect();
    let opened = match prefix.strip_prefix("all:") {
        Some(dir) => FpgaBatchHasher::<A>::all_cards(dir, 0, max_batch, timeout),
        None => FpgaBatchHasher::<A>::new_multi(&prefix.split(',').collect::<Vec<_>>(), 0, max_batch, timeout),
    };
    let mut h = match opened {
        Ok(h) => h,
        Err(e) => {
            eprintln!("compare: {e}");
            return 1;
        }
    };
    assert_eq!(BatchHasher::<Fr, A>::max_batch_size(&h), max_batch);
    let t0 = Instant::now();
    let got = match h.hash(&pre) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("compare: {e}");
            return 1;
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    let shares = h.last_shares().to_vec();
    // hash_into_slice: the trait's other entry point, on the first few
    let k = count.min(3);
    let mut slice = vec![Fr::ZERO; k];
    if let Err(e) = h.hash_into_slice(&mut slice, &pre[..k]) {
        eprintln!("compare: {e}");
        return 1;
    }
    if got.len() != count || slice[..] != want[..k] {
        eprintln!("compare: {} digests for {count} preimages, or hash_into_slice differs", got.len());
        return 3;
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if g != w {
            eprintln!("compare: digest {i} differs from neptune's: {g:?} != {w:?}");
            return 3;
        }
    }
    if shares.len() == 1 {
        println!("ok {count} digests, {} jobs, {secs:.3} s on the card", count.div_ceil(max_batch));
    } else {
        let s: Vec<String> = shares.iter().map(|k| k.to_string()).collect();
        println!("ok {count} digests on {} cards, shares {}, {secs:.3} s", shares.len(), s.join("+"));
    }
    0
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 6 {
        eprintln!("usage: compare PREFIX ARITY COUNT MAX_BATCH SEED [TIMEOUT_MS]");
        exit(2);
    }
    let num = |i: usize| a[i].parse::<u64>().unwrap_or_else(|_| { eprintln!("bad number {}", a[i]); exit(2) });
    let (count, batch, seed) = (num(3) as usize, num(4) as usize, num(5));
    let timeout = if a.len() > 6 { num(6) as u32 } else { 10_000 };
    exit(match num(2) {
        2 => run::<U2>(&a[1], count, batch, seed, timeout),
        4 => run::<U4>(&a[1], count, batch, seed, timeout),
        8 => run::<U8>(&a[1], count, batch, seed, timeout),
        11 => run::<U11>(&a[1], count, batch, seed, timeout),
        n => {
            eprintln!("arity {n}: 2, 4, 8 or 11");
            2
        }
    })
}
