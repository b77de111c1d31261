/* zkmsm: host side of the zkspinal MSM engine (G1 of BLS12-377, BN254, BLS12-381), C ABI of sw/host-msm
 * (libzkmsm.so / libzkmsm.a).  The functions without a curve argument are BLS12-377's; the *_curve ones below take
 * a curve code.
 *
 * Encodings (reference_model/msm_formats.md):
 *   point    BLS12-377: ZKMSM_POINT_BYTES, arkworks uncompressed: x (48 bytes LE), y (48 bytes LE), flags in the top
 *            two bits of the last byte (bit 7: y is the larger root, bit 6: point at infinity with x = y = 0) -- the
 *            payload of a data-set `points` file after its 8-byte count; other curves: zkmsm_curve_point_bytes
 *   scalar   ZKMSM_SCALAR_BYTES LE, < r -- the payload of a `scalars` file, and the engine's scalar stream
 *   record   a point record or a bucket record of the engine's streams: whole 512-bit beats, as many as the curve's
 *            field width n needs (the contract's MSM_RECORD_POINT / MSM_RECORD_BUCKET at n; BLS12-377 three beats
 *            each): zkmsm_curve_point_record_bytes, zkmsm_curve_bucket_record_bytes
 * Every function returns 0 on success and -1 on failure; zkmsm_last_error() then describes the failure (naming the
 * offending point, scalar or record).  The string belongs to the library and stays valid until the next call on
 * the same thread.  The functions are thread-safe and use all cores (rayon).
 */
#ifndef ZKMSM_H
#define ZKMSM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* a BLS12-377 point; a scalar of every curve */
#define ZKMSM_POINT_BYTES 96
#define ZKMSM_SCALAR_BYTES 32

typedef struct ZkmsmLayout zkmsm_layout;

/* The window spec every tool reads: comma-separated WIDTH or WIDTHxCOUNT parts, least significant window first
 * ("13x13,12x7": 13 windows of 13 bits, then 7 of 12; spaces around a part ignored; at most 127 windows).  The widths
 * go to `widths` (room for `cap`), their number to *count; fails on anything else, naming the part. */
int zkmsm_windows_parse(const char *spec, uint32_t *widths, size_t cap, size_t *count);

/* The MSM instance file every engine reads (JSON: "points": [{"x", "y"} | "infinity"], "scalars": [...], numbers as
 * JSON integers or "0x" hex strings, other keys ignored; sw/host-msm/src/instance.rs).  zkmsm_instance_parse returns
 * NULL when refused (the reason, naming the place, in zkmsm_last_error); zkmsm_instance_write puts its points
 * (ZKMSM_POINT_BYTES each; an instance of zkmsm_instance_parse_curve: zkmsm_curve_point_bytes each) and scalars
 * (ZKMSM_SCALAR_BYTES each) into buffers of zkmsm_instance_len entries. */
typedef struct ZkmsmInstance zkmsm_instance;
zkmsm_instance *zkmsm_instance_parse(const uint8_t *text, size_t len);
size_t zkmsm_instance_len(const zkmsm_instance *inst);
int zkmsm_instance_write(const zkmsm_instance *inst, uint8_t *points, uint8_t *scalars);
void zkmsm_instance_free(zkmsm_instance *inst);

/* Window layout, widths from the least significant bit; widths = NULL or count = 0 gives the default
 * (13 windows of 13 bits, 7 of 12 bits).  NULL on a bad layout. */
zkmsm_layout *zkmsm_layout_new(const uint32_t *widths, size_t count);
/* The same for an engine built for scalars below 2^scalar_bits (MsmConfig.scalarBound, e.g. MsmAxis_small: windows
 * 6,6,6,6 and 24 bits): the top window has ((2^scalar_bits - 1) >> o_top) + 1 buckets.  scalar_bits 0: below r. */
zkmsm_layout *zkmsm_layout_new_bounded(const uint32_t *widths, size_t count, uint32_t scalar_bits);
void zkmsm_layout_free(zkmsm_layout *layout);
/* Buckets of this layout (67,926 for the default). */
size_t zkmsm_layout_total_buckets(const zkmsm_layout *layout);
/* The engine's read-out carries `partials` partial bucket records after the buckets (its PARTIALS register;
 * reference_model/msm_formats.md); zkmsm_postprocess then expects and merges them. */
void zkmsm_layout_set_partials(zkmsm_layout *layout, size_t partials);
/* Records of the engine's read-out: the buckets, then the partial buckets. */
size_t zkmsm_layout_total_records(const zkmsm_layout *layout);

/* Converts n points to the engine's point records (n * zkmsm_curve_point_record_bytes(ZK_MSM_CURVE_BLS12_377) bytes
 * at `records`).
 * Points without a twisted Edwards image (and, with check_subgroup != 0, points outside G1) get the identity
 * record; their indices go to `exceptions` (room for exceptions_cap), their count to *num_exceptions.
 * Fails on a point that is not on the curve or badly encoded. */
int zkmsm_precompute(const uint8_t *points, size_t n, uint8_t *records, int check_subgroup,
                     uint64_t *exceptions, size_t exceptions_cap, size_t *num_exceptions);

/* The engine's bucket read-out (buckets_len bytes: zkmsm_layout_total_records records of
 * zkmsm_curve_bucket_record_bytes(ZK_MSM_CURVE_BLS12_377)) -> the MSM result as a point at `result`.
 * points/scalars (n each) are only read at the exception indices from zkmsm_precompute.
 * Fails on a read-out of the wrong length, a record with a wrong tag or a coordinate >= p. */
int zkmsm_postprocess(const zkmsm_layout *layout, const uint8_t *buckets, size_t buckets_len,
                      const uint8_t *points, const uint8_t *scalars, size_t n,
                      const uint64_t *exceptions, size_t num_exceptions, uint8_t *result);

/* The model's data set for (npow, seed), as `python -m reference_model.msm gen` and `host-msm gen` write it:
 * 2^npow points (96 bytes each at `points`) and scalars (32 bytes each at `scalars`); npow <= 26. */
int zkmsm_generate(uint32_t npow, uint64_t seed, uint8_t *points, uint8_t *scalars);

/* arkworks' CPU MSM of the same input (the baseline). */
int zkmsm_msm_cpu(const uint8_t *points, const uint8_t *scalars, size_t n, uint8_t *result);

/* ---- curves (`--curve`): the functions above are BLS12-377's; these take a curve code ----------------------
 * The codes are the contract's (sw/lib/zk_contract.h): ZK_MSM_CURVE_BLS12_377, ZK_MSM_CURVE_BN254,
 * ZK_MSM_CURVE_BLS12_381 -- what an MSM card names in VERSION[31:16] of its identity; zkmsm_curve_by_name gives them
 * without the contract header.  An unknown code is an error (-1, NULL or 0 as the function returns).
 * BN254 and BLS12-381 G1 use the XYZZ adder: point records (x, y, 3x^2) in Montgomery form at the field's n (all
 * zero for infinity), no exceptions, every point checked (on the curve, in the subgroup) before anything else;
 * points and results in arkworks' own uncompressed encoding of that curve (zkmsm_curve_point_bytes bytes: BN254
 * 64, little-endian; BLS12-381 96, zcash style).  BLS12-377 goes to the functions above. */
int zkmsm_curve_by_name(const char *name, int *curve);   /* "bls12_377", "bn254", "bls12_381" */
const char *zkmsm_curve_name(int curve);                  /* static; NULL for an unknown code */
const char *zkmsm_curve_board_windows(int curve);          /* the curve's board engines' window layout (e.g. "13x14,12x6"): static; NULL for an unknown code */
size_t zkmsm_curve_point_bytes(int curve);                /* an encoded point; 0 for an unknown code */
size_t zkmsm_curve_point_record_bytes(int curve);         /* a point record of the engine; 0 for an unknown code */
size_t zkmsm_curve_bucket_record_bytes(int curve);        /* a bucket record of the engine; 0 for an unknown code */
/* window layout for the curve's scalars: below its r (scalar_bits 0) or below 2^scalar_bits */
zkmsm_layout *zkmsm_layout_new_curve(int curve, const uint32_t *widths, size_t count, uint32_t scalar_bits);
/* the JSON instance on the curve (its p, r, equation); zkmsm_instance_write then writes its point encoding */
zkmsm_instance *zkmsm_instance_parse_curve(int curve, const uint8_t *text, size_t len);
/* the model's data set on the curve (`host-msm gen --curve`): 2^npow points and scalars; npow <= 26 */
int zkmsm_generate_curve(int curve, uint32_t npow, uint64_t seed, uint8_t *points, uint8_t *scalars);
/* n points -> n point records (zkmsm_curve_point_record_bytes each) */
int zkmsm_precompute_curve(int curve, const uint8_t *points, size_t n, uint8_t *records, int check_subgroup,
                           uint64_t *exceptions, size_t exceptions_cap, size_t *num_exceptions);
/* the read-out (records of zkmsm_curve_bucket_record_bytes) -> the result (zkmsm_curve_point_bytes) */
int zkmsm_postprocess_curve(int curve, const zkmsm_layout *layout, const uint8_t *buckets, size_t buckets_len,
                            const uint8_t *points, const uint8_t *scalars, size_t n,
                            const uint64_t *exceptions, size_t num_exceptions, uint8_t *result);
int zkmsm_msm_cpu_curve(int curve, const uint8_t *points, const uint8_t *scalars, size_t n, uint8_t *result);
/* an encoded point (a result) as the model's `run` prints it: "0x<x> 0x<y>" (the field's hex digits each) or
 * "infinity", NUL-terminated into text (room for cap bytes; 200 is enough for every curve) */
int zkmsm_curve_format_point(int curve, const uint8_t *point, char *text, size_t cap);

const char *zkmsm_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* ZKMSM_H */
