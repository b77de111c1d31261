/* Known answers of the contract: the stream layouts reference_model/msm_formats.md and PoseidonAxis's documentation
 * state, as numbers, checked against the generated header at compile time (n = 377 for BLS12-377's Fq, 254 for
 * BN254's, 381 for BLS12-381's, 255 for BLS12-381's Fr).  A change of a position or a width in the generator fails the C build here until the documents
 * and this file follow it; tests/test_contract.py shows it does (it compiles this file against a mutated header).
 * sw/lib/zk_contract_kat.rs and tests/test_contract.py hold the same answers for Rust and Python. */
#ifndef ZK_CONTRACT_KAT_H
#define ZK_CONTRACT_KAT_H
#include <assert.h> /* static_assert, in C11 and C++ */

#include "zk_contract.h"

static_assert(ZK_MSM_RECORD_POINT_BEATS(377) == 3 && ZK_MSM_RECORD_POINT_BEAT_BYTES == 64 &&
                   ZK_MSM_RECORD_POINT_BYTES(377) == 192 && ZK_MSM_RECORD_BUCKET_BYTES(377) == 192 &&
                   ZK_MSM_RECORD_SCALARS_BYTES == 64,
               "MSM records at n = 377: three 64-byte beats; scalar beats of 64 bytes");
static_assert(ZK_MSM_RECORD_POINT_BYTES(254) == 128 && ZK_MSM_RECORD_BUCKET_BYTES(254) == 192 &&
                   ZK_MSM_RECORD_POINT_BYTES(381) == 192 && ZK_MSM_RECORD_BUCKET_BYTES(381) == 256,
               "MSM records: BN254 (n = 254) points of two beats, BLS12-381 (n = 381) buckets of four");
static_assert(ZK_MSM_CURVE_BLS12_377 == 0 && ZK_MSM_CURVE_BN254 == 1 && ZK_MSM_CURVE_BLS12_381 == 2,
              "the curve codes of an MSM card's identity (VERSION[31:16])");
static_assert(ZK_MSM_RECORD_SCALARS_FIRST_LSB == 0 && ZK_MSM_RECORD_SCALARS_FIRST_WIDTH == 256 &&
                   ZK_MSM_RECORD_SCALARS_SECOND_LSB == 256 && ZK_MSM_RECORD_SCALARS_SECOND_WIDTH == 256,
               "two 256-bit scalars per beat");
static_assert(ZK_MSM_RECORD_POINT_QM_LSB(377) == 0 && ZK_MSM_RECORD_POINT_QP_LSB(377) == 377 &&
                   ZK_MSM_RECORD_POINT_QT_LSB(377) == 754 && ZK_MSM_RECORD_POINT_QT_WIDTH(377) == 377,
               "point record: QM, QP, QT at 377-bit strides");
static_assert(ZK_MSM_RECORD_BUCKET_U_LSB(377) == 0 && ZK_MSM_RECORD_BUCKET_V_LSB(377) == 377 &&
                   ZK_MSM_RECORD_BUCKET_W_LSB(377) == 754 && ZK_MSM_RECORD_BUCKET_T_LSB(377) == 1131 &&
                   ZK_MSM_RECORD_BUCKET_T_WIDTH(377) == 377,
               "bucket record: U, V, W, T at 377-bit strides");
static_assert(ZK_MSM_RECORD_BUCKET_TAG_LSB(377) == 1508 && ZK_MSM_RECORD_BUCKET_TAG_WIDTH(377) == 28 &&
                   ZK_MSM_RECORD_TAG_WINDOW_LSB == 0 && ZK_MSM_RECORD_TAG_WINDOW_WIDTH == 7 &&
                   ZK_MSM_RECORD_TAG_BUCKET_LSB == 7 && ZK_MSM_RECORD_TAG_BUCKET_WIDTH == 21,
               "bucket record tag: 7-bit window, 21-bit bucket at bit 1508");
static_assert(ZK_POSEIDON_FRAME_BEAT_BYTES == 32 && ZK_POSEIDON_FRAME_BEAT_ELEMENT_LSB(255) == 0 &&
                   ZK_POSEIDON_FRAME_BEAT_ELEMENT_WIDTH(255) == 255 && ZK_POSEIDON_FRAME_BEAT_LAST_LSB == 255 &&
                   ZK_POSEIDON_FRAME_BEAT_LAST_WIDTH == 1,
               "Poseidon beat: a 255-bit element, the in-band last flag at bit 255");
static_assert(ZK_POSEIDON_FRAME_IN_USER_ARITY_LSB == 0 && ZK_POSEIDON_FRAME_IN_USER_ARITY_WIDTH == 8 &&
                   ZK_POSEIDON_FRAME_OUT_USER_ERROR_LSB == 0 && ZK_POSEIDON_FRAME_OUT_USER_ERROR_WIDTH == 3,
               "Poseidon TUSER: arity [7:0] in, error bits [2:0] out");

#endif
