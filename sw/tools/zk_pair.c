/* zk-pair: two element streams that a core consumes in lockstep (H2C K and H2C K+1 -> C2H K, K = --channel), the transport of
 * zk-msm's scalars and points (seed 002), run here on the PairFixture top (output = a XOR b per element).
 * Inputs are binary files of equal element counts, or random elements from --seed. */
#include "tool_common.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: zk-pair [options] (-a FILE -b FILE | -n N [--seed S]) [-o FILE]\n"
               "options:\n" TOOL_DEV_HELP
               "  -a, --in-a FILE      stream 0 (H2C 0), binary elements\n"
               "  -b, --in-b FILE      stream 1 (H2C 1), binary elements\n"
               "  -n, --count N        random elements instead of files\n"
               "      --seed S         seed of the random elements (default 1)\n"
               "  -e, --elem BYTES     element size (default 32)\n"
               "  -s, --chunk N        elements per chunk, below the core's FIFO depth (default 8)\n"
               "  -m, --mode MODE      seq (one thread, alternating chunks; default), par (a thread per stream,\n"
               "                       barrier per chunk), naive (all of stream 0 first: deadlocks past the FIFO)\n"
               "  -o, --output FILE    the output stream (binary)\n"
               "exit: 0 ok, 1 device error or timeout, 2 usage or malformed input, 3 output != a XOR b, 130 interrupted\n");
}

/* NULL after a message: *bad = 1 (exit 1) for an I/O error, 2 for a malformed file */
static uint8_t *load(const char *path, size_t elem, size_t *n, int *bad)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: open: %s\n", path, strerror(errno));
        *bad = 1;
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (len < 0 || (size_t)len % elem) {
        fclose(f);
        fprintf(stderr, "%s: %ld bytes is not a whole number of %zu-byte elements\n", path, len, elem);
        *bad = 2;
        return NULL;
    }
    uint8_t *b = zk_alloc((size_t)len);
    if (!b || (len && fread(b, 1, (size_t)len, f) != (size_t)len)) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
        fclose(f);
        zk_free(b);
        *bad = 1;
        return NULL;
    }
    fclose(f);
    *n = (size_t)len / elem;
    return b;
}

int main(int argc, char **argv)
{
    tool_dev t;
    tool_dev_init(&t);
    const char *fa = NULL, *fb = NULL, *fo = NULL, *mode_s = "seq";
    unsigned long long count = 0, seed = 1, elem = 32, chunk = 8;
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"in-a", required_argument, NULL, 'a'},
                                       {"in-b", required_argument, NULL, 'b'}, {"count", required_argument, NULL, 'n'},
                                       {"seed", required_argument, NULL, 'S'}, {"elem", required_argument, NULL, 'e'},
                                       {"chunk", required_argument, NULL, 's'}, {"mode", required_argument, NULL, 'm'},
                                       {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "a:b:n:e:s:m:o:h", lo, NULL)) != -1) {
        if (tool_dev_opt(&t, o, optarg))
            continue;
        switch (o) {
        case 'a': fa = optarg; break;
        case 'b': fb = optarg; break;
        case 'n': count = parse_u64("count", optarg, 1ull << 32); break;
        case 'S': seed = parse_u64("seed", optarg, ~0ull); break;
        case 'e': elem = parse_u64("elem", optarg, 4096); break;
        case 's': chunk = parse_u64("chunk", optarg, 1ull << 32); break;
        case 'm': mode_s = optarg; break;
        case 'o': fo = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    zk_pair_mode mode = !strcmp(mode_s, "seq") ? ZK_PAIR_SEQUENTIAL : !strcmp(mode_s, "par") ? ZK_PAIR_PARALLEL
                      : !strcmp(mode_s, "naive") ? ZK_PAIR_NAIVE : (zk_pair_mode)-1;
    if ((int)mode < 0 || elem == 0 || chunk == 0 || optind != argc || (!fa != !fb) || (!fa && !count)) {
        usage(stderr);
        return 2;
    }
    size_t na, nb;
    uint8_t *a, *b;
    if (fa) {
        int bad = 0;
        a = load(fa, elem, &na, &bad);
        b = a ? load(fb, elem, &nb, &bad) : NULL;
        if (b && na != nb) {
            fprintf(stderr, "zk-pair: %s has %zu elements, %s has %zu\n", fa, na, fb, nb);
            bad = 2;
        }
        if (bad) {
            zk_free(a);
            zk_free(b);
            return bad;
        }
    } else {
        na = nb = count;
        a = zk_alloc(na * elem);
        b = zk_alloc(nb * elem);
        if (!a || !b)
            die("out of memory");
        uint64_t x = seed | 1; /* xorshift64 */
        for (size_t i = 0; i < 2 * na * elem; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            (i < na * elem ? a : b)[i % (na * elem)] = (uint8_t)x;
        }
    }
    uint8_t *out = zk_alloc(na * elem);
    if (!out)
        die("out of memory");
    zk_dev d;
    if (tool_open(&d, &t, ZK_H2C(t.channel) | ZK_H2C(t.channel + 1) | ZK_C2H(t.channel) | ZK_USER)) {
        zk_free(a);
        zk_free(b);
        zk_free(out);
        return 1;
    }
    zk_install_signals();
    if (t.channel + 1 >= ZK_MAX_CHANNELS) {
        fprintf(stderr, "zk-pair: --channel K uses h2c_K and h2c_K+1: K <= %d\n", ZK_MAX_CHANNELS - 2);
        zk_close(&d);
        zk_free(a);
        zk_free(b);
        zk_free(out);
        return 2;
    }
    zk_stream s[2] = {{t.channel, a, elem, na}, {t.channel + 1, b, elem, nb}};
    double t0 = now_s();
    int rc = 0;
    if (zk_run_pair(&d, s, chunk, mode, t.channel, out, na * elem)) {
        fprintf(stderr, "%s\n", zk_error(&d));
        rc = 1;
        if (zk_interrupted())
            rc = 130;
        fprintf(stderr, "zk-pair: resetting the core\n");
        if (zk_soft_reset(&d))
            fprintf(stderr, "%s\n", zk_error(&d));
    }
    double secs = now_s() - t0;
    zk_close(&d);
    if (rc == 0) {
        size_t bad = 0;
        for (size_t i = 0; i < na * elem; i++)
            bad += out[i] != (a[i] ^ b[i]);
        fprintf(stderr, "zk-pair: %zu pairs of %llu bytes in %.3f s (%s, chunk %llu)\n", na, elem, secs, mode_s, chunk);
        if (bad) {
            fprintf(stderr, "zk-pair: %zu output bytes differ from a XOR b\n", bad);
            rc = 3;
        }
        FILE *f = fo ? fopen(fo, "wb") : NULL;
        if (fo && (!f || fwrite(out, 1, na * elem, f) != na * elem))
            die("%s: write: %s", fo, strerror(errno));
        if (f)
            fclose(f);
    }
    zk_free(a);
    zk_free(b);
    zk_free(out);
    return rc;
}
