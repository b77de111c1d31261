/* zk-flash internals: the SPI NOR flash behind FlashCtrl (hw/src/zkspinal/system/FlashCtrl.scala), the bitstream
 * check and the image layout. */
#ifndef ZK_FLASH_SPI_H
#define ZK_FLASH_SPI_H
#include "zkxdma.h"

#include <stddef.h>
#include <stdint.h>

#define FL_BASE_DEFAULT ZK_USER_BAR_FLASH /* the flash window on the user BAR */
/* FlashCtrl registers (offsets in its window) and keys: ZK_FLASH_* (zk_contract.h, from FlashCtrlRegs) */
#define FL_PAGE 256u
#define FL_SUBSECTOR 4096u
#define FL_SECTOR 65536u

typedef struct fl {
    zk_dev *d;
    uint32_t base;
    uint32_t cmd_depth, rsp_depth, free_slots;
    uint32_t jedec, size;
    int four_byte;      /* size > 16 MiB: the 4-byte-address opcodes */
    unsigned timeout_ms;
    char err[512];
} fl;

/* checks the window's ID, programs the SPI master (mode 0, x1, SCLK = aclk / (2 (sclk_half + 1))) and reads
 * the JEDEC ID; -1 with fl.err (or zk_error) on failure */
int fl_open(fl *f, zk_dev *d, uint32_t base, unsigned sclk_half, unsigned timeout_ms);
/* one command: CS# low, out bytes, n_in bytes read into in, CS# high */
int fl_xfer(fl *f, const uint8_t *out, size_t n_out, uint8_t *in, size_t n_in);
int fl_status(fl *f, uint8_t *sr);
int fl_flag_status(fl *f, uint8_t *fsr);
int fl_wait_ready(fl *f, unsigned *polls);
int fl_read(fl *f, uint32_t addr, uint8_t *buf, size_t n);
/* page program of up to 256 bytes inside one page; checks the flag status for protection/program errors */
int fl_program(fl *f, uint32_t addr, const uint8_t *data, size_t n);
/* unit: FL_SECTOR or FL_SUBSECTOR */
int fl_erase(fl *f, uint32_t addr, uint32_t unit);
const char *fl_vendor(uint32_t jedec);
/* size from the capacity code (Micron/most JEDEC parts: 2^code up to 0x19; Micron 0x20.. = 64 MiB.. ) */
uint32_t fl_size_from_jedec(uint32_t jedec);

/* bitstream: finds the sync word and the IDCODE register write; 0 ok, -1 with why */
int bit_idcode(const uint8_t *b, size_t n, uint32_t *idcode, size_t *sync_at, char *why, size_t why_len);
const char *bit_part_name(uint32_t idcode);
int bit_part_idcode(const char *name, uint32_t *idcode);
uint32_t crc32_update(uint32_t crc, const uint8_t *b, size_t n);
#endif
