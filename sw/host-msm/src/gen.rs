//! Deterministic data sets, bit for bit those of reference_model/msm_data.py:
//!   draw(seed, label, i) = LE(SHA-256(TAG || label || seed || i || 0) || SHA-256(... || 1)) mod r
//!   point i = max(draw(seed, "point", i), 1) * G; scalar i = draw(seed, "scalar", i);
//!   trivial: every point G, every scalar 0 but scalar 0.

use ark_bls12_377::{Fr, G1Affine, G1Projective};
use ark_ec::{scalar_mul::ScalarMul, PrimeGroup};
use ark_ff::{PrimeField, Zero};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

pub const GEN_TAG: &[u8] = b"zkspinal-msm-gen";

pub fn draw(seed: u64, label: &[u8], i: u64) -> Fr {
    draw_in::<Fr>(seed, label, i)
}

pub fn generate(npow: u32, seed: u64, trivial: bool) -> (Vec<G1Affine>, Vec<[u64; 4]>) {
    let n = 1usize << npow;
    let g = G1Projective::generator();
    if trivial {
        let mut scalars = vec![[0u64; 4]; n];
        scalars[0] = draw(seed, b"scalar", 0).into_bigint().0;
        return (vec![g.into(); n], scalars);
    }
    let ks: Vec<Fr> = (0..n as u64)
        .into_par_iter()
        .map(|i| {
            let k = draw(seed, b"point", i);
            if k.is_zero() { Fr::from(1u64) } else { k }
        })
        .collect();
    let points = g.batch_mul(&ks);
    let scalars = (0..n as u64).into_par_iter().map(|i| draw(seed, b"scalar", i).into_bigint().0).collect();
    (points, scalars)
}

/// `draw` in any scalar field (the model's draw(seed, label, i, order))
pub fn draw_in<Fs: PrimeField>(seed: u64, label: &[u8], i: u64) -> Fs {
    let mut wide = [0u8; 64];
    for half in 0..2u8 {
        let mut h = Sha256::new();
        h.update(GEN_TAG);
        h.update(label);
        h.update(seed.to_le_bytes());
        h.update(i.to_le_bytes());
        h.update([half]);
        wide[32 * half as usize..32 * (half as usize + 1)].copy_from_slice(&h.finalize());
    }
    Fs::from_le_bytes_mod_order(&wide)
}

fn words<Fs: PrimeField>(s: Fs) -> [u64; 4] {
    let mut o = [0u64; 4];
    o.copy_from_slice(&s.into_bigint().as_ref()[..4]);
    o
}

/// `generate` on any short Weierstrass curve (msm_data.generate(curve=) in the model)
pub fn generate_sw<P: ark_ec::short_weierstrass::SWCurveConfig>(npow: u32, seed: u64, trivial: bool)
    -> (Vec<ark_ec::short_weierstrass::Affine<P>>, Vec<[u64; 4]>) {
    use ark_ec::short_weierstrass::Projective;
    let n = 1usize << npow;
    let g = Projective::<P>::generator();
    if trivial {
        let mut scalars = vec![[0u64; 4]; n];
        scalars[0] = words(draw_in::<P::ScalarField>(seed, b"scalar", 0));
        return (vec![g.into(); n], scalars);
    }
    let ks: Vec<P::ScalarField> = (0..n as u64)
        .into_par_iter()
        .map(|i| {
            let k = draw_in::<P::ScalarField>(seed, b"point", i);
            if k.is_zero() { P::ScalarField::from(1u64) } else { k }
        })
        .collect();
    let points = g.batch_mul(&ks);
    let scalars = (0..n as u64).into_par_iter().map(|i| words(draw_in::<P::ScalarField>(seed, b"scalar", i))).collect();
    (points, scalars)
}
