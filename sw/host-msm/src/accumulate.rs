//! The engine's bucket accumulation, as a software model (for tests and benchmarks; the FPGA does this for real).
//! Same schedule as curves/precomputed.py MIXED_ADD_SCHEDULE, on arkworks field elements: every hardware operation
//! is exact mod p, so the hardware word of each result equals what this computes.

use ark_bls12_377::Fq;
use ark_ff::AdditiveGroup;
use rayon::prelude::*;

use crate::consts::consts;
use crate::format::{from_hw_word, hw_word, BUCKET_FIELDS, BUCKET_RECORD_BYTES, POINT_FIELDS, POINT_RECORD_BYTES, TAG};
use crate::record::Rec;
use crate::layout::WindowLayout;
use crate::HostError;

pub type Acc = [Fq; 4]; // U, V, W, T (plain values)
pub type Pre = [Fq; 3]; // QM, QP, QT (plain values)

pub fn identity_acc() -> Acc {
    let two = Fq::from(2u64);
    [two, two, Fq::from(4u64), Fq::ZERO]
}

/// S += Q (or S -= Q): stage 1 P1 = U*QM, P2 = V*QP, P3 = T*QT; stage 2 E = P2-P1, H = P2+P1, F = W-P3, G = W+P3;
/// stage 3 P4 = E*F, P5 = G*H, T' = E*H, W' = F*G; stage 4 U' = P5-P4, V' = P5+P4.  Negation swaps QM/QP and F/G.
#[inline]
pub fn mixed_add(s: &mut Acc, q: &Pre, negate: bool) {
    let (qm, qp) = if negate { (q[1], q[0]) } else { (q[0], q[1]) };
    let p1 = s[0] * qm;
    let p2 = s[1] * qp;
    let p3 = s[3] * q[2];
    let e = p2 - p1;
    let h = p2 + p1;
    let (f, g) = if negate { (s[2] + p3, s[2] - p3) } else { (s[2] - p3, s[2] + p3) };
    let p4 = e * f;
    let p5 = g * h;
    s[3] = e * h;
    s[2] = f * g;
    s[0] = p5 - p4;
    s[1] = p5 + p4;
}

/// point records (hardware words) -> plain values
pub fn parse_point_records(data: &[u8]) -> Result<Vec<Pre>, HostError> {
    if data.len() % POINT_RECORD_BYTES != 0 {
        return Err(HostError::new(format!("point records: {} bytes is not a multiple of {POINT_RECORD_BYTES}",
                                          data.len())));
    }
    let k = consts();
    data.par_chunks(POINT_RECORD_BYTES)
        .enumerate()
        .map(|(i, b)| {
            let rec = Rec::from_bytes(b);
            let mut q = [Fq::ZERO; 3];
            for (c, v) in q.iter_mut().enumerate() {
                *v = from_hw_word(&rec.get(POINT_FIELDS[c]))
                    .ok_or_else(|| HostError::at("point record", i, "a coordinate is >= p"))?
                    * k.two_7;
            }
            Ok(q)
        })
        .collect()
}

/// bucket read-out of the engine for these point records and scalars
pub fn accumulate(layout: &WindowLayout, pre: &[Pre], scalars: &[[u64; 4]]) -> Vec<u8> {
    assert_eq!(pre.len(), scalars.len());
    let w = layout.num_windows();
    let mut digits = vec![0i32; scalars.len() * w];
    digits.par_chunks_mut(w).zip(scalars.par_iter()).for_each(|(d, s)| layout.digits(s, d));
    let k = consts();
    let mut out = vec![0u8; layout.total_buckets() * BUCKET_RECORD_BYTES];
    let mut slices = Vec::with_capacity(w);
    let mut rest = out.as_mut_slice();
    for j in 0..w {
        let (a, b) = rest.split_at_mut(layout.buckets(j) * BUCKET_RECORD_BYTES);
        slices.push((j, a));
        rest = b;
    }
    slices.into_par_iter().for_each(|(j, o)| {
        let mut buckets = vec![identity_acc(); layout.buckets(j)];
        for (i, q) in pre.iter().enumerate() {
            let d = digits[i * w + j];
            if d != 0 {
                mixed_add(&mut buckets[d.unsigned_abs() as usize - 1], q, d < 0);
            }
        }
        for (b, acc) in buckets.iter().enumerate() {
            let mut rec = Rec::zero(BUCKET_RECORD_BYTES);
            for (c, v) in acc.iter().enumerate() {
                rec.put(BUCKET_FIELDS[c], &hw_word(&(*v * k.inv_2_7)));
            }
            rec.put_tag(TAG, j, b + 1);
            rec.write(&mut o[b * BUCKET_RECORD_BYTES..(b + 1) * BUCKET_RECORD_BYTES]);
        }
    });
    out
}
