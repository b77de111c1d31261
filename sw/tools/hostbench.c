/* hostbench: host cost per element of the formats the tools feed the cores (one thread, no device).
 *   parse      text lines of 0x-hex elements -> limbs, range-checked below the BLS12-381 Fr modulus
 *   pack       limbs -> 32-byte little-endian words, the in-band flag bit marking each preimage's last element
 *   be2le      32-byte big-endian binary -> 32-byte little-endian words
 *   text2word  parse + pack, the whole text path of zk-poseidon
 * Prints "stage elements_per_cpu_s elements_per_wall_s input_bytes_per_cpu_s" lines (best of the repeats; CPU time
 * of this thread, so that a machine shared with other jobs still gives the per-core rate) and a checksum of the
 * outputs (so no stage is optimised away).
 * hostbench --convert: stdin lines of elements -> one 32-byte word (hex, in memory order) per element on stdout,
 * the in-band flag set on each line's last element; a bad line stops with "line N: problem" and exit 1 (for the tests). */
#include "tool_common.h"
#include "zkfmt.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t g_x = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    g_x ^= g_x << 13, g_x ^= g_x >> 7, g_x ^= g_x << 17;
    return g_x;
}

static int convert(void)
{
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    uint64_t el[16][4];
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        const char *why = NULL;
        long k = zkf_parse_line(line, (size_t)len, ZKF_BLS12_381_FR, el, 16, &why);
        if (k < 0) {
            fprintf(stderr, "line %zu: %s\n", lineno, why);
            rc = 1;
        }
        for (long i = 0; i < k; i++) {
            uint8_t w[32];
            zkf_pack_le(el[i], i + 1 == k, w);
            hex_print(stdout, w, 32);
            fputc('\n', stdout);
        }
    }
    free(line);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long long n = 2000000, arity = 11, reps = 3;
    static const struct option lo[] = {{"count", required_argument, NULL, 'n'}, {"arity", required_argument, NULL, 'a'},
                                       {"repeat", required_argument, NULL, 'r'}, {"convert", no_argument, NULL, 'c'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, "n:a:r:ch", lo, NULL)) != -1) {
        switch (o) {
        case 'n': n = parse_u64("count", optarg, 1ull << 28); break;
        case 'a': arity = parse_u64("arity", optarg, 16); break;
        case 'r': reps = parse_u64("repeat", optarg, 100); break;
        case 'c': return convert();
        case 'h':
            printf("usage: hostbench [-n ELEMENTS] [-a ELEMENTS_PER_LINE] [-r REPEATS] | hostbench --convert\n");
            return 0;
        default: return 2;
        }
    }
    if (arity == 0 || n < arity || reps == 0) {
        fprintf(stderr, "hostbench: need -a >= 1, -n >= -a, -r >= 1\n");
        return 2;
    }
    n -= n % arity;
    const uint64_t *p = ZKF_BLS12_381_FR;
    uint64_t(*ref)[4] = malloc(n * sizeof *ref), (*limbs)[4] = malloc(n * sizeof *limbs);
    uint8_t *be = malloc(n * 32), *words = zk_alloc(n * 32);
    char *text = malloc(n * 68 + 1);
    size_t *line_at = malloc((n / arity + 1) * sizeof *line_at);
    if (!ref || !limbs || !be || !words || !text || !line_at)
        die("out of memory");
    /* inputs (not timed): uniform below p, a short token now and then */
    size_t t = 0;
    for (size_t i = 0; i < n; i++) {
        do {
            for (int k = 0; k < 4; k++)
                ref[i][k] = rnd();
            ref[i][3] &= (1ull << 63) - 1;
            if (i % 16 == 3)
                ref[i][3] = ref[i][2] = ref[i][1] = 0, ref[i][0] &= 0xffffff;
        } while (!zkf_lt(ref[i], p));
        for (int b = 0; b < 32; b++)
            be[32 * i + b] = (uint8_t)(ref[i][3 - b / 8] >> (56 - 8 * (b % 8)));
        if (i % arity == 0)
            line_at[i / arity] = t;
        t += (size_t)sprintf(text + t, i % 16 == 3 ? "0x%llx" : "0x%016llx%016llx%016llx%016llx",
                             i % 16 == 3 ? (unsigned long long)ref[i][0] : (unsigned long long)ref[i][3],
                             (unsigned long long)ref[i][2], (unsigned long long)ref[i][1],
                             (unsigned long long)ref[i][0]);
        text[t++] = (i + 1) % arity ? ' ' : '\n';
    }
    line_at[n / arity] = t;

    const char *names[] = {"parse", "pack", "be2le", "text2word"};
    double best[4] = {1e30, 1e30, 1e30, 1e30}, best_cpu[4] = {1e30, 1e30, 1e30, 1e30};
    uint64_t sum = 0;
    for (unsigned long long r = 0; r < reps; r++) {
        for (int stage = 0; stage < 4; stage++) {
            double t0 = now_s(), c0 = cpu_s();
            if (stage == 0 || stage == 3) {
                for (size_t l = 0; l < n / arity; l++) {
                    const char *why;
                    size_t len = line_at[l + 1] - line_at[l] - 1;
                    if (zkf_parse_line(text + line_at[l], len, p, limbs + l * arity, arity, &why) != (long)arity)
                        die("hostbench: line %zu: %s", l + 1, why);
                    if (stage == 3)
                        for (size_t e = 0; e < arity; e++)
                            zkf_pack_le(limbs[l * arity + e], e + 1 == arity, words + 32 * (l * arity + e));
                }
            } else if (stage == 1) {
                for (size_t i = 0, e = 1; i < n; i++, e = e == arity ? 1 : e + 1)
                    zkf_pack_le(limbs[i], e == arity, words + 32 * i);
            } else {
                for (size_t i = 0, e = 1; i < n; i++, e = e == arity ? 1 : e + 1) {
                    uint64_t l[4];
                    zkf_be32_to_limbs(be + 32 * i, l);
                    zkf_pack_le(l, e == arity, words + 32 * i);
                }
            }
            double dt = now_s() - t0, dc = cpu_s() - c0;
            if (dt < best[stage])
                best[stage] = dt;
            if (dc < best_cpu[stage])
                best_cpu[stage] = dc;
            /* every stage must reproduce the elements */
            for (size_t i = 0; i < n; i += 1 + n / 1024) {
                uint64_t w[4];
                memcpy(w, words + 32 * i, 32);
                w[3] &= (1ull << 63) - 1;
                if ((stage != 0 && memcmp(w, ref[i], 32)) || (stage != 2 && memcmp(limbs[i], ref[i], 32)))
                    die("hostbench: stage %s: element %zu differs", names[stage], i);
                sum += w[0];
            }
        }
    }
    size_t bytes_in[4] = {t, n * 32, n * 32, t};
    for (int s = 0; s < 4; s++)
        printf("%s %.0f %.0f %.0f\n", names[s], (double)n / best_cpu[s], (double)n / best[s],
               (double)bytes_in[s] / best_cpu[s]);
    printf("elements %llu arity %llu checksum %016llx\n", n, arity, (unsigned long long)sum);
    free(ref);
    free(limbs);
    free(be);
    zk_free(words);
    free(text);
    free(line_at);
    return 0;
}
