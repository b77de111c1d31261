/* zk-keccak sponge: messages (hex lines) -> KeccakSpongeAxis -> digests.
 * Packet per message (KeccakSpongeAxis header): byte 0 mode code, bytes 4-7 SHAKE length (LE), then the message;
 * XDMA puts TLAST on the last beat of each write, which ends the message.  An output packet shorter than the
 * digest is the core's error packet (its first byte: 1 bad mode, 2 bad keep, 4 bad length); the system block's
 * error counter (ZK_SYS_STATUS + 4) is checked too, since TUSER does not cross XDMA. */
#include "tool_common.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct msgs {
    uint8_t *bytes;   /* all messages back to back */
    size_t *off, *len;
    size_t n, cap, used, room;
} msgs;

static void msgs_add(msgs *m, const uint8_t *b, size_t len)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 1024;
        m->off = realloc(m->off, m->cap * sizeof *m->off);
        m->len = realloc(m->len, m->cap * sizeof *m->len);
        if (!m->off || !m->len)
            die("out of memory");
    }
    if (m->used + len > m->room) {
        m->room = 2 * (m->used + len) + 4096;
        if (!(m->bytes = realloc(m->bytes, m->room)))
            die("out of memory");
    }
    memcpy(m->bytes + m->used, b, len);
    m->off[m->n] = m->used;
    m->len[m->n++] = len;
    m->used += len;
}

static void msgs_free(msgs *m)
{
    free(m->bytes);
    free(m->off);
    free(m->len);
}

/* 0, or 1 (cannot read) / 2 (malformed) after a message */
static int read_messages(const char *path, msgs *m)
{
    FILE *f = input_open(path);
    if (!f)
        return 1;
    int rc = 0;
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    uint8_t *tmp = NULL;
    size_t tmp_cap = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            n--;
        if ((size_t)n / 2 + 8 > ZK_MAX_XFER) {
            fprintf(stderr, "%s:%zu: message too long for one transfer\n", path, lineno);
            rc = 2;
            break;
        }
        if (tmp_cap < (size_t)n / 2 + 1 && !(tmp = realloc(tmp, tmp_cap = (size_t)n / 2 + 1)))
            die("out of memory");
        if (hex_decode(line, (size_t)n, tmp) < 0) {
            fprintf(stderr, "%s:%zu: not a hex string (an even number of hex digits)\n", path, lineno);
            rc = 2;
            break;
        }
        msgs_add(m, tmp, (size_t)n / 2);
    }
    free(line);
    free(tmp);
    input_close(f);
    return rc;
}

typedef struct mode { const char *name; int code; unsigned digest; } mode;
static const mode MODES[] = {{"sha3_224", 0, 28}, {"sha3_256", 1, 32}, {"sha3_384", 2, 48}, {"sha3_512", 3, 64},
                             {"shake_128", 4, 0}, {"shake_256", 5, 0}};

static int sys_errors(zk_dev *d, uint32_t *v)
{
    uint32_t id;
    return zk_reg_read(d, ZK_SYS_ID, &id) || id != ZK_SYS_MAGIC || zk_reg_read(d, ZK_SYS_STATUS + 4, v) ? -1 : 0;
}

int run_sponge(tool_dev *t, int argc, char **argv)
{
    const char *mode_name = NULL, *in = "-", *out = NULL, *check = NULL;
    unsigned long long out_len = 0, batch = 256;
    static const struct option lo[] = {TOOL_DEV_LONGOPTS, {"mode", required_argument, NULL, 'm'}, {"out-len", required_argument, NULL, 'l'},
                                       {"input", required_argument, NULL, 'i'}, {"output", required_argument, NULL, 'o'},
                                       {"check", required_argument, NULL, 'k'}, {"batch", required_argument, NULL, 'b'},
                                       {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "m:l:i:o:k:b:h", lo, NULL)) != -1) {
        if (tool_dev_opt(t, o, optarg))
            continue;
        switch (o) {
        case 'm': mode_name = optarg; break;
        case 'l': out_len = parse_u64("out-len", optarg, 1u << 24); break;
        case 'i': in = optarg; break;
        case 'o': out = optarg; break;
        case 'k': check = optarg; break;
        case 'b': batch = parse_u64("batch", optarg, 1u << 20); break;
        case 'h': printf("zk-keccak sponge -m MODE [-l BYTES] [-i FILE] [-o FILE] [-k FILE] [-b N]\n"); return 0;
        default: return 2;
        }
    }
    const mode *md = NULL;
    for (size_t i = 0; mode_name && i < sizeof MODES / sizeof *MODES; i++)
        if (!strcmp(MODES[i].name, mode_name))
            md = &MODES[i];
    if (!md) {
        fprintf(stderr, "zk-keccak sponge: -m MODE is one of sha3_224 sha3_256 sha3_384 sha3_512 shake_128 shake_256\n");
        return 2;
    }
    size_t dlen = md->digest ? md->digest : (size_t)out_len;
    if (!md->digest && out_len == 0) {
        fprintf(stderr, "zk-keccak sponge: %s needs -l BYTES >= 1\n", md->name);
        return 2;
    }
    if (batch == 0)
        batch = 1;
    msgs m = {0};
    int rc = read_messages(in, &m);
    FILE *fo = rc ? NULL : out ? fopen(out, "w") : stdout;
    if (!rc && !fo) {
        fprintf(stderr, "%s: open: %s\n", out, strerror(errno));
        rc = 1;
    }
    zk_dev d;
    if (rc || tool_open(&d, t, ZK_H2C(t->channel) | ZK_C2H(t->channel) | ZK_USER)) {
        if (fo && fo != stdout)
            fclose(fo);
        msgs_free(&m);
        return rc ? rc : 1;
    }
    zk_install_signals();
    uint32_t err0 = 0, err1 = 0;
    int have_sys = sys_errors(&d, &err0) == 0;
    size_t nb = batch < m.n ? batch : (m.n ? m.n : 1);
    zk_packet *pk = calloc(nb, sizeof *pk);
    size_t *sizes = calloc(nb, sizeof *sizes), *got = calloc(nb, sizeof *got);
    uint8_t *digests = malloc(m.n * dlen + 1);
    if (!pk || !sizes || !got || !digests)
        die("out of memory");
    double busy = 0;
    size_t short_packets = 0;
    for (size_t first = 0; first < m.n && rc == 0; first += nb) {
        size_t cnt = m.n - first < nb ? m.n - first : nb, bytes = 0;
        for (size_t i = 0; i < cnt; i++) /* each packet on its own page: DMA buffers are page aligned */
            bytes += (m.len[first + i] + 8 + ZK_ALIGN - 1) / ZK_ALIGN * ZK_ALIGN;
        uint8_t *buf = zk_alloc(bytes), *res = zk_alloc(cnt * dlen);
        if (!buf || !res)
            die("out of memory");
        for (size_t i = 0, at = 0; i < cnt; i++) {
            uint8_t *p = buf + at;
            size_t l = m.len[first + i];
            p[0] = (uint8_t)md->code;
            for (int b = 0; b < 4; b++)
                p[4 + b] = (uint8_t)(out_len >> (8 * b));
            memcpy(p + 8, m.bytes + m.off[first + i], l);
            pk[i] = (zk_packet){p, l + 8};
            sizes[i] = dlen;
            at += (l + 8 + ZK_ALIGN - 1) / ZK_ALIGN * ZK_ALIGN;
        }
        zk_job job = {t->channel, t->channel, pk, cnt, res, cnt * dlen, sizes, cnt, got};
        double t0 = now_s();
        int r = zk_run_job(&d, &job);
        busy += now_s() - t0;
        if (r) {
            zk_free(buf);
            zk_free(res);
            if (zk_interrupted()) {
                fprintf(stderr, "zk-keccak: interrupted; resetting the core\n");
                if (zk_soft_reset(&d))
                    fprintf(stderr, "%s\n", zk_error(&d));
                rc = 130;
            } else {
                fprintf(stderr, "%s\n", zk_error(&d));
                rc = 1;
            }
            break;
        }
        for (size_t i = 0; i < cnt; i++) {
            if (got[i] != dlen) {
                short_packets++;
                unsigned code = res[i * dlen];
                fprintf(stderr, "message %zu: the core answered error 0x%x (%s%s%s)\n", first + i + 1, code,
                        code & 1 ? "mode " : "", code & 2 ? "keep " : "", code & 4 ? "length" : "");
                rc = 1;
            }
            memcpy(digests + (first + i) * dlen, res + i * dlen, dlen);
        }
        zk_free(buf);
        zk_free(res);
    }
    if (rc == 0 && have_sys && sys_errors(&d, &err1) == 0 && err1 - err0 != short_packets) {
        fprintf(stderr, "zk-keccak: the core counted %u error packets\n", err1 - err0);
        rc = 1;
    }
    zk_close(&d);
    for (size_t i = 0; rc == 0 && i < m.n; i++) {
        hex_print(fo, digests + i * dlen, dlen);
        fputc('\n', fo);
    }
    if (fo != stdout)
        fclose(fo);
    if (rc == 0) {
        size_t total = 0;
        for (size_t i = 0; i < m.n; i++)
            total += m.len[i];
        fprintf(stderr, "zk-keccak: %zu messages, %zu bytes in %.3f s of DMA jobs: %.0f messages/s, %.3f MB/s\n", m.n,
                total, busy, busy > 0 ? (double)m.n / busy : 0.0, busy > 0 ? (double)total / busy / 1e6 : 0.0);
    }
    if (rc == 0 && check) {
        FILE *fk = fopen(check, "r");
        if (!fk) {
            fprintf(stderr, "%s: open: %s\n", check, strerror(errno));
            rc = 1;
        }
        char *line = NULL;
        size_t cap = 0, i = 0;
        ssize_t n;
        uint8_t *want = malloc(dlen + 1);
        while (rc == 0 && fk && (n = getline(&line, &cap, fk)) >= 0) {
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                n--;
            if (i >= m.n || (size_t)n != 2 * dlen || hex_decode(line, (size_t)n, want) < 0 ||
                memcmp(want, digests + i * dlen, dlen)) {
                fprintf(stderr, "zk-keccak: digest %zu differs from %s\n", i + 1, check);
                rc = 3;
            }
            i++;
        }
        if (rc == 0 && i != m.n) {
            fprintf(stderr, "zk-keccak: %s has %zu digests for %zu messages\n", check, i, m.n);
            rc = 3;
        }
        free(want);
        free(line);
        if (fk)
            fclose(fk);
    }
    free(pk);
    free(sizes);
    free(got);
    free(digests);
    msgs_free(&m);
    return rc;
}
