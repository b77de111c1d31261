/* zk-status: the system block and a core's counters through the user BAR; --reset pulses the core's reset. */
#include "tool_common.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* the register maps: zk_contract.h, generated from the hardware's declarations (ZK_<CORE>_REGS) */
/* status outputs the system block shows, per core (then the board's adapters': InbandLast for Poseidon) */
static const char *SPONGE_STATUS[] = {"messages", "errors", NULL};
static const char *POSEIDON_STATUS[] = {"inband_frames", "inband_partial", NULL};
static const char *PAIR_STATUS[] = {"pairs", NULL};

static void usage(FILE *f)
{
    fprintf(f, "usage: zk-status [options]\n"
               "options:\n" TOOL_DEV_HELP
               "  -k, --core NAME      keccak-speed | keccak-sponge | pair | poseidon | msm | none (default keccak-speed)\n"
               "  -r, --reg OFF        also read the 32-bit register at byte offset OFF (repeatable)\n"
               "  -w, --write OFF=VAL  write VAL to the register at OFF first (repeatable, in order)\n"
               "  -R, --reset          pulse the core's reset through the system block first\n"
               "  -l, --list           list every card of -d's directory (default /dev): its core (kind, config,\n"
               "                       version from the system block), the system block, the DMA channels;\n"
               "                       nothing is written\n"
               "An MSM card's identity also names its curve (VERSION[31:16]): the line core_curve NAME.\n"
               "exit: 0 ok, 1 device error or the core does not answer (--list: no card found), 2 usage\n");
}

/* --list: one line per card of the directory */
static int list_cards(tool_dev *t)
{
    char dir[256], err[512], line[1024];
    tool_devices_dir(t, dir, sizeof dir);
    zk_card *cards = calloc(ZK_MAX_CARDS, sizeof *cards);
    if (!cards)
        die("out of memory");
    int n = zk_cards_find(dir, cards, ZK_MAX_CARDS, err, sizeof err);
    if (n < 0)
        fprintf(stderr, "%s\n", err);
    else if (n == 0)
        fprintf(stderr, "zk-status: no card in %s (no xdma<N>_user)\n", dir);
    for (int i = 0; i < n; i++)
        printf("card %d %s\n", cards[i].index, zk_card_describe(&cards[i], line, sizeof line));
    free(cards);
    return n > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    tool_dev t;
    tool_dev_init(&t);
    const char *core = "keccak-speed";
    uint32_t extra[32], woff[32], wval[32];
    int n_extra = 0, n_write = 0, reset = 0, list = 0;
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"core", required_argument, NULL, 'k'},
                                       {"reg", required_argument, NULL, 'r'}, {"reset", no_argument, NULL, 'R'},
                                       {"write", required_argument, NULL, 'w'}, {"list", no_argument, NULL, 'l'},
                                       {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "k:r:w:Rlh", lo, NULL)) != -1) {
        if (tool_dev_opt(&t, o, optarg))
            continue;
        switch (o) {
        case 'k': core = optarg; break;
        case 'r':
            if (n_extra == 32)
                die("at most 32 --reg");
            extra[n_extra++] = (uint32_t)parse_u64("register offset", optarg, ZK_USER_MAP_BYTES - 4);
            break;
        case 'w': {
            char *eq = strchr(optarg, '=');
            if (!eq || n_write == 32) {
                fprintf(stderr, "zk-status: --write OFF=VAL (at most 32)\n");
                return 2;
            }
            *eq = 0;
            woff[n_write] = (uint32_t)parse_u64("register offset", optarg, ZK_USER_MAP_BYTES - 4);
            wval[n_write++] = (uint32_t)parse_u64("register value", eq + 1, 0xffffffffu);
            break;
        }
        case 'R': reset = 1; break;
        case 'l': list = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (list)
        return optind == argc ? list_cards(&t) : (usage(stderr), 2);
    const char **status = NULL;
    const zk_reg_desc *regs = NULL;
    if (!strcmp(core, "keccak-speed"))
        regs = ZK_KECCAK_SPEED_REGS;
    else if (!strcmp(core, "keccak-sponge"))
        status = SPONGE_STATUS;
    else if (!strcmp(core, "pair"))
        status = PAIR_STATUS;
    else if (!strcmp(core, "poseidon"))
        regs = ZK_POSEIDON_REGS, status = POSEIDON_STATUS;
    else if (!strcmp(core, "msm"))
        regs = ZK_MSM_REGS;
    else if (strcmp(core, "none")) {
        usage(stderr);
        return 2;
    }
    if (optind != argc) {
        usage(stderr);
        return 2;
    }
    zk_dev d;
    if (tool_open(&d, &t, ZK_USER))
        return 1;
    if (reset && zk_soft_reset(&d))
        die_dev(&d, 1);
    for (int i = 0; i < n_write; i++)
        if (zk_reg_write(&d, woff[i], wval[i]))
            die_dev(&d, 1);
    uint32_t v, hi;
    if (zk_reg_read(&d, ZK_SYS_ID, &v))
        die_dev(&d, 1);
    printf("system_id 0x%08x%s\n", v, v == ZK_SYS_MAGIC ? "" : " (no zkspinal system block)");
    if (v == ZK_SYS_MAGIC) {
        if (zk_reg_read(&d, ZK_SYS_INFO, &v) || zk_reg_read(&d, ZK_SYS_BAD, &hi))
            die_dev(&d, 1);
        printf("system_revision %u\nsystem_status_words %u\nsystem_reset_cycles %u\nsystem_bad_accesses %u\n",
               ZK_SYS_REVISION(v), (unsigned)zk_system_info_status_count(v), (unsigned)zk_system_info_reset_cycles(v), hi);
        if (ZK_SYS_REVISION(v) >= 1) { /* the identity words (a revision 0 block would count them as bad reads) */
            uint32_t kind, config, version;
            if (zk_reg_read(&d, ZK_SYS_KIND, &kind) || zk_reg_read(&d, ZK_SYS_CONFIG, &config) ||
                zk_reg_read(&d, ZK_SYS_VERSION, &version))
                die_dev(&d, 1);
            printf("core_kind %u (%s)\ncore_config 0x%08x\ncore_version %u\n", kind, zk_core_name((zk_core_kind)kind),
                   config, version);
            if (kind == ZK_CORE_KIND_MSM) { /* the engine's curve: VERSION[31:16] (0 on older cards: BLS12-377) */
                const char *curve = zk_msm_curve_name(ZK_SYS_VERSION_DETAIL(version));
                if (curve)
                    printf("core_curve %s\n", curve);
                else
                    printf("core_curve unknown (code %u)\n", (unsigned)ZK_SYS_VERSION_DETAIL(version));
            }
        }
    }
    int rc = 0;
    for (int i = 0; status && status[i]; i++) {
        if (zk_reg_read(&d, ZK_SYS_STATUS + 4 * (uint32_t)i, &v))
            die_dev(&d, 1);
        printf("%s %u\n", status[i], v);
    }
    for (int i = 0, first = 1; regs && regs[i].name; i++) {
        if (!regs[i].host)
            continue;
        hi = 0;
        if (zk_reg_read(&d, regs[i].off, &v) || (regs[i].words == 2 && zk_reg_read(&d, regs[i].off + 4, &hi)))
            die_dev(&d, 1);
        if (first && v == 0xffffffffu) {
            fprintf(stderr, "zk-status: %s_user: the core does not answer (registers read all ones)\n", d.prefix);
            rc = 1;
            break;
        }
        first = 0;
        unsigned long long x = (unsigned long long)hi << 32 | v;
        if (regs[i].show == 2)
            printf("%s 0x%016llx\n", regs[i].name, x);
        else if (regs[i].show == 1)
            printf("%s %llu\n", regs[i].name, x);
        else
            printf("%s 0x%llx\n", regs[i].name, x);
    }
    for (int i = 0; i < n_extra; i++) {
        if (zk_reg_read(&d, extra[i], &v))
            die_dev(&d, 1);
        printf("0x%05x 0x%08x\n", extra[i], v);
    }
    zk_close(&d);
    return rc;
}
