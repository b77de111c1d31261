/* zk-msm's engine runs on one card or several (zk_msm_cards.c) */
#ifndef ZK_MSM_CARDS_H
#define ZK_MSM_CARDS_H
#include "zkxdma.h"

#include <stddef.h>
#include <stdint.h>

#define MAX_ADDERS ZK_MSM_MAX_ADDERS /* BUSY of adder a at ZK_MSM_ADDER_BUSY + 8a (low word) */

typedef struct msm_input {
    const uint8_t *rec;        /* n point records (zk_alloc), point_bytes each */
    size_t point_bytes;        /* a point record of the curve (zkmsm_curve_point_record_bytes) */
    size_t bucket_bytes;       /* a bucket record of the curve (zkmsm_curve_bucket_record_bytes) */
    const uint8_t *scalars;    /* n scalars, 32 bytes each */
    size_t n;
    const uint32_t *widths;    /* the engine's window layout */
    size_t nw;
    size_t buckets;            /* bucket records of the layout (before the partial records) */
    int channel;               /* scalars on h2c K, points on h2c K+1, buckets on c2h K */
    size_t chunk;              /* points per write (--chunk), 0: one write per stream */
    int strict;                /* --strict-tlast */
    int resident;              /* --resident: the points go into each card's point store once, the jobs stream scalars */
    int reuse;                 /* --reuse: a card whose store already holds n points (STORED) is not loaded again */
} msm_input;

typedef struct msm_output {
    uint8_t *readout;          /* zk_alloc: the first window range's read-out, then every other range's records */
    size_t records;            /* records in readout */
    uint32_t engine_partials;  /* the PARTIALS register of the first range's card */
    uint32_t cycles, busy, adders, adder_busy[MAX_ADDERS]; /* summed over the ranges */
    size_t ranges;             /* window ranges the MSM was split into */
    size_t loads;              /* --resident: point-store loads done (0 when every card reused its store) */
    double load_s;             /* their seconds, summed */
} msm_output;

/* The curve of the cards: each card's identity names it (VERSION[31:16], ZK_MSM_CURVE_*; a card without the identity
 * words is BLS12-377's).  `asked` (a curve code, or -1: none) must be every card's, and the cards must agree; the
 * code into *curve.  0, else 1 (a device error, a card of another kind, a code this tool does not know) or 2 (the
 * cards' curve is not the one asked for, or the cards' curves differ) after a message naming the card. */
int msm_cards_curve(zk_dev *devs, int n, int asked, int *curve);
/* the card answers, has nw windows and a sane PARTIALS: 0, else 1 (device) or 2 (layout) after a message */
int msm_check_card(zk_dev *d, size_t nw, const char *wspec, size_t buckets);
/* runs the MSM on the cards, split by windows when n > 1; 0, 1 (device or engine error, no card left) or 130 */
int msm_run(zk_dev *devs, int n, const msm_input *in, msm_output *out);
void msm_output_free(msm_output *o);
#endif
