/* Host-side element formats: text <-> 256-bit field elements <-> the 32-byte little-endian words the cores take.
 * No field arithmetic here (Montgomery conversion is done by the cores' MontConvert stages or by arkworks). */
#ifndef ZKFMT_H
#define ZKFMT_H
#include <stddef.h>
#include <stdint.h>
#include <assert.h>
#include <string.h>

#include "zk_contract.h"

/* a beat of the Poseidon stream: one element as four 64-bit limbs (PoseidonFrame) */
#define ZKF_WORD_BYTES ZK_POSEIDON_FRAME_BEAT_BYTES
static_assert(ZKF_WORD_BYTES == 32 && ZK_POSEIDON_FRAME_BEAT_LAST_LSB < 8 * ZKF_WORD_BYTES,
               "zkf_pack_le writes a beat as four 64-bit limbs");

/* BLS12-381 Fr modulus, little-endian 64-bit limbs */
extern const uint64_t ZKF_BLS12_381_FR[4];

/* "0x" + 1..64 hex digits (either case), big-endian text -> limbs; 0 ok, -1 malformed */
int zkf_parse_hex256(const char *s, size_t len, uint64_t out[4]);
/* a < m */
static inline int zkf_lt(const uint64_t a[4], const uint64_t m[4])
{
    for (int i = 3; i >= 0; i--)
        if (a[i] != m[i])
            return a[i] < m[i];
    return 0;
}

/* limbs -> 32-byte little-endian word; last != 0 sets the in-band end-of-preimage flag (PoseidonFrame's last) */
static inline void zkf_pack_le(const uint64_t l[4], int last, uint8_t out[ZKF_WORD_BYTES])
{
    uint64_t w[4] = {l[0], l[1], l[2], l[3]};
    if (last)
        w[ZK_POSEIDON_FRAME_BEAT_LAST_LSB / 64] |= 1ull << (ZK_POSEIDON_FRAME_BEAT_LAST_LSB % 64);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, w, 32);
#else
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
#endif
}

/* 32-byte big-endian binary -> limbs */
static inline void zkf_be32_to_limbs(const uint8_t be[32], uint64_t out[4])
{
    for (int i = 0; i < 4; i++) {
        uint64_t v;
        memcpy(&v, be + 8 * (3 - i), 8);
        out[i] = __builtin_bswap64(v);
    }
}

/* One text line of elements separated by blanks -> up to max elements, each checked < m.  Returns the count,
 * or -1 with *why set to a static description of the first problem. */
long zkf_parse_line(const char *line, size_t len, const uint64_t m[4], uint64_t (*out)[4], size_t max,
                    const char **why);
#endif
