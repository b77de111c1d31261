/* check-lib: library behaviour that the tools cannot reach, against a PairFixture device (H2C 0, H2C 1 -> C2H 0).
 *   check-lib PREFIX      exit 0 when every check holds; prints each failed check */
#include "zkxdma.h"
#include "zk_contract_kat.h" /* the contract's known answers: a mutated layout stops the build */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: check-lib PREFIX\n");
        return 2;
    }
    zk_dev d;
    char missing[300];
    snprintf(missing, sizeof missing, "%s_missing", argv[1]);
    /* a missing device: the path and strerror in the message */
    CHECK(zk_open(&d, missing, ZK_H2C(0)) == -1 && errno == ENOENT, "open of a missing device succeeded");
    CHECK(strstr(zk_error(&d), "_missing_h2c_0: open: No such file or directory") != NULL, "message: %s", zk_error(&d));
    CHECK(zk_open(&d, missing, ZK_H2C(3)) == -1 && strstr(zk_error(&d), "_h2c_3"), "channel 3 path: %s", zk_error(&d));

    /* buffers: page aligned, rounded up, zeroed */
    unsigned char *b = zk_alloc(100);
    CHECK(b && ((uintptr_t)b & 4095) == 0 && b[4095] == 0, "zk_alloc");

    if (zk_open(&d, argv[1], ZK_H2C(0) | ZK_H2C(1) | ZK_C2H(0) | ZK_USER)) {
        printf("FAIL open %s: %s\n", argv[1], zk_error(&d));
        return 1;
    }
    d.timeout_ms = 2000;
    /* a misaligned user buffer: refused with a clear message, nothing sent */
    CHECK(zk_write(&d, 0, b + 32, 64) == -1 && strstr(zk_error(&d), "_h2c_0: buffer") &&
              strstr(zk_error(&d), "not 4 KiB aligned"), "misaligned write: %s", zk_error(&d));
    zk_stream mis[2] = {{0, b + 32, 32, 2}, {1, b, 32, 2}};
    CHECK(zk_run_pair(&d, mis, 1, ZK_PAIR_SEQUENTIAL, 0, NULL, 0) == -1 && strstr(zk_error(&d), "not 4 KiB aligned"),
          "misaligned pair: %s", zk_error(&d));
    /* registers: misaligned offsets refused; the system block answers */
    uint32_t v = 0;
    CHECK(zk_reg_read(&d, 2, &v) == -1 && strstr(zk_error(&d), "_user: register 0x2: Invalid argument"), "reg: %s",
          zk_error(&d));
    CHECK(zk_reg_read(&d, ZK_SYS_ID, &v) == 0 && v == ZK_SYS_MAGIC, "system id 0x%x", v);

    /* short reads: 4 output packets of 8 elements (TLAST per input chunk) into one 32-element read request */
    enum { N = 32, E = 32 };
    unsigned char *a = zk_alloc(N * E), *c = zk_alloc(N * E), *out = zk_alloc(N * E);
    for (int i = 0; i < N * E; i++)
        a[i] = (unsigned char)(i * 7 + 1), c[i] = (unsigned char)(i * 13 + 5);
    zk_stream s[2] = {{0, a, E, N}, {1, c, E, N}};
    CHECK(zk_run_pair(&d, s, 8, ZK_PAIR_SEQUENTIAL, 0, out, N * E) == 0, "pair: %s", zk_error(&d));
    int bad = 0;
    for (int i = 0; i < N * E; i++)
        bad += out[i] != (a[i] ^ c[i]);
    CHECK(bad == 0, "%d output bytes differ", bad);
    /* one packet read with a larger buffer returns the packet's length */
    zk_stream one[2] = {{0, a, E, 4}, {1, c, E, 4}};
    CHECK(zk_run_pair(&d, one, 4, ZK_PAIR_SEQUENTIAL, 0, NULL, 0) == 0, "pair without reader: %s", zk_error(&d));
    ssize_t r = zk_read_packet(&d, 0, out, N * E);
    CHECK(r == 4 * E, "short packet read returned %zd, want %d", r, 4 * E);
    /* writes split at max_xfer: stream 1's 8 elements leave as 4 writes of 64 bytes, so 4 TLASTs and 4 packets */
    d.max_xfer = 64;
    zk_stream split[2] = {{0, a, E, 8}, {1, c, E, 8}};
    CHECK(zk_run_pair(&d, split, 8, ZK_PAIR_NAIVE, 0, NULL, 0) == 0, "split pair: %s", zk_error(&d));
    for (int k = 0; k < 4; k++) {
        r = zk_read_packet(&d, 0, out + 64 * k, N * E);
        CHECK(r == 64, "split packet %d: %zd bytes", k, r);
    }
    for (int i = 0; i < 8 * E; i++)
        bad += out[i] != (a[i] ^ c[i]);
    CHECK(bad == 0, "%d bytes differ after split writes", bad);
    d.max_xfer = ZK_MAX_XFER;
    /* a channel that is not open */
    CHECK(zk_write(&d, 2, a, 32) == -1 && strstr(zk_error(&d), "h2c channel 2 is not open"), "%s", zk_error(&d));
    zk_close(&d);
    zk_free(a);
    zk_free(c);
    zk_free(out);
    zk_free(b);
    printf("%s: %d failures\n", argv[0], failures);
    return failures ? 1 : 0;
}
