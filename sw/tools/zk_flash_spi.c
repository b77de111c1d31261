/* zk-flash: the SPI NOR flash through FlashCtrl's SpiXdrMasterCtrl command/response FIFOs. */
#include "tool_common.h"
#include "zk_flash_spi.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#define SS_ON ((1u << 11) | 0x80u)
#define SS_OFF (1u << 11)
#define WR(b) ((1u << 8) | (uint32_t)(b))
#define RD (1u << 9)
#define EMPTY (1u << 31)

static int fail(fl *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(fl *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(f->err, sizeof f->err, "%s_user: flash: ", f->d->prefix);
    vsnprintf(f->err + n, sizeof f->err - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int rd(fl *f, uint32_t off, uint32_t *v)
{
    if (zk_reg_read(f->d, f->base + off, v))
        return fail(f, "%s", zk_error(f->d));
    return 0;
}

static int wr(fl *f, uint32_t off, uint32_t v)
{
    if (zk_reg_write(f->d, f->base + off, v))
        return fail(f, "%s", zk_error(f->d));
    return 0;
}

/* one command word into the FIFO (a write to a full FIFO would be lost: the free slots are counted) */
static int push(fl *f, uint32_t w)
{
    double t0 = now_s();
    while (!f->free_slots) {
        uint32_t v;
        if (rd(f, ZK_FLASH_AVAIL, &v))
            return -1;
        f->free_slots = v & 0xffffu;
        if (v == 0xffffffffu)
            return fail(f, "the controller does not answer (registers read all ones)");
        if (!f->free_slots && now_s() - t0 > f->timeout_ms / 1e3)
            return fail(f, "command FIFO still full after %u ms: %s", f->timeout_ms, strerror(ETIMEDOUT));
    }
    f->free_slots--;
    return wr(f, ZK_FLASH_CMD, w);
}

int fl_xfer(fl *f, const uint8_t *out, size_t n_out, uint8_t *in, size_t n_in)
{
    if (n_in > f->rsp_depth)
        return fail(f, "%zu response bytes exceed the FIFO (%u)", n_in, f->rsp_depth);
    if (push(f, SS_ON))
        return -1;
    for (size_t i = 0; i < n_out; i++)
        if (push(f, WR(out[i])))
            return -1;
    for (size_t i = 0; i < n_in; i++)
        if (push(f, RD))
            return -1;
    if (push(f, SS_OFF))
        return -1;
    size_t got = 0;
    double t0 = now_s();
    while (got < n_in) { /* pop only what the occupancy says is there */
        uint32_t v;
        if (rd(f, ZK_FLASH_AVAIL, &v))
            return -1;
        uint32_t occ = (v >> 16) & 0x7fffu;
        for (uint32_t k = 0; k < occ && got < n_in; k++) {
            if (rd(f, ZK_FLASH_CMD, &v))
                return -1;
            if (v & EMPTY)
                return fail(f, "response FIFO empty although its occupancy was %u", occ);
            in[got++] = (uint8_t)v;
        }
        if (!occ && now_s() - t0 > f->timeout_ms / 1e3)
            return fail(f, "%zu of %zu response bytes after %u ms: %s", got, n_in, f->timeout_ms, strerror(ETIMEDOUT));
    }
    return 0;
}

static int cmd1(fl *f, uint8_t op) { return fl_xfer(f, &op, 1, NULL, 0); }

int fl_status(fl *f, uint8_t *sr)
{
    uint8_t op = 0x05;
    return fl_xfer(f, &op, 1, sr, 1);
}

int fl_flag_status(fl *f, uint8_t *fsr)
{
    uint8_t op = 0x70;
    return fl_xfer(f, &op, 1, fsr, 1);
}

int fl_wait_ready(fl *f, unsigned *polls)
{
    double t0 = now_s();
    unsigned n = 0;
    for (;;) {
        uint8_t sr;
        if (fl_status(f, &sr))
            return -1;
        n++;
        if (!(sr & 1))
            break;
        if (now_s() - t0 > f->timeout_ms / 1e3)
            return fail(f, "still busy (status 0x%02x) after %u ms: %s", sr, f->timeout_ms, strerror(ETIMEDOUT));
    }
    if (polls)
        *polls = n;
    return 0;
}

/* opcode + address (3 or 4 bytes) into hdr; returns the header length */
static size_t header(const fl *f, uint8_t op3, uint8_t op4, uint32_t addr, uint8_t *hdr)
{
    size_t n = 0;
    hdr[n++] = f->four_byte ? op4 : op3;
    if (f->four_byte)
        hdr[n++] = (uint8_t)(addr >> 24);
    hdr[n++] = (uint8_t)(addr >> 16);
    hdr[n++] = (uint8_t)(addr >> 8);
    hdr[n++] = (uint8_t)addr;
    return n;
}

int fl_read(fl *f, uint32_t addr, uint8_t *buf, size_t n)
{
    while (n) {
        size_t chunk = n < FL_PAGE ? n : FL_PAGE;
        uint8_t hdr[5];
        size_t h = header(f, 0x03, 0x13, addr, hdr);
        if (fl_xfer(f, hdr, h, buf, chunk))
            return -1;
        addr += (uint32_t)chunk, buf += chunk, n -= chunk;
    }
    return 0;
}

static int check_flags(fl *f, const char *what, uint32_t addr)
{
    uint8_t fsr;
    if (fl_flag_status(f, &fsr))
        return -1;
    if (fsr & 0x32) {
        cmd1(f, 0x50); /* clear the flags for the next command */
        return fail(f, "%s at 0x%08x failed: flag status 0x%02x (%s)", what, addr, fsr,
                    fsr & 0x02 ? "the block is write-protected (BP bits)" : "program/erase error");
    }
    return 0;
}

int fl_program(fl *f, uint32_t addr, const uint8_t *data, size_t n)
{
    uint8_t buf[5 + FL_PAGE];
    if (!n || n > FL_PAGE || (addr & (FL_PAGE - 1)) + n > FL_PAGE)
        return fail(f, "program of %zu bytes at 0x%08x crosses a page", n, addr);
    size_t h = header(f, 0x02, 0x12, addr, buf);
    memcpy(buf + h, data, n);
    if (cmd1(f, 0x06) || fl_xfer(f, buf, h + n, NULL, 0) || fl_wait_ready(f, NULL))
        return -1;
    return check_flags(f, "page program", addr);
}

int fl_erase(fl *f, uint32_t addr, uint32_t unit)
{
    uint8_t hdr[5];
    size_t h = unit == FL_SECTOR ? header(f, 0xD8, 0xDC, addr, hdr) : header(f, 0x20, 0x21, addr, hdr);
    if (cmd1(f, 0x06) || fl_xfer(f, hdr, h, NULL, 0) || fl_wait_ready(f, NULL))
        return -1;
    return check_flags(f, unit == FL_SECTOR ? "sector erase" : "subsector erase", addr);
}

uint32_t fl_size_from_jedec(uint32_t jedec)
{
    unsigned c = jedec & 0xff;
    if (c >= 0x10 && c <= 0x19)
        return 1u << c;
    if ((jedec >> 16) == 0x20 && c >= 0x20 && c <= 0x22) /* Micron: 0x20 512 Mbit, 0x21 1 Gbit, 0x22 2 Gbit */
        return 1u << (c - 0x20 + 26);
    return 0;
}

const char *fl_vendor(uint32_t jedec)
{
    switch (jedec >> 16) {
    case 0x20: return "Micron";
    case 0xC2: return "Macronix";
    case 0xEF: return "Winbond";
    case 0x01: return "Cypress/Infineon";
    default: return "unknown vendor";
    }
}

int fl_open(fl *f, zk_dev *d, uint32_t base, unsigned sclk_half, unsigned timeout_ms)
{
    memset(f, 0, sizeof *f);
    f->d = d, f->base = base, f->timeout_ms = timeout_ms;
    uint32_t v, info;
    if (rd(f, ZK_FLASH_ID, &v))
        return -1;
    if (v != ZK_FLASH_ID_VALUE)
        return fail(f, "no flash controller at 0x%05x (ID 0x%08x, expected 0x%08x)", base, v, ZK_FLASH_ID_VALUE);
    if (rd(f, ZK_FLASH_INFO, &info))
        return -1;
    f->cmd_depth = 1u << zk_flash_info_cmd_depth_log2(info), f->rsp_depth = 1u << zk_flash_info_rsp_depth_log2(info);
    if (wr(f, ZK_FLASH_MODE, 0) || wr(f, ZK_FLASH_SCLK, sclk_half) || wr(f, ZK_FLASH_SETUP, 1) || wr(f, ZK_FLASH_HOLD, 1) ||
        wr(f, ZK_FLASH_DISABLE, 1) || wr(f, ZK_FLASH_SS_POL, 0) || wr(f, ZK_FLASH_PINS, 3))
        return -1;
    /* a byte with CS# high: STARTUPE3 swallows the first USRCCLKO edges after configuration (UG570) */
    if (push(f, WR(0xff)))
        return -1;
    uint8_t op = 0x9F, id[3];
    if (fl_xfer(f, &op, 1, id, 3))
        return -1;
    f->jedec = (uint32_t)id[0] << 16 | (uint32_t)id[1] << 8 | id[2];
    f->size = fl_size_from_jedec(f->jedec);
    if (!f->size)
        return fail(f, "unknown JEDEC ID 0x%06x (no flash, or not a supported part)", f->jedec);
    f->four_byte = f->size > (16u << 20);
    return 0;
}
