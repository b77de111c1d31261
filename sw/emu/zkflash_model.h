/* zkflash_model: a JEDEC SPI NOR flash (Micron MT25Q-like) and an ICAPE3 recorder, at the pin level, in plain C.
 *
 * One model serves both test paths: the XDMA emulator links it into its harness (sw/emu/zkemu_harness.cpp,
 * --spi/--icap options) and the cocotb tests load the same code as a shared library (sw/build/libzkflash.so,
 * through ctypes in zkspinal/tb/flash_tb.py).  The caller samples the controller's pins once per system clock
 * cycle and drives back the flash's DQ1 (MISO); busy times count those calls.
 *
 * Flash: SPI mode 0 (data sampled on SCLK rising, driven after SCLK falling), x1 only.  Commands:
 *   0x9F RDID (manufacturer 0x20, memory type, capacity code; then 0x10, zeros)
 *   0x05 RDSR   status: b0 WIP, b1 WEL, b2-b4 BP0-BP2, b5 TB (protect from the bottom), b6 BP3, b7 SRWD
 *   0x70 RFSR   flag status: b7 ready, b5 erase error, b4 program error, b1 protection error, b0 4-byte mode
 *   0x50 CLFSR  clear the error flags      0x06 WREN / 0x04 WRDI      0x01 WRSR (one byte; WEL needed; refused
 *               while SRWD = 1 and the WP# pin is low: the hardware write protect)
 *   0x03 READ / 0x0B FAST READ (one dummy byte) / 0x13, 0x0C their 4-byte-address forms
 *   0x02 PAGE PROGRAM / 0x12 (4-byte): up to 256 bytes, the address wraps inside its 256-byte page; bits only
 *               go 1 -> 0 (AND); "stuck" bits (fault injection) never program
 *   0xD8 SECTOR ERASE 64 KiB / 0xDC (4-byte); 0x20 SUBSECTOR ERASE 4 KiB / 0x21 (4-byte); 0xC7 BULK ERASE
 *   0xB7 / 0xE9 enter / exit 4-byte address mode (3-byte commands then take 4 address bytes)
 * Program/erase/WRSR need WEL, execute when CS# rises after whole bytes (a command cut mid-byte is dropped,
 * as on the part), set WIP for their busy time and clear WEL.  While WIP only RDSR/RFSR answer.  A program or
 * erase touching a block protected by BP3..BP0/TB does nothing, leaves WEL set and flags a protection error with
 * the program (b4) or erase (b5) error (MT25Q datasheet, PROGRAM/ERASE operations): BP = n > 0
 * protects the top (TB = 0) or bottom (TB = 1) 2^(n-1) 64 KiB sectors (all of them when that exceeds the size).
 *
 * ICAPE3 recorder: words written while CSIB = 0 and RDWRB = 0 are un-bit-swapped (UG570 "Parallel Bus Bit
 * Order": ICAPE3 data is bit-swapped within each byte) and recorded; the recorder parses the configuration
 * packets of UG570's "IPROG Using ICAP" sequence (sync word, type-1 writes) and reports an IPROG command and
 * the WBSTAR value written before it.
 */
#ifndef ZKFLASH_MODEL_H
#define ZKFLASH_MODEL_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zkflash zkflash;

/* size: a power of two from 64 KiB; jedec: 0xMMTTCC (e.g. 0x20BA16: MT25QL 32 Mbit) */
zkflash *zkflash_new(uint32_t size, uint32_t jedec);
void zkflash_free(zkflash *f);
/* busy times in calls of zkflash_pins (clock cycles): page program, 4 KiB erase, 64 KiB erase, WRSR */
void zkflash_set_busy(zkflash *f, uint32_t pp, uint32_t sse, uint32_t se, uint32_t wrsr);
/* bits of mask at addr never program (stay 1): up to 64 entries; returns -1 when full */
int zkflash_add_stuck(zkflash *f, uint32_t addr, uint8_t mask);
uint8_t *zkflash_mem(zkflash *f);
uint32_t zkflash_size(const zkflash *f);
uint8_t zkflash_status(const zkflash *f);
void zkflash_set_status(zkflash *f, uint8_t sr); /* test setup: the non-volatile bits, as a programmer would */
/* image file: load (size bytes or shorter, the rest erased) / save; 0 or -1 with errno */
int zkflash_load(zkflash *f, const char *path);
int zkflash_save(const zkflash *f, const char *path);
/* one clock cycle: the controller's pins in, DQ1 (MISO) level out */
int zkflash_pins(zkflash *f, int cs_n, int sclk, int dq0, int wp_n);

/* counters: 0 commands, 1 pages programmed, 2 subsectors erased, 3 sectors erased, 4 protection refusals,
 * 5 commands ignored while busy, 6 commands dropped (cut mid-byte or without WEL), 7 bytes read */
uint64_t zkflash_count(const zkflash *f, int which);

typedef struct zkicap zkicap;
zkicap *zkicap_new(void);
void zkicap_free(zkicap *c);
/* one clock cycle of the ICAPE3 inputs; returns 1 on the cycle an IPROG command completes */
int zkicap_pins(zkicap *c, int csib, int rdwrb, uint32_t data);
uint32_t zkicap_words(const zkicap *c);          /* words written */
uint32_t zkicap_word(const zkicap *c, uint32_t i); /* the i-th word (unswapped), i < 256 */
uint32_t zkicap_wbstar(const zkicap *c);
uint32_t zkicap_iprogs(const zkicap *c);
uint32_t zkicap_bitswap(uint32_t w);             /* bit order reversed within each byte */

#ifdef __cplusplus
}
#endif
#endif
