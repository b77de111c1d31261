//! The curve API from its C side: codes and sizes against the contract and zkmsm.h, each curve's records, read-outs
//! and results against arkworks' MSM, errors as codes and messages.

use super::*;
use crate::contract as c;
use crate::ffi::{zkmsm_instance_free, zkmsm_instance_len, zkmsm_instance_write, zkmsm_last_error, zkmsm_layout_free};
use ark_ec::AffineRepr;
use std::ffi::CStr;

unsafe fn last() -> String {
    CStr::from_ptr(zkmsm_last_error()).to_str().unwrap().to_string()
}

fn scalar_bytes(sc: &[[u64; 4]]) -> Vec<u8> {
    sc.iter().flat_map(|s| s.iter().flat_map(|l| l.to_le_bytes())).collect()
}

/// zkmsm.h keeps no numbering of its own: the codes are the contract's MSM_CURVE_* (named in the header), and the
/// names map to them
#[test]
fn codes_are_the_contracts() {
    let h = include_str!("../../../include/zkmsm.h");
    assert!(!h.contains("#define ZKMSM_CURVE_"), "zkmsm.h: the curve codes are the contract's ZK_MSM_CURVE_*");
    for (name, code) in [("bls12_377", c::MSM_CURVE_BLS12_377), ("bn254", c::MSM_CURVE_BN254),
                         ("bls12_381", c::MSM_CURVE_BLS12_381)] {
        assert!(h.contains(&format!("ZK_MSM_CURVE_{}", name.to_uppercase())), "zkmsm.h does not name {name}'s code");
        let cname = std::ffi::CString::new(name).unwrap();
        let mut got = -1;
        unsafe {
            assert_eq!(zkmsm_curve_by_name(cname.as_ptr(), &mut got), 0);
            assert_eq!(CStr::from_ptr(zkmsm_curve_name(got)).to_str().unwrap(), name);
        }
        assert_eq!(got, code as i32);
    }
    assert!(zkmsm_curve_name(77).is_null());
    assert!(zkmsm_curve_name(-1).is_null());
}

/// the record sizes of the C API: the contract's at each curve's n (BLS12-377 3/3 beats, BN254 2/3, BLS12-381 3/4)
#[test]
fn record_sizes() {
    for cv in Curve::ALL {
        let code = cv.code() as i32;
        let n = cv.field_bits();
        assert_eq!(zkmsm_curve_point_record_bytes(code), c::MSM_RECORD_POINT.bytes(n));
        assert_eq!(zkmsm_curve_bucket_record_bytes(code), c::MSM_RECORD_BUCKET.bytes(n));
    }
    let got: Vec<_> = Curve::ALL.iter().map(|cv| {
        let code = cv.code() as i32;
        (zkmsm_curve_point_record_bytes(code) / 64, zkmsm_curve_bucket_record_bytes(code) / 64,
         zkmsm_curve_point_bytes(code))
    }).collect();
    assert_eq!(got, vec![(3, 3, 96), (2, 3, 64), (3, 4, 96)]);
    assert_eq!((zkmsm_curve_point_record_bytes(9), zkmsm_curve_bucket_record_bytes(-1), zkmsm_curve_point_bytes(9)),
               (0, 0, 0));
}

/// One curve through the C API: generate, precompute (record size), the engine's read-out (the software model),
/// post-processing and the CPU MSM agree, and the result formats as the model prints it.
unsafe fn through_the_c_api<P: SWCurveConfig>(cv: Curve)
where
    P::BaseField: PrimeField,
{
    let code = cv.code() as i32;
    let (pb, rb) = (zkmsm_curve_point_bytes(code), zkmsm_curve_point_record_bytes(code));
    let n = 16usize;
    let mut pdata = vec![0u8; n * pb];
    let mut sdata = vec![0u8; n * SCALAR_BYTES];
    assert_eq!(zkmsm_generate_curve(code, 4, 5, pdata.as_mut_ptr(), sdata.as_mut_ptr()), 0, "{}", last());
    let (pts, sc) = crate::gen::generate_sw::<P>(4, 5, false);
    assert_eq!(xyzz::decode_points::<P>(&pdata).unwrap(), pts);
    assert_eq!(sdata, scalar_bytes(&sc));
    let mut rec = vec![0u8; n * rb];
    let mut nexc = 7usize;
    assert_eq!(zkmsm_precompute_curve(code, pdata.as_ptr(), n, rec.as_mut_ptr(), 1, std::ptr::null_mut(), 0,
                                      &mut nexc), 0, "{}", last());
    assert_eq!((&rec, nexc), (&xyzz::point_records::<P>(&pts), 0));
    let widths = [8u32; 32];
    let layout = zkmsm_layout_new_curve(code, widths.as_ptr(), widths.len(), 0);
    assert!(!layout.is_null(), "{}", last());
    let buckets = xyzz::accumulate::<P>(&(*layout).0, &pts, &sc);
    assert_eq!(buckets.len(), (*layout).0.total_buckets() * zkmsm_curve_bucket_record_bytes(code));
    let mut got = vec![0u8; pb];
    assert_eq!(zkmsm_postprocess_curve(code, layout, buckets.as_ptr(), buckets.len(), std::ptr::null(),
                                       std::ptr::null(), 0, std::ptr::null(), 0, got.as_mut_ptr()), 0, "{}", last());
    let mut want = vec![0u8; pb];
    assert_eq!(zkmsm_msm_cpu_curve(code, pdata.as_ptr(), sdata.as_ptr(), n, want.as_mut_ptr()), 0);
    assert_eq!(got, want);
    // a read-out one record short
    let short = buckets.len() - zkmsm_curve_bucket_record_bytes(code);
    assert_eq!(zkmsm_postprocess_curve(code, layout, buckets.as_ptr(), short, std::ptr::null(), std::ptr::null(), 0,
                                       std::ptr::null(), 0, got.as_mut_ptr()), -1);
    assert!(last().contains("the layout needs"), "{}", last());
    zkmsm_layout_free(layout);
    let mut text = [0 as c_char; 256];
    assert_eq!(zkmsm_curve_format_point(code, got.as_ptr(), text.as_mut_ptr(), text.len()), 0);
    let r = xyzz::decode_points::<P>(&got).unwrap()[0];
    assert_eq!(CStr::from_ptr(text.as_ptr()).to_str().unwrap(), xyzz::format_result(&r));
    assert_eq!(zkmsm_curve_format_point(code, got.as_ptr(), text.as_mut_ptr(), 10), -1);
    assert!(last().contains("room for 10"));
    // an off-curve point: refused with its index
    pdata[3 * pb + pb / 2 - 1] ^= 1;
    assert_eq!(zkmsm_precompute_curve(code, pdata.as_ptr(), n, rec.as_mut_ptr(), 1, std::ptr::null_mut(), 0,
                                      &mut nexc), -1);
    assert!(last().contains("points[3]"), "{}", last());
}

#[test]
fn bn254_through_the_c_api() {
    unsafe { through_the_c_api::<Bn>(Curve::Bn254) }
}

#[test]
fn bls12_381_through_the_c_api() {
    unsafe { through_the_c_api::<B381>(Curve::Bls12_381) }
}

/// BLS12-377 through the curve functions: the older functions' records and results
#[test]
fn bls12_377_through_the_curve_functions() {
    unsafe {
        let code = Curve::Bls12_377.code() as i32;
        let n = 8usize;
        let (pb, rb) = (zkmsm_curve_point_bytes(code), zkmsm_curve_point_record_bytes(code));
        let mut pdata = vec![0u8; n * pb];
        let mut sdata = vec![0u8; n * SCALAR_BYTES];
        assert_eq!(zkmsm_generate_curve(code, 3, 2, pdata.as_mut_ptr(), sdata.as_mut_ptr()), 0);
        let mut p0 = vec![0u8; n * pb];
        let mut s0 = vec![0u8; n * SCALAR_BYTES];
        assert_eq!(super::super::zkmsm_generate(3, 2, p0.as_mut_ptr(), s0.as_mut_ptr()), 0);
        assert_eq!((pdata.clone(), sdata.clone()), (p0, s0));
        let mut rec = vec![0u8; n * rb];
        let mut exc = [0u64; 9];
        let mut nexc = 0usize;
        assert_eq!(zkmsm_precompute_curve(code, pdata.as_ptr(), n, rec.as_mut_ptr(), 1, exc.as_mut_ptr(), 9,
                                          &mut nexc), 0);
        let mut want = vec![0u8; pb];
        assert_eq!(zkmsm_msm_cpu_curve(code, pdata.as_ptr(), sdata.as_ptr(), n, want.as_mut_ptr()), 0);
        let mut text = [0 as c_char; 256];
        assert_eq!(zkmsm_curve_format_point(code, want.as_ptr(), text.as_mut_ptr(), text.len()), 0);
        let p = crate::format::decode_point(&want).unwrap();
        assert_eq!(CStr::from_ptr(text.as_ptr()).to_str().unwrap(), crate::format::format_result(&p));
        assert_eq!(zkmsm_msm_cpu_curve(code, std::ptr::null(), sdata.as_ptr(), n, want.as_mut_ptr()), -1);
        assert!(last().contains("NULL"), "{}", last());
    }
}

/// the JSON instance on each curve: its encoding out of zkmsm_instance_write, its equation in the errors
#[test]
fn instances_per_curve() {
    unsafe {
        let text = br#"{"points": [{"x": "0x1", "y": "0x2"}, "infinity"], "scalars": ["0x7", 3]}"#;
        let code = Curve::Bn254.code() as i32;
        let inst = zkmsm_instance_parse_curve(code, text.as_ptr(), text.len());
        assert!(!inst.is_null(), "{}", last());
        assert_eq!(zkmsm_instance_len(inst), 2);
        let mut p = vec![0u8; 2 * zkmsm_curve_point_bytes(code)];
        let mut s = vec![0u8; 2 * SCALAR_BYTES];
        assert_eq!(zkmsm_instance_write(inst, p.as_mut_ptr(), s.as_mut_ptr()), 0);
        zkmsm_instance_free(inst);
        assert_eq!(xyzz::decode_points::<Bn>(&p).unwrap(), vec![Affine::<Bn>::generator(), Affine::<Bn>::identity()]);
        assert_eq!((s[0], s[SCALAR_BYTES]), (7, 3));
        // (1, 2) is not on BLS12-381 (or BLS12-377)
        for cv in [Curve::Bls12_381, Curve::Bls12_377] {
            let inst = zkmsm_instance_parse_curve(cv.code() as i32, text.as_ptr(), text.len());
            assert!(inst.is_null());
            assert!(last().contains("points[0]: (0x1, 0x2) is not on the curve"), "{}", last());
        }
        assert!(zkmsm_instance_parse_curve(5, text.as_ptr(), text.len()).is_null());
        assert!(last().contains("unknown curve code 5"));
    }
}

/// unknown codes and bad names are errors with a reason, never a panic across the boundary
#[test]
fn unknown_curves() {
    unsafe {
        let mut code = -1;
        assert_eq!(zkmsm_curve_by_name(c"p256".as_ptr(), &mut code), -1);
        assert!(last().contains("unknown curve \"p256\""));
        let mut nexc = 0usize;
        let mut rec = [0u8; 8];
        assert_eq!(zkmsm_precompute_curve(9, std::ptr::null(), 0, rec.as_mut_ptr(), 1, std::ptr::null_mut(), 0,
                                          &mut nexc), -1);
        assert!(last().contains("unknown curve code 9"));
        assert_eq!(zkmsm_generate_curve(-3, 2, 1, std::ptr::null_mut(), std::ptr::null_mut()), -1);
        assert!(zkmsm_layout_new_curve(9, [8u32; 32].as_ptr(), 32, 0).is_null());
        let bn = Curve::Bn254.code() as i32;
        assert_eq!(zkmsm_generate_curve(bn, 2, 1, std::ptr::null_mut(), std::ptr::null_mut()), -1);
        assert!(last().contains("NULL"), "{}", last());
    }
}
