/* libzkxdma: the cards of one host.  The XDMA driver makes /dev/xdma<N>_{user,h2c_K,c2h_K} for card N; the
 * emulator makes the same names (Unix sockets) in its directory.  A card is found by its user device; its core is
 * told by the system block's identity words (KIND, CONFIG, VERSION).  A system block without them (revision 0, a
 * bitstream built before them) is named as such, not guessed at: no such bitstream was ever released. */
#define _GNU_SOURCE
#include "zkxdma.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the kinds this library drives and the interface revision it speaks for each (CoreKind in
 * hw/src/zkspinal/contract/CoreIdentity.scala: code, name, version; zk_contract.h) */
static const struct {
    zk_core_kind kind;
    const char *name;
    uint32_t version;
} KINDS[] = {{ZK_CORE_POSEIDON, "poseidon", ZK_CORE_KIND_POSEIDON_VERSION},
             {ZK_CORE_MSM, "msm", ZK_CORE_KIND_MSM_VERSION},
             {ZK_CORE_KECCAK_SPONGE, "keccak-sponge", ZK_CORE_KIND_KECCAK_SPONGE_VERSION},
             {ZK_CORE_KECCAK_SPEED, "keccak-speed", ZK_CORE_KIND_KECCAK_SPEED_VERSION},
             {ZK_CORE_PAIR, "pair", ZK_CORE_KIND_PAIR_VERSION}};
enum { N_KINDS = sizeof KINDS / sizeof KINDS[0] };

static int kind_index(uint32_t code)
{
    for (int i = 0; i < N_KINDS; i++)
        if ((uint32_t)KINDS[i].kind == code)
            return i;
    return -1;
}

const char *zk_core_name(zk_core_kind k)
{
    int i = kind_index((uint32_t)k);
    if (i >= 0)
        return KINDS[i].name;
    switch (k) {
    case ZK_CORE_ALL_ONES: return "no-answer";
    case ZK_CORE_NO_SYSTEM_BLOCK: return "no-system-block";
    case ZK_CORE_NO_IDENTITY: return "no-identity";
    case ZK_CORE_UNREACHABLE: return "unreachable";
    default: return "unknown";
    }
}

const char *zk_msm_curve_name(uint32_t code)
{
    for (const zk_code_desc *c = ZK_MSM_CURVE_CODES; c->name; c++)
        if (c->value == code)
            return c->name;
    return NULL;
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

/* reads n registers; on failure: ZK_CORE_UNREACHABLE with the device's error */
static int read_regs(zk_dev *d, zk_card *c, const uint32_t *offs, uint32_t *out, int n)
{
    for (int i = 0; i < n; i++)
        if (zk_reg_read(d, offs[i], &out[i])) {
            c->kind = ZK_CORE_UNREACHABLE;
            snprintf(c->err, sizeof c->err, "%s", zk_error(d));
            return -1;
        }
    return 0;
}

/* the system block and the identity words: c->kind is the KIND when this library drives it, else why not */
static void probe_identity(zk_dev *d, zk_card *c)
{
    static const uint32_t sys[3] = {ZK_SYS_ID, ZK_SYS_INFO, ZK_SYS_BAD};
    static const uint32_t ident[3] = {ZK_SYS_KIND, ZK_SYS_CONFIG, ZK_SYS_VERSION};
    uint32_t r[3];
    if (read_regs(d, c, sys, r, 1))
        return;
    if (r[0] != ZK_SYS_MAGIC) {
        c->kind = ZK_CORE_NO_SYSTEM_BLOCK;
        snprintf(c->err, sizeof c->err, "%s_user: ID 0x%08x at 0x%x, not 0x%08x", c->prefix, r[0], ZK_SYS_ID, ZK_SYS_MAGIC);
        return;
    }
    if (read_regs(d, c, sys + 1, r + 1, 2))
        return;
    c->sys_info = r[1], c->sys_bad = r[2];
    if (ZK_SYS_REVISION(c->sys_info) < 1) {
        /* reading the identity offsets of an older block would only count as bad accesses */
        c->kind = ZK_CORE_NO_IDENTITY;
        snprintf(c->err, sizeof c->err, "%s_user: system block revision 0 (INFO 0x%08x) has no KIND, CONFIG, VERSION "
                 "words: rebuild the bitstream", c->prefix, c->sys_info);
        return;
    }
    if (read_regs(d, c, ident, c->ident, 3))
        return;
    int k = kind_index(c->ident[0]);
    uint32_t version = c->ident[2] & 0xffff;
    if (k < 0) {
        c->kind = ZK_CORE_UNKNOWN;
        snprintf(c->err, sizeof c->err, c->ident[0] ? "KIND %u is a core this library does not know"
                                                    : "KIND %u: the core has no identity", c->ident[0]);
    } else if (version != KINDS[k].version) {
        c->kind = ZK_CORE_UNKNOWN;
        snprintf(c->err, sizeof c->err, "%s core of interface version %u: this library speaks version %u",
                 KINDS[k].name, version, KINDS[k].version);
    } else {
        c->kind = KINDS[k].kind;
    }
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
    c->sys_info = c->sys_bad = 0;
    memset(c->ident, 0, sizeof c->ident);
    memset(c->core_info, 0, sizeof c->core_info);
    if (zk_open(&d, c->prefix, ZK_USER)) {
        c->kind = ZK_CORE_UNREACHABLE;
        snprintf(c->err, sizeof c->err, "%s", zk_error(&d));
        return;
    }
    probe_identity(&d, c);
    /* the core's own description; a hung core reads all ones (the system block still answers) */
    static const uint32_t poseidon[2] = {ZK_POSEIDON_INFO, ZK_POSEIDON_INFO2}, msm[3] = {ZK_MSM_INFO, ZK_MSM_ADDERS, ZK_MSM_PARTIALS};
    int n = c->kind == ZK_CORE_POSEIDON ? 2 : c->kind == ZK_CORE_MSM ? 3 : 0;
    if (n && read_regs(&d, c, c->kind == ZK_CORE_POSEIDON ? poseidon : msm, c->core_info, n) == 0 &&
        c->core_info[0] == 0xffffffffu) {
        c->kind = ZK_CORE_ALL_ONES;
        snprintf(c->err, sizeof c->err, "the %s core's registers read all ones: a hung core", zk_core_name(c->ident[0]));
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
    char core[600], ident[100] = "", ch[64];
    switch (c->kind) {
    case ZK_CORE_POSEIDON: {
        char ar[64];
        arities(ar, sizeof ar, (uint32_t)zk_poseidon_info_arities(c->core_info[0]));
        snprintf(core, sizeof core, "poseidon arities %s, %u engine(s), %u multiplier(s)", ar,
                 (unsigned)zk_poseidon_info_engines(c->core_info[0]), (unsigned)zk_poseidon_info_multipliers(c->core_info[0]));
        break;
    }
    case ZK_CORE_MSM:
        snprintf(core, sizeof core, "msm %u windows, %u adder(s), %u partial records", (unsigned)zk_msm_info_windows(c->core_info[0]),
                 c->core_info[1], c->core_info[2]);
        break;
    case ZK_CORE_UNREACHABLE:
    case ZK_CORE_NO_SYSTEM_BLOCK:
        snprintf(buf, len, "%s: %s (%s)", c->prefix, zk_core_name(c->kind), c->err);
        return buf;
    default:
        snprintf(core, sizeof core, "%s%s%s%s", zk_core_name(c->kind), c->err[0] ? " (" : "", c->err, c->err[0] ? ")" : "");
    }
    if (c->kind != ZK_CORE_NO_IDENTITY)
        snprintf(ident, sizeof ident, "identity: kind %u, config 0x%08x, version %u; ", c->ident[0], c->ident[1],
                 c->ident[2]);
    snprintf(ch, sizeof ch, "h2c 0x%x, c2h 0x%x", c->h2c_mask, c->c2h_mask);
    snprintf(buf, len, "%s: %s; %ssystem block: revision %u, %u status words, reset %u cycles, %u bad accesses; "
             "channels %s", c->prefix, core, ident, ZK_SYS_REVISION(c->sys_info),
             (unsigned)zk_system_info_status_count(c->sys_info), (unsigned)zk_system_info_reset_cycles(c->sys_info), c->sys_bad, ch);
    return buf;
}
