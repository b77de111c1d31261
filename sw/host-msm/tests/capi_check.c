/* capi_check: drives the zkmsm C ABI the way a C host tool would (used by tests/test_msm_host.py under valgrind).
 *
 *   capi_check --dir DIR [--buckets FILE] [--records FILE] [--windows W,W,...] [--check-subgroup]
 *
 * Reads DIR/points and DIR/scalars (data-set files, BLS12-377), converts the points (writing the records to --records),
 * post-processes the bucket read-out in --buckets, runs the CPU MSM, and exercises the error paths and the curve
 * API (record sizes per curve, a BN254 and a BLS12-381 set end to end, unknown codes).  Prints
 *   exceptions N i j ...     result 0x<x> 0x<y> | infinity     cpu 0x<x> 0x<y> | infinity     errors ok
 * Exit status 0 on success, 1 on any failure (message on stderr).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zkmsm.h"

static int read_file(const char *path, uint8_t **data, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "capi_check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "capi_check: out of memory: %s\n", strerror(errno));
        fclose(f);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                fprintf(stderr, "capi_check: out of memory: %s\n", strerror(errno));
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "capi_check: %s: read error\n", path);
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "capi_check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t put = fwrite(data, 1, len, f);
    if (fclose(f) != 0 || put != len) {
        fprintf(stderr, "capi_check: %s: write failed: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* n from the 8-byte little-endian count of a data-set file, checked against its size */
static int payload(const uint8_t *file, size_t len, size_t item, size_t *n, const char *what) {
    if (len < 8) {
        fprintf(stderr, "capi_check: %s file shorter than its count\n", what);
        return -1;
    }
    uint64_t c = 0;
    for (int i = 7; i >= 0; i--) c = (c << 8) | file[i];
    if (len != 8 + c * item) {
        fprintf(stderr, "capi_check: %s file: count %llu does not match its size %zu\n", what,
                (unsigned long long)c, len);
        return -1;
    }
    *n = (size_t)c;
    return 0;
}

static void print_point(const char *label, const uint8_t *p) {
    if (p[95] & 0x40) {
        printf("%s infinity\n", label);
        return;
    }
    printf("%s 0x", label);
    for (int i = 47; i >= 0; i--) printf("%02x", p[i]);
    printf(" 0x");
    for (int i = 95; i >= 48; i--) printf("%02x", i == 95 ? (p[i] & 0x3f) : p[i]);
    printf("\n");
}

static int expect_failure(int rc, const char *needle, const char *what) {
    if (rc == 0) {
        fprintf(stderr, "capi_check: %s: expected an error, got success\n", what);
        return -1;
    }
    if (!strstr(zkmsm_last_error(), needle)) {
        fprintf(stderr, "capi_check: %s: error \"%s\" does not mention \"%s\"\n", what, zkmsm_last_error(), needle);
        return -1;
    }
    return 0;
}

/* the curve API: per curve its record sizes (whole 64-byte beats: BLS12-377 3 and 3, BN254 2 and 3, BLS12-381 3 and
 * 4), a generated set through precompute, the CPU MSM and the result's text, 1 * P = P; the JSON grammar on BN254
 * (and (1, 2) refused on BLS12-377); unknown codes */
static int check_curves(void) {
    static const char *names[] = {"bls12_377", "bn254", "bls12_381"};
    static const size_t beats[][2] = {{3, 3}, {2, 3}, {3, 4}};
    for (int i = 0; i < 3; i++) {
        int code = -1;
        if (zkmsm_curve_by_name(names[i], &code) || strcmp(zkmsm_curve_name(code), names[i])) {
            fprintf(stderr, "capi_check: curve %s: %s\n", names[i], zkmsm_last_error());
            return -1;
        }
        size_t pr = zkmsm_curve_point_record_bytes(code), br = zkmsm_curve_bucket_record_bytes(code);
        if (pr != 64 * beats[i][0] || br != 64 * beats[i][1]) {
            fprintf(stderr, "capi_check: %s records of %zu and %zu bytes\n", names[i], pr, br);
            return -1;
        }
        size_t pb = zkmsm_curve_point_bytes(code), n = 4;
        uint8_t *pts = malloc(n * pb), *sc = malloc(n * ZKMSM_SCALAR_BYTES), *rec = malloc(n * pr);
        uint8_t res[ZKMSM_POINT_BYTES], res1[ZKMSM_POINT_BYTES];
        char text[200];
        uint64_t exc[4];
        size_t nexc = 9;
        int bad = !pts || !sc || !rec;
        if (!bad && (zkmsm_generate_curve(code, 2, 7, pts, sc) ||
                     zkmsm_precompute_curve(code, pts, n, rec, 1, exc, n, &nexc) ||
                     zkmsm_msm_cpu_curve(code, pts, sc, n, res) ||
                     zkmsm_curve_format_point(code, res, text, sizeof text))) {
            fprintf(stderr, "capi_check: %s: %s\n", names[i], zkmsm_last_error());
            bad = 1;
        }
        /* one point, scalar 1: the result is the point itself */
        uint8_t one[ZKMSM_SCALAR_BYTES] = {1};
        if (!bad && (zkmsm_msm_cpu_curve(code, pts, one, 1, res1) || memcmp(res1, pts, pb))) {
            fprintf(stderr, "capi_check: %s: 1 * P is not P\n", names[i]);
            bad = 1;
        }
        if (!bad && (strncmp(text, "0x", 2) || strlen(text) != 2 * (2 + (pb / 2) * 2) + 1)) {
            fprintf(stderr, "capi_check: %s: result text '%s'\n", names[i], text);
            bad = 1;
        }
        free(pts);
        free(sc);
        free(rec);
        if (bad)
            return -1;
    }
    int bn = -1;
    zkmsm_curve_by_name("bn254", &bn);
    static const char json[] = "{\"points\": [{\"x\": \"0x1\", \"y\": \"0x2\"}], \"scalars\": [\"0x3\"]}";
    zkmsm_instance *inst = zkmsm_instance_parse_curve(bn, (const uint8_t *)json, sizeof json - 1);
    uint8_t p[64], s[ZKMSM_SCALAR_BYTES];
    if (!inst || zkmsm_instance_len(inst) != 1 || zkmsm_instance_write(inst, p, s) || p[0] != 1 || p[32] != 2 || s[0] != 3) {
        fprintf(stderr, "capi_check: bn254 instance: %s\n", inst ? "wrong content" : zkmsm_last_error());
        zkmsm_instance_free(inst);
        return -1;
    }
    zkmsm_instance_free(inst);
    if (zkmsm_instance_parse((const uint8_t *)json, sizeof json - 1) ||
        !strstr(zkmsm_last_error(), "is not on the curve")) {
        fprintf(stderr, "capi_check: (1, 2) accepted on BLS12-377\n");
        return -1;
    }
    if (zkmsm_curve_point_record_bytes(99) || zkmsm_curve_bucket_record_bytes(-1) || zkmsm_curve_name(99) ||
        expect_failure(zkmsm_generate_curve(99, 1, 1, p, s), "unknown curve code 99", "unknown curve"))
        return -1;
    return 0;
}

int main(int argc, char **argv) {
    static const struct option longopts[] = {
        {"dir", required_argument, NULL, 'd'},     {"buckets", required_argument, NULL, 'b'},
        {"records", required_argument, NULL, 'r'}, {"windows", required_argument, NULL, 'w'},
        {"check-subgroup", no_argument, NULL, 's'}, {NULL, 0, NULL, 0},
    };
    const char *dir = NULL, *buckets_path = NULL, *records_path = NULL, *windows = NULL;
    int check_subgroup = 0, opt;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case 'd': dir = optarg; break;
        case 'b': buckets_path = optarg; break;
        case 'r': records_path = optarg; break;
        case 'w': windows = optarg; break;
        case 's': check_subgroup = 1; break;
        default:
            fprintf(stderr, "usage: capi_check --dir DIR [--buckets FILE] [--records FILE] [--windows W,...] "
                            "[--check-subgroup]\n");
            return 2;
        }
    }
    if (!dir) {
        fprintf(stderr, "capi_check: --dir is required\n");
        return 2;
    }

    int status = 1;
    uint8_t *pfile = NULL, *sfile = NULL, *records = NULL, *bdata = NULL, *bad = NULL;
    uint64_t *exc = NULL;
    zkmsm_layout *layout = NULL;
    size_t plen = 0, slen = 0, np = 0, ns = 0, blen = 0, nexc = 0;
    char path[4096];

    snprintf(path, sizeof path, "%s/points", dir);
    if (read_file(path, &pfile, &plen) || payload(pfile, plen, ZKMSM_POINT_BYTES, &np, "points")) goto out;
    snprintf(path, sizeof path, "%s/scalars", dir);
    if (read_file(path, &sfile, &slen) || payload(sfile, slen, ZKMSM_SCALAR_BYTES, &ns, "scalars")) goto out;
    if (np != ns) {
        fprintf(stderr, "capi_check: %zu points but %zu scalars\n", np, ns);
        goto out;
    }
    const uint8_t *points = pfile + 8, *scalars = sfile + 8;

    uint32_t widths[128];
    size_t nw = 0;
    if (windows && zkmsm_windows_parse(windows, widths, sizeof widths / sizeof *widths, &nw)) {
        fprintf(stderr, "capi_check: --windows: %s\n", zkmsm_last_error());
        goto out;
    }
    layout = zkmsm_layout_new(nw ? widths : NULL, nw);
    if (!layout) {
        fprintf(stderr, "capi_check: layout: %s\n", zkmsm_last_error());
        goto out;
    }

    int curve = -1;
    if (zkmsm_curve_by_name("bls12_377", &curve)) {
        fprintf(stderr, "capi_check: %s\n", zkmsm_last_error());
        goto out;
    }
    const size_t rec_bytes = zkmsm_curve_point_record_bytes(curve), bucket_bytes = zkmsm_curve_bucket_record_bytes(curve);
    records = malloc(np * rec_bytes + 1);
    exc = malloc((np + 1) * sizeof *exc);
    if (!records || !exc) {
        fprintf(stderr, "capi_check: out of memory: %s\n", strerror(errno));
        goto out;
    }
    if (zkmsm_precompute(points, np, records, check_subgroup, exc, np, &nexc)) {
        fprintf(stderr, "capi_check: precompute: %s\n", zkmsm_last_error());
        goto out;
    }
    printf("exceptions %zu", nexc);
    for (size_t i = 0; i < nexc; i++) printf(" %llu", (unsigned long long)exc[i]);
    printf("\n");
    if (records_path && write_file(records_path, records, np * rec_bytes)) goto out;

    uint8_t result[ZKMSM_POINT_BYTES], cpu[ZKMSM_POINT_BYTES];
    if (buckets_path) {
        if (read_file(buckets_path, &bdata, &blen)) goto out;
        if (zkmsm_postprocess(layout, bdata, blen, points, scalars, np, exc, nexc, result)) {
            fprintf(stderr, "capi_check: postprocess: %s\n", zkmsm_last_error());
            goto out;
        }
        print_point("result", result);
    }
    if (zkmsm_msm_cpu(points, scalars, np, cpu)) {
        fprintf(stderr, "capi_check: cpu msm: %s\n", zkmsm_last_error());
        goto out;
    }
    print_point("cpu", cpu);

    /* error paths: a point off the curve, a scalar >= r, a short read-out, a bad layout, NULL buffers */
    if (np > 0) {
        bad = malloc(np * ZKMSM_POINT_BYTES);
        if (!bad) {
            fprintf(stderr, "capi_check: out of memory: %s\n", strerror(errno));
            goto out;
        }
        memcpy(bad, points, np * ZKMSM_POINT_BYTES);
        size_t k = np - 1;
        bad[k * ZKMSM_POINT_BYTES + 3] ^= 1; /* x changes: almost surely off the curve (or a different point) */
        bad[k * ZKMSM_POINT_BYTES + 50] ^= 1;
        char needle[64];
        snprintf(needle, sizeof needle, "points[%zu]", k);
        if (expect_failure(zkmsm_precompute(bad, np, records, 0, exc, np, &nexc), needle, "off-curve point"))
            goto out;
        uint8_t big[ZKMSM_SCALAR_BYTES];
        memset(big, 0xff, sizeof big);
        if (expect_failure(zkmsm_msm_cpu(points, big, 1, cpu), "scalars[0]", "scalar >= r")) goto out;
    }
    if (bdata && blen >= bucket_bytes &&
        expect_failure(zkmsm_postprocess(layout, bdata, blen - bucket_bytes, points, scalars, np, exc, 0,
                                         result), "bucket data", "short read-out"))
        goto out;
    uint32_t tiny[1] = {5};
    zkmsm_layout *badl = zkmsm_layout_new(tiny, 1);
    if (badl) {
        zkmsm_layout_free(badl);
        fprintf(stderr, "capi_check: a 5-bit layout was accepted\n");
        goto out;
    }
    if (expect_failure(zkmsm_msm_cpu(NULL, scalars, 1, cpu), "NULL", "NULL points")) goto out;
    if (check_curves()) goto out;
    printf("errors ok\n");
    status = 0;
out:
    zkmsm_layout_free(layout);
    free(pfile);
    free(sfile);
    free(records);
    free(bdata);
    free(bad);
    free(exc);
    return status;
}
