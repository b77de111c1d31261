/* keccak-cpu: the SNAP hls_sponge "test_speed" benchmark on the CPU (the action's SNAP_CONFIG=CPU path).
 *
 *   checksum = XOR of test_speed(run) over run = 0 .. runs-1 with elements > run % freq
 *   test_speed(run): lanes st[i] = i + run, Keccak-f[1600] applied `rounds` times, 64-bit sum of the lanes
 *
 * Prints the checksum (16 hex digits) on the first line and the measured permutation rate on the second.
 * The runs are shared among --threads POSIX threads (each claims the next run from an atomic counter).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "keccak_f1600.h"

#define MAX_THREADS 1024

struct job {
    uint32_t rounds, runs, elements, freq;
    atomic_uint_fast64_t next_run;
};

struct worker {
    pthread_t tid;
    struct job *job;
    uint64_t checksum;
    uint64_t calls;
};

static void usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [--rounds R] [--runs M] [--elements N] [--freq F] [--threads T]\n"
            "  -r, --rounds R     Keccak-f[1600] permutations per test_speed call (NB_ROUNDS, 1..2^32-1; default 100000)\n"
            "  -m, --runs M       test runs (NB_TEST_RUNS, 0..2^32-1; default 65536)\n"
            "  -n, --elements N   nb_elmts: run r is computed when N > r %% F (0..2^32-1; default 1)\n"
            "  -f, --freq F       freq (1..2^32-1; default 65536)\n"
            "  -x, --threads T    worker threads (1..%d; default: online CPUs)\n"
            "  -h, --help         this text\n"
            "Output: the checksum as 16 hex digits, then 'permutations P seconds S rate X threads T'.\n",
            prog, MAX_THREADS);
}

/* Strict unsigned parse: decimal or 0x-hex digits only, no sign, no trailing characters, within [lo, hi]. */
static int parse_u32(const char *name, const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end = NULL;
    unsigned long long v;

    if (s == NULL || *s == '\0' || *s == '-' || *s == '+' || *s == ' ') {
        fprintf(stderr, "keccak-cpu: --%s: '%s' is not a non-negative integer\n", name, s ? s : "");
        return -1;
    }
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno != 0) {
        fprintf(stderr, "keccak-cpu: --%s: '%s': %s\n", name, s, strerror(errno));
        return -1;
    }
    if (*end != '\0') {
        fprintf(stderr, "keccak-cpu: --%s: '%s' is not a non-negative integer\n", name, s);
        return -1;
    }
    if (v < lo || v > hi) {
        fprintf(stderr, "keccak-cpu: --%s: %s is out of range [%" PRIu32 ", %" PRIu32 "]\n", name, s, lo, hi);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct job *j = w->job;

    for (;;) {
        uint64_t run = atomic_fetch_add(&j->next_run, 1);
        if (run >= j->runs)
            break;
        if ((uint64_t)j->elements > run % j->freq) {
            w->checksum ^= keccak_test_speed(run, j->rounds);
            w->calls++;
        }
    }
    return NULL;
}

static double now_seconds(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        fprintf(stderr, "keccak-cpu: clock_gettime: %s\n", strerror(errno));
        exit(EXIT_FAILURE);
    }
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char *argv[])
{
    static const struct option opts[] = {
        { "rounds", required_argument, NULL, 'r' },
        { "runs", required_argument, NULL, 'm' },
        { "elements", required_argument, NULL, 'n' },
        { "freq", required_argument, NULL, 'f' },
        { "threads", required_argument, NULL, 'x' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct job job = { .rounds = 100000, .runs = 65536, .elements = 1, .freq = 65536 };
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = cpus > 0 ? (uint32_t)(cpus < MAX_THREADS ? cpus : MAX_THREADS) : 1;
    struct worker *workers;
    uint64_t checksum = 0, calls = 0;
    uint32_t started = 0;
    double t0, seconds;
    int ch, rc = EXIT_SUCCESS;

    while ((ch = getopt_long(argc, argv, "r:m:n:f:x:h", opts, NULL)) != -1) {
        int bad = 0;
        switch (ch) {
        case 'r': bad = parse_u32("rounds", optarg, 1, UINT32_MAX, &job.rounds); break;
        case 'm': bad = parse_u32("runs", optarg, 0, UINT32_MAX, &job.runs); break;
        case 'n': bad = parse_u32("elements", optarg, 0, UINT32_MAX, &job.elements); break;
        case 'f': bad = parse_u32("freq", optarg, 1, UINT32_MAX, &job.freq); break;
        case 'x': bad = parse_u32("threads", optarg, 1, MAX_THREADS, &threads); break;
        case 'h': usage(stdout, argv[0]); return EXIT_SUCCESS;
        default: usage(stderr, argv[0]); return EXIT_FAILURE;
        }
        if (bad)
            return EXIT_FAILURE;
    }
    if (optind != argc) {
        fprintf(stderr, "keccak-cpu: unexpected argument '%s'\n", argv[optind]);
        usage(stderr, argv[0]);
        return EXIT_FAILURE;
    }

    workers = calloc(threads, sizeof(*workers));
    if (workers == NULL) {
        fprintf(stderr, "keccak-cpu: calloc: %s\n", strerror(errno));
        return EXIT_FAILURE;
    }
    atomic_init(&job.next_run, 0);
    t0 = now_seconds();
    for (; started < threads; started++) {
        int err;
        workers[started].job = &job;
        err = pthread_create(&workers[started].tid, NULL, worker_main, &workers[started]);
        if (err != 0) {
            fprintf(stderr, "keccak-cpu: pthread_create: %s\n", strerror(err));
            rc = EXIT_FAILURE;
            atomic_store(&job.next_run, (uint64_t)job.runs); /* the started threads stop early */
            break;
        }
    }
    for (uint32_t i = 0; i < started; i++) {
        int err = pthread_join(workers[i].tid, NULL);
        if (err != 0) {
            fprintf(stderr, "keccak-cpu: pthread_join: %s\n", strerror(err));
            rc = EXIT_FAILURE;
        }
        checksum ^= workers[i].checksum;
        calls += workers[i].calls;
    }
    seconds = now_seconds() - t0;
    free(workers);
    if (rc != EXIT_SUCCESS)
        return rc;

    printf("%016" PRIx64 "\n", checksum);
    printf("permutations %" PRIu64 " seconds %.6f rate %.1f threads %" PRIu32 " calls %" PRIu64 "\n",
           calls * job.rounds, seconds, seconds > 0 ? (double)(calls * job.rounds) / seconds : 0.0, threads, calls);
    return EXIT_SUCCESS;
}
