//! Stream records and file encodings (reference_model/msm_formats.md).
//!
//! Hardware field words are x*2^377 mod p.  arkworks keeps Fq as x*2^384 mod p, so the limbs of the arkworks
//! element x*2^-7 are exactly the hardware word of x, and an arkworks element built from a hardware word without
//! conversion (`new_unchecked`) is x*2^-7: conversions cost at most one multiplication by a constant.

use ark_bls12_377::{Fq, G1Affine};
use ark_ff::{BigInt, PrimeField};

pub const FIELD_BITS: usize = 377;
pub const RECORD_BYTES: usize = 192;
pub const RECORD_WORDS: usize = RECORD_BYTES / 8;
pub const TAG_OFFSET: usize = 4 * FIELD_BITS;
pub const WINDOW_TAG_BITS: usize = crate::contract::MSM_RECORD_TAG_WINDOW.width as usize;
pub const POINT_BYTES: usize = 96;
pub const SCALAR_BYTES: usize = 32;
const TOP_MASK: u64 = (1u64 << (FIELD_BITS - 320)) - 1;

pub type Word = [u64; 6];

/// the hardware word of an element given as (x * 2^-7): its Montgomery limbs
#[inline]
pub fn hw_word(x_times_inv_2_7: &Fq) -> Word {
    x_times_inv_2_7.0 .0
}

/// x * 2^-7 from the hardware word of x, or None if the word is not below p
#[inline]
pub fn from_hw_word(w: &Word) -> Option<Fq> {
    let b = BigInt::<6>(*w);
    if b < Fq::MODULUS {
        Some(Fq::new_unchecked(b))
    } else {
        None
    }
}

pub fn put_field(rec: &mut [u64; RECORD_WORDS], offset: usize, v: &Word) {
    let (q, r) = (offset / 64, offset % 64);
    for i in 0..6 {
        rec[q + i] |= v[i] << r;
        if r > 0 && q + i + 1 < RECORD_WORDS {
            rec[q + i + 1] |= v[i] >> (64 - r);
        }
    }
}

pub fn get_field(rec: &[u64; RECORD_WORDS], offset: usize) -> Word {
    let (q, r) = (offset / 64, offset % 64);
    let mut v = [0u64; 6];
    for i in 0..6 {
        v[i] = rec[q + i] >> r;
        if r > 0 && q + i + 1 < RECORD_WORDS {
            v[i] |= rec[q + i + 1] << (64 - r);
        }
    }
    v[5] &= TOP_MASK;
    v
}

pub fn put_tag(rec: &mut [u64; RECORD_WORDS], window: usize, bucket: usize) {
    // bits 1508..1536 all lie in the last word
    use crate::contract::{MSM_RECORD_TAG_BUCKET as B, MSM_RECORD_TAG_WINDOW as W};
    let tag = ((window as u64 & W.mask()) << W.lsb) | ((bucket as u64 & B.mask()) << B.lsb);
    rec[RECORD_WORDS - 1] |= tag << (TAG_OFFSET % 64);
}

/// (window, bucket) from a record's tag
pub fn get_tag(rec: &[u64; RECORD_WORDS]) -> (usize, usize) {
    let tag = rec[RECORD_WORDS - 1] >> (TAG_OFFSET % 64);
    use crate::contract::{MSM_RECORD_TAG_BUCKET as B, MSM_RECORD_TAG_WINDOW as W};
    (W.get(tag) as usize, B.get(tag) as usize)
}

pub fn record_to_bytes(rec: &[u64; RECORD_WORDS], out: &mut [u8]) {
    for (i, w) in rec.iter().enumerate() {
        out[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
    }
}

pub fn record_from_bytes(inp: &[u8]) -> [u64; RECORD_WORDS] {
    let mut rec = [0u64; RECORD_WORDS];
    for (i, w) in rec.iter_mut().enumerate() {
        *w = u64::from_le_bytes(inp[8 * i..8 * i + 8].try_into().unwrap());
    }
    rec
}

fn le_limbs(b: &[u8]) -> Word {
    let mut v = [0u64; 6];
    for (i, l) in v.iter_mut().enumerate() {
        *l = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
    }
    v
}

/// One point in arkworks' uncompressed encoding (x LE, y LE, flags in the top two bits of byte 95: bit 7 y
/// negative, bit 6 infinity).  Checks the coordinates are below p and the point is on the curve.
pub fn decode_point(b: &[u8]) -> Result<G1Affine, &'static str> {
    let flags = b[95] >> 6;
    let x = le_limbs(&b[..48]);
    let mut y = le_limbs(&b[48..96]);
    y[5] &= (1u64 << 62) - 1;
    match flags {
        3 => Err("invalid flags (both infinity and negative)"),
        1 => {
            if x.iter().chain(y.iter()).any(|&l| l != 0) {
                Err("infinity flag with non-zero coordinates")
            } else {
                Ok(G1Affine::identity())
            }
        }
        _ => {
            let x = Fq::from_bigint(BigInt(x)).ok_or("x coordinate not below p")?;
            let y = Fq::from_bigint(BigInt(y)).ok_or("y coordinate not below p")?;
            let p = G1Affine::new_unchecked(x, y);
            if p.is_on_curve() {
                Ok(p)
            } else {
                Err("not on the curve y^2 = x^3 + 1")
            }
        }
    }
}

pub fn encode_point(p: &G1Affine, out: &mut [u8]) {
    use ark_serialize::CanonicalSerialize;
    p.serialize_uncompressed(&mut out[..POINT_BYTES]).expect("96-byte buffer");
}

/// scalar words: 32 bytes LE; checks < r
pub fn decode_scalar(b: &[u8]) -> Result<[u64; 4], &'static str> {
    let mut s = [0u64; 4];
    for (i, l) in s.iter_mut().enumerate() {
        *l = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
    }
    if BigInt::<4>(s) < ark_bls12_377::Fr::MODULUS {
        Ok(s)
    } else {
        Err("not below r")
    }
}

/// `0x<x> 0x<y>` with 96 hex digits each, or `infinity`
pub fn format_result(p: &G1Affine) -> String {
    use ark_ec::AffineRepr;
    match p.xy() {
        None => "infinity".to_string(),
        Some((x, y)) => format!("0x{} 0x{}", hex96(&x), hex96(&y)),
    }
}

pub fn hex96(x: &Fq) -> String {
    x.into_bigint().0.iter().rev().map(|l| format!("{l:016x}")).collect()
}
