/* Helpers shared by the zk-* tools: device options, errors, timing, hex text. */
#define _GNU_SOURCE
#ifndef TOOL_COMMON_H
#define TOOL_COMMON_H
#include "zkxdma.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* options every tool takes: -d/--device PREFIX, -c/--card N, -t/--timeout MS */
typedef struct tool_dev {
    char prefix[256];
    int card;
    unsigned timeout_ms;
    int prefix_given;
    int channel;       /* first DMA channel the core sits on (--channel) */
} tool_dev;

#define TOOL_DEV_OPTS "d:c:t:"
#define TOOL_DEV_LONGOPTS                                                                                        \
    {"device", required_argument, NULL, 'd'}, {"card", required_argument, NULL, 'c'},                          \
        {"timeout", required_argument, NULL, 't'}, {"channel", required_argument, NULL, 'K'}
#define TOOL_DEV_HELP                                                                                            \
    "  -d, --device PREFIX  device files PREFIX_h2c_K, PREFIX_c2h_K, PREFIX_user (default /dev/xdmaN,\n"         \
    "                       or $ZKXDMA_DEVICE; an emulator directory's DIR/xdma0 works the same)\n"               \
    "  -c, --card N         card number N for the default prefix (default 0)\n"                                 \
    "  -t, --timeout MS     abort a transfer or wait that makes no progress for MS ms (default 10000)\n"         \
    "      --channel K      the core's first DMA channel pair (h2c_K, c2h_K; default 0)\n"                      \
    "  -h, --help           this text\n"

void tool_dev_init(tool_dev *t);
/* 1 when opt was a device option (consumed), 0 otherwise; exits on a bad value */
int tool_dev_opt(tool_dev *t, int opt, const char *arg);
/* opens the files; on failure prints zk_error and returns -1 */
int tool_open(zk_dev *d, tool_dev *t, unsigned what);

/* --devices LIST (zk-poseidon, zk-msm): "all" = every card of DIR that carries core `kind` (DIR: the directory of
 * -d PREFIX or of $ZKXDMA_DEVICE, else /dev; other cards are named on stderr and skipped), or a comma list of card
 * numbers N (DIR/xdmaN) and prefixes (anything with a '/').  Every card is probed (zk_card_probe); a listed card
 * without that core, or none found, is an error.  Fills prefixes[0..n) and returns n, or -1 after a message. */
#define TOOL_DEVICES_HELP                                                                                        \
    "      --devices LIST   spread the work over several cards: all (every card of -d's directory, default /dev,\n" \
    "                       that has the core) or a comma list of card numbers N (DIR/xdmaN) and prefixes\n"
/* DIR of the above */
void tool_devices_dir(const tool_dev *t, char *dir, size_t len);
int tool_devices(tool_dev *t, const char *list, zk_core_kind kind, char (*prefixes)[256], int max);
/* opens every prefix (what: zk_open's flags) with -t's timeout; on failure prints zk_error, closes the others, -1 */
int tool_open_all(zk_dev *devs, char (*prefixes)[256], int n, const tool_dev *t, unsigned what);

_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die_dev(zk_dev *d, int code);
unsigned long long parse_u64(const char *what, const char *s, unsigned long long max);
double now_s(void);

/* a line-oriented input: stdin for "-", else the file; NULL after a "<path>: open: <strerror>" message.
 * input_close leaves stdin open. */
FILE *input_open(const char *path);
void input_close(FILE *f);

/* hex: 2n digits -> n bytes (big-endian text order kept); returns -1 on a bad digit or odd length */
long hex_decode(const char *s, size_t len, uint8_t *out);
void hex_print(FILE *f, const uint8_t *b, size_t n);
#endif
