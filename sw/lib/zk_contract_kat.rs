//! Known answers of the contract (the module `contract_kat` of sw/host-msm and sw/neptune-fpga): the stream layouts
//! reference_model/msm_formats.md and PoseidonAxis's documentation state, as numbers, checked against the generated
//! module at compile time (n = 377 for BLS12-377's Fq, 254 for BN254's, 381 for BLS12-381's, 255 for BLS12-381's Fr).  A change of a position or a width
//! in the generator fails the Rust build here until the documents and this file follow it; tests/test_contract.py
//! shows it does.  sw/lib/zk_contract_kat.h and tests/test_contract.py hold the same answers for C and Python.
use super::contract::*;

const fn at(f: RecordField, n: u32, lsb: u32, width: u32) -> bool {
    f.at(n).lsb == lsb && f.at(n).width == width
}

const _: () = assert!(MSM_RECORD_POINT.bytes(377) == 192 && MSM_RECORD_POINT.beat_bytes() == 64
    && MSM_RECORD_BUCKET.bytes(377) == 192 && MSM_RECORD_SCALARS.bytes(0) == 64);
// BN254 (n = 254): points of two beats; BLS12-381 (n = 381): buckets of four
const _: () = assert!(MSM_RECORD_POINT.bytes(254) == 128 && MSM_RECORD_BUCKET.bytes(254) == 192
    && MSM_RECORD_POINT.bytes(381) == 192 && MSM_RECORD_BUCKET.bytes(381) == 256);
const _: () = assert!(MSM_CURVE_BLS12_377 == 0 && MSM_CURVE_BN254 == 1 && MSM_CURVE_BLS12_381 == 2);
const _: () = assert!(at(MSM_RECORD_SCALARS_FIRST, 0, 0, 256) && at(MSM_RECORD_SCALARS_SECOND, 0, 256, 256));
const _: () = assert!(at(MSM_RECORD_POINT_QM, 377, 0, 377) && at(MSM_RECORD_POINT_QP, 377, 377, 377)
    && at(MSM_RECORD_POINT_QT, 377, 754, 377));
const _: () = assert!(at(MSM_RECORD_BUCKET_U, 377, 0, 377) && at(MSM_RECORD_BUCKET_V, 377, 377, 377)
    && at(MSM_RECORD_BUCKET_W, 377, 754, 377) && at(MSM_RECORD_BUCKET_T, 377, 1131, 377)
    && at(MSM_RECORD_BUCKET_TAG, 377, 1508, 28));
const _: () = assert!(MSM_RECORD_TAG_WINDOW.lsb == 0 && MSM_RECORD_TAG_WINDOW.width == 7
    && MSM_RECORD_TAG_BUCKET.lsb == 7 && MSM_RECORD_TAG_BUCKET.width == 21);
const _: () = assert!(POSEIDON_FRAME_BEAT.bytes(0) == 32 && at(POSEIDON_FRAME_BEAT_ELEMENT, 255, 0, 255)
    && at(POSEIDON_FRAME_BEAT_LAST, 0, 255, 1) && at(POSEIDON_FRAME_IN_USER_ARITY, 0, 0, 8)
    && at(POSEIDON_FRAME_OUT_USER_ERROR, 0, 0, 3));
