#include "tool_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* the directory the cards are looked for in */
void tool_devices_dir(const tool_dev *t, char *dir, size_t len)
{
    const char *env = getenv("ZKXDMA_DEVICE");
    const char *p = t->prefix_given ? t->prefix : (env && *env ? env : NULL);
    const char *slash = p ? strrchr(p, '/') : NULL;
    if (!slash)
        snprintf(dir, len, "%s", p ? "." : "/dev");
    else if (slash == p)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - p), p);
}

int tool_devices(tool_dev *t, const char *list, zk_core_kind kind, char (*prefixes)[256], int max)
{
    char dir[220], line[1024];
    tool_devices_dir(t, dir, sizeof dir);
    zk_card *cards = calloc(ZK_MAX_CARDS, sizeof *cards);
    if (!cards)
        die("out of memory");
    int n = 0;
    if (!strcmp(list, "all")) {
        char err[512];
        int found = zk_cards_find(dir, cards, ZK_MAX_CARDS, err, sizeof err);
        if (found < 0) {
            fprintf(stderr, "%s\n", err);
            free(cards);
            return -1;
        }
        for (int i = 0; i < found; i++) {
            if (cards[i].kind == kind && n < max)
                snprintf(prefixes[n++], 256, "%s", cards[i].prefix);
            else
                fprintf(stderr, "skipping %s\n", zk_card_describe(&cards[i], line, sizeof line));
        }
        if (n == 0)
            fprintf(stderr, "--devices all: no card in %s carries a %s core (%d card(s) found)\n", dir,
                    zk_core_name(kind), found);
        free(cards);
        return n ? n : -1;
    }
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        die("out of memory");
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        if (n == max || n == ZK_MAX_CARDS) {
            fprintf(stderr, "--devices: at most %d cards\n", max < ZK_MAX_CARDS ? max : ZK_MAX_CARDS);
            rc = 2;
            break;
        }
        zk_card *c = &cards[n];
        if (strchr(tok, '/')) {
            if (strlen(tok) >= sizeof c->prefix) {
                fprintf(stderr, "--devices: prefix too long: %s\n", tok);
                rc = 2;
                break;
            }
            snprintf(c->prefix, sizeof c->prefix, "%s", tok);
        } else {
            char *end;
            long k = strtol(tok, &end, 10);
            if (end == tok || *end || k < 0 || k > 1000000) {
                fprintf(stderr, "--devices: '%s' is neither a card number nor a prefix (all, or N,M,... or PREFIX,...)\n", tok);
                rc = 2;
                break;
            }
            snprintf(c->prefix, sizeof c->prefix, "%.200s/xdma%ld", strcmp(dir, "/") ? dir : "", k);
        }
        for (int i = 0; i < n; i++)
            if (!strcmp(cards[i].prefix, c->prefix)) {
                fprintf(stderr, "--devices: %s listed twice\n", c->prefix);
                rc = 2;
            }
        if (rc)
            break;
        zk_card_probe(c);
        if (c->kind != kind) {
            fprintf(stderr, "%s: not a %s core\n", zk_card_describe(c, line, sizeof line), zk_core_name(kind));
            rc = 1;
            break;
        }
        snprintf(prefixes[n++], 256, "%s", c->prefix);
    }
    if (rc == 0 && n == 0) {
        fprintf(stderr, "--devices: no card listed\n");
        rc = 2;
    }
    free(copy);
    free(cards);
    if (rc)
        exit(rc);
    return n;
}

int tool_open_all(zk_dev *devs, char (*prefixes)[256], int n, const tool_dev *t, unsigned what)
{
    for (int i = 0; i < n; i++) {
        if (zk_open(&devs[i], prefixes[i], what)) {
            fprintf(stderr, "%s\n", zk_error(&devs[i]));
            while (i-- > 0)
                zk_close(&devs[i]);
            return -1;
        }
        devs[i].timeout_ms = t->timeout_ms;
    }
    return 0;
}
