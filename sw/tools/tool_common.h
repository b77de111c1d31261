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
