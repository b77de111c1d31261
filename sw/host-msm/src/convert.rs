//! Points to the adder's precomputed twisted Edwards records (curves/precomputed.py in the model):
//!   u = s*(x + 1), v = s*y (Montgomery), x_te = c*u/v, y_te = (u - 1)/(u + 1),
//!   record = ((y_te - x_te)/2, (y_te + x_te)/2, 4d*x_te*y_te) in hardware Montgomery form.
//! One inversion per point, batched (Montgomery's trick) over chunks processed in parallel.  Points without a twisted
//! Edwards image (v = 0 or u = -1), and with `check_subgroup` points outside G1, get the identity record and are
//! reported as exceptions (their term is added on the host).

use ark_bls12_377::{Fq, G1Affine};
use ark_ff::{Field, One, Zero};
use rayon::prelude::*;

use crate::consts::consts;
use crate::format::{decode_point, hw_word, POINT_BYTES, POINT_FIELDS, POINT_RECORD_BYTES};
use crate::record::Rec;
use crate::HostError;

pub const CHUNK: usize = 2048;

/// the identity's record (1/2, 1/2, 0)
pub fn identity_record() -> [u8; POINT_RECORD_BYTES] {
    let k = consts();
    let mut rec = Rec::zero(POINT_RECORD_BYTES);
    rec.put(POINT_FIELDS[0], &hw_word(&k.half_hw));
    rec.put(POINT_FIELDS[1], &hw_word(&k.half_hw));
    let mut out = [0u8; POINT_RECORD_BYTES];
    rec.write(&mut out);
    out
}

/// in-place inverses of non-zero elements (zeros must not be present)
fn batch_invert(v: &mut [Fq], scratch: &mut Vec<Fq>) {
    scratch.clear();
    let mut acc = Fq::one();
    for x in v.iter() {
        scratch.push(acc);
        acc *= x;
    }
    let mut inv = acc.inverse().expect("no zeros");
    for i in (0..v.len()).rev() {
        let vi = v[i];
        v[i] = inv * scratch[i];
        inv *= vi;
    }
}

/// Converts one chunk; `base` is the index of pts[0].  Appends exception indices.
fn convert_chunk(pts: &[G1Affine], out: &mut [u8], base: usize, check_subgroup: bool, exc: &mut Vec<usize>) {
    let k = consts();
    let n = pts.len();
    let mut u = Vec::with_capacity(n);
    let mut sy = Vec::with_capacity(n);
    let mut den = Vec::with_capacity(n);
    let mut special = vec![false; n];
    for (i, p) in pts.iter().enumerate() {
        let ui = k.s * (p.x + Fq::one());
        let syi = k.s * p.y;
        let di = syi * (ui + Fq::one());
        let skip = p.infinity
            || di.is_zero()
            || (check_subgroup && !p.is_in_correct_subgroup_assuming_on_curve());
        if skip {
            special[i] = true;
            if !p.infinity {
                exc.push(base + i);
            }
        }
        u.push(ui);
        sy.push(syi);
        den.push(if skip { Fq::one() } else { di });
    }
    let mut scratch = Vec::with_capacity(n);
    batch_invert(&mut den, &mut scratch);
    let ident = identity_record();
    for i in 0..n {
        let o = &mut out[i * POINT_RECORD_BYTES..(i + 1) * POINT_RECORD_BYTES];
        if special[i] {
            o.copy_from_slice(&ident);
            continue;
        }
        let up1 = u[i] + Fq::one();
        let ex = k.c * u[i] * up1 * den[i];
        let ey = (u[i] - Fq::one()) * sy[i] * den[i];
        let mut rec = Rec::zero(POINT_RECORD_BYTES);
        rec.put(POINT_FIELDS[0], &hw_word(&((ey - ex) * k.half_hw)));
        rec.put(POINT_FIELDS[1], &hw_word(&((ey + ex) * k.half_hw)));
        rec.put(POINT_FIELDS[2], &hw_word(&(ex * ey * k.four_d_hw)));
        rec.write(o);
    }
}

fn merge(parts: Vec<Vec<usize>>) -> Vec<usize> {
    parts.into_iter().flatten().collect()
}

/// Affine points (assumed on the curve) -> records; returns the exception indices in increasing order.
pub fn precompute_points(points: &[G1Affine], out: &mut [u8], check_subgroup: bool) -> Vec<usize> {
    assert_eq!(out.len(), points.len() * POINT_RECORD_BYTES);
    let parts: Vec<Vec<usize>> = points
        .par_chunks(CHUNK)
        .zip(out.par_chunks_mut(CHUNK * POINT_RECORD_BYTES))
        .enumerate()
        .map(|(c, (pts, o))| {
            let mut exc = Vec::new();
            convert_chunk(pts, o, c * CHUNK, check_subgroup, &mut exc);
            exc
        })
        .collect();
    merge(parts)
}

/// Encoded points (96 bytes each, arkworks uncompressed) -> records, checking every point.
pub fn precompute_encoded(data: &[u8], out: &mut [u8], check_subgroup: bool) -> Result<Vec<usize>, HostError> {
    if data.len() % POINT_BYTES != 0 || out.len() != data.len() / POINT_BYTES * POINT_RECORD_BYTES {
        return Err(HostError::new(format!(
            "point data of {} bytes and record buffer of {} bytes do not match ({} and {} bytes per point)",
            data.len(), out.len(), POINT_BYTES, POINT_RECORD_BYTES)));
    }
    let parts: Result<Vec<Vec<usize>>, HostError> = data
        .par_chunks(CHUNK * POINT_BYTES)
        .zip(out.par_chunks_mut(CHUNK * POINT_RECORD_BYTES))
        .enumerate()
        .map(|(c, (d, o))| {
            let mut pts = Vec::with_capacity(CHUNK);
            for (i, b) in d.chunks(POINT_BYTES).enumerate() {
                pts.push(decode_point(b).map_err(|m| HostError::at("points", c * CHUNK + i, m))?);
            }
            let mut exc = Vec::new();
            convert_chunk(&pts, o, c * CHUNK, check_subgroup, &mut exc);
            Ok(exc)
        })
        .collect();
    Ok(merge(parts?))
}
