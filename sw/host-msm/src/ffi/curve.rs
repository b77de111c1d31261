//! The C API's functions that take a curve code (zkmsm.h, "curves"): the code is the contract's MSM_CURVE_*
//! (Curve::code), what an MSM card names in VERSION[31:16] of its identity.  BLS12-377 goes to the functions of
//! ffi.rs (twisted Edwards records, exceptions); BN254 and BLS12-381 to xyzz.rs.

use std::ffi::{c_char, CStr};
use std::slice;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::PrimeField;
use ark_serialize::{CanonicalDeserialize, Compress, Validate};

use super::{guard, input, output, set_error, ZkmsmInstance, ZkmsmLayout, LAST_ERROR};
use crate::curve::Curve;
use crate::format::SCALAR_BYTES;
use crate::layout::WindowLayout;
use crate::xyzz;
use crate::HostError;

type Bn = ark_bn254::g1::Config;
type B381 = ark_bls12_381::g1::Config;
type B377 = ark_bls12_377::g1::Config;

fn curve_of(code: i32) -> Result<Curve, HostError> {
    u32::try_from(code)
        .ok()
        .and_then(Curve::from_code)
        .ok_or_else(|| HostError::new(format!("unknown curve code {code}")))
}

/// curve_of for the entry points that hand BLS12-377 to the older function outside `guard`: None with the error set
fn curve_arg(code: i32) -> Option<Curve> {
    curve_of(code).map_err(|e| set_error(&e.0)).ok()
}

/// the last error as a HostError (after an inner call that set it)
fn last_error() -> HostError {
    HostError::new(LAST_ERROR.with(|e| e.borrow().to_string_lossy().into_owned()))
}

/// The curve code of a `--curve` name (bls12_377, bn254, bls12_381) to *curve.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_curve_by_name(name: *const c_char, curve: *mut i32) -> i32 {
    guard(|| {
        if name.is_null() || curve.is_null() {
            return Err(HostError::new("name or curve is NULL"));
        }
        let s = CStr::from_ptr(name).to_str().map_err(|_| HostError::new("curve name is not UTF-8"))?;
        *curve = Curve::parse(s)?.code() as i32;
        Ok(())
    })
}

/// a curve's `--curve` name (a static string), or NULL for an unknown code
#[no_mangle]
pub extern "C" fn zkmsm_curve_name(curve: i32) -> *const c_char {
    match curve_of(curve) {
        Ok(Curve::Bls12_377) => c"bls12_377".as_ptr(),
        Ok(Curve::Bn254) => c"bn254".as_ptr(),
        Ok(Curve::Bls12_381) => c"bls12_381".as_ptr(),
        Err(_) => std::ptr::null(),
    }
}

/// the window layout of the curve's board engines (Curve::board_windows, a static string), NULL for an unknown code
#[no_mangle]
pub extern "C" fn zkmsm_curve_board_windows(curve: i32) -> *const c_char {
    match curve_of(curve) {
        Ok(Curve::Bls12_377) => c"13x13,12x7".as_ptr(),
        Ok(Curve::Bn254) => c"13x14,12x6".as_ptr(),
        Ok(Curve::Bls12_381) => c"13x15,12x5".as_ptr(),
        Err(_) => std::ptr::null(),
    }
}

/// bytes of one encoded point of the curve (arkworks uncompressed), 0 for an unknown code
#[no_mangle]
pub extern "C" fn zkmsm_curve_point_bytes(curve: i32) -> usize {
    curve_of(curve).map_or(0, Curve::point_bytes)
}

/// bytes of one point record of the curve (the contract's MSM_RECORD_POINT at its n), 0 for an unknown code
#[no_mangle]
pub extern "C" fn zkmsm_curve_point_record_bytes(curve: i32) -> usize {
    curve_of(curve).map_or(0, |c| c.records().point_bytes)
}

/// bytes of one bucket record of the curve (the contract's MSM_RECORD_BUCKET at its n), 0 for an unknown code
#[no_mangle]
pub extern "C" fn zkmsm_curve_bucket_record_bytes(curve: i32) -> usize {
    curve_of(curve).map_or(0, |c| c.records().bucket_bytes)
}

/// A window layout for the curve's scalars: below its r (scalar_bits 0) or below 2^scalar_bits.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_new_curve(curve: i32, widths: *const u32, count: usize, scalar_bits: u32)
    -> *mut ZkmsmLayout {
    let mut out = std::ptr::null_mut();
    guard(|| {
        if widths.is_null() || count == 0 {
            return Err(HostError::new("zkmsm_layout_new_curve needs the window widths"));
        }
        let w = slice::from_raw_parts(widths, count);
        let l = match curve_of(curve)? {
            Curve::Bls12_377 => WindowLayout::with_bound_bits(w, scalar_bits).map_err(HostError::new)?,
            Curve::Bn254 => xyzz::layout::<Bn>(w, scalar_bits)?,
            Curve::Bls12_381 => xyzz::layout::<B381>(w, scalar_bits)?,
        };
        out = Box::into_raw(Box::new(ZkmsmLayout(l)));
        Ok(())
    });
    out
}

/// The JSON instance grammar (instance::parse_sw) on the curve's p, r and equation; NULL (and the reason) when
/// refused.  zkmsm_instance_write then writes the curve's point encoding (zkmsm_curve_point_bytes each).
#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_parse_curve(curve: i32, text: *const u8, len: usize) -> *mut ZkmsmInstance {
    use crate::instance::parse_sw;
    let mut out = std::ptr::null_mut();
    guard(|| {
        let t = input(text, len, "text")?;
        let inst = match curve_of(curve)? {
            Curve::Bls12_377 => ZkmsmInstance::of(&parse_sw::<B377>(t)?),
            Curve::Bn254 => ZkmsmInstance::of(&parse_sw::<Bn>(t)?),
            Curve::Bls12_381 => ZkmsmInstance::of(&parse_sw::<B381>(t)?),
        };
        out = Box::into_raw(Box::new(inst));
        Ok(())
    });
    out
}

fn write_sw<P: SWCurveConfig>(pts: &[Affine<P>], sc: &[[u64; 4]], points: &mut [u8], scalars: &mut [u8]) {
    let mut v = Vec::with_capacity(points.len());
    for p in pts {
        xyzz::encode_point(p, &mut v);
    }
    points.copy_from_slice(&v);
    for (s, o) in sc.iter().zip(scalars.chunks_exact_mut(SCALAR_BYTES)) {
        for (k, limb) in s.iter().enumerate() {
            o[8 * k..8 * k + 8].copy_from_slice(&limb.to_le_bytes());
        }
    }
}

/// zkmsm_generate on a curve (`host-msm gen --curve`): 2^npow points (zkmsm_curve_point_bytes each) and scalars.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_generate_curve(curve: i32, npow: u32, seed: u64, points: *mut u8, scalars: *mut u8)
    -> i32 {
    let Some(c) = curve_arg(curve) else { return -1 };
    if c == Curve::Bls12_377 {
        return super::zkmsm_generate(npow, seed, points, scalars);
    }
    guard(|| {
        if npow > 26 {
            return Err(HostError::new(format!("npow {npow}: at most 26")));
        }
        let n = 1usize << npow;
        let p = output(points, n * c.point_bytes(), "points")?;
        let s = output(scalars, n * SCALAR_BYTES, "scalars")?;
        match c {
            Curve::Bn254 => {
                let (pts, sc) = crate::gen::generate_sw::<Bn>(npow, seed, false);
                write_sw(&pts, &sc, p, s);
            }
            _ => {
                let (pts, sc) = crate::gen::generate_sw::<B381>(npow, seed, false);
                write_sw(&pts, &sc, p, s);
            }
        }
        Ok(())
    })
}

fn xyzz_records<P: SWCurveConfig>(data: &[u8], out: &mut [u8]) -> Result<(), HostError>
where
    P::BaseField: PrimeField,
{
    let pts = xyzz::decode_points::<P>(data)?;
    out.copy_from_slice(&xyzz::point_records::<P>(&pts));
    Ok(())
}

/// zkmsm_precompute on a curve (n * zkmsm_curve_point_record_bytes at `records`): BN254 and BLS12-381 points are all
/// checked (on the curve, in the subgroup) and have no exceptions (*num_exceptions = 0); BLS12-377 as
/// zkmsm_precompute.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_precompute_curve(
    curve: i32,
    points: *const u8,
    n: usize,
    records: *mut u8,
    check_subgroup: i32,
    exceptions: *mut u64,
    exceptions_cap: usize,
    num_exceptions: *mut usize,
) -> i32 {
    let Some(c) = curve_arg(curve) else { return -1 };
    if c == Curve::Bls12_377 {
        return super::zkmsm_precompute(points, n, records, check_subgroup, exceptions, exceptions_cap, num_exceptions);
    }
    guard(|| {
        let data = input(points, n * c.point_bytes(), "points")?;
        let out = output(records, n * c.records().point_bytes, "records")?;
        if num_exceptions.is_null() {
            return Err(HostError::new("num_exceptions is NULL"));
        }
        *num_exceptions = 0;
        match c {
            Curve::Bn254 => xyzz_records::<Bn>(data, out),
            _ => xyzz_records::<B381>(data, out),
        }
    })
}

fn xyzz_post<P: SWCurveConfig>(layout: &WindowLayout, b: &[u8], out: &mut [u8]) -> Result<(), HostError>
where
    P::BaseField: PrimeField,
{
    let r = xyzz::postprocess::<P>(layout, b)?;
    let mut v = Vec::with_capacity(out.len());
    xyzz::encode_point(&r, &mut v);
    out.copy_from_slice(&v);
    Ok(())
}

/// zkmsm_postprocess on a curve (the read-out in the curve's bucket records, the result in the curve's point
/// encoding, zkmsm_curve_point_bytes bytes); BN254 and BLS12-381 have no exceptions (points, scalars, exceptions
/// unused).
#[no_mangle]
pub unsafe extern "C" fn zkmsm_postprocess_curve(
    curve: i32,
    layout: *const ZkmsmLayout,
    buckets: *const u8,
    buckets_len: usize,
    points: *const u8,
    scalars: *const u8,
    n: usize,
    exceptions: *const u64,
    num_exceptions: usize,
    result: *mut u8,
) -> i32 {
    let Some(c) = curve_arg(curve) else { return -1 };
    if c == Curve::Bls12_377 {
        return super::zkmsm_postprocess(layout, buckets, buckets_len, points, scalars, n, exceptions, num_exceptions,
                                        result);
    }
    guard(|| {
        let layout = &layout.as_ref().ok_or_else(|| HostError::new("layout is NULL"))?.0;
        let bdata = input(buckets, buckets_len, "buckets")?;
        let out = output(result, c.point_bytes(), "result")?;
        match c {
            Curve::Bn254 => xyzz_post::<Bn>(layout, bdata, out),
            _ => xyzz_post::<B381>(layout, bdata, out),
        }
    })
}

fn xyzz_msm<P: SWCurveConfig>(pdata: &[u8], sdata: &[u8], out: &mut [u8]) -> Result<(), HostError>
where
    P::BaseField: PrimeField,
{
    let pts = xyzz::decode_points::<P>(pdata)?;
    let sc = sdata
        .chunks(SCALAR_BYTES)
        .enumerate()
        .map(|(i, b)| {
            let s = xyzz::decode_scalar::<P>(b).map_err(|m| HostError::at("scalars", i, m))?;
            let mut o = <P::ScalarField as PrimeField>::BigInt::default();
            o.as_mut()[..4].copy_from_slice(&s);
            Ok(o)
        })
        .collect::<Result<Vec<_>, HostError>>()?;
    let r = ark_ec::short_weierstrass::Projective::<P>::msm_bigint(&pts, &sc).into_affine();
    let mut v = Vec::with_capacity(out.len());
    xyzz::encode_point(&r, &mut v);
    out.copy_from_slice(&v);
    Ok(())
}

/// zkmsm_msm_cpu on a curve (points and result in the curve's encoding)
#[no_mangle]
pub unsafe extern "C" fn zkmsm_msm_cpu_curve(curve: i32, points: *const u8, scalars: *const u8, n: usize,
                                             result: *mut u8) -> i32 {
    guard(|| {
        let c = curve_of(curve)?;
        if c == Curve::Bls12_377 {
            return match super::zkmsm_msm_cpu(points, scalars, n, result) {
                0 => Ok(()),
                _ => Err(last_error()),
            };
        }
        let pb = c.point_bytes();
        let pdata = input(points, n * pb, "points")?;
        let sdata = input(scalars, n * SCALAR_BYTES, "scalars")?;
        let out = output(result, pb, "result")?;
        match c {
            Curve::Bn254 => xyzz_msm::<Bn>(pdata, sdata, out),
            _ => xyzz_msm::<B381>(pdata, sdata, out),
        }
    })
}

/// an encoded point (on the curve; the subgroup is not asked) as `0x<x> 0x<y>` or `infinity`
fn format_sw<P: SWCurveConfig>(b: &[u8]) -> Result<String, HostError>
where
    P::BaseField: PrimeField,
{
    let p = Affine::<P>::deserialize_with_mode(b, Compress::No, Validate::No)
        .map_err(|_| HostError::new("point: bad encoding"))?;
    if !p.is_on_curve() {
        return Err(HostError::new("point: not on the curve"));
    }
    Ok(xyzz::format_result(&p))
}

/// An encoded point of the curve (zkmsm_curve_point_bytes bytes: a result) as the text the model's `run` prints,
/// `0x<x> 0x<y>` (the field's hex digits each) or `infinity`, NUL-terminated into `text` (room for `cap` bytes).
#[no_mangle]
pub unsafe extern "C" fn zkmsm_curve_format_point(curve: i32, point: *const u8, text: *mut c_char, cap: usize) -> i32 {
    guard(|| {
        let c = curve_of(curve)?;
        let b = input(point, c.point_bytes(), "point")?;
        let s = match c {
            Curve::Bls12_377 => format_sw::<B377>(b)?,
            Curve::Bn254 => format_sw::<Bn>(b)?,
            Curve::Bls12_381 => format_sw::<B381>(b)?,
        };
        let out = output(text.cast::<u8>(), cap, "text")?;
        if s.len() + 1 > cap {
            return Err(HostError::new(format!("the point's text needs {} bytes, room for {cap}", s.len() + 1)));
        }
        out[..s.len()].copy_from_slice(s.as_bytes());
        out[s.len()] = 0;
        Ok(())
    })
}

#[cfg(test)]
mod tests;
