/* Keccak-f[1600] (FIPS 202, section 3.3) on 25 little-endian 64-bit lanes, lane (x, y) at index x + 5y. */
#ifndef KECCAK_F1600_H
#define KECCAK_F1600_H

#include <stdint.h>

void keccak_f1600(uint64_t lanes[25]);

/* The hls_sponge test_speed function: st[i] = i + run, nb_rounds permutations, 64-bit sum of the lanes. */
uint64_t keccak_test_speed(uint64_t run, uint32_t nb_rounds);

#endif
