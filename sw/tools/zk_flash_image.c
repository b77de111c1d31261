/* zk-flash: what a configuration image must look like, and the checksum.
 *
 * A .bin bitstream (Vivado write_bitstream -bin_file / write_cfgmem -format bin) is a sequence of 32-bit
 * big-endian words: padding and the bus-width pattern, the sync word 0xAA995566, then configuration packets
 * (UG570 "Configuration Packets"): type 1 = [31:29] 001, [28:27] opcode (10 write), [26:13] register,
 * [10:0] word count; type 2 = [31:29] 010, [26:0] word count, continuing the previous register.  Before any
 * frame data the bitstream writes the device's IDCODE to register 01100 (header 0x30018001, UG570 "Device ID
 * Check"); the configuration logic refuses a bitstream whose IDCODE differs from the device's.
 *
 * IDCODEs (bits 27:0; bits 31:28 are the silicon revision and are ignored):
 *   xcvu9p  0x?4B31093  device tables of openFPGALoader-style JTAG tools and XRT's `xbutil query` of a VCU1525
 *                       (0x14B31093)
 *   xcu55n  0x?4B77093  ASSUMED: the xcu50 die's code (corundum's mqnic-fw prints 0x04B77093 for an XCU50;
 *                       XRT shows 0x14B77093 for a U50); the Varium C1100's xcu55n has the same resources
 *                       (870,720 LUT, 5,952 DSP, 8 GB HBM) but no public table lists it: check with a Vivado
 *                       bitstream for xcu55n (zk-flash info prints the IDCODE in the golden image).
 * zk-flash compares against the IDCODE found in the golden image on the card first, so a wrong table entry
 * cannot let a foreign bitstream through on a card that carries a golden image.
 */
#include "zk_flash_spi.h"

#include <stdio.h>
#include <string.h>

static const struct { const char *name; uint32_t idcode; } PARTS[] = {
    {"xcvu9p", 0x04B31093u},
    {"xcu55n", 0x04B77093u},
    {NULL, 0},
};

const char *bit_part_name(uint32_t idcode)
{
    for (int i = 0; PARTS[i].name; i++)
        if ((PARTS[i].idcode & 0x0fffffffu) == (idcode & 0x0fffffffu))
            return PARTS[i].name;
    return "unknown part";
}

int bit_part_idcode(const char *name, uint32_t *idcode)
{
    for (int i = 0; PARTS[i].name; i++)
        if (!strcmp(PARTS[i].name, name)) {
            *idcode = PARTS[i].idcode;
            return 0;
        }
    return -1;
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

int bit_idcode(const uint8_t *b, size_t n, uint32_t *idcode, size_t *sync_at, char *why, size_t why_len)
{
    size_t limit = n < 4096 ? n : 4096, i;
    for (i = 0; i + 4 <= limit; i++) /* the sync word sits a few dozen bytes in, not necessarily word aligned */
        if (be32(b + i) == 0xAA995566u)
            break;
    if (i + 4 > limit) {
        snprintf(why, why_len, "no sync word 0xAA995566 in its first %zu bytes (a .bit file? write a .bin)", limit);
        return -1;
    }
    *sync_at = i;
    size_t end = n < i + 65536 ? n : i + 65536;
    for (size_t p = i + 4; p + 4 <= end;) {
        uint32_t w = be32(b + p);
        p += 4;
        unsigned type = w >> 29;
        if (type == 1) {
            unsigned op = (w >> 27) & 3, reg = (w >> 13) & 0x3fff, count = w & 0x7ff;
            if (op == 2 && reg == 0x0C && count == 1 && p + 4 <= n) {
                *idcode = be32(b + p);
                return 0;
            }
            if (op == 2)
                p += 4 * (size_t)count;
        } else if (type == 2) {
            snprintf(why, why_len, "frame data before any IDCODE packet");
            return -1;
        } else {
            snprintf(why, why_len, "word 0x%08x at byte %zu is not a configuration packet", w, p - 4);
            return -1;
        }
    }
    snprintf(why, why_len, "no IDCODE packet (type-1 write to register 01100) after the sync word");
    return -1;
}

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) */
uint32_t crc32_update(uint32_t crc, const uint8_t *b, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= b[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
    return ~crc;
}
