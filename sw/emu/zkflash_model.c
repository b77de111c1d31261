/* zkflash_model: see zkflash_model.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "zkflash_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE = 256, SUBSECTOR = 4096, SECTOR = 65536, MAX_STUCK = 64, MAX_CMD = 8 + PAGE };
enum { SR_WIP = 1, SR_WEL = 2, SR_BP012 = 0x1c, SR_TB = 0x20, SR_BP3 = 0x40, SR_SRWD = 0x80 };
enum { FS_READY = 0x80, FS_ERASE = 0x20, FS_PROGRAM = 0x10, FS_PROT = 0x02, FS_4B = 0x01 };

struct zkflash {
    uint8_t *mem;
    uint32_t size, jedec;
    uint32_t busy_pp, busy_sse, busy_se, busy_wrsr;
    uint64_t busy_left;
    uint8_t sr, fsr;
    int four_byte;
    struct zkflash_stuck { uint32_t addr; uint8_t mask; } stuck[MAX_STUCK];
    int n_stuck;
    /* the command in progress (CS# low) */
    int prev_cs_n, prev_sclk, miso;
    uint8_t cmd[MAX_CMD];
    uint32_t nbytes, page_fill;
    uint8_t page[PAGE];
    int bit;           /* bits of the current byte received */
    uint8_t shift_in, shift_out;
    int out_bit;
    uint32_t read_addr;
    int wp_n, out_is_data;
    uint64_t count[8];
};

zkflash *zkflash_new(uint32_t size, uint32_t jedec)
{
    if (size < SECTOR || (size & (size - 1)))
        return NULL;
    zkflash *f = (zkflash *)calloc(1, sizeof *f);
    if (!f || !(f->mem = (uint8_t *)malloc(size))) {
        free(f);
        return NULL;
    }
    memset(f->mem, 0xff, size);
    f->size = size;
    f->jedec = jedec;
    f->busy_pp = 200, f->busy_sse = 2000, f->busy_se = 8000, f->busy_wrsr = 100;
    f->prev_cs_n = f->prev_sclk = 1;
    return f;
}

void zkflash_free(zkflash *f)
{
    if (f)
        free(f->mem);
    free(f);
}

void zkflash_set_busy(zkflash *f, uint32_t pp, uint32_t sse, uint32_t se, uint32_t wrsr)
{
    f->busy_pp = pp, f->busy_sse = sse, f->busy_se = se, f->busy_wrsr = wrsr;
}

int zkflash_add_stuck(zkflash *f, uint32_t addr, uint8_t mask)
{
    if (f->n_stuck == MAX_STUCK)
        return -1;
    f->stuck[f->n_stuck].addr = addr % f->size;
    f->stuck[f->n_stuck++].mask = mask;
    return 0;
}

uint8_t *zkflash_mem(zkflash *f) { return f->mem; }
uint32_t zkflash_size(const zkflash *f) { return f->size; }
uint8_t zkflash_status(const zkflash *f) { return f->sr; }
void zkflash_set_status(zkflash *f, uint8_t sr) { f->sr = sr & (uint8_t)~(SR_WIP | SR_WEL); }
uint64_t zkflash_count(const zkflash *f, int which) { return which >= 0 && which < 8 ? f->count[which] : 0; }

int zkflash_load(zkflash *f, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    memset(f->mem, 0xff, f->size);
    size_t n = fread(f->mem, 1, f->size, fp);
    (void)n;
    int bad = ferror(fp);
    fclose(fp);
    return bad ? -1 : 0;
}

int zkflash_save(const zkflash *f, const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *fp = fopen(tmp, "wb");
    if (!fp)
        return -1;
    size_t n = fwrite(f->mem, 1, f->size, fp);
    if (fclose(fp) || n != f->size)
        return -1;
    return rename(tmp, path);
}

/* the protected byte range [lo, hi) of BP3..BP0 / TB */
static void protected_range(const zkflash *f, uint32_t *lo, uint32_t *hi)
{
    unsigned bp = ((f->sr & SR_BP012) >> 2) | ((f->sr & SR_BP3) ? 8u : 0u);
    uint64_t bytes = bp == 0 ? 0 : (uint64_t)SECTOR << (bp - 1);
    if (bytes > f->size)
        bytes = f->size;
    if (f->sr & SR_TB)
        *lo = 0, *hi = (uint32_t)bytes;
    else
        *lo = (uint32_t)(f->size - bytes), *hi = f->size;
    if (!bytes)
        *lo = *hi = 0;
}

static int is_protected(const zkflash *f, uint32_t addr, uint32_t len)
{
    uint32_t lo, hi;
    protected_range(f, &lo, &hi);
    return addr < hi && addr + len > lo;
}

static int addr_bytes(const zkflash *f, uint8_t op)
{
    switch (op) {
    case 0x13: case 0x0C: case 0x12: case 0xDC: case 0x21: return 4;
    case 0x03: case 0x0B: case 0x02: case 0xD8: case 0x20: return f->four_byte ? 4 : 3;
    default: return 0;
    }
}

static uint32_t cmd_addr(const zkflash *f)
{
    int n = addr_bytes(f, f->cmd[0]);
    uint32_t a = 0;
    for (int i = 1; i <= n; i++)
        a = a << 8 | f->cmd[i];
    return a % f->size;
}

/* the next byte the flash shifts out, after `n` bytes received (n >= 1) */
static uint8_t out_byte(zkflash *f, uint32_t n)
{
    uint8_t op = f->cmd[0];
    if (op == 0x05)
        return f->sr;
    if (op == 0x70)
        return (uint8_t)((f->busy_left ? 0 : FS_READY) | (f->fsr & (FS_ERASE | FS_PROGRAM | FS_PROT)) |
                         (f->four_byte ? FS_4B : 0));
    if (f->busy_left)
        return 0xff;
    if (op == 0x9F) {
        uint8_t id[4] = {(uint8_t)(f->jedec >> 16), (uint8_t)(f->jedec >> 8), (uint8_t)f->jedec, 0x10};
        return n - 1 < 4 ? id[n - 1] : 0;
    }
    int a = addr_bytes(f, op), dummy = (op == 0x0B || op == 0x0C) ? 1 : 0;
    if ((op == 0x03 || op == 0x13 || op == 0x0B || op == 0x0C) && n >= (uint32_t)(1 + a + dummy)) {
        if (n == (uint32_t)(1 + a + dummy))
            f->read_addr = cmd_addr(f);
        f->out_is_data = 1;
        uint8_t b = f->mem[f->read_addr];
        f->read_addr = (f->read_addr + 1) % f->size;
        return b;
    }
    return 0xff;
}

static void start_busy(zkflash *f, uint32_t cycles)
{
    f->sr |= SR_WIP;
    f->busy_left = cycles ? cycles : 1;
}

/* 1 when [addr, addr + len) touches a protected block: the part then leaves WEL set, starts no busy period and
 * flags a protection error plus the operation's error bit (MT25Q datasheet, ERASE/PROGRAM operations) */
static int refused(zkflash *f, uint32_t addr, uint32_t len, uint8_t flag_err)
{
    if (!is_protected(f, addr, len))
        return 0;
    f->fsr |= FS_PROT | flag_err;
    f->count[4]++;
    return 1;
}

/* CS# rose: a write-type command executes now */
static void finish(zkflash *f)
{
    if (f->nbytes == 0)
        return;
    uint8_t op = f->cmd[0];
    if (f->busy_left) {
        if (op != 0x05 && op != 0x70)
            f->count[5]++;
        return;
    }
    f->count[0]++;
    if (f->bit != 0) { /* cut mid-byte: dropped */
        f->count[6]++;
        return;
    }
    switch (op) {
    case 0x06: f->sr |= SR_WEL; return;
    case 0x04: f->sr &= (uint8_t)~SR_WEL; return;
    case 0x50: f->fsr = 0; return;
    case 0xB7: f->four_byte = 1; return;
    case 0xE9: f->four_byte = 0; return;
    case 0x01: case 0x02: case 0x12: case 0xD8: case 0xDC: case 0x20: case 0x21: case 0xC7: break;
    default: return;
    }
    uint32_t need = op == 0x01 ? 2 : op == 0xC7 ? 1 : 1 + (uint32_t)addr_bytes(f, op) + (op == 0x02 || op == 0x12);
    if (!(f->sr & SR_WEL) || f->nbytes < need) {
        f->count[6]++;
        return;
    }
    if (op == 0x01) {
        f->sr &= (uint8_t)~SR_WEL;
        if ((f->sr & SR_SRWD) && !f->wp_n) { /* hardware protected: the status register is frozen */
            f->fsr |= FS_PROT;
            f->count[4]++;
            return;
        }
        f->sr = (uint8_t)((f->sr & (SR_WIP | SR_WEL)) | (f->cmd[1] & (uint8_t)~(SR_WIP | SR_WEL)));
        start_busy(f, f->busy_wrsr);
        return;
    }
    uint32_t a = cmd_addr(f);
    if (op == 0x02 || op == 0x12) {
        uint32_t base = a & ~(uint32_t)(PAGE - 1);
        if (refused(f, base, PAGE, FS_PROGRAM))
            return;
        {
            for (uint32_t i = 0; i < f->page_fill; i++) { /* bytes past the page end wrap to its start */
                uint32_t at = base + ((a - base + i) & (PAGE - 1));
                uint8_t v = f->page[i];
                for (int s = 0; s < f->n_stuck; s++)
                    if (f->stuck[s].addr == at)
                        v |= f->stuck[s].mask;
                f->mem[at] &= v;
            }
            f->count[1]++;
        }
        f->sr &= (uint8_t)~SR_WEL;
        start_busy(f, f->busy_pp);
        return;
    }
    uint32_t unit = op == 0xC7 ? f->size : (op == 0x20 || op == 0x21) ? (uint32_t)SUBSECTOR : (uint32_t)SECTOR;
    a &= ~(unit - 1);
    if (refused(f, a, unit, FS_ERASE)) /* bulk erase: refused when any block is protected */
        return;
    memset(f->mem + a, 0xff, unit);
    f->count[unit == SUBSECTOR ? 2 : 3]++;
    f->sr &= (uint8_t)~SR_WEL;
    start_busy(f, unit == SUBSECTOR ? f->busy_sse : unit == SECTOR ? f->busy_se : f->busy_se * 16);
}

/* a whole byte arrived */
static void byte_in(zkflash *f, uint8_t b)
{
    uint32_t n = f->nbytes++;
    uint8_t op = n == 0 ? b : f->cmd[0];
    if (n < 8)
        f->cmd[n] = b;
    if ((op == 0x02 || op == 0x12) && !f->busy_left) {
        uint32_t hdr = 1 + (uint32_t)addr_bytes(f, op);
        if (n >= hdr) { /* data: the page buffer keeps the last 256 bytes, wrapping like the part */
            uint32_t i = (n - hdr) & (PAGE - 1);
            f->page[i] = b;
            if (f->page_fill < PAGE)
                f->page_fill++;
        }
    }
    f->out_is_data = 0;
    f->shift_out = out_byte(f, f->nbytes);
    f->out_bit = 0;
}

int zkflash_pins(zkflash *f, int cs_n, int sclk, int dq0, int wp_n)
{
    f->wp_n = wp_n;
    if (f->busy_left && --f->busy_left == 0)
        f->sr &= (uint8_t)~SR_WIP;
    if (!cs_n && f->prev_cs_n) { /* select: a new command */
        f->nbytes = 0, f->bit = 0, f->page_fill = 0, f->shift_in = 0, f->out_bit = 8;
    } else if (cs_n && !f->prev_cs_n) {
        finish(f);
        f->nbytes = 0;
    } else if (!cs_n) {
        if (sclk && !f->prev_sclk) { /* rising: sample DQ0 */
            f->shift_in = (uint8_t)(f->shift_in << 1 | (dq0 & 1));
            if (++f->bit == 8) {
                f->bit = 0;
                byte_in(f, f->shift_in);
            }
        } else if (!sclk && f->prev_sclk && f->nbytes > 0 && f->out_bit < 8) { /* falling: drive DQ1 */
            if (f->out_bit == 0 && f->out_is_data)
                f->count[7]++; /* a memory byte starts leaving (the last prefetched one may never) */
            f->miso = (f->shift_out >> (7 - f->out_bit)) & 1;
            f->out_bit++;
        }
    }
    f->prev_cs_n = cs_n, f->prev_sclk = sclk;
    return cs_n ? 1 : f->miso;
}

/* ---- ICAPE3 recorder */
enum { ICAP_LOG = 256 };
struct zkicap {
    uint32_t log[ICAP_LOG];
    uint32_t n, synced, wbstar, iprogs;
    uint32_t pending_reg, pending_words; /* a type-1 write header waiting for its data words */
};

zkicap *zkicap_new(void) { return (zkicap *)calloc(1, sizeof(zkicap)); }
void zkicap_free(zkicap *c) { free(c); }
uint32_t zkicap_words(const zkicap *c) { return c->n; }
uint32_t zkicap_word(const zkicap *c, uint32_t i) { return i < ICAP_LOG ? c->log[i] : 0; }
uint32_t zkicap_wbstar(const zkicap *c) { return c->wbstar; }
uint32_t zkicap_iprogs(const zkicap *c) { return c->iprogs; }

uint32_t zkicap_bitswap(uint32_t w)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (w >> i & 1)
            r |= 1u << ((i & ~7) | (7 - (i & 7)));
    return r;
}

int zkicap_pins(zkicap *c, int csib, int rdwrb, uint32_t data)
{
    if (csib || rdwrb)
        return 0;
    uint32_t w = zkicap_bitswap(data);
    if (c->n < ICAP_LOG)
        c->log[c->n] = w;
    c->n++;
    if (!c->synced) {
        c->synced = w == 0xAA995566u;
        return 0;
    }
    if (c->pending_words) { /* data of a type-1 write: UG570 registers 00100 CMD, 10000 WBSTAR */
        c->pending_words--;
        if (c->pending_reg == 0x10)
            c->wbstar = w;
        else if (c->pending_reg == 0x04 && (w & 0x1f) == 0x0F) {
            c->iprogs++;
            c->synced = 0;
            return 1;
        } else if (c->pending_reg == 0x04 && (w & 0x1f) == 0x0D)
            c->synced = 0; /* DESYNC */
        return 0;
    }
    if ((w >> 29) == 1 && ((w >> 27) & 3) == 2) { /* type 1, write: [26:13] register, [10:0] word count */
        c->pending_reg = (w >> 13) & 0x3fff;
        c->pending_words = w & 0x7ff;
    }
    return 0;
}
