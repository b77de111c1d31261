/* libzkemu.so internals shared by zkemu_preload.c (device files) and zkemu_mmio.c (mmap of the user device) */
#ifndef ZKEMU_PRELOAD_H
#define ZKEMU_PRELOAD_H
#include <stdint.h>

enum { NONE = 0, H2C = 1, C2H = 2, USER = 3 };

/* what an open descriptor is: NONE (not an emulated device), H2C, C2H or USER */
__attribute__((visibility("hidden"))) int zkemu_kind(int fd);
/* one register access (ZKEMU_REG_READ / ZKEMU_REG_WRITE) on a USER descriptor; async-signal-safe */
__attribute__((visibility("hidden"))) int zkemu_reg(int fd, uint32_t op, uint32_t off, uint32_t *val);
#endif
