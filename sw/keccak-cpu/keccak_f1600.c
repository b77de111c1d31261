/* Keccak-f[1600]: 24 rounds of theta, rho, pi, chi, iota (FIPS 202, Algorithm 7), the lanes kept in
 * locals so that one round is straight-line code. */
#include "keccak_f1600.h"

/* iota round constants RC[ir] (FIPS 202, Algorithm 6) */
static const uint64_t RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};
/* 0 < n < 64 at every use */
#define ROL(v, n) (((v) << (n)) | ((v) >> (64 - (n))))
/* one row of chi: lanes b0..b4 of row y into a[5y..5y+4] */
#define CHI(y, b0, b1, b2, b3, b4) \
    a[5*(y)+0] = b0 ^ (~b1 & b2); a[5*(y)+1] = b1 ^ (~b2 & b3); a[5*(y)+2] = b2 ^ (~b3 & b4); \
    a[5*(y)+3] = b3 ^ (~b4 & b0); a[5*(y)+4] = b4 ^ (~b0 & b1);
void keccak_f1600(uint64_t a[25])
{
    for (int ir = 0; ir < 24; ir++) {
        uint64_t c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20], c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21],
                 c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22], c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23],
                 c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
        uint64_t d0 = c4 ^ ROL(c1, 1), d1 = c0 ^ ROL(c2, 1), d2 = c1 ^ ROL(c3, 1), d3 = c2 ^ ROL(c4, 1),
                 d4 = c3 ^ ROL(c0, 1);
        /* rho and pi (sections 3.2.2-3.2.3): lane (x, y) of the result is lane (x + 3y mod 5, x) after theta,
         * rotated by that lane's rho offset (Table 2); bYX below is result lane (X, Y) */
        uint64_t b00 = a[0] ^ d0, b01 = ROL(a[6] ^ d1, 44), b02 = ROL(a[12] ^ d2, 43), b03 = ROL(a[18] ^ d3, 21), b04 = ROL(a[24] ^ d4, 14);
        uint64_t b10 = ROL(a[3] ^ d3, 28), b11 = ROL(a[9] ^ d4, 20), b12 = ROL(a[10] ^ d0, 3), b13 = ROL(a[16] ^ d1, 45), b14 = ROL(a[22] ^ d2, 61);
        uint64_t b20 = ROL(a[1] ^ d1, 1), b21 = ROL(a[7] ^ d2, 6), b22 = ROL(a[13] ^ d3, 25), b23 = ROL(a[19] ^ d4, 8), b24 = ROL(a[20] ^ d0, 18);
        uint64_t b30 = ROL(a[4] ^ d4, 27), b31 = ROL(a[5] ^ d0, 36), b32 = ROL(a[11] ^ d1, 10), b33 = ROL(a[17] ^ d2, 15), b34 = ROL(a[23] ^ d3, 56);
        uint64_t b40 = ROL(a[2] ^ d2, 62), b41 = ROL(a[8] ^ d3, 55), b42 = ROL(a[14] ^ d4, 39), b43 = ROL(a[15] ^ d0, 41), b44 = ROL(a[21] ^ d1, 2);
        CHI(0, b00, b01, b02, b03, b04)
        CHI(1, b10, b11, b12, b13, b14)
        CHI(2, b20, b21, b22, b23, b24)
        CHI(3, b30, b31, b32, b33, b34)
        CHI(4, b40, b41, b42, b43, b44)
        a[0] ^= RC[ir];
    }
}
uint64_t keccak_test_speed(uint64_t run, uint32_t nb_rounds)
{
    uint64_t st[25], sum = 0;

    for (int i = 0; i < 25; i++)
        st[i] = (uint64_t)i + run;
    for (uint32_t r = 0; r < nb_rounds; r++)
        keccak_f1600(st);
    for (int i = 0; i < 25; i++)
        sum += st[i];
    return sum;
}
