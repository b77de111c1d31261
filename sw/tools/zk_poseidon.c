/* zk-poseidon: Poseidon (Filecoin, BLS12-381 Fr) MerkleTree hashes of a preimage file on PoseidonAxis behind the
 * board's InbandLast adapter.  Input and output in the format of `python -m reference_model.poseidon`: one preimage
 * per line, elements as 0x-hex separated by blanks; one digest per line, 0x + 64 lowercase hex digits.
 *
 * Stream (hw/src/zkspinal/poseidon/PoseidonAxis.scala, hw/src/zkspinal/system/InbandLast.scala): one 32-byte beat
 * per element, canonical little-endian, the in-band flag (PoseidonFrame's last bit) set on the last element of each
 * preimage, so a DMA write carries many preimages; the arity of a hash is the number of elements in its frame.
 * Output: one 32-byte beat per preimage, in input order, TLAST on each.  A frame the core rejects is answered by a
 * beat with TDATA = 0 (its TUSER error code does not cross XDMA); the core's error counters (AXI4-Lite) tell which
 * check failed, and the board's InbandLast counters (system block status words 0, 1) must count one frame per
 * preimage.  Such a preimage's output line reads "rejected" and the exit status is 2; the other lines keep their
 * digests (a real digest of 0 would be taken for a rejection: probability 2^-255). */
#include "tool_common.h"
#include "zkfmt.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* the core's registers: ZK_POSEIDON_* (zk_contract.h, from PoseidonRegs in PoseidonAxis.scala) */
#define MAX_ELEMS 64 /* a line longer than this is refused by the parser (the widest arity is 11) */

static void usage(FILE *f)
{
    fprintf(f, "usage: zk-poseidon [options] [-i FILE] [-o FILE] [-k FILE]\n"
               "options:\n" TOOL_DEV_HELP
               "  -i, --input FILE     preimages, one per line, 0x-hex elements separated by blanks (default stdin)\n"
               "  -o, --output FILE    digests, one per line, 0x + 64 hex digits (default stdout)\n"
               "  -k, --check FILE     compare the digests with FILE (same format); exit 3 on a difference\n"
               "  -a, --arity N        every line must have N elements (as the model's --arity); default: each\n"
               "                       line's element count is its arity, so arities may be mixed\n"
               "      --hash-type T    merkle (the only one XDMA can carry: the others need a TUSER header frame)\n"
               "  -b, --batch N        preimages per DMA write (default 4096)\n"
               TOOL_DEVICES_HELP
               "                       (the preimages go to the cards in jobs sized by each card's measured rate;\n"
               "                       a card that fails is named and its preimages retried on the others)\n"
               "      --unchecked      send elements below 2^255 and any arity without the host's checks, so the\n"
               "                       core's own checks answer (testing the error path)\n"
               "exit: 0 ok, 1 device error or timeout, 2 usage or malformed input (found by the host or rejected by\n"
               "the core), 3 digests differ from --check, 130 interrupted\n");
}

typedef struct pre {
    uint64_t (*el)[4]; /* all elements back to back */
    uint32_t *start;   /* first element of preimage i; start[n] = element count */
    uint32_t *line;    /* its line number */
    size_t n, cap, n_el, cap_el;
} pre;

static void pre_free(pre *p)
{
    free(p->el);
    free(p->start);
    free(p->line);
}

/* 0, or 1 (cannot read) / 2 (malformed) after a message */
static int read_preimages(const char *path, int arity, const uint64_t m[4], uint32_t arity_mask, pre *p)
{
    FILE *f = input_open(path);
    if (!f)
        return 1;
    int rc = 0;
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (p->n + 1 >= p->cap) {
            p->cap = p->cap ? 2 * p->cap : 4096;
            p->start = realloc(p->start, (p->cap + 1) * sizeof *p->start);
            p->line = realloc(p->line, p->cap * sizeof *p->line);
            if (!p->start || !p->line)
                die("out of memory");
        }
        if (p->n_el + MAX_ELEMS > p->cap_el) {
            p->cap_el = 2 * (p->n_el + MAX_ELEMS);
            if (!(p->el = realloc(p->el, p->cap_el * sizeof *p->el)))
                die("out of memory");
        }
        const char *why = NULL;
        long k = zkf_parse_line(line, (size_t)len, m, p->el + p->n_el, MAX_ELEMS, &why);
        if (k < 0) {
            fprintf(stderr, "%s:%zu: %s\n", path, lineno, why);
            rc = 2;
            break;
        }
        if (arity && k != arity) {
            fprintf(stderr, "%s:%zu: expected %d elements, got %ld\n", path, lineno, arity, k);
            rc = 2;
            break;
        }
        if (!(k < 32 && (arity_mask >> k & 1))) {
            fprintf(stderr, "%s:%zu: %ld elements: the card hashes arities", path, lineno, k);
            for (int a = 1; a < 32; a++)
                if (arity_mask >> a & 1)
                    fprintf(stderr, " %d", a);
            fputc('\n', stderr);
            rc = 2;
            break;
        }
        p->start[p->n] = (uint32_t)p->n_el;
        p->line[p->n++] = (uint32_t)lineno;
        p->n_el += (size_t)k;
    }
    if (rc == 0 && p->n == 0) {
        fprintf(stderr, "%s: no preimages\n", path);
        rc = 2;
    }
    if (p->start)
        p->start[p->n] = (uint32_t)p->n_el;
    free(line);
    input_close(f);
    return rc;
}

static void print_digest(FILE *f, const uint8_t d[32])
{
    fputs("0x", f);
    for (int i = 31; i >= 0; i--)
        fprintf(f, "%02x", d[i]);
    fputc('\n', f);
}

/* 0 equal, 3 after a message */
static int check_digests(const char *path, const uint8_t *dig, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: open: %s\n", path, strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t cap = 0, i = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        uint64_t want[4];
        uint8_t w[32];
        if (i >= n) {
            fprintf(stderr, "zk-poseidon: %s has more digests than the %zu preimages\n", path, n);
            rc = 3;
        } else if (zkf_parse_hex256(line, (size_t)len, want)) {
            fprintf(stderr, "%s:%zu: not a digest (0x + up to 64 hex digits)\n", path, i + 1);
            rc = 3;
        } else {
            zkf_pack_le(want, 0, w);
            if (memcmp(w, dig + 32 * i, 32)) {
                fprintf(stderr, "zk-poseidon: digest %zu differs from %s\n", i + 1, path);
                rc = 3;
            }
        }
        i++;
    }
    if (rc == 0 && i != n) {
        fprintf(stderr, "zk-poseidon: %s has %zu digests for %zu preimages\n", path, i, n);
        rc = 3;
    }
    free(line);
    fclose(f);
    return rc;
}

typedef struct counters { uint32_t frames, digests, flagged, range, arity, length, sys_frames, sys_partial; } counters;

/* one card of the run: its device, its DMA buffers (grown to the largest job) and its share's figures */
typedef struct card {
    zk_dev d;
    uint8_t *in, *out;
    size_t in_cap, out_cap;
    zk_packet *pk;
    size_t pk_cap;
    uint32_t range, arity, length; /* the core's error counters over its jobs */
    double t_pack;
} card;

typedef struct run_ctx {
    card *cards;
    const pre *p;
    size_t batch;
    int channel;
    uint8_t *res; /* the digests of all preimages, in input order */
} run_ctx;

static int read_counters(zk_dev *d, counters *c)
{
    return zk_reg_read(d, ZK_POSEIDON_FRAMES_IN, &c->frames) || zk_reg_read(d, ZK_POSEIDON_DIGESTS_OUT, &c->digests) ||
           zk_reg_read(d, ZK_POSEIDON_FLAGGED_OUT, &c->flagged) || zk_reg_read(d, ZK_POSEIDON_ERR_RANGE, &c->range) ||
           zk_reg_read(d, ZK_POSEIDON_ERR_ARITY, &c->arity) || zk_reg_read(d, ZK_POSEIDON_ERR_LENGTH, &c->length) ||
           zk_reg_read(d, ZK_SYS_STATUS, &c->sys_frames) || zk_reg_read(d, ZK_SYS_STATUS + 4, &c->sys_partial);
}

/* grows a zk_alloc buffer to at least `need` bytes; -1 when out of memory */
static int reserve(uint8_t **b, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    zk_free(*b);
    *cap = 0;
    if (!(*b = zk_alloc(need)))
        return -1;
    *cap = need;
    return 0;
}

/* a failed job: the reason into err, the core reset so that the card is reusable; -1 */
static int job_failed(card *c, char *err, size_t errlen, const char *why)
{
    snprintf(err, errlen, "%s", why);
    fprintf(stderr, "zk-poseidon: %s: %s; resetting the core\n", c->d.prefix, zk_interrupted() ? "interrupted" : "job failed");
    if (zk_soft_reset(&c->d))
        fprintf(stderr, "%s\n", zk_error(&c->d));
    return -1;
}

/* zk_spread's job: preimages [first, first + count) on card k, in DMA writes of up to `batch` preimages (each
 * starting on its own page), the digests to res[first..]; the core's counters must account for every preimage */
static int run_share(void *vx, int k, size_t first, size_t count, char *err, size_t errlen)
{
    run_ctx *x = vx;
    card *c = &x->cards[k];
    const pre *p = x->p;
    size_t npk = (count + x->batch - 1) / x->batch, bytes = 0;
    for (size_t j = 0; j < npk; j++) {
        size_t a = first + j * x->batch, b = a + x->batch < first + count ? a + x->batch : first + count;
        bytes += ((size_t)(p->start[b] - p->start[a]) * 32 + ZK_ALIGN - 1) / ZK_ALIGN * ZK_ALIGN;
    }
    if (npk > c->pk_cap) {
        free(c->pk);
        c->pk_cap = 0;
        if (!(c->pk = calloc(npk, sizeof *c->pk)))
            return job_failed(c, err, errlen, "out of memory");
        c->pk_cap = npk;
    }
    if (reserve(&c->in, &c->in_cap, bytes) || reserve(&c->out, &c->out_cap, count * 32))
        return job_failed(c, err, errlen, "out of memory for the DMA buffers");
    double t0 = now_s();
    for (size_t j = 0, at = 0; j < npk; j++) {
        size_t a = first + j * x->batch, b = a + x->batch < first + count ? a + x->batch : first + count;
        uint8_t *w = c->in + at;
        for (size_t i = a; i < b; i++)
            for (uint32_t e = p->start[i]; e < p->start[i + 1]; e++, w += 32)
                zkf_pack_le(p->el[e], e + 1 == p->start[i + 1], w);
        c->pk[j] = (zk_packet){c->in + at, (size_t)(w - (c->in + at))};
        at += (c->pk[j].len + ZK_ALIGN - 1) / ZK_ALIGN * ZK_ALIGN;
    }
    c->t_pack += now_s() - t0;
    counters c0, c1;
    if (read_counters(&c->d, &c0))
        return job_failed(c, err, errlen, zk_error(&c->d));
    zk_job job = {x->channel, x->channel, c->pk, npk, c->out, count * 32, NULL, 0, NULL};
    if (zk_run_job(&c->d, &job))
        return job_failed(c, err, errlen, zk_error(&c->d));
    if (read_counters(&c->d, &c1))
        return job_failed(c, err, errlen, zk_error(&c->d));
    static const uint8_t zero[32];
    size_t rejected = 0;
    for (size_t i = 0; i < count; i++)
        rejected += !memcmp(c->out + 32 * i, zero, 32);
    if (c1.flagged - c0.flagged != rejected || c1.digests - c0.digests != count - rejected ||
        c1.frames - c0.frames != count || c1.sys_frames - c0.sys_frames != count || c1.sys_partial != c0.sys_partial) {
        char why[700];
        snprintf(why, sizeof why, "%.250s_user: the counters disagree with %zu preimages, %zu rejected: core frames %u, "
                 "digests %u, flagged %u; InbandLast frames %u, partial beats %u", c->d.prefix, count, rejected,
                 c1.frames - c0.frames, c1.digests - c0.digests, c1.flagged - c0.flagged, c1.sys_frames - c0.sys_frames,
                 c1.sys_partial - c0.sys_partial);
        return job_failed(c, err, errlen, why);
    }
    c->range += c1.range - c0.range;
    c->arity += c1.arity - c0.arity;
    c->length += c1.length - c0.length;
    memcpy(x->res + 32 * first, c->out, count * 32);
    return 0;
}

int main(int argc, char **argv)
{
    tool_dev t;
    tool_dev_init(&t);
    const char *in = "-", *out = NULL, *check = NULL, *htype = "merkle", *devices = NULL;
    unsigned long long arity = 0, batch = 4096;
    int unchecked = 0;
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"input", required_argument, NULL, 'i'},
                                       {"output", required_argument, NULL, 'o'}, {"check", required_argument, NULL, 'k'},
                                       {"arity", required_argument, NULL, 'a'}, {"hash-type", required_argument, NULL, 'H'},
                                       {"batch", required_argument, NULL, 'b'}, {"unchecked", no_argument, NULL, 'U'},
                                       {"devices", required_argument, NULL, 'D'},
                                       {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "i:o:k:a:b:h", lo, NULL)) != -1) {
        if (tool_dev_opt(&t, o, optarg))
            continue;
        switch (o) {
        case 'i': in = optarg; break;
        case 'o': out = optarg; break;
        case 'k': check = optarg; break;
        case 'a': arity = parse_u64("arity", optarg, 16); break;
        case 'H': htype = optarg; break;
        case 'b': batch = parse_u64("batch", optarg, 1u << 24); break;
        case 'U': unchecked = 1; break;
        case 'D': devices = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc || batch == 0) {
        usage(stderr);
        return 2;
    }
    if (strcmp(htype, "merkle")) {
        fprintf(stderr, "zk-poseidon: --hash-type %s needs a TUSER header frame (the domain tag), which XDMA cannot "
                        "carry; the card runs MerkleTree hashes only (--hash-type merkle)\n", htype);
        return 2;
    }
    /* the cards: -d/-c (one), or --devices */
    static char prefixes[ZK_MAX_CARDS][256];
    int n = 1;
    if (devices) {
        if ((n = tool_devices(&t, devices, ZK_CORE_POSEIDON, prefixes, ZK_MAX_CARDS)) < 0)
            return 1;
    } else {
        if (!t.prefix_given)
            zk_default_prefix(t.card, t.prefix, sizeof t.prefix);
        snprintf(prefixes[0], sizeof prefixes[0], "%s", t.prefix);
    }
    card *cards = calloc((size_t)n, sizeof *cards);
    zk_dev *devs = calloc((size_t)n, sizeof *devs);
    if (!cards || !devs)
        die("out of memory");
    if (tool_open_all(devs, prefixes, n, &t, ZK_H2C(t.channel) | ZK_C2H(t.channel) | ZK_USER)) {
        free(cards);
        free(devs);
        return 1;
    }
    zk_install_signals();
    /* the arities every card has */
    uint32_t mask = 0xffff;
    for (int k = 0; k < n; k++) {
        cards[k].d = devs[k];
        uint32_t info;
        if (zk_reg_read(&cards[k].d, ZK_POSEIDON_INFO, &info)) {
            fprintf(stderr, "%s\n", zk_error(&cards[k].d));
            mask = 0;
            break;
        }
        if (info == 0xffffffffu) {
            fprintf(stderr, "zk-poseidon: %s_user: the core's INFO register reads all ones (no card, or a hung core: "
                            "zk-status --reset)\n", cards[k].d.prefix);
            mask = 0;
            break;
        }
        mask &= info;
    }
    free(devs);
    int rc = mask ? 0 : 1;
    pre p = {0};
    if (rc == 0) {
        /* --unchecked: anything the in-band flag leaves free (< 2^255); else below p */
        static const uint64_t below_flag[4] = {~0ull, ~0ull, ~0ull, 0x7fffffffffffffffull};
        rc = read_preimages(in, (int)arity, unchecked ? below_flag : ZKF_BLS12_381_FR,
                            unchecked ? 0xfffffffeu : (mask & 0xffff), &p);
    }
    if (rc) { /* no card, or a malformed file: nothing was sent */
        for (int k = 0; k < n; k++)
            zk_close(&cards[k].d);
        free(cards);
        pre_free(&p);
        return rc;
    }
    uint8_t *res = zk_alloc(p.n * 32);
    if (!res)
        die("out of memory");
    zk_spread_card st[ZK_MAX_CARDS];
    zk_spread_stats ss = {0};
    double t_dma = 0, t_pack = 0;
    if (rc == 0) {
        const char *names[ZK_MAX_CARDS];
        for (int k = 0; k < n; k++)
            names[k] = cards[k].d.prefix;
        run_ctx x = {cards, &p, batch, t.channel, res};
        char err[1024];
        double t0 = now_s();
        /* jobs of any size (each written as packets of -b preimages): one card takes the whole file in one job */
        int r = zk_spread(n, names, p.n, p.n, "preimages", run_share, &x, st, &ss, err, sizeof err);
        t_dma = now_s() - t0;
        if (r) {
            rc = zk_interrupted() ? 130 : 1;
            if (n > 1 || rc == 130)
                fprintf(stderr, "zk-poseidon: %s\n", err);
        }
    }
    uint32_t e_range = 0, e_arity = 0, e_length = 0;
    for (int k = 0; k < n; k++) {
        e_range += cards[k].range, e_arity += cards[k].arity, e_length += cards[k].length;
        t_pack += cards[k].t_pack;
        zk_close(&cards[k].d);
    }
    if (rc == 0) {
        t_dma -= n == 1 ? t_pack : 0; /* one card: packing is timed apart, as the jobs are */
        static const uint8_t zero[32];
        size_t rejected = 0;
        for (size_t i = 0; i < p.n; i++)
            if (!memcmp(res + 32 * i, zero, 32)) {
                if (++rejected <= 20)
                    fprintf(stderr, "%s:%u: the core rejected this preimage (%u elements)\n", in, p.line[i],
                            p.start[i + 1] - p.start[i]);
            }
        if (rejected) {
            fprintf(stderr, "zk-poseidon: %zu preimages rejected; the core counted %u out of range, %u arity not "
                            "built in, %u too long\n", rejected, e_range, e_arity, e_length);
            rc = 2;
        }
        fprintf(stderr, "zk-poseidon: %zu hashes, %zu elements in %.3f s of DMA jobs: %.0f hashes/s "
                        "(packing %.3f s: %.1f M elements/s)\n", p.n, p.n_el, t_dma, t_dma > 0 ? (double)p.n / t_dma : 0.0,
                t_pack, t_pack > 0 ? (double)p.n_el / t_pack / 1e6 : 0.0);
    }
    if (n > 1 && (rc == 0 || rc == 2)) {
        for (int k = 0; k < n; k++)
            fprintf(stderr, "zk-poseidon: card %s: %zu hashes in %zu job(s), %.3f s busy: %.1f hashes/s%s\n",
                    cards[k].d.prefix, st[k].items, st[k].jobs, st[k].busy_s,
                    st[k].busy_s > 0 ? (double)st[k].items / st[k].busy_s : 0.0, st[k].failed ? " (dropped)" : "");
        fprintf(stderr, "zk-poseidon: %d cards: %.3f s from the first job to the last, some card busy %.3f s, all %d "
                        "busy at once %.3f s (%.0f %%); %zu preimages retried\n", n, ss.wall_s, ss.busy_any_s, n,
                ss.busy_all_s, ss.wall_s > 0 ? 100.0 * ss.busy_all_s / ss.wall_s : 0.0, ss.retried);
    }
    if (rc == 0 || rc == 2) { /* rejected preimages keep their line, reading "rejected" */
        static const uint8_t zero[32];
        FILE *fo = out ? fopen(out, "w") : stdout;
        if (!fo) {
            fprintf(stderr, "%s: open: %s\n", out, strerror(errno));
            rc = 1;
        } else {
            for (size_t i = 0; i < p.n; i++)
                if (memcmp(res + 32 * i, zero, 32))
                    print_digest(fo, res + 32 * i);
                else
                    fputs("rejected\n", fo);
            if ((fo != stdout ? fclose(fo) : fflush(fo)) != 0) {
                fprintf(stderr, "%s: write: %s\n", out ? out : "stdout", strerror(errno));
                rc = 1;
            }
        }
    }
    if (rc == 0 && check)
        rc = check_digests(check, res, p.n);
    for (int k = 0; k < n; k++) {
        zk_free(cards[k].in);
        zk_free(cards[k].out);
        free(cards[k].pk);
    }
    free(cards);
    zk_free(res);
    pre_free(&p);
    return rc;
}
