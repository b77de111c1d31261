//! BLS12-377's stream records and file encodings (reference_model/msm_formats.md; the records of every curve: record.rs).
//!
//! Hardware field words are x*2^377 mod p.  arkworks keeps Fq as x*2^384 mod p, so the limbs of the arkworks
//! element x*2^-7 are exactly the hardware word of x, and an arkworks element built from a hardware word without
//! conversion (`new_unchecked`) is x*2^-7: conversions cost at most one multiplication by a constant.

use ark_bls12_377::{Fq, G1Affine};
use ark_ff::{BigInt, PrimeField};

use crate::contract::{self as c, Field};
use crate::record::Records;
pub use crate::record::Word;

/// n: the bits of a field element in the records (MsmRecord's positions are multiples of it)
pub const FIELD_BITS: u32 = <Fq as PrimeField>::MODULUS_BIT_SIZE;
/// BLS12-377's records (the contract's at n = 377)
pub const RECORDS: Records = Records::at(FIELD_BITS);
/// bytes of BLS12-377's point record and bucket record
pub const POINT_RECORD_BYTES: usize = RECORDS.point_bytes;
pub const BUCKET_RECORD_BYTES: usize = RECORDS.bucket_bytes;
/// QM, QP, QT of a point record
pub const POINT_FIELDS: [Field; 3] = RECORDS.point;
/// U, V, W, T of a bucket record
pub const BUCKET_FIELDS: [Field; 4] = RECORDS.bucket;
/// the tag (MSM_RECORD_TAG_WINDOW, MSM_RECORD_TAG_BUCKET) in a bucket record
pub const TAG: Field = RECORDS.tag;
pub const WINDOW_TAG_BITS: usize = c::MSM_RECORD_TAG_WINDOW.width as usize;
pub const POINT_BYTES: usize = 96;
pub const SCALAR_BYTES: usize = c::MSM_RECORD_SCALARS_FIRST.at(0).width as usize / 8;

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

    /// the C API's hand-written sizes (include/zkmsm.h) are this crate's; record sizes are not among them (the
    /// functions zkmsm_curve_*_record_bytes give them, from the contract)
    #[test]
    fn public_header_agrees() {
        let h = include_str!("../include/zkmsm.h");
        for (name, v) in [("SCALAR", SCALAR_BYTES), ("POINT", POINT_BYTES)] {
            assert!(h.contains(&format!("#define ZKMSM_{name}_BYTES {v}\n")), "zkmsm.h: ZKMSM_{name}_BYTES is not {v}");
        }
        assert!(!h.contains("#define ZKMSM_RECORD"), "zkmsm.h: record sizes depend on the curve");
    }

    /// BLS12-377's records: three beats each, the tag filling the bucket record's last word
    #[test]
    fn bls12_377_records() {
        assert_eq!((POINT_RECORD_BYTES, BUCKET_RECORD_BYTES), (3 * 64, 3 * 64));
        assert_eq!(TAG.lsb % 64 + TAG.width, 64, "the tag fills the last word");
        let mut rec = crate::record::Rec::zero(BUCKET_RECORD_BYTES);
        rec.put_tag(TAG, 5, 1234);
        assert_eq!(rec.words()[rec.words().len() - 1] >> (TAG.lsb % 64), (1234 << c::MSM_RECORD_TAG_BUCKET.lsb) | 5);
    }
}
