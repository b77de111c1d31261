/* zk-msm: a ZPrize-style harness on MsmAxis (hw/src/zkspinal/msm/MsmAxis.scala; reference_model/msm_formats.md).
 * Steps, each timed: load (a data-set directory, the model's JSON form, or the model's generator through sw/host-msm),
 * convert the points to the engine's records (zkmsm_precompute), run (COUNT, start, scalars on H2C K and point
 * records on H2C K+1 through libzkxdma's pair API, the bucket read-out from C2H K), post-process the buckets
 * (zkmsm_postprocess), verify against arkworks' CPU MSM and/or an expected result file (the model's `run` output).
 *
 * TLAST: XDMA ends every write() with TLAST.  By default each stream goes out as ONE write, the two writes on their
 * own threads (ZK_PAIR_PARALLEL with a single chunk): the core consumes both in lockstep and neither write waits on
 * the other, which avoids the deadlock of seed 002.  --chunk N writes N points per write (the chunked lockstep path,
 * below the FIFO depths) and sets the engine's FRAMING register (packets: TLAST inside a stream allowed, COUNT frames
 * the job); --strict-tlast keeps FRAMING at 0, where a TLAST before a stream's last element is an input error
 * (ERROR bits 1 and 3), for DMA engines that frame a stream as one packet.
 *
 * --resident (engines with a point store, MsmAxis_vu9p): the points are loaded into card memory once and each job
 * streams only its scalars (zk_msm_cards.c); --reuse keeps a store that already holds the points. */
#include "tool_common.h"
#include "zk_msm_cards.h"
#include "zkmsm.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define REC ZKMSM_RECORD_BYTES
#define PT ZKMSM_POINT_BYTES
#define SC ZKMSM_SCALAR_BYTES
/* the host library's public sizes are the engine's records (MsmRecord in the generated contract) */
_Static_assert(REC == ZK_MSM_RECORD_POINT_BYTES && REC == ZK_MSM_RECORD_BUCKET_BYTES, "zkmsm.h: record bytes");
_Static_assert(8 * SC == ZK_MSM_RECORD_SCALARS_FIRST_WIDTH && 2 * SC == ZK_MSM_RECORD_SCALARS_BYTES, "zkmsm.h: scalar bytes");

static void usage(FILE *f)
{
    fprintf(f, "usage: zk-msm [options] (-i DIR|FILE.json | -g NPOW [--seed S]) [-x EXPECTED] [-o RESULT]\n"
               "options:\n" TOOL_DEV_HELP
               "  -i, --input PATH     data-set directory (points, scalars: the ZPrize files) or the model's JSON form\n"
               "  -g, --gen NPOW       the model's generated data set of 2^NPOW points (--seed S, default 1);\n"
               "                       with --scalar-bits B its scalars are cut to their low B bits\n"
               "  -w, --windows SPEC   the engine's window layout, e.g. 13x13,12x7 (default) or 6,6,6,6\n"
               "  -B, --scalar-bits B  the engine takes scalars < 2^B (MsmAxis_small: 24; default: < r)\n"
               "  -x, --expect FILE    compare with FILE: `0x<x> 0x<y>` or `infinity` (python -m reference_model.msm run)\n"
               "  -o, --output FILE    write the result in that format (default stdout)\n"
               "      --no-cpu         skip the check against arkworks' CPU MSM\n"
               "  -s, --chunk N        N points per write (even; sets the engine's FRAMING; default: one write per stream)\n"
               "      --strict-tlast   keep FRAMING 0: TLAST only on each stream's last element (with -s: an engine error)\n"
               "      --resident       load the points into the card's point store first, then stream only the scalars\n"
               "                       (engines with card memory: CAPACITY > 0)\n"
               "      --reuse          with --resident: skip the load on a card whose store holds as many points (the\n"
               "                       same points, loaded by an earlier run: the caller vouches for it)\n"
               TOOL_DEVICES_HELP
               "                       (the MSM is split by windows, one range per card; the host adds the cards'\n"
               "                       buckets; a card that fails is named and its windows retried on another)\n"
               "exit: 0 ok, 1 device error, timeout or core error, 2 usage or malformed input, 3 wrong result, 130\n");
}

typedef struct data { uint8_t *points, *scalars; size_t n; } data;

/* the model's JSON form, read by the host library's parser (the one both engines use) */
static int load_json(const char *path, const uint8_t *text, size_t len, data *d)
{
    zkmsm_instance *inst = zkmsm_instance_parse(text, len);
    if (!inst) {
        fprintf(stderr, "%s: %s\n", path, zkmsm_last_error());
        return 2;
    }
    d->n = zkmsm_instance_len(inst);
    d->points = malloc(d->n * PT + 1);
    d->scalars = malloc(d->n * SC + 1);
    if (!d->points || !d->scalars)
        die("out of memory");
    int rc = zkmsm_instance_write(inst, d->points, d->scalars);
    zkmsm_instance_free(inst);
    if (rc) {
        fprintf(stderr, "%s: %s\n", path, zkmsm_last_error());
        return 2;
    }
    return 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    size_t cap = 0, n = 0, r;
    do {
        if (n == cap && !(b = realloc(b, cap = cap ? 2 * cap : 65536)))
            die("out of memory");
        r = fread(b + n, 1, cap - n, f);
        n += r;
    } while (r > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return NULL;
    }
    *len = n;
    return b;
}

/* DIR/points, DIR/scalars: 8-byte count, then the payload (arkworks uncompressed) */
static int load_dir(const char *dir, data *d)
{
    char path[4096];
    size_t lp, ls;
    snprintf(path, sizeof path, "%s/points", dir);
    uint8_t *p = slurp(path, &lp);
    if (!p) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/scalars", dir);
    uint8_t *s = slurp(path, &ls);
    if (!s) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
        free(p);
        return 1;
    }
    uint64_t cp = 0, cs = 0;
    if (lp >= 8)
        memcpy(&cp, p, 8);
    if (ls >= 8)
        memcpy(&cs, s, 8);
    int rc = 0;
    if (lp < 8 || (lp - 8) / PT != cp || (lp - 8) % PT || ls < 8 || (ls - 8) / SC != cs || (ls - 8) % SC || cp != cs) {
        fprintf(stderr, "%s: points/scalars files do not hold equal counts of 96-byte points and 32-byte scalars\n", dir);
        rc = 2;
    } else {
        d->n = cp;
        d->points = malloc(cp * PT + 1);
        d->scalars = malloc(cs * SC + 1);
        if (!d->points || !d->scalars)
            die("out of memory");
        memcpy(d->points, p + 8, cp * PT);
        memcpy(d->scalars, s + 8, cs * SC);
    }
    free(p);
    free(s);
    return rc;
}

static void print_point(FILE *f, const uint8_t r[96])
{
    if (r[95] & 0x40) {
        fputs("infinity\n", f);
        return;
    }
    fputs("0x", f);
    for (int i = 47; i >= 0; i--)
        fprintf(f, "%02x", r[i]);
    fputs(" 0x", f);
    for (int i = 95; i >= 48; i--)
        fprintf(f, "%02x", i == 95 ? r[i] & 0x3f : r[i]);
    fputc('\n', f);
}

int main(int argc, char **argv)
{
    tool_dev t;
    tool_dev_init(&t);
    const char *in = NULL, *expect = NULL, *out = NULL, *wspec = "13x13,12x7", *devices = NULL;
    unsigned long long npow = ~0ull, seed = 1, bits = 0, chunk = 0;
    int cpu = 1, strict = 0, resident = 0, reuse = 0;
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"input", required_argument, NULL, 'i'},
                                       {"gen", required_argument, NULL, 'g'}, {"seed", required_argument, NULL, 'S'},
                                       {"windows", required_argument, NULL, 'w'}, {"scalar-bits", required_argument, NULL, 'B'},
                                       {"expect", required_argument, NULL, 'x'}, {"output", required_argument, NULL, 'o'},
                                       {"no-cpu", no_argument, NULL, 'C'}, {"chunk", required_argument, NULL, 's'},
                                       {"strict-tlast", no_argument, NULL, 'T'}, {"resident", no_argument, NULL, 'R'},
                                       {"reuse", no_argument, NULL, 'U'},
                                       {"devices", required_argument, NULL, 'D'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "i:g:w:B:x:o:s:h", lo, NULL)) != -1) {
        if (tool_dev_opt(&t, o, optarg))
            continue;
        switch (o) {
        case 'i': in = optarg; break;
        case 'g': npow = parse_u64("npow", optarg, 26); break;
        case 'S': seed = parse_u64("seed", optarg, ~0ull); break;
        case 'w': wspec = optarg; break;
        case 'B': bits = parse_u64("scalar-bits", optarg, 253); break;
        case 'x': expect = optarg; break;
        case 'o': out = optarg; break;
        case 'C': cpu = 0; break;
        case 'T': strict = 1; break;
        case 'R': resident = 1; break;
        case 'U': reuse = 1; break;
        case 'D': devices = optarg; break;
        case 's': chunk = parse_u64("chunk", optarg, 1ull << 32); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    uint32_t widths[127];
    size_t nw;
    if (optind != argc || (!in) == (npow == ~0ull) || (reuse && !resident)) {
        usage(stderr);
        return 2;
    }
    if (zkmsm_windows_parse(wspec, widths, sizeof widths / sizeof *widths, &nw)) { /* the host library's grammar */
        fprintf(stderr, "zk-msm: --windows: %s\n", zkmsm_last_error());
        return 2;
    }
    zkmsm_layout *layout = zkmsm_layout_new_bounded(widths, nw, (uint32_t)bits);
    if (!layout) {
        fprintf(stderr, "zk-msm: --windows %s: %s\n", wspec, zkmsm_last_error());
        return 2;
    }
    int rc = 0;
    data d = {0};
    double t0 = now_s();
    if (in) {
        struct stat st;
        size_t len;
        uint8_t *text;
        if (stat(in, &st) == 0 && S_ISDIR(st.st_mode))
            rc = load_dir(in, &d);
        else if (!(text = slurp(in, &len))) {
            fprintf(stderr, "%s: read: %s\n", in, strerror(errno));
            rc = 1;
        } else {
            rc = load_json(in, text, len, &d);
            free(text);
        }
    } else {
        d.n = (size_t)1 << npow;
        d.points = malloc(d.n * PT);
        d.scalars = malloc(d.n * SC);
        if (!d.points || !d.scalars)
            die("out of memory");
        if (zkmsm_generate((uint32_t)npow, seed, d.points, d.scalars))
            die("zk-msm: generate: %s", zkmsm_last_error());
        for (size_t i = 0; bits && i < d.n; i++) /* the low `bits` bits of each scalar */
            for (size_t b = bits; b < 256; b++)
                d.scalars[i * SC + b / 8] &= (uint8_t)~(1u << (b % 8));
    }
    if (rc == 0 && d.n == 0) {
        fprintf(stderr, "zk-msm: no points\n");
        rc = 2;
    }
    for (size_t i = 0; rc == 0 && bits && i < d.n; i++)
        for (size_t b = bits; b < 256; b++)
            if (d.scalars[i * SC + b / 8] >> (b % 8) & 1) {
                fprintf(stderr, "zk-msm: scalar %zu is not below 2^%llu, the engine's bound (--scalar-bits)\n", i, bits);
                rc = 2;
                break;
            }
    double t_load = now_s() - t0;

    /* ---- points -> records */
    size_t nexc = 0;
    uint8_t *rec = rc ? NULL : zk_alloc(d.n * REC);
    uint64_t *exc = rc ? NULL : malloc((d.n + 1) * sizeof *exc);
    double t_conv = 0, t_run = 0, t_post = 0, t_cpu = 0;
    if (rc == 0) {
        if (!rec || !exc)
            die("out of memory");
        t0 = now_s();
        if (zkmsm_precompute(d.points, d.n, rec, 1, exc, d.n + 1, &nexc)) {
            fprintf(stderr, "zk-msm: %s\n", zkmsm_last_error());
            rc = 2;
        }
        t_conv = now_s() - t0;
    }
    /* ---- the cards: -d/-c (one), or --devices */
    static char prefixes[ZK_MAX_CARDS][256];
    int ncards = 0;
    zk_dev *devs = NULL;
    if (rc == 0 && t.channel + 1 >= ZK_MAX_CHANNELS) {
        fprintf(stderr, "zk-msm: --channel K uses h2c_K and h2c_K+1: K <= %d\n", ZK_MAX_CHANNELS - 2);
        rc = 2;
    }
    if (rc == 0) {
        if (devices) {
            ncards = tool_devices(&t, devices, ZK_CORE_MSM, prefixes, ZK_MAX_CARDS);
        } else {
            if (!t.prefix_given)
                zk_default_prefix(t.card, t.prefix, sizeof t.prefix);
            snprintf(prefixes[0], sizeof prefixes[0], "%s", t.prefix);
            ncards = 1;
        }
        if (ncards < 0 || !(devs = calloc((size_t)ncards, sizeof *devs)) ||
            tool_open_all(devs, prefixes, ncards, &t, ZK_H2C(t.channel) | ZK_H2C(t.channel + 1) | ZK_C2H(t.channel) | ZK_USER))
            rc = 1, ncards = 0;
    }
    if (rc == 0)
        zk_install_signals();
    size_t buckets = zkmsm_layout_total_buckets(layout);
    for (int k = 0; k < ncards && rc == 0; k++)
        rc = msm_check_card(&devs[k], nw, wspec, buckets);
    msm_output mo = {0};
    if (rc == 0) {
        msm_input mi = {rec, d.scalars, d.n, widths, nw, buckets, t.channel, chunk, strict, resident, reuse};
        if (chunk && d.n % 2)
            fprintf(stderr, "zk-msm: --chunk needs an even point count; one write per stream\n");
        t0 = now_s();
        rc = msm_run(devs, ncards, &mi, &mo);
        t_run = now_s() - t0;
    }
    for (int k = 0; k < ncards; k++)
        zk_close(&devs[k]);
    free(devs);
    if (rc == 0) /* the other window ranges' records follow the first read-out as partial records */
        zkmsm_layout_set_partials(layout, mo.records - buckets);
    uint8_t result[PT], ref[PT];
    if (rc == 0) {
        t0 = now_s();
        if (zkmsm_postprocess(layout, mo.readout, mo.records * REC, d.points, d.scalars, d.n, exc, nexc, result)) {
            fprintf(stderr, "zk-msm: post-processing the engine's buckets: %s\n", zkmsm_last_error());
            rc = 1;
        }
        t_post = now_s() - t0;
    }
    if (rc == 0 && cpu) {
        t0 = now_s();
        if (zkmsm_msm_cpu(d.points, d.scalars, d.n, ref))
            die("zk-msm: %s", zkmsm_last_error());
        t_cpu = now_s() - t0;
        if (memcmp(ref, result, PT)) {
            fprintf(stderr, "zk-msm: the result differs from arkworks' CPU MSM\n");
            rc = 3;
        }
    }
    if (rc == 0 || rc == 3) {
        FILE *f = out ? fopen(out, "w") : stdout;
        if (!f)
            die("%s: open: %s", out, strerror(errno));
        print_point(f, result);
        if (f != stdout)
            fclose(f);
    }
    if (rc == 0 && expect) {
        size_t len;
        uint8_t *want = slurp(expect, &len);
        if (!want) {
            fprintf(stderr, "%s: read: %s\n", expect, strerror(errno));
            rc = 1;
        } else {
            char *got = NULL;
            size_t gl = 0;
            FILE *m = open_memstream(&got, &gl);
            print_point(m, result);
            fclose(m);
            while (len && isspace(want[len - 1]))
                len--;
            if (len + 1 != gl || memcmp(want, got, len)) {
                fprintf(stderr, "zk-msm: the result differs from %s\n", expect);
                rc = 3;
            }
            free(got);
            free(want);
        }
    }
    if (rc == 0 || rc == 3) {
        char per[16 * MAX_ADDERS + 32] = "";
        for (uint32_t a = 0, o = 0; a < mo.adders && o < sizeof per; a++)
            o += (uint32_t)snprintf(per + o, sizeof per - o, "%s%u", a ? " + " : " = ", mo.adder_busy[a]);
        fprintf(stderr, "zk-msm: %zu points (%zu host exceptions), %zu buckets + %u partial records: load %.3f s, convert %.3f s, engine "
                        "(stream + read-out) %.3f s [%u cycles, %u additions%s on %u adder(s)], post-process %.3f s, "
                        "CPU MSM %.3f s\n",
                d.n, nexc, buckets, (unsigned)(mo.records - buckets), t_load, t_conv, t_run, mo.cycles, mo.busy, per,
                mo.adders, t_post, t_cpu);
        if (resident)
            fprintf(stderr, "zk-msm: resident points: %zu point-store load(s), %.3f s of the engine time\n", mo.loads,
                    mo.load_s);
    }
    zk_free(rec);
    msm_output_free(&mo);
    free(exc);
    free(d.points);
    free(d.scalars);
    zkmsm_layout_free(layout);
    return rc;
}
