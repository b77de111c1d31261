//! C ABI (include/zkmsm.h).  Every function returns 0 on success and -1 on failure, with the reason in
//! zkmsm_last_error() (per thread).  Panics are caught and reported the same way; nothing unwinds into C.
//! This file: BLS12-377's functions and the shared ones; ffi/curve.rs: the functions that take a curve code.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::slice;

use ark_bls12_377::{G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::BigInt;

use crate::convert::precompute_encoded;
use crate::format::{decode_point, decode_scalar, encode_point, POINT_BYTES, POINT_RECORD_BYTES, SCALAR_BYTES};
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

/// Opaque parsed instance (instance.rs) of some curve: its points encoded (point_bytes each) and its scalars.
pub struct ZkmsmInstance {
    points: Vec<u8>,
    scalars: Vec<u8>,
    len: usize,
}

impl ZkmsmInstance {
    fn of<P: ark_ec::short_weierstrass::SWCurveConfig>(i: &crate::instance::SwInstance<P>) -> ZkmsmInstance {
        let mut points = vec![0u8; i.len() * i.point_bytes()];
        let mut scalars = vec![0u8; i.len() * SCALAR_BYTES];
        i.write(&mut points, &mut scalars);
        ZkmsmInstance { points, scalars, len: i.len() }
    }
}

/// The JSON instance grammar (instance::parse) on `len` bytes of text; NULL (and the reason) when refused.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_parse(text: *const u8, len: usize) -> *mut ZkmsmInstance {
    let mut out = std::ptr::null_mut();
    guard(|| {
        let inst = crate::instance::parse(input(text, len, "text")?)?;
        out = Box::into_raw(Box::new(ZkmsmInstance::of(&inst)));
        Ok(())
    });
    out
}

#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_len(inst: *const ZkmsmInstance) -> usize {
    if inst.is_null() { 0 } else { (*inst).len }
}

/// The instance's points (its curve's point encoding: ZKMSM_POINT_BYTES each for BLS12-377) and scalars
/// (ZKMSM_SCALAR_BYTES each) into the two buffers.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_instance_write(inst: *const ZkmsmInstance, points: *mut u8, scalars: *mut u8) -> i32 {
    guard(|| {
        if inst.is_null() {
            return Err(HostError::new("instance is NULL"));
        }
        let i = &*inst;
        output(points, i.points.len(), "points")?.copy_from_slice(&i.points);
        output(scalars, i.scalars.len(), "scalars")?.copy_from_slice(&i.scalars);
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
        let out = output(records, n * POINT_RECORD_BYTES, "records")?;
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

pub(crate) mod curve;
pub use curve::*;
