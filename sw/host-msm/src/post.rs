//! Bucket post-processing: the read-out of the engine -> sum_i s_i * P_i as an affine Weierstrass point.
//!
//! The read-out holds every bucket, then `layout.partials()` partial buckets, each tagged with the bucket it belongs
//! to (window j, bucket k) or 0/0 when unclaimed (then it must be the identity); a partial is added into its bucket
//! before the window sums.
//!
//! A record (U, V, W, T) is the point (X : Y : Z : T) = (V - U : V + U : W : 4T) in extended twisted Edwards
//! coordinates (a common factor 4 dropped).  Reading the hardware words without conversion multiplies every
//! coordinate by 2^-7 (format.rs), which is one more common factor: no multiplication is needed at all.
//! Per window (in parallel): running sums from the top bucket down (running += B_k, total += running) give
//! sum_k k * B_k; windows are combined by doubling (Horner from the top window); the result goes back through the
//! inverse birational map; exceptions are added in Weierstrass form.

use ark_bls12_377::{g1::G1TEProjective, Fq, G1Affine, G1Projective};
use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{BigInt, Field, One, Zero};
use rayon::prelude::*;

use crate::consts::consts;
use crate::format::{from_hw_word, BUCKET_FIELDS, BUCKET_RECORD_BYTES, TAG};
use crate::record::Rec;
use crate::layout::WindowLayout;
use crate::HostError;

/// record `idx` as an extended twisted Edwards point, with its tag; `what` names it in errors
fn record_point(data: &[u8], idx: usize, what: &str) -> Result<(G1TEProjective, usize, usize), HostError> {
    let four = Fq::from(4u64);
    let rec = Rec::from_bytes(&data[idx * BUCKET_RECORD_BYTES..(idx + 1) * BUCKET_RECORD_BYTES]);
    let (tw, tb) = rec.tag(TAG);
    let mut c = [Fq::zero(); 4];
    for (i, v) in c.iter_mut().enumerate() {
        *v = from_hw_word(&rec.get(BUCKET_FIELDS[i])).ok_or_else(|| {
            HostError::new(format!("{what} record {idx} (window {tw} bucket {tb}): a coordinate is >= p"))
        })?;
    }
    let [u, v, w, t] = c;
    if w.is_zero() {
        return Err(HostError::new(format!("{what} record {idx} (window {tw} bucket {tb}): W = 0 is no point")));
    }
    Ok((G1TEProjective::new_unchecked(v - u, v + u, four * t, w), tw, tb))
}

/// the partial buckets as (window, bucket k, point), checked
fn partials(layout: &WindowLayout, data: &[u8]) -> Result<Vec<(usize, usize, G1TEProjective)>, HostError> {
    let mut out = Vec::new();
    for idx in layout.total_buckets()..layout.total_records() {
        let (p, tw, tb) = record_point(data, idx, "partial bucket")?;
        if (tw, tb) == (0, 0) {
            if !p.is_zero() {
                return Err(HostError::new(format!(
                    "partial bucket record {idx}: unclaimed (tag 0/0) but not the identity")));
            }
        } else if tw >= layout.num_windows() || tb == 0 || tb > layout.buckets(tw) {
            return Err(HostError::new(format!(
                "partial bucket record {idx}: tag window {tw} bucket {tb} is outside the layout")));
        } else {
            out.push((tw, tb, p));
        }
    }
    Ok(out)
}

fn window_sum(layout: &WindowLayout, j: usize, data: &[u8], extra: &[(usize, usize, G1TEProjective)])
    -> Result<G1TEProjective, HostError> {
    let first = layout.first_record(j);
    // parse and check the window's records in stream order, add its partial buckets, then sum from the top down
    let mut points = Vec::with_capacity(layout.buckets(j));
    for b in 0..layout.buckets(j) {
        let idx = first + b;
        let (p, tw, tb) = record_point(data, idx, "bucket")?;
        if (tw, tb) != (j, b + 1) {
            return Err(HostError::new(format!(
                "bucket record {idx}: tag says window {tw} bucket {tb}, expected window {j} bucket {}", b + 1)));
        }
        points.push(p);
    }
    for (_, k, p) in extra.iter().filter(|e| e.0 == j) {
        points[k - 1] += p;
    }
    let mut running = G1TEProjective::zero();
    let mut total = G1TEProjective::zero();
    for p in points.iter().rev() {
        running += p;
        total += running;
    }
    Ok(total)
}

/// twisted Edwards affine -> Weierstrass affine (inverse of convert.rs's map)
pub fn te_to_sw(p: &G1TEProjective) -> G1Affine {
    let k = consts();
    let a = p.into_affine();
    if a.x.is_zero() {
        return if a.y.is_one() {
            G1Affine::identity()
        } else {
            G1Affine::new_unchecked(-Fq::one(), Fq::zero()) // (0, -1) is the 2-torsion point (-1, 0)
        };
    }
    let u = (Fq::one() + a.y) * (Fq::one() - a.y).inverse().expect("y != 1 when x != 0");
    let v = k.c * u * a.x.inverse().unwrap();
    G1Affine::new_unchecked(u * k.s_inv - Fq::one(), v * k.s_inv)
}

/// `buckets`: the whole read-out stream; `extra`: (point, scalar) terms added on the host (the exceptions).
pub fn postprocess(layout: &WindowLayout, buckets: &[u8], extra: &[(G1Affine, [u64; 4])]) -> Result<G1Affine, HostError> {
    let total = layout.total_records();
    if buckets.len() != total * BUCKET_RECORD_BYTES {
        return Err(HostError::new(format!(
            "bucket data is {} bytes; the layout needs {total} records ({} buckets, {} partial) of {BUCKET_RECORD_BYTES} \
             bytes = {}", buckets.len(), layout.total_buckets(), layout.partials(), total * BUCKET_RECORD_BYTES)));
    }
    let parts = partials(layout, buckets)?;
    let sums: Vec<G1TEProjective> = (0..layout.num_windows())
        .into_par_iter()
        .map(|j| window_sum(layout, j, buckets, &parts))
        .collect::<Result<_, _>>()?;
    let mut acc = G1TEProjective::zero();
    for j in (0..layout.num_windows()).rev() {
        if j + 1 < layout.num_windows() {
            for _ in 0..layout.widths()[j] {
                acc.double_in_place();
            }
        }
        acc += sums[j];
    }
    let mut result: G1Projective = te_to_sw(&acc).into();
    for (p, s) in extra {
        result += p.mul_bigint(BigInt::<4>(*s));
    }
    Ok(result.into_affine())
}
