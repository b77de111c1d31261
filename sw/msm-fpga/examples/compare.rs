//! The crate's MSMs against arkworks' own (VariableBaseMSM), through cards or the XDMA emulator
//! (tests/test_sw_msm_fpga.py runs it under LD_PRELOAD=libzkemu.so).
//!
//!     compare CURVE DEVICES NPOINTS SEED CASE [WINDOWS]
//!
//! CURVE bls12_377 | bn254 | bls12_381; DEVICES a prefix, several joined by commas, or all:DIR; WINDOWS the engines'
//! layout (default: the curve's board layout).  CASE:
//!   sets          random scalars; adversarial sets (all zero, ones, r - 1, one base repeated with P == Q and P == -Q,
//!                 the point at infinity among the bases, half ones); a prefix (fewer scalars than bases); no scalars
//!   batch         4 MSMs of random scalars through msm_batch, with the cards' busy intervals (`host outside`)
//!   two-sets      two base sets resident side by side, MSMs on each in turn, the first freed and loaded again
//!   store-full    base sets loaded until the stores refuse one
//!   off-curve | not-in-subgroup | too-many-scalars     a refused input (exit 2)
//! Prints `ok ...` lines; exit 0, 1 (a card error), 2 (input refused as expected: the message on stdout), 3 (a result
//! differs from arkworks').

use std::process::exit;

use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{Field, UniformRand, Zero};
use msm_fpga::{cpu_msm, Bases, CardCurve, Cards, Error, Options};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn open<P: CardCurve>(devices: &str, windows: Option<String>) -> Result<Cards<P>, Error> {
    let opts = Options { windows, timeout_ms: 600_000, ..Options::default() };
    match devices.strip_prefix("all:") {
        Some(dir) => Cards::all(dir, opts),
        None => Cards::open_many(&devices.split(',').collect::<Vec<_>>(), opts),
    }
}

fn random_points<P: CardCurve>(n: usize, rng: &mut StdRng) -> Vec<Affine<P>> {
    let g = Projective::<P>::rand(rng);
    // multiples of one random point, plus random offsets: distinct points at a fraction of n scalar multiplications
    let steps: Vec<Projective<P>> = (0..16).map(|_| Projective::<P>::rand(rng)).collect();
    let mut acc = g;
    let pts: Vec<Projective<P>> = (0..n).map(|i| {
        acc += steps[i % steps.len()];
        acc
    }).collect();
    Projective::<P>::normalize_batch(&pts)
}

fn check<P: CardCurve>(what: &str, bases: &Bases<P>, pts: &[Affine<P>], sc: &[P::ScalarField]) -> Result<(), Error> {
    let got = bases.msm(sc)?;
    let want = cpu_msm(pts, sc);
    if got != want {
        println!("DIFFERS {what}: card {:?}, arkworks {:?}", got.into_affine(), want.into_affine());
        exit(3);
    }
    println!("ok {what}: {} scalars", sc.len());
    Ok(())
}

fn sets<P: CardCurve>(cards: &Cards<P>, n: usize, rng: &mut StdRng) -> Result<(), Error> {
    let mut pts = random_points::<P>(n, rng);
    // the adversarial bases: one point repeated (P == Q), its negation (P == -Q), the point at infinity
    let p = pts[1];
    for i in (n / 2..n).step_by(7) {
        pts[i] = p;
    }
    for i in (n / 2 + 3..n).step_by(11) {
        pts[i] = -p;
    }
    pts[n - 1] = Affine::<P>::zero();
    pts[n / 3] = Affine::<P>::zero();
    let bases = cards.load_bases(&pts)?;
    let one = P::ScalarField::ONE;
    let minus_one = -one;
    let random: Vec<P::ScalarField> = (0..n).map(|_| P::ScalarField::rand(rng)).collect();
    check("random", &bases, &pts, &random)?;
    check("zeros", &bases, &pts, &vec![P::ScalarField::zero(); n])?;
    check("ones", &bases, &pts, &vec![one; n])?;
    check("r-1", &bases, &pts, &vec![minus_one; n])?;
    let half: Vec<_> = (0..n).map(|i| if i % 2 == 0 { one } else { random[i] }).collect();
    check("half-ones", &bases, &pts, &half)?;
    let edges: Vec<_> = (0..n).map(|i| [P::ScalarField::zero(), one, minus_one, random[i]][i % 4]).collect();
    check("edges", &bases, &pts, &edges)?;
    check("prefix", &bases, &pts, &random[..n / 2 + 1])?;
    check("one scalar", &bases, &pts, &random[..1])?;
    let none = bases.msm(&[])?;
    println!("ok no scalars: {}", if none.is_zero() { "zero" } else { "NOT ZERO" });
    Ok(())
}

fn batch<P: CardCurve>(cards: &Cards<P>, n: usize, rng: &mut StdRng) -> Result<(), Error> {
    let pts = random_points::<P>(n, rng);
    let bases = cards.load_bases(&pts)?;
    let msms: Vec<Vec<P::ScalarField>> = (0..4).map(|_| (0..n).map(|_| P::ScalarField::rand(rng)).collect()).collect();
    let refs: Vec<&[P::ScalarField]> = msms.iter().map(|v| v.as_slice()).collect();
    let got = bases.msm_batch(&refs)?;
    for (m, s) in msms.iter().enumerate() {
        if got[m] != cpu_msm(&pts, s) {
            println!("DIFFERS batch MSM {m}");
            exit(3);
        }
    }
    let r = cards.last_report();
    let per_card: Vec<usize> = (0..cards.prefixes().len()).map(|k| r.jobs.iter().filter(|(c, _)| *c == k).count()).collect();
    let cycles: u64 = r.jobs.iter().map(|(_, s)| s.cycles as u64).sum();
    println!("ok batch: 4 MSMs of {n} equal arkworks'; jobs per card {per_card:?}, {cycles} engine cycles; wall {:.3} s, \
              host outside the cards' busy intervals {:.3} s ({:.1} %)", r.wall_s, r.host_only_s, 100.0 * r.host_only_s / r.wall_s);
    Ok(())
}

fn two_sets<P: CardCurve>(cards: &Cards<P>, n: usize, rng: &mut StdRng) -> Result<(), Error> {
    let a = random_points::<P>(n, rng);
    let b = random_points::<P>(n / 2 + 5, rng);
    let sa: Vec<P::ScalarField> = (0..n).map(|_| P::ScalarField::rand(rng)).collect();
    let ba = cards.load_bases(&a)?;
    let bb = cards.load_bases(&b)?;
    check("set A", &ba, &a, &sa)?;
    check("set B", &bb, &b, &sa[..b.len()])?;
    check("set A again", &ba, &a, &sa)?;
    drop(ba);
    let c = random_points::<P>(n / 4 + 1, rng);
    let bc = cards.load_bases(&c)?; // into the blocks set A left
    check("set C in A's blocks", &bc, &c, &sa[..c.len()])?;
    check("set B after C", &bb, &b, &sa[..b.len()])?;
    Ok(())
}

fn store_full<P: CardCurve>(cards: &Cards<P>, n: usize, rng: &mut StdRng) -> Result<(), Error> {
    let pts = random_points::<P>(n, rng);
    let free = cards.free_points();
    let mut held = Vec::new();
    loop {
        match cards.load_bases(&pts) {
            Ok(b) => held.push(b),
            Err(e) => {
                println!("ok store full after {} sets of {n} ({free} points free at first): {e}", held.len());
                break;
            }
        }
    }
    let sc: Vec<P::ScalarField> = (0..64.min(n)).map(|_| P::ScalarField::rand(rng)).collect();
    check("the last set that fitted (a prefix)", held.last().unwrap(), &pts, &sc)
}

fn refused<P: CardCurve>(cards: &Cards<P>, n: usize, case: &str, rng: &mut StdRng) -> Result<(), Error> {
    let mut pts = random_points::<P>(n, rng);
    match case {
        "off-curve" => {
            let (x, y) = pts[3].xy().unwrap();
            pts[3] = Affine::<P>::new_unchecked(x, y + P::BaseField::ONE);
        }
        "not-in-subgroup" if P::COFACTOR == [1] => {
            println!("refused: none (the curve's cofactor is 1: every point on it is in the subgroup)");
            exit(2);
        }
        "not-in-subgroup" => match (1u64..).find_map(|x| Affine::<P>::get_point_from_x_unchecked(P::BaseField::from(x), false)
            .filter(|p| !p.is_in_correct_subgroup_assuming_on_curve())) {
            Some(p) => pts[5] = p,
            None => unreachable!("a curve with cofactor > 1 has points outside the subgroup"),
        },
        _ => {}
    }
    let bases = cards.load_bases(&pts)?;
    let sc: Vec<P::ScalarField> = (0..n + 1).map(|_| P::ScalarField::rand(rng)).collect();
    bases.msm(&sc).map(|_| ())
}

fn run<P: CardCurve>(devices: &str, n: usize, seed: u64, case: &str, windows: Option<String>) -> Result<(), Error> {
    let mut rng = StdRng::seed_from_u64(seed);
    let cards = open::<P>(devices, windows)?;
    println!("cards {} ({}), layout of {} windows", cards.prefixes().join(","), P::CURVE.name(), cards.layout().num_windows());
    match case {
        "sets" => sets(&cards, n, &mut rng)?,
        "batch" => batch(&cards, n, &mut rng)?,
        "two-sets" => two_sets(&cards, n, &mut rng)?,
        "store-full" => store_full(&cards, n, &mut rng)?,
        "off-curve" | "not-in-subgroup" | "too-many-scalars" => refused(&cards, n, case, &mut rng)?,
        _ => {
            eprintln!("compare: unknown case {case}");
            exit(2);
        }
    }
    for (card, why) in cards.failures() {
        println!("dropped {card}: {why}");
    }
    Ok(())
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 6 {
        eprintln!("usage: compare CURVE DEVICES NPOINTS SEED CASE [WINDOWS]");
        exit(2);
    }
    let (n, seed) = match (a[3].parse::<usize>(), a[4].parse::<u64>()) {
        (Ok(n), Ok(s)) if n >= 8 => (n, s),
        _ => {
            eprintln!("compare: NPOINTS (>= 8) and SEED are numbers");
            exit(2);
        }
    };
    let w = a.get(6).cloned();
    let r = match a[1].as_str() {
        "bls12_377" => run::<ark_bls12_377::g1::Config>(&a[2], n, seed, &a[5], w),
        "bn254" => run::<ark_bn254::g1::Config>(&a[2], n, seed, &a[5], w),
        "bls12_381" => run::<ark_bls12_381::g1::Config>(&a[2], n, seed, &a[5], w),
        c => {
            eprintln!("compare: unknown curve {c}");
            exit(2);
        }
    };
    match r {
        Ok(()) => {}
        Err(e @ Error::Input(_)) => {
            println!("{e}");
            exit(2);
        }
        Err(e) => {
            eprintln!("compare: {e}");
            exit(1);
        }
    }
}
