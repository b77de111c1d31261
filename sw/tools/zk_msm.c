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
 * streams only its scalars (zk_msm_cards.c); --reuse keeps a store that already holds the points.
 *
 * The curve (--curve bls12_377|bn254|bls12_381): by default the one the card's identity names (VERSION[31:16]); a
 * --curve other than the cards' is refused (exit 2) before anything is sent, as are cards of different curves.
 * Inputs, records, post-processing and the CPU check are the curve's (the host library's *_curve functions). */
#include "tool_common.h"
#include "zk_msm_cards.h"
#include "zk_msm_input.h"
#include "zkmsm.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define SC ZKMSM_SCALAR_BYTES
_Static_assert(8 * SC == ZK_MSM_RECORD_SCALARS_FIRST_WIDTH && 2 * SC == ZK_MSM_RECORD_SCALARS_BYTES, "zkmsm.h: scalar bytes");


static void usage(FILE *f)
{
    fprintf(f, "usage: zk-msm [options] (-i DIR|FILE.json | -g NPOW [--seed S]) [-x EXPECTED] [-o RESULT]\n"
               "options:\n" TOOL_DEV_HELP
               "      --curve NAME     bls12_377 | bn254 | bls12_381: the curve of the points (default: the one the\n"
               "                       card's identity names; a card of another curve is refused, exit 2)\n"
               "  -i, --input PATH     data-set directory (points, scalars: the ZPrize files, the curve's arkworks\n"
               "                       encoding) or the model's JSON form\n"
               "  -g, --gen NPOW       the model's generated data set of 2^NPOW points (--seed S, default 1);\n"
               "                       with --scalar-bits B its scalars are cut to their low B bits\n"
               "  -w, --windows SPEC   the engine's window layout, e.g. 6,6,6,6 (default: the curve's board engines',\n"
               "                       13x13,12x7 for bls12_377, 13x14,12x6 for bn254, 13x15,12x5 for bls12_381)\n"
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
               "                       buckets; a card that fails is named and its windows retried on another; the\n"
               "                       cards must be of one curve)\n"
               "exit: 0 ok, 1 device error, timeout or core error, 2 usage or malformed input (also: --curve not the\n"
               "      cards' curve, cards of different curves), 3 wrong result, 130 interrupted\n");
}

typedef struct msm_opts {
    const char *in, *expect, *out, *wspec, *devices, *curve;
    unsigned long long npow, seed, bits, chunk;
    int cpu, strict, resident, reuse;
} msm_opts;

/* the options; 0, or the exit status (usage: 2, --help: 0 after printing) in *exit_rc and 1 */
static int parse_opts(int argc, char **argv, tool_dev *t, msm_opts *m, int *exit_rc)
{
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"input", required_argument, NULL, 'i'},
                                       {"gen", required_argument, NULL, 'g'}, {"seed", required_argument, NULL, 'S'},
                                       {"windows", required_argument, NULL, 'w'}, {"scalar-bits", required_argument, NULL, 'B'},
                                       {"expect", required_argument, NULL, 'x'}, {"output", required_argument, NULL, 'o'},
                                       {"no-cpu", no_argument, NULL, 'C'}, {"chunk", required_argument, NULL, 's'},
                                       {"strict-tlast", no_argument, NULL, 'T'}, {"resident", no_argument, NULL, 'R'},
                                       {"reuse", no_argument, NULL, 'U'}, {"curve", required_argument, NULL, 'V'},
                                       {"devices", required_argument, NULL, 'D'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "i:g:w:B:x:o:s:h", lo, NULL)) != -1) {
        if (tool_dev_opt(t, o, optarg))
            continue;
        switch (o) {
        case 'i': m->in = optarg; break;
        case 'g': m->npow = parse_u64("npow", optarg, 26); break;
        case 'S': m->seed = parse_u64("seed", optarg, ~0ull); break;
        case 'w': m->wspec = optarg; break;
        case 'B': m->bits = parse_u64("scalar-bits", optarg, 253); break;
        case 'x': m->expect = optarg; break;
        case 'o': m->out = optarg; break;
        case 'C': m->cpu = 0; break;
        case 'T': m->strict = 1; break;
        case 'R': m->resident = 1; break;
        case 'U': m->reuse = 1; break;
        case 'V': m->curve = optarg; break;
        case 'D': m->devices = optarg; break;
        case 's': m->chunk = parse_u64("chunk", optarg, 1ull << 32); break;
        case 'h': usage(stdout); *exit_rc = 0; return 1;
        default: usage(stderr); *exit_rc = 2; return 1;
        }
    }
    if (optind != argc || (!m->in) == (m->npow == ~0ull) || (m->reuse && !m->resident)) {
        usage(stderr);
        *exit_rc = 2;
        return 1;
    }
    return 0;
}

/* opens the card (-d/-c) or the cards (--devices) with the channels the engine uses; ncards 0 and 1 on failure */
static int open_cards(tool_dev *t, const char *devices, zk_dev **devs, int *ncards)
{
    static char prefixes[ZK_MAX_CARDS][256];
    *ncards = 0;
    if (t->channel + 1 >= ZK_MAX_CHANNELS) {
        fprintf(stderr, "zk-msm: --channel K uses h2c_K and h2c_K+1: K <= %d\n", ZK_MAX_CHANNELS - 2);
        return 2;
    }
    int n = 1;
    if (devices) {
        n = tool_devices(t, devices, ZK_CORE_MSM, prefixes, ZK_MAX_CARDS);
    } else {
        if (!t->prefix_given)
            zk_default_prefix(t->card, t->prefix, sizeof t->prefix);
        snprintf(prefixes[0], sizeof prefixes[0], "%s", t->prefix);
    }
    if (n < 0 || !(*devs = calloc((size_t)n, sizeof **devs)) ||
        tool_open_all(*devs, prefixes, n, t, ZK_H2C(t->channel) | ZK_H2C(t->channel + 1) | ZK_C2H(t->channel) | ZK_USER))
        return 1;
    *ncards = n;
    return 0;
}

/* the data on the curve: -i or -g; the scalars checked against the engine's bound; 0, 1 or 2 after a message */
static int load_data(const msm_opts *m, int curve, msm_data *d)
{
    int rc = 0;
    if (m->in)
        rc = msm_load(m->in, curve, d);
    else
        msm_generate(curve, (unsigned)m->npow, m->seed, (unsigned)m->bits, d);
    if (rc == 0 && d->n == 0) {
        fprintf(stderr, "zk-msm: no points\n");
        rc = 2;
    }
    for (size_t i = 0; rc == 0 && m->bits && i < d->n; i++)
        for (size_t b = m->bits; b < 8 * SC; b++)
            if (d->scalars[i * SC + b / 8] >> (b % 8) & 1) {
                fprintf(stderr, "zk-msm: scalar %zu is not below 2^%llu, the engine's bound (--scalar-bits)\n", i, m->bits);
                rc = 2;
                break;
            }
    return rc;
}

/* the result: printed (-o or stdout), compared with -x; 0, 1 (unreadable -x) or 3 (-x differs) */
static int report(const msm_opts *m, int curve, const uint8_t *result)
{
    char text[256];
    msm_format(curve, result, text, sizeof text);
    FILE *f = m->out ? fopen(m->out, "w") : stdout;
    if (!f)
        die("%s: open: %s", m->out, strerror(errno));
    fprintf(f, "%s\n", text);
    if (f != stdout)
        fclose(f);
    return m->expect ? msm_expect(m->expect, text) : 0;
}

int main(int argc, char **argv)
{
    tool_dev t;
    tool_dev_init(&t);
    msm_opts m = {.npow = ~0ull, .seed = 1, .cpu = 1};
    int rc = 0, asked = -1, curve = -1, ncards = 0;
    if (parse_opts(argc, argv, &t, &m, &rc))
        return rc;
    if (m.curve && zkmsm_curve_by_name(m.curve, &asked)) {
        fprintf(stderr, "zk-msm: --curve: %s\n", zkmsm_last_error());
        return 2;
    }
    uint32_t widths[127];
    size_t nw = 0;
    if (m.wspec && zkmsm_windows_parse(m.wspec, widths, sizeof widths / sizeof *widths, &nw)) { /* the host library's grammar */
        fprintf(stderr, "zk-msm: --windows: %s\n", zkmsm_last_error());
        return 2;
    }
    /* ---- the cards, and their curve: before anything is read or sent */
    zk_dev *devs = NULL;
    rc = open_cards(&t, m.devices, &devs, &ncards);
    if (rc == 0)
        rc = msm_cards_curve(devs, ncards, asked, &curve);
    zkmsm_layout *layout = NULL;
    if (rc == 0) {
        if (!m.wspec) {
            m.wspec = zkmsm_curve_board_windows(curve); /* the generator's board layouts (the host library's) */
            if (zkmsm_windows_parse(m.wspec, widths, sizeof widths / sizeof *widths, &nw))
                die("zk-msm: %s", zkmsm_last_error());
        }
        if (!(layout = zkmsm_layout_new_curve(curve, widths, nw, (uint32_t)m.bits))) {
            fprintf(stderr, "zk-msm: --windows %s: %s\n", m.wspec, zkmsm_last_error());
            rc = 2;
        }
    }
    msm_data d = {0};
    double t0 = now_s(), t_load = 0, t_conv = 0, t_run = 0, t_post = 0, t_cpu = 0;
    if (rc == 0)
        rc = load_data(&m, curve, &d);
    t_load = now_s() - t0;

    /* ---- points -> records */
    size_t nexc = 0, prec = zkmsm_curve_point_record_bytes(curve), brec = zkmsm_curve_bucket_record_bytes(curve);
    uint8_t *rec = rc ? NULL : zk_alloc(d.n * prec);
    uint64_t *exc = rc ? NULL : malloc((d.n + 1) * sizeof *exc);
    if (rc == 0) {
        if (!rec || !exc)
            die("out of memory");
        t0 = now_s();
        if (zkmsm_precompute_curve(curve, d.points, d.n, rec, 1, exc, d.n + 1, &nexc)) {
            fprintf(stderr, "zk-msm: %s\n", zkmsm_last_error());
            rc = 2;
        }
        t_conv = now_s() - t0;
    }
    if (rc == 0)
        zk_install_signals();
    size_t buckets = zkmsm_layout_total_buckets(layout);
    for (int k = 0; k < ncards && rc == 0; k++)
        rc = msm_check_card(&devs[k], nw, m.wspec, buckets);
    msm_output mo = {0};
    if (rc == 0) {
        msm_input mi = {rec, prec, brec, d.scalars, d.n, widths, nw, buckets, t.channel, m.chunk, m.strict, m.resident, m.reuse};
        if (m.chunk && d.n % 2)
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
    uint8_t result[ZKMSM_POINT_BYTES], ref[ZKMSM_POINT_BYTES];
    if (rc == 0) {
        t0 = now_s();
        if (zkmsm_postprocess_curve(curve, layout, mo.readout, mo.records * brec, d.points, d.scalars, d.n, exc, nexc,
                                    result)) {
            fprintf(stderr, "zk-msm: post-processing the engine's buckets: %s\n", zkmsm_last_error());
            rc = 1;
        }
        t_post = now_s() - t0;
    }
    if (rc == 0 && m.cpu) {
        t0 = now_s();
        if (zkmsm_msm_cpu_curve(curve, d.points, d.scalars, d.n, ref))
            die("zk-msm: %s", zkmsm_last_error());
        t_cpu = now_s() - t0;
        if (memcmp(ref, result, d.point_bytes)) {
            fprintf(stderr, "zk-msm: the result differs from arkworks' CPU MSM\n");
            rc = 3;
        }
    }
    if (rc == 0 || rc == 3) {
        int r = report(&m, curve, result);
        rc = rc ? rc : r;
    }
    if (rc == 0 || rc == 3) {
        char per[16 * MAX_ADDERS + 32] = "";
        for (uint32_t a = 0, o = 0; a < mo.adders && o < sizeof per; a++)
            o += (uint32_t)snprintf(per + o, sizeof per - o, "%s%u", a ? " + " : " = ", mo.adder_busy[a]);
        fprintf(stderr, "zk-msm: %s: %zu points (%zu host exceptions), %zu buckets + %u partial records: load %.3f s, "
                        "convert %.3f s, engine (stream + read-out) %.3f s [%u cycles, %u additions%s on %u adder(s)], "
                        "post-process %.3f s, CPU MSM %.3f s\n",
                zkmsm_curve_name(curve), d.n, nexc, buckets, (unsigned)(mo.records - buckets), t_load, t_conv, t_run,
                mo.cycles, mo.busy, per, mo.adders, t_post, t_cpu);
        if (m.resident)
            fprintf(stderr, "zk-msm: resident points: %zu point-store load(s), %.3f s of the engine time\n", mo.loads,
                    mo.load_s);
    }
    zk_free(rec);
    msm_output_free(&mo);
    free(exc);
    msm_data_free(&d);
    zkmsm_layout_free(layout);
    return rc;
}
