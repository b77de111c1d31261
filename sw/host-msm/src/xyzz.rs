//! Short Weierstrass curves with a = 0 (BN254, BLS12-381 G1): the host side of the XYZZ bucket adder
//! (hw/src/zkspinal/msm/XyzzAdder.scala, reference_model/curves/xyzz.py), generic over arkworks' curve configuration.
//!
//! * field words: x in the hardware Montgomery form x * 2^n mod p, n = the bits of p (reference_model/field.py),
//!   at positions k*n of a record (MsmRecord at the curve's n, record.rs: BN254 two-beat point records and
//!   three-beat bucket records, BLS12-381 three and four)
//! * point record: (x, y, m = 3x^2); the point at infinity's record is (0, 0, 0) (the engine drops its additions)
//! * bucket record: (X, Y, ZZ, ZZZ), the affine (X/ZZ, Y/ZZZ); ZZ = 0 is infinity; then the tag (window, bucket) at 4n
//! * post-processing: bucket k of window j counts k times (running sums from the top bucket down), windows combined
//!   by doubling from the top; unclaimed partial buckets (tag 0/0) must be infinity
//! * `accumulate`: the engine's bucket accumulation, exactly the adder's data path (xyzz.datapath), for tests

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{BigInteger, Field, One, PrimeField, Zero};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use rayon::prelude::*;

use crate::layout::WindowLayout;
use crate::record::{Rec, Records, Word};
use crate::HostError;

pub use crate::curve::Curve;

type F<P> = <P as ark_ec::CurveConfig>::BaseField;

/// the field's n (bits of p)
pub fn field_bits<P: SWCurveConfig>() -> u32
where
    F<P>: PrimeField,
{
    <F<P> as PrimeField>::MODULUS_BIT_SIZE
}

fn r_hw<P: SWCurveConfig>() -> F<P>
where
    F<P>: PrimeField,
{
    F::<P>::from(2u64).pow([field_bits::<P>() as u64])
}

/// the hardware word (x * 2^n mod p) of x
pub fn to_word<P: SWCurveConfig>(x: &F<P>) -> Word
where
    F<P>: PrimeField,
{
    to_word_scaled::<P>(&(*x * r_hw::<P>()))
}

fn to_word_scaled<P: SWCurveConfig>(xr: &F<P>) -> Word
where
    F<P>: PrimeField,
{
    let b = xr.into_bigint();
    let mut w = [0u64; 6];
    w[..b.as_ref().len()].copy_from_slice(b.as_ref());
    w
}

/// x from its hardware word, or None if the word is not below p
pub fn from_word<P: SWCurveConfig>(w: &Word, r_inv: &F<P>) -> Option<F<P>>
where
    F<P>: PrimeField,
{
    let mut b = <F<P> as PrimeField>::BigInt::default();
    let l = b.as_ref().len();
    if w[l..].iter().any(|&v| v != 0) {
        return None;
    }
    b.as_mut().copy_from_slice(&w[..l]);
    F::<P>::from_bigint(b).map(|v| v * r_inv)
}

/// the curve's records (the contract's at its n)
pub fn records<P: SWCurveConfig>() -> Records
where
    F<P>: PrimeField,
{
    Records::at(field_bits::<P>())
}

/// the record of one affine point (infinity: all zero)
pub fn point_record<P: SWCurveConfig>(p: &Affine<P>, out: &mut [u8])
where
    F<P>: PrimeField,
{
    let r = records::<P>();
    let mut rec = Rec::zero(r.point_bytes);
    if let Some((x, y)) = p.xy() {
        let m = F::<P>::from(3u64) * x.square();
        for (f, v) in r.point.iter().zip([x, y, m]) {
            rec.put(*f, &to_word::<P>(&v));
        }
    }
    rec.write(&mut out[..r.point_bytes]);
}

/// the point records of affine points (in parallel), records::<P>().point_bytes each
pub fn point_records<P: SWCurveConfig>(points: &[Affine<P>]) -> Vec<u8>
where
    F<P>: PrimeField,
{
    let rb = records::<P>().point_bytes;
    let mut out = vec![0u8; points.len() * rb];
    out.par_chunks_mut(rb).zip(points.par_iter()).for_each(|(o, p)| point_record(p, o));
    out
}

/// bytes of one point in arkworks' uncompressed encoding (BN254 64, BLS12-381 96)
pub fn point_bytes<P: SWCurveConfig>() -> usize {
    Affine::<P>::identity().serialized_size(Compress::No)
}

/// One point in arkworks' uncompressed encoding (the curve's own, e.g. zcash style for BLS12-381), checked: on the
/// curve, and in the prime-order subgroup.
pub fn decode_point<P: SWCurveConfig>(b: &[u8]) -> Result<Affine<P>, &'static str> {
    let p = Affine::<P>::deserialize_with_mode(b, Compress::No, Validate::No).map_err(|_| "bad encoding")?;
    if !p.is_on_curve() {
        return Err("not on the curve");
    }
    if !p.is_in_correct_subgroup_assuming_on_curve() {
        return Err("not in the prime-order subgroup");
    }
    Ok(p)
}

pub fn encode_point<P: SWCurveConfig>(p: &Affine<P>, out: &mut Vec<u8>) {
    p.serialize_with_mode(out, Compress::No).expect("Vec write");
}

/// Encoded points -> checked affine points; errors name the point.
pub fn decode_points<P: SWCurveConfig>(data: &[u8]) -> Result<Vec<Affine<P>>, HostError> {
    let pb = point_bytes::<P>();
    if data.len() % pb != 0 {
        return Err(HostError::new(format!("point data of {} bytes is not a multiple of {pb}", data.len())));
    }
    data.par_chunks(pb).enumerate().map(|(i, b)| decode_point::<P>(b).map_err(|m| HostError::at("points", i, m)))
        .collect()
}

/// scalar words: 32 bytes LE; checks < r
pub fn decode_scalar<P: SWCurveConfig>(b: &[u8]) -> Result<[u64; 4], &'static str> {
    let mut s = [0u64; 4];
    for (i, l) in s.iter_mut().enumerate() {
        *l = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
    }
    let r = <P::ScalarField as PrimeField>::MODULUS;
    let r = r.as_ref();
    for i in (0..4).rev() {
        let ri = if i < r.len() { r[i] } else { 0 };
        if s[i] != ri {
            return if s[i] < ri { Ok(s) } else { Err("not below r") };
        }
    }
    Err("not below r")
}

/// r - 1 of the curve's scalar field (for WindowLayout::with_max_scalar)
pub fn r_minus_1<P: SWCurveConfig>() -> ark_ff::BigInt<4> {
    let mut r = <P::ScalarField as PrimeField>::MODULUS;
    r.sub_with_borrow(&<P::ScalarField as PrimeField>::BigInt::from(1u64));
    let mut out = ark_ff::BigInt::<4>::zero();
    out.0.copy_from_slice(&r.as_ref()[..4]);
    out
}

/// The window layout `widths` for the curve's scalars: below r (`scalar_bits` 0) or below 2^scalar_bits.
pub fn layout<P: SWCurveConfig>(widths: &[u32], scalar_bits: u32) -> Result<WindowLayout, HostError> {
    let r1 = r_minus_1::<P>();
    let max = if scalar_bits == 0 {
        r1
    } else {
        if scalar_bits >= r1.num_bits() {
            return Err(HostError::new(format!("scalar bound 2^{scalar_bits} is above r")));
        }
        let mut m = ark_ff::BigInt::<4>::from(1u64) << scalar_bits;
        m.sub_with_borrow(&1u64.into());
        m
    };
    WindowLayout::with_max_scalar(widths, max).map_err(HostError::new)
}

/// A bucket (X, Y, ZZ, ZZZ) of plain values
pub type Bucket<P> = [F<P>; 4];

fn bucket_point<P: SWCurveConfig>(b: &Bucket<P>) -> Option<Projective<P>>
where
    F<P>: PrimeField,
{
    let [x, y, zz, zzz] = *b;
    if zz.is_zero() {
        return Some(Projective::<P>::zero());
    }
    if zz.square() * zz != zzz.square() {
        return None;
    }
    // Jacobian (X*ZZ, Y*ZZZ, ZZ): x = X*ZZ/ZZ^2, y = Y*ZZZ/ZZ^3 = Y*ZZZ/ZZZ^2
    Some(Projective::<P>::new_unchecked(x * zz, y * zzz, zz))
}

fn read_bucket<P: SWCurveConfig>(data: &[u8], idx: usize, what: &str, r_inv: &F<P>)
    -> Result<(Projective<P>, usize, usize), HostError>
where
    F<P>: PrimeField,
{
    let r = records::<P>();
    let rec = Rec::from_bytes(&data[idx * r.bucket_bytes..(idx + 1) * r.bucket_bytes]);
    let (tw, tb) = rec.tag(r.tag);
    let mut v = [F::<P>::zero(); 4];
    for (i, e) in v.iter_mut().enumerate() {
        *e = from_word::<P>(&rec.get(r.bucket[i]), r_inv).ok_or_else(|| {
            HostError::new(format!("{what} record {idx} (window {tw} bucket {tb}): a coordinate is >= p"))
        })?;
    }
    let p = bucket_point::<P>(&v).ok_or_else(|| {
        HostError::new(format!("{what} record {idx} (window {tw} bucket {tb}): ZZ^3 != ZZZ^2 is no XYZZ point"))
    })?;
    if !p.into_affine().is_on_curve() {
        return Err(HostError::new(format!("{what} record {idx} (window {tw} bucket {tb}): not on the curve")));
    }
    Ok((p, tw, tb))
}

/// The read-out stream (every bucket, then `layout.partials()` partial buckets) -> sum_i s_i * P_i.
pub fn postprocess<P: SWCurveConfig>(layout: &WindowLayout, buckets: &[u8]) -> Result<Affine<P>, HostError>
where
    F<P>: PrimeField,
{
    let total = layout.total_records();
    let rb = records::<P>().bucket_bytes;
    if buckets.len() != total * rb {
        return Err(HostError::new(format!(
            "bucket data is {} bytes; the layout needs {total} records ({} buckets, {} partial) of {rb} bytes = {}",
            buckets.len(), layout.total_buckets(), layout.partials(), total * rb)));
    }
    let r_inv = r_hw::<P>().inverse().unwrap();
    let mut parts = Vec::new();
    for idx in layout.total_buckets()..total {
        let (p, tw, tb) = read_bucket::<P>(buckets, idx, "partial bucket", &r_inv)?;
        if (tw, tb) == (0, 0) {
            if !p.is_zero() {
                return Err(HostError::new(format!(
                    "partial bucket record {idx}: unclaimed (tag 0/0) but not infinity")));
            }
        } else if tw >= layout.num_windows() || tb == 0 || tb > layout.buckets(tw) {
            return Err(HostError::new(format!(
                "partial bucket record {idx}: tag window {tw} bucket {tb} is outside the layout")));
        } else {
            parts.push((tw, tb, p));
        }
    }
    let sums: Vec<Projective<P>> = (0..layout.num_windows())
        .into_par_iter()
        .map(|j| {
            let first = layout.first_record(j);
            let mut pts = Vec::with_capacity(layout.buckets(j));
            for b in 0..layout.buckets(j) {
                let idx = first + b;
                let (p, tw, tb) = read_bucket::<P>(buckets, idx, "bucket", &r_inv)?;
                if (tw, tb) != (j, b + 1) {
                    return Err(HostError::new(format!(
                        "bucket record {idx}: tag says window {tw} bucket {tb}, expected window {j} bucket {}",
                        b + 1)));
                }
                pts.push(p);
            }
            for (_, k, p) in parts.iter().filter(|e| e.0 == j) {
                pts[k - 1] += p;
            }
            Ok(window_sum(&pts))
        })
        .collect::<Result<_, HostError>>()?;
    Ok(combine(layout, &sums))
}

/// sum_k k * B_k of one window's buckets B_1.. (running sums from the top down)
pub fn window_sum<P: SWCurveConfig>(pts: &[Projective<P>]) -> Projective<P> {
    let mut running = Projective::<P>::zero();
    let mut total = Projective::<P>::zero();
    for p in pts.iter().rev() {
        running += p;
        total += running;
    }
    total
}

/// the window sums combined by doubling (Horner from the top window)
pub fn combine<P: SWCurveConfig>(layout: &WindowLayout, sums: &[Projective<P>]) -> Affine<P> {
    let mut acc = Projective::<P>::zero();
    for j in (0..layout.num_windows()).rev() {
        if j + 1 < layout.num_windows() {
            for _ in 0..layout.widths()[j] {
                acc.double_in_place();
            }
        }
        acc += sums[j];
    }
    acc.into_affine()
}

/// The adder's data path (reference_model/curves/xyzz.py datapath) on plain values: bucket b, record (x, y, m).
pub fn datapath<P: SWCurveConfig>(b: &Bucket<P>, q: &[F<P>; 3], negate: bool) -> Bucket<P>
where
    F<P>: PrimeField,
{
    let [mut x1, mut y1, mut zz, mut zzz] = *b;
    let [x, y, m] = *q;
    let qs = if negate { -y } else { y };
    if zz.is_zero() {
        return [x, qs, F::<P>::one(), F::<P>::one()];
    }
    let a = x * zz;
    let bp = y * zzz;
    let mut pd = a - x1;
    let mut r = if negate { bp + y1 } else { bp - y1 };
    let double = pd.is_zero() && r.is_zero();
    if double {
        pd = qs.double();
        r = m;
        x1 = x;
        y1 = qs;
        zz = F::<P>::one();
        zzz = F::<P>::one();
    }
    let pp = pd.square();
    let rr = r.square();
    let ppp = pd * pp;
    let qv = x1 * pp;
    let zz3 = zz * pp;
    let x3 = rr - (if double { F::<P>::zero() } else { ppp }) - qv.double();
    let zzz3 = zzz * ppp;
    let yp = y1 * ppp;
    let d = if negate && !double { x3 - qv } else { qv - x3 };
    let y3 = r * d - yp;
    [x3, y3, zz3, zzz3]
}

/// The engine's buckets (plain values, per window) for these points and scalars: every addition of a point at
/// infinity dropped, the rest through `datapath` (no records involved).
pub fn accumulate_buckets<P: SWCurveConfig>(layout: &WindowLayout, points: &[Affine<P>], scalars: &[[u64; 4]])
    -> Vec<Vec<Bucket<P>>>
where
    F<P>: PrimeField,
{
    assert_eq!(points.len(), scalars.len());
    let w = layout.num_windows();
    let recs: Vec<Option<[F<P>; 3]>> =
        points.iter().map(|p| p.xy().map(|(x, y)| [x, y, F::<P>::from(3u64) * x.square()])).collect();
    (0..w).into_par_iter().map(|j| {
        let mut bk = vec![[F::<P>::zero(); 4]; layout.buckets(j)];
        let mut d = vec![0i32; w];
        for (i, q) in recs.iter().enumerate() {
            let Some(q) = q else { continue };
            layout.digits(&scalars[i], &mut d);
            if d[j] != 0 {
                let k = d[j].unsigned_abs() as usize - 1;
                bk[k] = datapath::<P>(&bk[k], q, d[j] < 0);
            }
        }
        bk
    }).collect()
}

/// the bucket (plain values) as a point, or None if ZZ^3 != ZZZ^2
pub fn bucket_to_point<P: SWCurveConfig>(b: &Bucket<P>) -> Option<Projective<P>>
where
    F<P>: PrimeField,
{
    bucket_point::<P>(b)
}

/// The engine's bucket read-out (no partial buckets) for these points and scalars (`accumulate_buckets` as records).
pub fn accumulate<P: SWCurveConfig>(layout: &WindowLayout, points: &[Affine<P>], scalars: &[[u64; 4]]) -> Vec<u8>
where
    F<P>: PrimeField,
{
    let r = records::<P>();
    let rb = r.bucket_bytes;
    let buckets = accumulate_buckets::<P>(layout, points, scalars);
    let mut out = vec![0u8; layout.total_buckets() * rb];
    for (j, bk) in buckets.iter().enumerate() {
        let first = layout.first_record(j);
        for (b, v) in bk.iter().enumerate() {
            out[(first + b) * rb..(first + b + 1) * rb].copy_from_slice(&bucket_record::<P>(v, j, b + 1));
        }
    }
    out
}

/// the bucket record of a bucket (plain values) with its tag (window, bucket k; 0, 0 for an unclaimed partial record)
pub fn bucket_record<P: SWCurveConfig>(v: &Bucket<P>, window: usize, bucket: usize) -> Vec<u8>
where
    F<P>: PrimeField,
{
    let r = records::<P>();
    let mut rec = Rec::zero(r.bucket_bytes);
    for (c, e) in v.iter().enumerate() {
        rec.put(r.bucket[c], &to_word::<P>(e));
    }
    rec.put_tag(r.tag, window, bucket);
    let mut out = vec![0u8; r.bucket_bytes];
    rec.write(&mut out);
    out
}

/// `0x<x> 0x<y>` (hex digits of the field's byte size), or `infinity`
pub fn format_result<P: SWCurveConfig>(p: &Affine<P>) -> String
where
    F<P>: PrimeField,
{
    match p.xy() {
        None => "infinity".to_string(),
        Some((x, y)) => format!("0x{} 0x{}", hex(&x), hex(&y)),
    }
}

fn hex<Fe: PrimeField>(x: &Fe) -> String {
    let digits = (Fe::MODULUS_BIT_SIZE as usize).div_ceil(8) * 2;
    let s: String = x.into_bigint().as_ref().iter().rev().map(|l| format!("{l:016x}")).collect();
    s[s.len() - digits..].to_string()
}

#[cfg(test)]
mod tests;
