/* zk-keccak: the Keccak cores on a card (or the emulator).
 *   speed   the SNAP test_speed job on KeccakSpeed (AXI4-Lite registers, hw/src/zkspinal/keccak/KeccakSpeed.scala)
 *   sponge  SHA-3 / SHAKE of messages on KeccakSpongeAxis (H2C 0 -> C2H 0, one packet per message)
 */
#include "tool_common.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* KeccakSpeed's registers: ZK_KECCAK_SPEED_* (zk_contract.h, from KeccakSpeedRegs in KeccakSpeed.scala) */

static void usage(FILE *f)
{
    fprintf(f, "usage: zk-keccak [options] speed [speed options]   (options may also follow the job)\n"
               "       zk-keccak [options] sponge -m MODE [-l BYTES] [-i FILE] [-o FILE] [-k FILE] [-b N]\n"
               "options:\n" TOOL_DEV_HELP
               "speed (KeccakSpeed, SNAP test_speed):\n"
               "  -r, --rounds N       NB_ROUNDS permutations per run (default 65536)\n"
               "  -n, --runs N         NB_TEST_RUNS (default 65536)\n"
               "  -e, --elmts N        NB_ELMTS (default 1)\n"
               "  -f, --freq N         FREQ (default 65536)\n"
               "  -x, --expect HEX     exit 3 unless the checksum is HEX\n"
               "sponge (KeccakSpongeAxis):\n"
               "  -m, --mode MODE      sha3_224 sha3_256 sha3_384 sha3_512 shake_128 shake_256\n"
               "  -l, --out-len BYTES  SHAKE output length (required for SHAKE)\n"
               "  -i, --input FILE     messages, one per line in hex (an empty line: the empty message); default stdin\n"
               "  -o, --output FILE    digests, one per line in hex (default stdout)\n"
               "  -k, --check FILE     exit 3 unless the digests equal this file's lines\n"
               "  -b, --batch N        messages per DMA job (default 256)\n"
               "exit: 0 ok, 1 device or core error, 2 usage or malformed input, 3 mismatch, 130 interrupted\n");
}

static uint32_t rd(zk_dev *d, uint32_t off)
{
    uint32_t v;
    if (zk_reg_read(d, off, &v))
        die_dev(d, 1);
    return v;
}

static void wr(zk_dev *d, uint32_t off, uint32_t v)
{
    if (zk_reg_write(d, off, v))
        die_dev(d, 1);
}

static _Noreturn void interrupted(zk_dev *d)
{
    fprintf(stderr, "zk-keccak: interrupted; resetting the core\n");
    if (zk_soft_reset(d))
        fprintf(stderr, "%s\n", zk_error(d));
    zk_close(d);
    exit(130);
}

static int run_speed(tool_dev *t, int argc, char **argv)
{
    unsigned long long rounds = 65536, runs = 65536, elmts = 1, freq = 65536;
    const char *expect = NULL;
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"rounds", required_argument, NULL, 'r'}, {"runs", required_argument, NULL, 'n'},
                                       {"elmts", required_argument, NULL, 'e'}, {"freq", required_argument, NULL, 'f'},
                                       {"expect", required_argument, NULL, 'x'}, {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "r:n:e:f:x:h", lo, NULL)) != -1) {
        if (tool_dev_opt(t, o, optarg))
            continue;
        switch (o) {
        case 'r': rounds = parse_u64("rounds", optarg, 0xffffffffu); break;
        case 'n': runs = parse_u64("runs", optarg, 0xffffffffu); break;
        case 'e': elmts = parse_u64("elmts", optarg, 0xffffffffu); break;
        case 'f': freq = parse_u64("freq", optarg, 0xffffffffu); break;
        case 'x': expect = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    zk_dev d;
    if (tool_open(&d, t, ZK_USER))
        return 1;
    zk_install_signals();
    uint32_t ctl = rd(&d, ZK_KECCAK_SPEED_CONTROL);
    if (ctl == 0xffffffffu)
        die("%s_user: the core does not answer (registers read all ones)", d.prefix);
    if (ctl & ZK_KECCAK_SPEED_STATUS_BUSY)
        die("%s_user: the core is busy with another job (CONTROL 0x%x); zk-status --reset frees it", d.prefix, ctl);
    wr(&d, ZK_KECCAK_SPEED_TEST_CHOICE, 0);
    wr(&d, ZK_KECCAK_SPEED_NB_ELMTS, (uint32_t)elmts);
    wr(&d, ZK_KECCAK_SPEED_FREQ, (uint32_t)freq);
    wr(&d, ZK_KECCAK_SPEED_NB_TEST_RUNS, (uint32_t)runs);
    wr(&d, ZK_KECCAK_SPEED_NB_ROUNDS, (uint32_t)rounds);
    double t0 = now_s(), last_move = t0;
    wr(&d, ZK_KECCAK_SPEED_CONTROL, 1);
    uint32_t perms = 0;
    for (;;) {
        if (zk_interrupted())
            interrupted(&d);
        ctl = rd(&d, ZK_KECCAK_SPEED_CONTROL);
        if (ctl == 0xffffffffu)
            die("%s_user: the core stopped answering (registers read all ones)", d.prefix);
        if ((ctl & ZK_KECCAK_SPEED_STATUS_DONE) && !(ctl & ZK_KECCAK_SPEED_STATUS_BUSY))
            break;
        uint32_t p = rd(&d, ZK_KECCAK_SPEED_PERMS);
        double now = now_s();
        if (p != perms) {
            perms = p;
            last_move = now;
        } else if ((now - last_move) * 1000.0 > t->timeout_ms) {
            die("%s_user: no progress for %u ms (PERMS stuck at %u, CONTROL 0x%x): the core stopped", d.prefix,
                t->timeout_ms, p, ctl);
        }
    }
    double secs = now_s() - t0;
    uint32_t retc = rd(&d, ZK_KECCAK_SPEED_RETC), err = rd(&d, ZK_KECCAK_SPEED_ERROR);
    unsigned long long chk = rd(&d, ZK_KECCAK_SPEED_CHECKSUM) | (unsigned long long)rd(&d, ZK_KECCAK_SPEED_CHECKSUM + 4) << 32;
    unsigned long long cyc = rd(&d, ZK_KECCAK_SPEED_CYCLES) | (unsigned long long)rd(&d, ZK_KECCAK_SPEED_CYCLES + 4) << 32;
    unsigned long long prm = rd(&d, ZK_KECCAK_SPEED_PERMS) | (unsigned long long)rd(&d, ZK_KECCAK_SPEED_PERMS + 4) << 32;
    uint32_t calls = rd(&d, ZK_KECCAK_SPEED_CALLS), info = rd(&d, ZK_KECCAK_SPEED_INFO);
    zk_close(&d);
    if (ctl & ZK_KECCAK_SPEED_STATUS_REFUSED) {
        fprintf(stderr, "zk-keccak: the core refused the job (RETC 0x%x, ERROR 0x%x:", retc, err);
        for (const zk_code_desc *c = ZK_KECCAK_SPEED_ERROR_CODES; c->name; c++)
            if (err & c->value)
                fprintf(stderr, " [%s]", c->doc);
        fprintf(stderr, ")\n");
        return 1;
    }
    printf("checksum %016llx\ncycles %llu\npermutations %llu\ncalls %u\nunits %u rounds_per_cycle %u\n", chk, cyc, prm,
           calls, (unsigned)zk_keccak_speed_info_units(info), (unsigned)zk_keccak_speed_info_rounds(info));
    fprintf(stderr, "zk-keccak: speed job in %.3f s wall (%.1f cycles per permutation)\n", secs,
            prm ? (double)cyc / (double)prm : 0.0);
    if (expect && strtoull(expect, NULL, 16) != chk) {
        fprintf(stderr, "zk-keccak: checksum %016llx != expected %s\n", chk, expect);
        return 3;
    }
    return 0;
}

int run_sponge(tool_dev *t, int argc, char **argv); /* zk_keccak_sponge.c */

int main(int argc, char **argv)
{
    tool_dev t;
    tool_dev_init(&t);
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, "+" TOOL_DEV_OPTS "h", lo, NULL)) != -1) {
        if (tool_dev_opt(&t, o, optarg))
            continue;
        usage(o == 'h' ? stdout : stderr);
        return o == 'h' ? 0 : 2;
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    const char *job = argv[optind];
    argc -= optind;
    argv += optind;
    optind = 1;
    if (!strcmp(job, "speed"))
        return run_speed(&t, argc, argv);
    if (!strcmp(job, "sponge"))
        return run_sponge(&t, argc, argv);
    fprintf(stderr, "zk-keccak: unknown job '%s'\n", job);
    usage(stderr);
    return 2;
}
