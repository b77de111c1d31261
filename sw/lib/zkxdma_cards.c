/* libzkxdma: the cards of one host.  The XDMA driver makes /dev/xdma<N>_{user,h2c_K,c2h_K} for card N; the
 * emulator makes the same names (Unix sockets) in its directory.  A card is found by its user device; its core is
 * told by registers, because the system block (ID, RESET, INFO, BAD, status words) has no kind or version word. */
#define _GNU_SOURCE
#include "zkxdma.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* PoseidonRegs (hw/src/zkspinal/poseidon/PoseidonAxis.scala) and MsmAxisRegs (hw/src/zkspinal/msm/MsmAxis.scala) */
enum { POSEIDON_INFO = 0x00, POSEIDON_INFO2 = 0x04, MSM_INFO = 0x38, MSM_ADDERS = 0x48, MSM_PARTIALS = 0x4C };

const char *zk_core_name(zk_core_kind k)
{
    switch (k) {
    case ZK_CORE_POSEIDON: return "poseidon";
    case ZK_CORE_MSM: return "msm";
    case ZK_CORE_ALL_ONES: return "no-answer";
    case ZK_CORE_NO_SYSTEM_BLOCK: return "no-system-block";
    case ZK_CORE_UNREACHABLE: return "unreachable";
    default: return "unknown";
    }
}

/* "xdma<N>_user" -> N, else -1 */
static int card_number(const char *name)
{
    if (strncmp(name, "xdma", 4) || !isdigit((unsigned char)name[4]))
        return -1;
    char *end;
    long n = strtol(name + 4, &end, 10);
    return strcmp(end, "_user") || n < 0 || n > 1000000 ? -1 : (int)n;
}

static int by_index(const void *a, const void *b)
{
    const zk_card *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

void zk_card_probe(zk_card *c)
{
    char path[300];
    c->h2c_mask = c->c2h_mask = 0;
    for (int k = 0; k < ZK_MAX_CHANNELS; k++) {
        snprintf(path, sizeof path, "%s_h2c_%d", c->prefix, k);
        if (access(path, F_OK) == 0)
            c->h2c_mask |= 1u << k;
        snprintf(path, sizeof path, "%s_c2h_%d", c->prefix, k);
        if (access(path, F_OK) == 0)
            c->c2h_mask |= 1u << k;
    }
    zk_dev d;
    c->err[0] = 0;
    if (zk_open(&d, c->prefix, ZK_USER)) {
        c->kind = ZK_CORE_UNREACHABLE;
        snprintf(c->err, sizeof c->err, "%s", zk_error(&d));
        return;
    }
    uint32_t id = 0, r[5] = {0};
    static const uint32_t offs[5] = {POSEIDON_INFO, POSEIDON_INFO2, MSM_INFO, MSM_ADDERS, MSM_PARTIALS};
    if (zk_reg_read(&d, ZK_SYS_ID, &id)) {
        c->kind = ZK_CORE_UNREACHABLE;
        snprintf(c->err, sizeof c->err, "%s", zk_error(&d));
    } else if (id != ZK_SYS_MAGIC) {
        c->kind = ZK_CORE_NO_SYSTEM_BLOCK;
        snprintf(c->err, sizeof c->err, "%s_user: ID 0x%08x at 0x%x, not 0x%08x", c->prefix, id, ZK_SYS_ID, ZK_SYS_MAGIC);
    } else if (zk_reg_read(&d, ZK_SYS_INFO, &c->sys_info) || zk_reg_read(&d, ZK_SYS_BAD, &c->sys_bad)) {
        c->kind = ZK_CORE_UNREACHABLE;
        snprintf(c->err, sizeof c->err, "%s", zk_error(&d));
    } else {
        int bad = 0;
        for (int i = 0; i < 5 && !bad; i++)
            bad = zk_reg_read(&d, offs[i], &r[i]);
        uint32_t windows = r[2] & 0xff, latency = r[2] >> 16, mask = r[0] & 0xffff;
        if (bad) {
            c->kind = ZK_CORE_UNREACHABLE;
            snprintf(c->err, sizeof c->err, "%s", zk_error(&d));
        } else if (r[0] == 0xffffffffu && r[2] == 0xffffffffu) {
            /* a hung core, or a core without registers (the sponge), behind a live system block */
            c->kind = ZK_CORE_ALL_ONES;
        } else if (windows >= 1 && windows <= 127 && latency > 0 && r[3] >= 1 && r[3] <= 8) {
            c->kind = ZK_CORE_MSM;
            c->core_info[0] = r[2], c->core_info[1] = r[3], c->core_info[2] = r[4];
        } else if (mask && !(mask & 1) && (r[0] >> 16 & 0xff) >= 1 && (r[0] >> 24) >= 1) {
            c->kind = ZK_CORE_POSEIDON;
            c->core_info[0] = r[0], c->core_info[1] = r[1];
        } else {
            c->kind = ZK_CORE_UNKNOWN;
        }
    }
    zk_close(&d);
}

int zk_cards_find(const char *dir, zk_card *cards, int max, char *err, size_t errlen)
{
    DIR *dh = opendir(dir);
    if (!dh) {
        snprintf(err, errlen, "%s: opendir: %s", dir, strerror(errno));
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dh)) && n < max) {
        int k = card_number(e->d_name);
        if (k < 0)
            continue;
        memset(&cards[n], 0, sizeof cards[n]);
        cards[n].index = k;
        if (snprintf(cards[n].prefix, sizeof cards[n].prefix, "%s/xdma%d", strcmp(dir, "/") ? dir : "", k) >=
            (int)sizeof cards[n].prefix) {
            snprintf(err, errlen, "%s: path too long", dir);
            closedir(dh);
            return -1;
        }
        n++;
    }
    closedir(dh);
    qsort(cards, (size_t)n, sizeof *cards, by_index);
    for (int i = 0; i < n; i++)
        zk_card_probe(&cards[i]);
    return n;
}

static void arities(char *b, size_t len, uint32_t mask)
{
    size_t o = 0;
    b[0] = 0;
    for (int a = 1; a < 16 && o < len; a++)
        if (mask >> a & 1)
            o += (size_t)snprintf(b + o, len - o, "%s%d", o ? "," : "", a);
}

const char *zk_card_describe(const zk_card *c, char *buf, size_t len)
{
    char core[200], ch[64];
    switch (c->kind) {
    case ZK_CORE_POSEIDON: {
        char ar[64];
        arities(ar, sizeof ar, c->core_info[0] & 0xffff);
        snprintf(core, sizeof core, "poseidon arities %s, %u engine(s), %u multiplier(s)", ar,
                 c->core_info[0] >> 16 & 0xff, c->core_info[0] >> 24);
        break;
    }
    case ZK_CORE_MSM:
        snprintf(core, sizeof core, "msm %u windows, %u adder(s), %u partial records", c->core_info[0] & 0xff,
                 c->core_info[1], c->core_info[2]);
        break;
    case ZK_CORE_ALL_ONES:
        snprintf(core, sizeof core, "no-answer (core registers read all ones: a hung core, or one without registers)");
        break;
    case ZK_CORE_UNREACHABLE:
    case ZK_CORE_NO_SYSTEM_BLOCK:
        snprintf(buf, len, "%s: %s (%s)", c->prefix, zk_core_name(c->kind), c->err);
        return buf;
    default:
        snprintf(core, sizeof core, "unknown core");
    }
    snprintf(ch, sizeof ch, "h2c 0x%x, c2h 0x%x", c->h2c_mask, c->c2h_mask);
    snprintf(buf, len, "%s: %s; system block: %u status words, reset %u cycles, %u bad accesses; channels %s", c->prefix,
             core, c->sys_info & 0xff, c->sys_info >> 8 & 0xff, c->sys_bad, ch);
    return buf;
}
