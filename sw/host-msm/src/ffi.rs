//! C ABI (include/zkmsm.h).  Every function returns 0 on success and -1 on failure, with the reason in
//! zkmsm_last_error() (per thread).  Panics are caught and reported the same way; nothing unwinds into C.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::slice;

use ark_bls12_377::{G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::{BigInt, BigInteger};

use crate::convert::precompute_encoded;
use crate::format::*;
use crate::layout::{parse_widths, WindowLayout};
use crate::post::postprocess;
use crate::HostError;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(msg: &str) {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

fn guard(f: impl FnOnce() -> Result<(), HostError>) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            set_error(&e.0);
            -1
        }
        Err(_) => {
            set_error("internal error (panic) in zkmsm");
            -1
        }
    }
}

unsafe fn input<'a>(ptr: *const u8, len: usize, what: &str) -> Result<&'a [u8], HostError> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(HostError::new(format!("{what} is NULL")));
    }
    Ok(slice::from_raw_parts(ptr, len))
}

unsafe fn output<'a>(ptr: *mut u8, len: usize, what: &str) -> Result<&'a mut [u8], HostError> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(HostError::new(format!("{what} is NULL")));
    }
    Ok(slice::from_raw_parts_mut(ptr, len))
}

/// The window spec grammar (layout::parse_widths): the widths to `widths` (room for `cap`), their number to *count.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_windows_parse(spec: *const c_char, widths: *mut u32, cap: usize, count: *mut usize) -> i32 {
    guard(|| {
        if spec.is_null() || count.is_null() {
            return Err(HostError::new("spec or count is NULL"));
        }
        let spec = CStr::from_ptr(spec).to_str().map_err(|_| HostError::new("the window spec is not UTF-8"))?;
        let w = parse_widths(spec).map_err(HostError::new)?;
        *count = w.len();
        if w.len() > cap {
            return Err(HostError::new(format!("{} windows but room for {cap}", w.len())));
        }
        output_u32(widths, w.len())?.copy_from_slice(&w);
        Ok(())
    })
}

unsafe fn output_u32<'a>(ptr: *mut u32, len: usize) -> Result<&'a mut [u32], HostError> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(HostError::new("widths is NULL"));
    }
    Ok(slice::from_raw_parts_mut(ptr, len))
}

/// Opaque parsed instance (instance.rs).
pub struct ZkmsmInstance(crate::instance::Instance);

/// The JSON instance grammar (instance::parse) on `len` bytes of text; NULL (and the reason) when refused.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_parse(text: *const u8, len: usize) -> *mut ZkmsmInstance {
    let mut out = std::ptr::null_mut();
    guard(|| {
        let inst = crate::instance::parse(input(text, len, "text")?)?;
        out = Box::into_raw(Box::new(ZkmsmInstance(inst)));
        Ok(())
    });
    out
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_len(inst: *const ZkmsmInstance) -> usize {
    if inst.is_null() { 0 } else { (*inst).0.len() }
}

/// The instance's points (ZKMSM_POINT_BYTES each) and scalars (ZKMSM_SCALAR_BYTES each) into the two buffers.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_write(inst: *const ZkmsmInstance, points: *mut u8, scalars: *mut u8) -> i32 {
    guard(|| {
        if inst.is_null() {
            return Err(HostError::new("instance is NULL"));
        }
        let i = &(*inst).0;
        let p = output(points, i.len() * POINT_BYTES, "points")?;
        let s = output(scalars, i.len() * SCALAR_BYTES, "scalars")?;
        i.write(p, s);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_free(inst: *mut ZkmsmInstance) {
    if !inst.is_null() {
        drop(Box::from_raw(inst));
    }
}

/// Opaque window layout.
pub struct ZkmsmLayout(WindowLayout);

#[no_mangle]
pub extern "C" fn zkmsm_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_new(widths: *const u32, count: usize) -> *mut ZkmsmLayout {
    let mut out = std::ptr::null_mut();
    guard(|| {
        let layout = if widths.is_null() || count == 0 {
            WindowLayout::hardcaml()
        } else {
            WindowLayout::new(slice::from_raw_parts(widths, count)).map_err(HostError::new)?
        };
        out = Box::into_raw(Box::new(ZkmsmLayout(layout)));
        Ok(())
    });
    out
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_new_bounded(widths: *const u32, count: usize, scalar_bits: u32) -> *mut ZkmsmLayout {
    let mut out = std::ptr::null_mut();
    guard(|| {
        if widths.is_null() || count == 0 {
            return Err(HostError::new("zkmsm_layout_new_bounded needs the window widths"));
        }
        let layout = WindowLayout::with_bound_bits(slice::from_raw_parts(widths, count), scalar_bits).map_err(HostError::new)?;
        out = Box::into_raw(Box::new(ZkmsmLayout(layout)));
        Ok(())
    });
    out
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_free(layout: *mut ZkmsmLayout) {
    if !layout.is_null() {
        drop(Box::from_raw(layout));
    }
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_total_buckets(layout: *const ZkmsmLayout) -> usize {
    layout.as_ref().map_or(0, |l| l.0.total_buckets())
}

/// the engine's read-out carries `partials` partial bucket records after the buckets (its PARTIALS register)
#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_set_partials(layout: *mut ZkmsmLayout, partials: usize) {
    if let Some(l) = layout.as_mut() {
        l.0 = l.0.clone().with_partials(partials);
    }
}

/// records of the engine's read-out: the buckets, then the partial buckets
#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_total_records(layout: *const ZkmsmLayout) -> usize {
    layout.as_ref().map_or(0, |l| l.0.total_records())
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_precompute(
    points: *const u8,
    n: usize,
    records: *mut u8,
    check_subgroup: i32,
    exceptions: *mut u64,
    exceptions_cap: usize,
    num_exceptions: *mut usize,
) -> i32 {
    guard(|| {
        let data = input(points, n * POINT_BYTES, "points")?;
        let out = output(records, n * RECORD_BYTES, "records")?;
        if num_exceptions.is_null() {
            return Err(HostError::new("num_exceptions is NULL"));
        }
        let exc = precompute_encoded(data, out, check_subgroup != 0)?;
        *num_exceptions = exc.len();
        if exc.len() > exceptions_cap {
            return Err(HostError::new(format!(
                "{} exceptional points but room for {exceptions_cap} indices", exc.len())));
        }
        if !exc.is_empty() {
            let dst = slice::from_raw_parts_mut(exceptions, exc.len());
            for (d, &i) in dst.iter_mut().zip(&exc) {
                *d = i as u64;
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_postprocess(
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
    guard(|| {
        let layout = &layout.as_ref().ok_or_else(|| HostError::new("layout is NULL"))?.0;
        let bdata = input(buckets, buckets_len, "buckets")?;
        let pdata = input(points, n * POINT_BYTES, "points")?;
        let sdata = input(scalars, n * SCALAR_BYTES, "scalars")?;
        let exc = if num_exceptions == 0 { &[][..] } else { slice::from_raw_parts(exceptions, num_exceptions) };
        let out = output(result, POINT_BYTES, "result")?;
        let mut extra = Vec::with_capacity(exc.len());
        for &i in exc {
            let i = i as usize;
            if i >= n {
                return Err(HostError::new(format!("exception index {i} >= point count {n}")));
            }
            let p = decode_point(&pdata[i * POINT_BYTES..(i + 1) * POINT_BYTES]).map_err(|m| HostError::at("points", i, m))?;
            let s = decode_scalar(&sdata[i * SCALAR_BYTES..(i + 1) * SCALAR_BYTES]).map_err(|m| HostError::at("scalars", i, m))?;
            extra.push((p, s));
        }
        let r = postprocess(layout, bdata, &extra)?;
        encode_point(&r, out);
        Ok(())
    })
}

/// arkworks' own CPU MSM (the baseline and the reference)
#[no_mangle]
pub unsafe extern "C" fn zkmsm_msm_cpu(points: *const u8, scalars: *const u8, n: usize, result: *mut u8) -> i32 {
    guard(|| {
        let pdata = input(points, n * POINT_BYTES, "points")?;
        let sdata = input(scalars, n * SCALAR_BYTES, "scalars")?;
        let out = output(result, POINT_BYTES, "result")?;
        let mut pts: Vec<G1Affine> = Vec::with_capacity(n);
        let mut sc = Vec::with_capacity(n);
        for i in 0..n {
            pts.push(decode_point(&pdata[i * POINT_BYTES..(i + 1) * POINT_BYTES]).map_err(|m| HostError::at("points", i, m))?);
            sc.push(BigInt(decode_scalar(&sdata[i * SCALAR_BYTES..(i + 1) * SCALAR_BYTES]).map_err(|m| HostError::at("scalars", i, m))?));
        }
        let r = G1Projective::msm_bigint(&pts, &sc).into_affine();
        encode_point(&r, out);
        Ok(())
    })
}

/// The model's data set (`python -m reference_model.msm gen --npow K --seed S`, `host-msm gen`): 2^npow points
/// (96 bytes each) and scalars (32 bytes each).
#[no_mangle]
pub unsafe extern "C" fn zkmsm_generate(npow: u32, seed: u64, points: *mut u8, scalars: *mut u8) -> i32 {
    guard(|| {
        if npow > 26 {
            return Err(HostError::new(format!("npow {npow}: at most 26")));
        }
        if points.is_null() || scalars.is_null() {
            return Err(HostError::new("points or scalars is NULL"));
        }
        let n = 1usize << npow;
        let (ps, ss) = crate::gen::generate(npow, seed, false);
        let out = slice::from_raw_parts_mut(points, n * POINT_BYTES);
        for (i, p) in ps.iter().enumerate() {
            encode_point(p, &mut out[i * POINT_BYTES..(i + 1) * POINT_BYTES]);
        }
        let out = slice::from_raw_parts_mut(scalars, n * SCALAR_BYTES);
        for (i, s) in ss.iter().enumerate() {
            for (k, limb) in s.iter().enumerate() {
                out[i * SCALAR_BYTES + 8 * k..i * SCALAR_BYTES + 8 * k + 8].copy_from_slice(&limb.to_le_bytes());
            }
        }
        Ok(())
    })
}

// ---- curves ---------------------------------------------------------------------------------------------------
// ZKMSM_CURVE_* of zkmsm.h: the codes of xyzz::Curve::ALL's order.

fn curve_of(code: i32) -> Result<crate::xyzz::Curve, HostError> {
    usize::try_from(code)
        .ok()
        .and_then(|i| crate::xyzz::Curve::ALL.get(i).copied())
        .ok_or_else(|| HostError::new(format!("unknown curve code {code}")))
}

/// curve_of for the entry points that hand BLS12-377 to the older function outside `guard`: None with the error set
fn curve_arg(code: i32) -> Option<crate::xyzz::Curve> {
    curve_of(code).map_err(|e| set_error(&e.0)).ok()
}

/// The curve code of a `--curve` name (bls12_377, bn254, bls12_381) to *curve.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_curve_by_name(name: *const c_char, curve: *mut i32) -> i32 {
    guard(|| {
        if name.is_null() || curve.is_null() {
            return Err(HostError::new("name or curve is NULL"));
        }
        let s = CStr::from_ptr(name).to_str().map_err(|_| HostError::new("curve name is not UTF-8"))?;
        let c = crate::xyzz::Curve::parse(s)?;
        *curve = crate::xyzz::Curve::ALL.iter().position(|&x| x == c).unwrap() as i32;
        Ok(())
    })
}

/// a curve's `--curve` name (a static string), or NULL for an unknown code
#[no_mangle]
pub extern "C" fn zkmsm_curve_name(curve: i32) -> *const c_char {
    match curve_of(curve) {
        Ok(c) => match c {
            crate::xyzz::Curve::Bls12_377 => c"bls12_377".as_ptr(),
            crate::xyzz::Curve::Bn254 => c"bn254".as_ptr(),
            crate::xyzz::Curve::Bls12_381 => c"bls12_381".as_ptr(),
        },
        Err(_) => std::ptr::null(),
    }
}

/// bytes of one encoded point of the curve (arkworks uncompressed), 0 for an unknown code
#[no_mangle]
pub extern "C" fn zkmsm_curve_point_bytes(curve: i32) -> usize {
    use crate::xyzz::{point_bytes, Curve};
    match curve_of(curve) {
        Ok(Curve::Bls12_377) => POINT_BYTES,
        Ok(Curve::Bn254) => point_bytes::<ark_bn254::g1::Config>(),
        Ok(Curve::Bls12_381) => point_bytes::<ark_bls12_381::g1::Config>(),
        Err(_) => 0,
    }
}

/// A window layout for the curve's scalars: below its r (scalar_bits 0) or below 2^scalar_bits.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_layout_new_curve(curve: i32, widths: *const u32, count: usize, scalar_bits: u32)
    -> *mut ZkmsmLayout {
    use crate::xyzz::{r_minus_1, Curve};
    let mut out = std::ptr::null_mut();
    guard(|| {
        if widths.is_null() || count == 0 {
            return Err(HostError::new("zkmsm_layout_new_curve needs the window widths"));
        }
        let w = slice::from_raw_parts(widths, count);
        let r1 = match curve_of(curve)? {
            Curve::Bls12_377 => {
                let l = WindowLayout::with_bound_bits(w, scalar_bits).map_err(HostError::new)?;
                out = Box::into_raw(Box::new(ZkmsmLayout(l)));
                return Ok(());
            }
            Curve::Bn254 => r_minus_1::<ark_bn254::g1::Config>(),
            Curve::Bls12_381 => r_minus_1::<ark_bls12_381::g1::Config>(),
        };
        let max = if scalar_bits == 0 {
            r1
        } else {
            if scalar_bits >= r1.num_bits() {
                return Err(HostError::new(format!("scalar bound 2^{scalar_bits} is above r")));
            }
            let mut m = BigInt::<4>::from(1u64) << scalar_bits;
            m.sub_with_borrow(&1u64.into());
            m
        };
        let l = WindowLayout::with_max_scalar(w, max).map_err(HostError::new)?;
        out = Box::into_raw(Box::new(ZkmsmLayout(l)));
        Ok(())
    });
    out
}

fn xyzz_records<P: ark_ec::short_weierstrass::SWCurveConfig>(data: &[u8], out: &mut [u8]) -> Result<(), HostError>
where
    P::BaseField: ark_ff::PrimeField,
{
    let n = crate::xyzz::field_bits::<P>();
    if n > crate::contract::MSM_RECORD_BUCKET.max_n {
        return Err(HostError::new(format!("{n}-bit field elements do not fit the MSM records yet")));
    }
    let pts = crate::xyzz::decode_points::<P>(data)?;
    out.copy_from_slice(&crate::xyzz::point_records::<P>(&pts));
    Ok(())
}

/// zkmsm_precompute on a curve: BN254 and BLS12-381 points are all checked (on the curve, in the subgroup) and
/// have no exceptions (*num_exceptions = 0); BLS12-377 as zkmsm_precompute.
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
    use crate::xyzz::Curve;
    let Some(c) = curve_arg(curve) else { return -1 };
    if c == Curve::Bls12_377 {
        return zkmsm_precompute(points, n, records, check_subgroup, exceptions, exceptions_cap, num_exceptions);
    }
    guard(|| {
        let data = input(points, n * zkmsm_curve_point_bytes(curve), "points")?;
        let out = output(records, n * RECORD_BYTES, "records")?;
        if num_exceptions.is_null() {
            return Err(HostError::new("num_exceptions is NULL"));
        }
        *num_exceptions = 0;
        match c {
            Curve::Bn254 => xyzz_records::<ark_bn254::g1::Config>(data, out),
            _ => xyzz_records::<ark_bls12_381::g1::Config>(data, out),
        }
    })
}

fn xyzz_post<P: ark_ec::short_weierstrass::SWCurveConfig>(layout: &WindowLayout, b: &[u8], out: &mut [u8])
    -> Result<(), HostError>
where
    P::BaseField: ark_ff::PrimeField,
{
    let r = crate::xyzz::postprocess::<P>(layout, b)?;
    let mut v = Vec::with_capacity(out.len());
    crate::xyzz::encode_point(&r, &mut v);
    out.copy_from_slice(&v);
    Ok(())
}

/// zkmsm_postprocess on a curve (the result in the curve's point encoding, zkmsm_curve_point_bytes bytes);
/// BN254 and BLS12-381 have no exceptions (points, scalars, exceptions unused).
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
    use crate::xyzz::Curve;
    let Some(c) = curve_arg(curve) else { return -1 };
    if c == Curve::Bls12_377 {
        return zkmsm_postprocess(layout, buckets, buckets_len, points, scalars, n, exceptions, num_exceptions, result);
    }
    guard(|| {
        let layout = &layout.as_ref().ok_or_else(|| HostError::new("layout is NULL"))?.0;
        let bdata = input(buckets, buckets_len, "buckets")?;
        let out = output(result, zkmsm_curve_point_bytes(curve), "result")?;
        match c {
            Curve::Bn254 => xyzz_post::<ark_bn254::g1::Config>(layout, bdata, out),
            _ => xyzz_post::<ark_bls12_381::g1::Config>(layout, bdata, out),
        }
    })
}

fn xyzz_msm<P: ark_ec::short_weierstrass::SWCurveConfig>(pdata: &[u8], sdata: &[u8], out: &mut [u8])
    -> Result<(), HostError>
where
    P::BaseField: ark_ff::PrimeField,
{
    use ark_ff::PrimeField;
    let pts = crate::xyzz::decode_points::<P>(pdata)?;
    let sc = sdata
        .chunks(SCALAR_BYTES)
        .enumerate()
        .map(|(i, b)| {
            let s = crate::xyzz::decode_scalar::<P>(b).map_err(|m| HostError::at("scalars", i, m))?;
            let mut o = <P::ScalarField as PrimeField>::BigInt::default();
            o.as_mut()[..4].copy_from_slice(&s);
            Ok(o)
        })
        .collect::<Result<Vec<_>, HostError>>()?;
    let r = ark_ec::short_weierstrass::Projective::<P>::msm_bigint(&pts, &sc).into_affine();
    let mut v = Vec::with_capacity(out.len());
    crate::xyzz::encode_point(&r, &mut v);
    out.copy_from_slice(&v);
    Ok(())
}

/// zkmsm_msm_cpu on a curve (points and result in the curve's encoding)
#[no_mangle]
pub unsafe extern "C" fn zkmsm_msm_cpu_curve(curve: i32, points: *const u8, scalars: *const u8, n: usize,
                                             result: *mut u8) -> i32 {
    use crate::xyzz::Curve;
    guard(|| {
        let c = curve_of(curve)?;
        let pb = zkmsm_curve_point_bytes(curve);
        let pdata = input(points, n * pb, "points")?;
        let sdata = input(scalars, n * SCALAR_BYTES, "scalars")?;
        let out = output(result, pb, "result")?;
        match c {
            Curve::Bls12_377 => {
                if zkmsm_msm_cpu(points, scalars, n, result) != 0 {
                    return Err(HostError::new(LAST_ERROR.with(|e| e.borrow().to_string_lossy().into_owned())));
                }
                Ok(())
            }
            Curve::Bn254 => xyzz_msm::<ark_bn254::g1::Config>(pdata, sdata, out),
            Curve::Bls12_381 => xyzz_msm::<ark_bls12_381::g1::Config>(pdata, sdata, out),
        }
    })
}

#[cfg(test)]
mod curve_tests {
    use super::*;
    use crate::xyzz;
    type P = ark_bn254::g1::Config;

    /// zkmsm.h's curve codes are curve_of's
    #[test]
    fn header_curve_codes() {
        let h = include_str!("../include/zkmsm.h");
        for (i, c) in xyzz::Curve::ALL.iter().enumerate() {
            let line = format!("#define ZKMSM_CURVE_{} {i}\n", c.name().to_uppercase());
            assert!(h.contains(&line), "zkmsm.h lacks {line:?}");
        }
    }

    /// the curve API from its C side: BN254 records, a read-out, post-processing equal to arkworks' MSM; errors as
    /// codes and messages (an unknown curve, an off-curve point)
    #[test]
    fn bn254_through_the_c_api() {
        unsafe {
            let mut code = -1;
            assert_eq!(zkmsm_curve_by_name(c"bn254".as_ptr(), &mut code), 0);
            assert_eq!(CStr::from_ptr(zkmsm_curve_name(code)).to_str().unwrap(), "bn254");
            assert_eq!(zkmsm_curve_by_name(c"p256".as_ptr(), &mut code), -1);
            assert!(CStr::from_ptr(zkmsm_last_error()).to_str().unwrap().contains("unknown curve \"p256\""));
            assert_eq!(zkmsm_curve_by_name(c"bn254".as_ptr(), &mut code), 0);
            let pb = zkmsm_curve_point_bytes(code);
            assert_eq!(pb, 64);
            let (pts, sc) = crate::gen::generate_sw::<P>(4, 5, false);
            let mut pdata = Vec::new();
            for p in &pts {
                xyzz::encode_point(p, &mut pdata);
            }
            let mut sdata = Vec::new();
            for s in &sc {
                for l in s {
                    sdata.extend_from_slice(&l.to_le_bytes());
                }
            }
            let n = pts.len();
            let mut rec = vec![0u8; n * RECORD_BYTES];
            let mut nexc = 7usize;
            assert_eq!(zkmsm_precompute_curve(code, pdata.as_ptr(), n, rec.as_mut_ptr(), 1, std::ptr::null_mut(), 0,
                                              &mut nexc), 0);
            assert_eq!((rec, nexc), (xyzz::point_records::<P>(&pts), 0));
            let widths = [8u32; 32];
            let layout = zkmsm_layout_new_curve(code, widths.as_ptr(), widths.len(), 0);
            assert!(!layout.is_null());
            let buckets = xyzz::accumulate::<P>(&(*layout).0, &pts, &sc);
            let mut got = vec![0u8; pb];
            assert_eq!(zkmsm_postprocess_curve(code, layout, buckets.as_ptr(), buckets.len(), std::ptr::null(),
                                               std::ptr::null(), 0, std::ptr::null(), 0, got.as_mut_ptr()), 0);
            let mut want = vec![0u8; pb];
            assert_eq!(zkmsm_msm_cpu_curve(code, pdata.as_ptr(), sdata.as_ptr(), n, want.as_mut_ptr()), 0);
            assert_eq!(got, want);
            zkmsm_layout_free(layout);
            // an off-curve point: refused with its index
            pdata[3 * pb] ^= 1;
            let mut rec = vec![0u8; n * RECORD_BYTES];
            assert_eq!(zkmsm_precompute_curve(code, pdata.as_ptr(), n, rec.as_mut_ptr(), 1, std::ptr::null_mut(), 0,
                                              &mut nexc), -1);
            let e = CStr::from_ptr(zkmsm_last_error()).to_str().unwrap().to_string();
            assert!(e.contains("points[3]"), "{e}");
            assert_eq!(zkmsm_precompute_curve(9, pdata.as_ptr(), n, rec.as_mut_ptr(), 1, std::ptr::null_mut(), 0,
                                              &mut nexc), -1);
        }
    }
}
