/* zk-msm's engine runs over one card or several (--devices).
 *
 * Split by windows: the MSM is cut into window ranges [w0, w1), one per card, and the card of a range gets every
 * point record with the scalars masked to the bits of its windows (bits o_w0 .. o_w1 - 1; the top range keeps every
 * bit from o_w0 up).  The masked scalars sum to the scalars, so the MSMs of the ranges sum to the MSM, and since the
 * post-processing (sum over windows j of 2^o_j sum_k k B_jk) is linear in the buckets B_jk, adding every range's
 * buckets into one bucket set gives exactly the MSM: the first range's read-out is the bucket set, and every other
 * range's records (its buckets and partial buckets, each tagged with its window and bucket) follow as partial records,
 * which zkmsm_postprocess adds into their buckets (reference_model/msm_formats.md, "Partial records").  A range costs
 * its card the additions of its windows' digits plus, through the signed-digit carry, at most one addition per point
 * in the window above it (digit 0 or 1); every card streams every point record.
 *
 * The ranges go to the cards through zk_spread (one job = one range); a card that fails is reset and its range
 * retried on another card.
 *
 * Resident points (--resident; reference_model/msm_formats.md, "Point store"): before its first range a card loads
 * every point record into its point store as the set at block 0 (BASE 0, COUNT, CONTROL bit 2 load, the records on
 * H2C K+1, then STORED must read COUNT), and each range runs with SOURCE = 1 at BASE 0, streaming only its scalars on
 * H2C K.  --reuse skips the load of a card whose last load was at block 0 (STORED_BASE) and whose STORED already
 * equals the point count (the same points loaded by an earlier run: fixed bases, new scalars; the caller vouches that
 * they are the same points).
 *
 * Record sizes are the curve's (msm_input: the contract's MSM_RECORD_POINT / MSM_RECORD_BUCKET at its field width,
 * through the host library): BLS12-377 three-beat point and bucket records, BN254 two and three, BLS12-381 three and
 * four.  Every card of one MSM is of one curve (msm_cards_curve). */
#include "zk_msm_cards.h"
#include "tool_common.h"
#include "zkmsm.h"

#include <stdlib.h>
#include <string.h>

/* the engine's registers: ZK_MSM_* (zk_contract.h, from MsmAxisRegs in MsmAxis.scala) */
#define SC ZKMSM_SCALAR_BYTES
#define SBEAT ZK_MSM_RECORD_SCALARS_BYTES /* a scalar beat: two scalars (MsmRecord) */

/* the most partial records an engine of the layout can return: every adder but one holds a copy of the shared low
 * windows (at most every bucket), and each adder has its partial slots (fewer than the buckets) */
static size_t max_partials(size_t buckets) { return (size_t)MAX_ADDERS * buckets; }

/* the curve card d names (see msm_cards_curve): its code into *code, *how says how it was told; 0, or 1 after a
 * message */
static int card_curve(zk_dev *d, uint32_t *code, const char **how)
{
    uint32_t id = 0, info = 0, kind = 0, version = 0;
    *code = ZK_MSM_CURVE_BLS12_377;
    *how = "";
    if (zk_reg_read(d, ZK_SYS_ID, &id) || (id == ZK_SYS_MAGIC && zk_reg_read(d, ZK_SYS_INFO, &info))) {
        fprintf(stderr, "%s\n", zk_error(d));
        return 1;
    }
    if (id != ZK_SYS_MAGIC || ZK_SYS_REVISION(info) < 1) { /* an older card: no identity words to read */
        *how = " (its system block has no identity words: BLS12-377 taken)";
        return 0;
    }
    if (zk_reg_read(d, ZK_SYS_KIND, &kind) || zk_reg_read(d, ZK_SYS_VERSION, &version)) {
        fprintf(stderr, "%s\n", zk_error(d));
        return 1;
    }
    if (kind != ZK_CORE_KIND_MSM) {
        fprintf(stderr, "zk-msm: %s: the card carries a %s core (KIND %u), not an MSM engine\n", d->prefix,
                zk_core_name((zk_core_kind)kind), kind);
        return 1;
    }
    *code = ZK_SYS_VERSION_DETAIL(version);
    return 0;
}

int msm_cards_curve(zk_dev *devs, int n, int asked, int *curve)
{
    uint32_t first = 0;
    for (int k = 0; k < n; k++) {
        uint32_t code;
        const char *how;
        if (card_curve(&devs[k], &code, &how))
            return 1;
        const char *name = zk_msm_curve_name(code), *lib = zkmsm_curve_name((int)code);
        if (!name || !lib || strcmp(name, lib)) {
            fprintf(stderr, "zk-msm: %s: the card's identity names curve code %u (VERSION[31:16]), which this zk-msm "
                    "does not know\n", devs[k].prefix, code);
            return 1;
        }
        if (asked >= 0 && code != (uint32_t)asked) {
            fprintf(stderr, "zk-msm: %s: the card's engine is for curve %s%s, --curve asks for %s: refused, nothing "
                    "sent\n", devs[k].prefix, name, how, zkmsm_curve_name(asked));
            return 2;
        }
        if (k > 0 && code != first) {
            fprintf(stderr, "zk-msm: the cards are for different curves: %s %s, %s %s (one MSM runs on cards of one "
                    "curve: list them with --devices)\n", devs[0].prefix, zk_msm_curve_name(first), devs[k].prefix,
                    name);
            return 2;
        }
        first = code;
    }
    *curve = (int)first;
    return 0;
}

int msm_check_card(zk_dev *d, size_t nw, const char *wspec, size_t buckets)
{
    uint32_t info = 0, partials = 0;
    if (zk_reg_read(d, ZK_MSM_INFO, &info) || zk_reg_read(d, ZK_MSM_PARTIALS, &partials)) {
        fprintf(stderr, "%s\n", zk_error(d));
        return 1;
    }
    if (info == 0xffffffffu) {
        fprintf(stderr, "zk-msm: %s: the core's registers read all ones (a hung core: zk-status --reset)\n", d->prefix);
        return 1;
    }
    if (zk_msm_info_windows(info) != nw) {
        fprintf(stderr, "zk-msm: %s: the engine has %u windows, --windows %s has %zu\n", d->prefix,
                (unsigned)zk_msm_info_windows(info), wspec, nw);
        return 2;
    }
    if (partials > max_partials(buckets)) {
        fprintf(stderr, "zk-msm: %s: the engine reports %u partial buckets (at most %zu for this layout): not an MSM "
                "core?\n", d->prefix, partials, max_partials(buckets));
        return 1;
    }
    return 0;
}

typedef struct range_job {
    uint32_t w0, w1;           /* windows [w0, w1) */
    uint8_t *readout;          /* zk_alloc */
    size_t records;
    uint32_t partials, cycles, busy, adders, adder_busy[MAX_ADDERS];
} range_job;

typedef struct card_state {
    zk_dev *d;
    uint8_t *sc;               /* the masked scalar beats (zk_alloc) */
    int loaded;                /* --resident: its point store holds the points */
    int loads;                 /* loads done on it */
    double load_s;
} card_state;

typedef struct msm_ctx {
    const msm_input *in;
    card_state *cards;
    range_job *ranges;
} msm_ctx;

/* scalar bits [lo, hi) of every scalar into beats (two scalars per beat, the tail zero) */
static void masked_scalars(const msm_input *in, uint8_t *sc, size_t lo, size_t hi)
{
    memset(sc, 0, (in->n + 1) / 2 * SBEAT);
    for (size_t i = 0; i < in->n; i++) {
        const uint8_t *s = in->scalars + i * SC;
        uint8_t *o = sc + i * SC;
        for (size_t b = lo / 8; b < SC && b * 8 < hi; b++) {
            unsigned keep = 0xff;
            if (b * 8 < lo)
                keep &= 0xffu << (lo - b * 8);
            if (b * 8 + 8 > hi)
                keep &= 0xffu >> (b * 8 + 8 - hi);
            o[b] = (uint8_t)(s[b] & keep);
        }
    }
}

/* the ERROR bits set, with their meaning (ZK_MSM_ERROR_CODES: the masks) */
static const char *error_bits(uint32_t err, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (const zk_code_desc *c = ZK_MSM_ERROR_CODES; c->name && o < len; c++)
        if (err & c->value)
            o += (size_t)snprintf(buf + o, len - o, " [%s]", c->doc);
    return buf;
}

/* the reason into err, the engine reset (soft reset, then the system reset) so that the card is reusable; -1 */
static int range_failed(zk_dev *d, char *err, size_t errlen, const char *why)
{
    snprintf(err, errlen, "%s", why);
    fprintf(stderr, "zk-msm: %s: %s; resetting the engine\n", d->prefix, zk_interrupted() ? "interrupted" : "job failed");
    if (zk_reg_write(d, ZK_MSM_CONTROL, 2) || zk_soft_reset(d))
        fprintf(stderr, "%s\n", zk_error(d));
    return -1;
}

/* `per` elements of `bytes` each, rounded down to a count whose bytes are a multiple of 4 KiB (at least one such
 * count): every write of a chunked stream then starts 4 KiB aligned in its zk_alloc buffer, as XDMA needs */
static size_t aligned_elems(size_t per, size_t bytes)
{
    size_t a = 4096, b = bytes % 4096;
    while (b) { /* gcd(bytes, 4096) */
        size_t t = a % b;
        a = b;
        b = t;
    }
    size_t m = 4096 / a;
    return per < m ? m : per - per % m;
}

/* waits until the engine is idle (no job or load running); 0, or -1 after `ms` milliseconds or a register error */
static int wait_idle(zk_dev *d, unsigned ms)
{
    double until = now_s() + ms / 1000.0;
    uint32_t st = 0;
    do {
        if (zk_reg_read(d, ZK_MSM_CONTROL, &st))
            return -1;
        if (st & ZK_MSM_STATUS_IDLE)
            return 0;
    } while (now_s() < until && !zk_interrupted());
    return -1;
}

/* every point record into card c's point store (see the header); 0, or -1 through range_failed */
static int load_points(card_state *c, const msm_input *in, char *err, size_t errlen)
{
    zk_dev *d = c->d;
    uint32_t cap = 0, stored = 0, e = 0, eidx = 0;
    if (zk_reg_read(d, ZK_MSM_CAPACITY, &cap) || zk_reg_read(d, ZK_MSM_STORED, &stored))
        return range_failed(d, err, errlen, zk_error(d));
    if (cap == 0 || in->n > cap) {
        char why[200];
        if (cap == 0)
            snprintf(why, sizeof why, "the engine has no point store (CAPACITY 0): run without --resident");
        else
            snprintf(why, sizeof why, "its point store holds %u points, the MSM has %zu (--resident)", cap, in->n);
        return range_failed(d, err, errlen, why);
    }
    uint32_t stored_base = 0;
    if (in->reuse && zk_reg_read(d, ZK_MSM_STORED_BASE, &stored_base))
        return range_failed(d, err, errlen, zk_error(d));
    if (in->reuse && stored == in->n && stored_base == 0) {
        c->loaded = 1;
        return 0;
    }
    double t0 = now_s();
    /* zk-msm's points are the set at block 0 (BASE: another program may have left it elsewhere) */
    if (zk_reg_write(d, ZK_MSM_CONTROL, 2) || zk_reg_write(d, ZK_MSM_BASE, 0) || zk_reg_write(d, ZK_MSM_COUNT, (uint32_t)in->n) ||
        zk_reg_write(d, ZK_MSM_FRAMING, in->chunk && !in->strict) || zk_reg_write(d, ZK_MSM_CONTROL, 4))
        return range_failed(d, err, errlen, zk_error(d));
    size_t per = in->chunk ? aligned_elems(in->chunk, in->point_bytes) : in->n;
    for (size_t i = 0; i < in->n; i += per) {
        size_t k = in->n - i < per ? in->n - i : per;
        if (zk_write(d, in->channel + 1, in->rec + i * in->point_bytes, k * in->point_bytes))
            return range_failed(d, err, errlen, zk_error(d));
    }
    /* the last writes are acknowledged by the memory before STORED counts them */
    if (wait_idle(d, 10000))
        return range_failed(d, err, errlen, "the point store load did not finish within 10 s");
    if (zk_reg_read(d, ZK_MSM_ERROR, &e) || zk_reg_read(d, ZK_MSM_ERROR_INDEX, &eidx) ||
        zk_reg_read(d, ZK_MSM_STORED, &stored))
        return range_failed(d, err, errlen, zk_error(d));
    if (e || stored != in->n) {
        char bits[400], why[600];
        snprintf(why, sizeof why, "the point store load failed: STORED %u of %zu, ERROR 0x%x at element %u:%s", stored,
                 in->n, e, eidx, error_bits(e, bits, sizeof bits));
        return range_failed(d, err, errlen, why);
    }
    c->loaded = 1;
    c->loads++;
    c->load_s += now_s() - t0;
    return 0;
}

/* zk_spread's job: window range `first` (count 1) on card k */
static int run_range(void *vx, int k, size_t first, size_t count, char *err, size_t errlen)
{
    msm_ctx *x = vx;
    const msm_input *in = x->in;
    card_state *c = &x->cards[k];
    range_job *r = &x->ranges[first];
    zk_dev *d = c->d;
    (void)count;
    size_t lo = 0, hi = 0;
    for (uint32_t j = 0; j < r->w1; j++) {
        lo += j < r->w0 ? in->widths[j] : 0;
        hi += in->widths[j];
    }
    if (r->w1 == in->nw)
        hi = 256; /* the top window takes every remaining bit */
    masked_scalars(in, c->sc, lo, hi);
    if (in->resident) { /* a reset card (a failed range) has lost its STORED count: load again */
        uint32_t stored = 0;
        if (c->loaded && (zk_reg_read(d, ZK_MSM_STORED, &stored) || stored != in->n))
            c->loaded = 0;
        if (!c->loaded && load_points(c, in, err, errlen))
            return -1;
    }
    uint32_t partials = 0;
    if (zk_reg_read(d, ZK_MSM_PARTIALS, &partials))
        return range_failed(d, err, errlen, zk_error(d));
    if (partials > max_partials(in->buckets))
        return range_failed(d, err, errlen, "the engine's PARTIALS register reads above what the layout allows (a hung core?)");
    size_t records = in->buckets + partials;
    zk_free(r->readout); /* a retried range: the failed card's partial read-out */
    if (!(r->readout = zk_alloc(records * in->bucket_bytes)))
        return range_failed(d, err, errlen, "out of memory for the read-out");
    r->records = records;
    r->partials = partials;
    /* a clean start: soft reset (clears a previous job's error, empties the input FIFOs), COUNT, start */
    /* SOURCE (engines with a point store) says where this job's points come from; it stays as written */
    uint32_t cap = 0;
    if (zk_reg_write(d, ZK_MSM_CONTROL, 2) || zk_reg_read(d, ZK_MSM_CAPACITY, &cap) ||
        zk_reg_write(d, ZK_MSM_COUNT, (uint32_t)in->n) || zk_reg_write(d, ZK_MSM_FRAMING, in->chunk && !in->strict) ||
        (cap && (zk_reg_write(d, ZK_MSM_SOURCE, c->loaded ? 1 : 0) || zk_reg_write(d, ZK_MSM_BASE, 0))) ||
        zk_reg_write(d, ZK_MSM_CONTROL, 1))
        return range_failed(d, err, errlen, zk_error(d));
    size_t per = in->chunk ? (in->chunk + 1) / 2 : 0, sbeats = (in->n + 1) / 2;
    char why[1400] = "";
    if (c->loaded) { /* resident: the scalars alone, in chunks of `per` beats or one write */
        size_t step = per ? aligned_elems(per, SBEAT) : sbeats, np = (sbeats + step - 1) / step;
        zk_packet *pk = calloc(np, sizeof *pk);
        if (!pk)
            die("out of memory");
        for (size_t i = 0; i < np; i++)
            pk[i] = (zk_packet){c->sc + i * step * SBEAT, (i + 1 == np ? sbeats - i * step : step) * SBEAT};
        zk_job job = {in->channel, in->channel, pk, np, r->readout, records * in->bucket_bytes, NULL, 0, NULL};
        if (zk_run_job(d, &job))
            snprintf(why, sizeof why, "%s", zk_error(d));
        free(pk);
    } else {
        zk_stream s[2];
        size_t ch;
        if (per && in->n % 2 == 0) { /* elements = pairs of points (one scalar beat, two records) */
            s[0] = (zk_stream){in->channel, c->sc, SBEAT, sbeats};
            s[1] = (zk_stream){in->channel + 1, in->rec, 2 * in->point_bytes, in->n / 2};
            ch = per;
        } else { /* each stream in one write */
            s[0] = (zk_stream){in->channel, c->sc, sbeats * SBEAT, 1};
            s[1] = (zk_stream){in->channel + 1, in->rec, in->n * in->point_bytes, 1};
            ch = 1;
        }
        if (zk_run_pair(d, s, ch, ZK_PAIR_PARALLEL, in->channel, r->readout, records * in->bucket_bytes))
            snprintf(why, sizeof why, "%s", zk_error(d));
    }
    uint32_t e = 0, eidx = 0;
    if (zk_reg_read(d, ZK_MSM_ERROR, &e) || zk_reg_read(d, ZK_MSM_ERROR_INDEX, &eidx) || zk_reg_read(d, ZK_MSM_CYCLES, &r->cycles) ||
        zk_reg_read(d, ZK_MSM_BUSY, &r->busy) || zk_reg_read(d, ZK_MSM_ADDERS, &r->adders))
        return range_failed(d, err, errlen, why[0] ? why : zk_error(d));
    if (r->adders > MAX_ADDERS)
        r->adders = 0; /* not an engine this tool knows: no per-adder figures */
    for (uint32_t a = 0; a < r->adders; a++)
        if (zk_reg_read(d, ZK_MSM_ADDER_BUSY + 8 * a, &r->adder_busy[a]))
            return range_failed(d, err, errlen, zk_error(d));
    if (e && e != 0xffffffffu) {
        char bits[400];
        size_t o = strlen(why);
        snprintf(why + o, sizeof why - o, "%szk-msm: %s: the engine reports ERROR 0x%x at element %u:%s", o ? "\n" : "",
                 d->prefix, e, eidx, error_bits(e, bits, sizeof bits));
    }
    if (why[0])
        return range_failed(d, err, errlen, why);
    return 0;
}

int msm_run(zk_dev *devs, int n, const msm_input *in, msm_output *out)
{
    memset(out, 0, sizeof *out);
    size_t nr = (size_t)n < in->nw ? (size_t)n : in->nw;
    range_job *ranges = calloc(nr, sizeof *ranges);
    card_state *cards = calloc((size_t)n, sizeof *cards);
    if (!ranges || !cards)
        die("out of memory");
    for (size_t t = 0; t < nr; t++) /* even window counts */
        ranges[t].w0 = (uint32_t)(t * in->nw / nr), ranges[t].w1 = (uint32_t)((t + 1) * in->nw / nr);
    const char *names[ZK_MAX_CARDS];
    for (int k = 0; k < n; k++) {
        cards[k].d = &devs[k];
        names[k] = devs[k].prefix;
        if (!(cards[k].sc = zk_alloc((in->n + 1) / 2 * SBEAT)))
            die("out of memory");
    }
    msm_ctx x = {in, cards, ranges};
    zk_spread_card st[ZK_MAX_CARDS];
    zk_spread_stats ss;
    char err[1024];
    int rc = 0;
    if (zk_spread(n, names, nr, 1, "window range(s)", run_range, &x, st, &ss, err, sizeof err)) {
        rc = zk_interrupted() ? 130 : 1;
        if (n > 1 || rc == 130)
            fprintf(stderr, "zk-msm: %s\n", err);
    }
    if (rc == 0) {
        for (size_t t = 0; t < nr; t++)
            out->records += ranges[t].records;
        if (!(out->readout = zk_alloc(out->records * in->bucket_bytes)))
            die("out of memory");
        size_t at = 0;
        for (size_t t = 0; t < nr; t++) {
            memcpy(out->readout + at * in->bucket_bytes, ranges[t].readout, ranges[t].records * in->bucket_bytes);
            at += ranges[t].records;
            out->cycles += ranges[t].cycles;
            out->busy += ranges[t].busy;
            out->adders = ranges[t].adders;
            for (uint32_t a = 0; a < ranges[t].adders; a++)
                out->adder_busy[a] += ranges[t].adder_busy[a];
        }
        out->engine_partials = ranges[0].partials;
        out->ranges = nr;
        for (int k = 0; k < n; k++)
            out->loads += (size_t)cards[k].loads, out->load_s += cards[k].load_s;
        if (n > 1) {
            for (int k = 0; k < n; k++)
                fprintf(stderr, "zk-msm: card %s: %zu window range(s), %.3f s busy%s\n", names[k], st[k].items,
                        st[k].busy_s, st[k].failed ? " (dropped)" : "");
            for (size_t t = 0; t < nr; t++)
                fprintf(stderr, "zk-msm: windows %u..%u: %u cycles, %u additions\n", ranges[t].w0, ranges[t].w1 - 1,
                        ranges[t].cycles, ranges[t].busy);
            fprintf(stderr, "zk-msm: %d cards: %.3f s from the first job to the last, some card busy %.3f s, all %d busy "
                            "at once %.3f s (%.0f %%); %zu window range(s) retried\n", n, ss.wall_s, ss.busy_any_s, n,
                    ss.busy_all_s, ss.wall_s > 0 ? 100.0 * ss.busy_all_s / ss.wall_s : 0.0, ss.retried);
        }
    }
    for (size_t t = 0; t < nr; t++)
        zk_free(ranges[t].readout);
    for (int k = 0; k < n; k++)
        zk_free(cards[k].sc);
    free(ranges);
    free(cards);
    return rc;
}

void msm_output_free(msm_output *o)
{
    zk_free(o->readout);
    o->readout = NULL;
}
