/* zk-msm's inputs and results on a curve (zk_msm_input.c): the data-set directory, the JSON form and the model's
 * generator, all through the host library (sw/host-msm, zkmsm.h) with the curve's point encoding */
#ifndef ZK_MSM_INPUT_H
#define ZK_MSM_INPUT_H
#include <stddef.h>
#include <stdint.h>

typedef struct msm_data {
    uint8_t *points;           /* n points, point_bytes each (the curve's arkworks uncompressed encoding) */
    uint8_t *scalars;          /* n scalars, ZKMSM_SCALAR_BYTES each */
    size_t n;
    size_t point_bytes;
} msm_data;

/* -i PATH on the curve (a zkmsm curve code): a data-set directory (points, scalars: 8-byte count, then the payload)
 * or the JSON form; 0, 1 (unreadable) or 2 (malformed) after a message naming the file */
int msm_load(const char *path, int curve, msm_data *d);
/* -g NPOW --seed S on the curve: the model's data set (zkmsm_generate_curve), each scalar cut to its low `bits` bits
 * when bits > 0 */
void msm_generate(int curve, unsigned npow, unsigned long long seed, unsigned bits, msm_data *d);
void msm_data_free(msm_data *d);
/* the result as the model's `run` prints it ("0x<x> 0x<y>" or "infinity", no newline) into text */
void msm_format(int curve, const uint8_t *point, char *text, size_t cap);
/* compares text with the result file `path` (trailing white space ignored): 0 equal, 3 different, 1 unreadable,
 * after a message */
int msm_expect(const char *path, const char *text);
#endif
