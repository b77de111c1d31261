//! Stream records and file encodings (reference_model/msm_formats.md).
//!
//! Hardware field words are x*2^377 mod p.  arkworks keeps Fq as x*2^384 mod p, so the limbs of the arkworks
//! element x*2^-7 are exactly the hardware word of x, and an arkworks element built from a hardware word without
//! conversion (`new_unchecked`) is x*2^-7: conversions cost at most one multiplication by a constant.

use ark_bls12_377::{Fq, G1Affine};
use ark_ff::{BigInt, PrimeField};

use crate::contract::{self as c, Field};

/// n: the bits of a field element in the records (MsmRecord's positions are multiples of it)
pub const FIELD_BITS: u32 = <Fq as PrimeField>::MODULUS_BIT_SIZE;
pub const RECORD_BYTES: usize = c::MSM_RECORD_POINT.bytes();
pub const RECORD_WORDS: usize = c::MSM_RECORD_POINT.words();
/// QM, QP, QT of a point record
pub const POINT_FIELDS: [Field; 3] =
    [c::MSM_RECORD_POINT_QM.at(FIELD_BITS), c::MSM_RECORD_POINT_QP.at(FIELD_BITS), c::MSM_RECORD_POINT_QT.at(FIELD_BITS)];
/// U, V, W, T of a bucket record
pub const BUCKET_FIELDS: [Field; 4] = [c::MSM_RECORD_BUCKET_U.at(FIELD_BITS), c::MSM_RECORD_BUCKET_V.at(FIELD_BITS),
    c::MSM_RECORD_BUCKET_W.at(FIELD_BITS), c::MSM_RECORD_BUCKET_T.at(FIELD_BITS)];
/// the tag (MSM_RECORD_TAG_WINDOW, MSM_RECORD_TAG_BUCKET) in a bucket record
pub const TAG: Field = c::MSM_RECORD_BUCKET_TAG.at(FIELD_BITS);
pub const WINDOW_TAG_BITS: usize = c::MSM_RECORD_TAG_WINDOW.width as usize;
pub const POINT_BYTES: usize = 96;
pub const SCALAR_BYTES: usize = c::MSM_RECORD_SCALARS_FIRST.at(0).width as usize / 8;
const _: () = assert!(FIELD_BITS <= c::MSM_RECORD_BUCKET.max_n && c::MSM_RECORD_BUCKET.bytes() == RECORD_BYTES
    && FIELD_BITS as usize <= 64 * 6 && TAG.width <= 64);

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

/// writes a field element's word into its field of a record
pub fn put_field(rec: &mut [u64; RECORD_WORDS], f: Field, v: &Word) {
    f.put_words(rec, v);
}

/// a field element's word from its field of a record
pub fn get_field(rec: &[u64; RECORD_WORDS], f: Field) -> Word {
    let mut v = [0u64; 6];
    f.get_words(rec, &mut v);
    v
}

pub fn put_tag(rec: &mut [u64; RECORD_WORDS], window: usize, bucket: usize) {
    let tag = c::MSM_RECORD_TAG_WINDOW.put(window as u64) | c::MSM_RECORD_TAG_BUCKET.put(bucket as u64);
    TAG.put_words(rec, &[tag]);
}

/// (window, bucket) from a record's tag
pub fn get_tag(rec: &[u64; RECORD_WORDS]) -> (usize, usize) {
    let mut tag = [0u64];
    TAG.get_words(rec, &mut tag);
    (c::MSM_RECORD_TAG_WINDOW.get(tag[0]) as usize, c::MSM_RECORD_TAG_BUCKET.get(tag[0]) as usize)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// the C API's hand-written sizes (include/zkmsm.h) are this crate's, which are the contract's
    #[test]
    fn public_header_agrees() {
        let h = include_str!("../include/zkmsm.h");
        for (name, v) in [("RECORD", RECORD_BYTES), ("SCALAR", SCALAR_BYTES), ("POINT", POINT_BYTES)] {
            assert!(h.contains(&format!("#define ZKMSM_{name}_BYTES {v}\n")), "zkmsm.h: ZKMSM_{name}_BYTES is not {v}");
        }
    }

    #[test]
    fn fields_round_trip() {
        let mut rec = [u64::MAX; RECORD_WORDS];
        let w: Word = [1, 2, 3, 4, 5, (1 << 56) | 7];
        for f in BUCKET_FIELDS {
            put_field(&mut rec, f, &w);
            assert_eq!(get_field(&rec, f), w);
        }
        put_tag(&mut rec, 5, 1234);
        assert_eq!(get_tag(&rec), (5, 1234));
        assert_eq!(TAG.lsb % 64 + TAG.width, 64, "the tag fills the last word");
        assert_eq!(rec[RECORD_WORDS - 1] >> (TAG.lsb % 64), (1234 << c::MSM_RECORD_TAG_BUCKET.lsb) | 5);
        let mut bytes = [0u8; RECORD_BYTES];
        record_to_bytes(&rec, &mut bytes);
        assert_eq!(record_from_bytes(&bytes), rec);
    }
}
