#include "zkfmt.h"

#include <stdlib.h>
#include <string.h>

const uint64_t ZKF_BLS12_381_FR[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                      0x73eda753299d7d48ull};

/* hex digit value, or 0xff */
static const uint8_t HEX[256] = {
#define R16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
    R16(0xff), R16(0xff), R16(0xff),
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, R16(0xff),
    0xff, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, R16(0xff),
    R16(0xff), R16(0xff), R16(0xff), R16(0xff), R16(0xff), R16(0xff), R16(0xff), R16(0xff)
#undef R16
};

/* 16 hex digits (text order: most significant first) -> 64 bits; -1 when a byte is not a hex digit.
 * SWAR: per byte, in [a, b] <=> (c + 0x80 - a) and not (c + 0x7f - b) have bit 7 set, for c < 0x80. */
#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull
static inline uint64_t between(uint64_t x, unsigned a, unsigned b)
{
    return (x + (0x80 - a) * ONES) & ~(x + (0x7f - b) * ONES) & HIGH;
}

static inline uint32_t nibbles8(uint64_t x, uint64_t *bad)
{
    uint64_t lower = x | 0x2020202020202020ull;
    uint64_t ok = between(x, '0', '9') | between(lower, 'a', 'f');
    *bad |= (ok ^ HIGH) | (x & HIGH);
    uint64_t v = (x & 0x0f0f0f0f0f0f0f0full) + ((x >> 6) & ONES) * 9; /* '0'-'9' -> 0-9, 'a'/'A'.. -> 10.. */
    v = ((v & 0x000f000f000f000full) << 4) | ((v >> 8) & 0x000f000f000f000full);
    v = ((v & 0x000000ff000000ffull) << 8) | ((v >> 16) & 0x000000ff000000ffull);
    return (uint32_t)(((v & 0xffff) << 16) | ((v >> 32) & 0xffff));
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* 32 hex digits per AVX2 register: validate, map to nibbles, pair them (maddubs: 16 * first + second), then
 * gather the bytes of each 16-digit half in reverse order (shuffle): two little-endian limbs per register. */
__attribute__((target("avx2"))) static int hex64_avx2(const char *d, uint64_t out[4])
{
    const __m256i c0 = _mm256_set1_epi8('0' - 1), c9 = _mm256_set1_epi8('9' + 1), ca = _mm256_set1_epi8('a' - 1),
                  cf = _mm256_set1_epi8('f' + 1), x20 = _mm256_set1_epi8(0x20), x0f = _mm256_set1_epi8(0x0f),
                  one = _mm256_set1_epi8(1), pair = _mm256_set1_epi16(0x0110);
    const __m256i rev = _mm256_setr_epi8(14, 12, 10, 8, 6, 4, 2, 0, -1, -1, -1, -1, -1, -1, -1, -1,
                                         14, 12, 10, 8, 6, 4, 2, 0, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i bad = _mm256_setzero_si256();
    for (int i = 0; i < 2; i++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(d + 32 * i)), l = _mm256_or_si256(x, x20);
        __m256i ok = _mm256_or_si256(_mm256_and_si256(_mm256_cmpgt_epi8(x, c0), _mm256_cmpgt_epi8(c9, x)),
                                     _mm256_and_si256(_mm256_cmpgt_epi8(l, ca), _mm256_cmpgt_epi8(cf, l)));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(ok, _mm256_set1_epi8(-1)));
        __m256i t = _mm256_and_si256(_mm256_srli_epi16(x, 6), one);
        __m256i v = _mm256_add_epi8(_mm256_and_si256(x, x0f), _mm256_add_epi8(_mm256_slli_epi16(t, 3), t));
        __m256i r = _mm256_shuffle_epi8(_mm256_maddubs_epi16(v, pair), rev);
        out[3 - 2 * i] = (uint64_t)_mm256_extract_epi64(r, 0);
        out[2 - 2 * i] = (uint64_t)_mm256_extract_epi64(r, 2);
    }
    return _mm256_movemask_epi8(bad) ? -1 : 0;
}
#endif

#ifdef __SSE2__
#include <emmintrin.h>
/* 16 hex digits per SSE2 register: validate, map to nibbles, pair them into bytes (text order), byte-swap */
static inline int hex64_sse2(const char *d, uint64_t out[4])
{
    const __m128i c0 = _mm_set1_epi8('0' - 1), c9 = _mm_set1_epi8('9' + 1), ca = _mm_set1_epi8('a' - 1),
                  cf = _mm_set1_epi8('f' + 1), x20 = _mm_set1_epi8(0x20), x0f = _mm_set1_epi8(0x0f),
                  one = _mm_set1_epi8(1), lo16 = _mm_set1_epi16(0x00ff);
    __m128i bad = _mm_setzero_si128();
    uint8_t bytes[32];
    for (int i = 0; i < 4; i++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(d + 16 * i)), l = _mm_or_si128(x, x20);
        __m128i ok = _mm_or_si128(_mm_and_si128(_mm_cmpgt_epi8(x, c0), _mm_cmpgt_epi8(c9, x)),
                                  _mm_and_si128(_mm_cmpgt_epi8(l, ca), _mm_cmpgt_epi8(cf, l)));
        bad = _mm_or_si128(bad, _mm_xor_si128(ok, _mm_set1_epi8(-1)));
        __m128i t = _mm_and_si128(_mm_srli_epi16(x, 6), one); /* 1 for letters */
        __m128i v = _mm_add_epi8(_mm_and_si128(x, x0f), _mm_add_epi8(_mm_slli_epi16(t, 3), t));
        /* 16-bit lane = first digit | second digit << 8  ->  first << 4 | second */
        __m128i p = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(v, lo16), 4), _mm_srli_epi16(v, 8));
        _mm_storel_epi64((__m128i *)(bytes + 8 * i), _mm_packus_epi16(p, p));
    }
    if (_mm_movemask_epi8(bad))
        return -1;
    for (int i = 0; i < 4; i++) {
        uint64_t w;
        memcpy(&w, bytes + 8 * i, 8);
        out[3 - i] = __builtin_bswap64(w);
    }
    return 0;
}
#define HEX64_BASE hex64_sse2
#else
#define HEX64_BASE hex64_swar
static inline int hex64_swar(const char *d, uint64_t out[4])
{
    uint64_t bad = 0, w[8];
    memcpy(w, d, 64);
    for (int i = 0; i < 4; i++) /* limb 3 is the first 16 digits */
        out[3 - i] = (uint64_t)nibbles8(w[2 * i], &bad) << 32 | nibbles8(w[2 * i + 1], &bad);
    return bad ? -1 : 0;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
static int (*g_hex64)(const char *, uint64_t *);
static inline int hex64_full(const char *d, uint64_t out[4])
{
    if (__builtin_expect(!g_hex64, 0))
        g_hex64 = __builtin_cpu_supports("avx2") && !getenv("ZKFMT_NO_AVX2") ? hex64_avx2 : HEX64_BASE;
    return g_hex64(d, out);
}
#else
#define hex64_full HEX64_BASE
#endif

static inline int parse256(const char *s, size_t len, uint64_t out[4])
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len == 66 && s[0] == '0' && (s[1] | 0x20) == 'x')
        return hex64_full(s + 2, out);
#endif
    if (len < 3 || len > 66 || s[0] != '0' || (s[1] | 0x20) != 'x')
        return -1;
    const unsigned char *d = (const unsigned char *)s + 2;
    size_t n = len - 2;
    uint64_t l[4] = {0, 0, 0, 0};
    unsigned bad = 0;
    /* digit i from the right goes to limb i/16, nibble i%16 */
    for (size_t i = 0; i < n; i++) {
        unsigned v = HEX[d[n - 1 - i]];
        bad |= v;
        l[i >> 4] |= (uint64_t)(v & 15) << ((i & 15) * 4);
    }
    if (bad & 0xf0)
        return -1;
    memcpy(out, l, sizeof l);
    return 0;
}

int zkf_parse_hex256(const char *s, size_t len, uint64_t out[4]) { return parse256(s, len, out); }

long zkf_parse_line(const char *line, size_t len, const uint64_t m[4], uint64_t (*out)[4], size_t max,
                    const char **why)
{
    size_t n = 0, i = 0;
    for (;;) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len)
            return (long)n;
        if (n == max) {
            *why = "too many elements";
            return -1;
        }
        size_t j = i + 66;
        /* a full-width token (66 characters, then a blank or the end) goes straight to the parser; anything
           else, or a 66-character run that is not one token, is scanned for its end first */
        if (!(j <= len && (j == len || line[j] == ' ' || line[j] == '\t') &&
              parse256(line + i, 66, out[n]) == 0)) {
            j = i;
            while (j < len && line[j] != ' ' && line[j] != '\t')
                j++;
            if (parse256(line + i, j - i, out[n])) {
                *why = "an element is not 0x followed by 1 to 64 hex digits";
                return -1;
            }
        }
        if (!zkf_lt(out[n], m)) {
            *why = "an element is not below the modulus";
            return -1;
        }
        n++;
        i = j;
    }
}
