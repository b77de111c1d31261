/* zkmsm: host side of the zkspinal MSM engine (BLS12-377 G1), C ABI of sw/host-msm (libzkmsm.so / libzkmsm.a).
 *
 * Encodings (reference_model/msm_formats.md):
 *   point    96 bytes, arkworks uncompressed: x (48 bytes LE), y (48 bytes LE), flags in the top two bits of byte 95
 *            (bit 7: y is the larger root, bit 6: point at infinity with x = y = 0) -- the payload of a data-set
 *            `points` file after its 8-byte count
 *   scalar   32 bytes LE, < r -- the payload of a `scalars` file, and the engine's scalar stream
 *   record   192 bytes (three 512-bit beats): ZKMSM_RECORD_BYTES, a point record or a bucket record
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

#define ZKMSM_POINT_BYTES 96
#define ZKMSM_SCALAR_BYTES 32
#define ZKMSM_RECORD_BYTES 192

typedef struct ZkmsmLayout zkmsm_layout;

/* The window spec every tool reads: comma-separated WIDTH or WIDTHxCOUNT parts, least significant window first
 * ("13x13,12x7": 13 windows of 13 bits, then 7 of 12; spaces around a part ignored; at most 127 windows).  The widths
 * go to `widths` (room for `cap`), their number to *count; fails on anything else, naming the part. */
int zkmsm_windows_parse(const char *spec, uint32_t *widths, size_t cap, size_t *count);

/* The MSM instance file every engine reads (JSON: "points": [{"x", "y"} | "infinity"], "scalars": [...], numbers as
 * JSON integers or "0x" hex strings, other keys ignored; sw/host-msm/src/instance.rs).  zkmsm_instance_parse returns
 * NULL when refused (the reason, naming the place, in zkmsm_last_error); zkmsm_instance_write puts its points
 * (ZKMSM_POINT_BYTES each) and scalars (ZKMSM_SCALAR_BYTES each) into buffers of zkmsm_instance_len entries. */
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

/* Converts n points to the engine's point records (n * ZKMSM_RECORD_BYTES bytes at `records`).
 * Points without a twisted Edwards image (and, with check_subgroup != 0, points outside G1) get the identity
 * record; their indices go to `exceptions` (room for exceptions_cap), their count to *num_exceptions.
 * Fails on a point that is not on the curve or badly encoded. */
int zkmsm_precompute(const uint8_t *points, size_t n, uint8_t *records, int check_subgroup,
                     uint64_t *exceptions, size_t exceptions_cap, size_t *num_exceptions);

/* The engine's bucket read-out (buckets_len bytes) -> the MSM result as a 96-byte point at `result`.
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
 * BN254 and BLS12-381 G1 use the XYZZ adder: point records (x, y, 3x^2) in Montgomery form at the field's n (all
 * zero for infinity), no exceptions, every point checked (on the curve, in the subgroup) before anything else;
 * points and results in arkworks' own uncompressed encoding of that curve (zkmsm_curve_point_bytes bytes: BN254
 * 64, little-endian; BLS12-381 96, zcash style).  BLS12-381's 381-bit elements do not fit the records yet
 * (zkmsm_precompute_curve/zkmsm_postprocess_curve refuse it; zkmsm_msm_cpu_curve takes it). */
#define ZKMSM_CURVE_BLS12_377 0
#define ZKMSM_CURVE_BN254 1
#define ZKMSM_CURVE_BLS12_381 2
int zkmsm_curve_by_name(const char *name, int *curve);   /* "bls12_377", "bn254", "bls12_381" */
const char *zkmsm_curve_name(int curve);                  /* static; NULL for an unknown code */
size_t zkmsm_curve_point_bytes(int curve);                /* 0 for an unknown code */
/* window layout for the curve's scalars: below its r (scalar_bits 0) or below 2^scalar_bits */
zkmsm_layout *zkmsm_layout_new_curve(int curve, const uint32_t *widths, size_t count, uint32_t scalar_bits);
int zkmsm_precompute_curve(int curve, const uint8_t *points, size_t n, uint8_t *records, int check_subgroup,
                           uint64_t *exceptions, size_t exceptions_cap, size_t *num_exceptions);
int zkmsm_postprocess_curve(int curve, const zkmsm_layout *layout, const uint8_t *buckets, size_t buckets_len,
                            const uint8_t *points, const uint8_t *scalars, size_t n,
                            const uint64_t *exceptions, size_t num_exceptions, uint8_t *result);
int zkmsm_msm_cpu_curve(int curve, const uint8_t *points, const uint8_t *scalars, size_t n, uint8_t *result);

const char *zkmsm_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* ZKMSM_H */
