#include "tool_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Noreturn void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

_Noreturn void die_dev(zk_dev *d, int code)
{
    fprintf(stderr, "%s\n", zk_error(d));
    zk_close(d);
    exit(code);
}

unsigned long long parse_u64(const char *what, const char *s, unsigned long long max)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-' || v > max) {
        fprintf(stderr, "bad %s '%s' (an integer 0..%llu)\n", what, s, max);
        exit(2);
    }
    return v;
}

void tool_dev_init(tool_dev *t)
{
    memset(t, 0, sizeof *t);
    t->timeout_ms = ZK_DEFAULT_TIMEOUT_MS;
}

int tool_dev_opt(tool_dev *t, int opt, const char *arg)
{
    switch (opt) {
    case 'd':
        if (strlen(arg) >= sizeof t->prefix) {
            fprintf(stderr, "device prefix too long\n");
            exit(2);
        }
        strcpy(t->prefix, arg);
        t->prefix_given = 1;
        return 1;
    case 'c': t->card = (int)parse_u64("card", arg, 255); return 1;
    case 't': t->timeout_ms = (unsigned)parse_u64("timeout", arg, 86400000); return 1;
    case 'K': t->channel = (int)parse_u64("channel", arg, ZK_MAX_CHANNELS - 1); return 1;
    default: return 0;
    }
}

int tool_open(zk_dev *d, tool_dev *t, unsigned what)
{
    if (!t->prefix_given)
        zk_default_prefix(t->card, t->prefix, sizeof t->prefix);
    if (zk_open(d, t->prefix, what)) {
        fprintf(stderr, "%s\n", zk_error(d));
        return -1;
    }
    d->timeout_ms = t->timeout_ms;
    return 0;
}

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static signed char g_hex[256];
static int g_hex_ready;

long hex_decode(const char *s, size_t len, uint8_t *out)
{
    if (!g_hex_ready) {
        memset(g_hex, -1, sizeof g_hex);
        for (int i = 0; i < 10; i++)
            g_hex['0' + i] = (signed char)i;
        for (int i = 0; i < 6; i++)
            g_hex['a' + i] = g_hex['A' + i] = (signed char)(10 + i);
        g_hex_ready = 1;
    }
    if (len & 1)
        return -1;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = g_hex[(unsigned char)s[2 * i]], lo = g_hex[(unsigned char)s[2 * i + 1]];
        if ((hi | lo) < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

void hex_print(FILE *f, const uint8_t *b, size_t n)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        fputc(d[b[i] >> 4], f);
        fputc(d[b[i] & 15], f);
    }
}

FILE *input_open(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f)
        fprintf(stderr, "%s: open: %s\n", path, strerror(errno));
    return f;
}

void input_close(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}
