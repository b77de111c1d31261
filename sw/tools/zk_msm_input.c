/* zk-msm's inputs and results on a curve (zk_msm_input.h).  Every parse and check is the host library's (the one
 * the Python model and host-msm use): the JSON grammar of instance.rs on the curve's p, r and equation, the curve's
 * point encoding in the data-set files, the model's generator. */
#include "zk_msm_input.h"
#include "tool_common.h"
#include "zkmsm.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SC ZKMSM_SCALAR_BYTES

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    size_t cap = 0, n = 0, r;
    do {
        if (n == cap && !(b = realloc(b, cap = cap ? 2 * cap : 65536)))
            die("out of memory");
        r = fread(b + n, 1, cap - n, f);
        n += r;
    } while (r > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return NULL;
    }
    *len = n;
    return b;
}

static void alloc_data(msm_data *d, int curve, size_t n)
{
    d->n = n;
    d->point_bytes = zkmsm_curve_point_bytes(curve);
    d->points = malloc(n * d->point_bytes + 1);
    d->scalars = malloc(n * SC + 1);
    if (!d->point_bytes || !d->points || !d->scalars)
        die("zk-msm: out of memory (or curve code %d unknown to the host library)", curve);
}

/* the JSON form, read by the host library's parser (the one both engines use) */
static int load_json(const char *path, int curve, const uint8_t *text, size_t len, msm_data *d)
{
    zkmsm_instance *inst = zkmsm_instance_parse_curve(curve, text, len);
    if (!inst) {
        fprintf(stderr, "%s: %s\n", path, zkmsm_last_error());
        return 2;
    }
    alloc_data(d, curve, zkmsm_instance_len(inst));
    int rc = zkmsm_instance_write(inst, d->points, d->scalars);
    zkmsm_instance_free(inst);
    if (rc) {
        fprintf(stderr, "%s: %s\n", path, zkmsm_last_error());
        return 2;
    }
    return 0;
}

/* DIR/points, DIR/scalars: 8-byte count, then the payload (arkworks uncompressed, the curve's encoding) */
static int load_dir(const char *dir, int curve, msm_data *d)
{
    char path[4096];
    size_t lp, ls, pb = zkmsm_curve_point_bytes(curve);
    snprintf(path, sizeof path, "%s/points", dir);
    uint8_t *p = slurp(path, &lp);
    if (!p) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/scalars", dir);
    uint8_t *s = slurp(path, &ls);
    if (!s) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
        free(p);
        return 1;
    }
    uint64_t cp = 0, cs = 0;
    if (lp >= 8)
        memcpy(&cp, p, 8);
    if (ls >= 8)
        memcpy(&cs, s, 8);
    int rc = 0;
    if (lp < 8 || (lp - 8) / pb != cp || (lp - 8) % pb || ls < 8 || (ls - 8) / SC != cs || (ls - 8) % SC || cp != cs) {
        fprintf(stderr, "%s: points/scalars files do not hold equal counts of %zu-byte points (%s) and %d-byte "
                "scalars\n", dir, pb, zkmsm_curve_name(curve), SC);
        rc = 2;
    } else {
        alloc_data(d, curve, cp);
        memcpy(d->points, p + 8, cp * pb);
        memcpy(d->scalars, s + 8, cs * SC);
    }
    free(p);
    free(s);
    return rc;
}

int msm_load(const char *path, int curve, msm_data *d)
{
    struct stat st;
    size_t len;
    uint8_t *text;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return load_dir(path, curve, d);
    if (!(text = slurp(path, &len))) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
        return 1;
    }
    int rc = load_json(path, curve, text, len, d);
    free(text);
    return rc;
}

void msm_generate(int curve, unsigned npow, unsigned long long seed, unsigned bits, msm_data *d)
{
    alloc_data(d, curve, (size_t)1 << npow);
    if (zkmsm_generate_curve(curve, npow, seed, d->points, d->scalars))
        die("zk-msm: generate: %s", zkmsm_last_error());
    for (size_t i = 0; bits && i < d->n; i++) /* the low `bits` bits of each scalar */
        for (size_t b = bits; b < 8 * SC; b++)
            d->scalars[i * SC + b / 8] &= (uint8_t)~(1u << (b % 8));
}

void msm_data_free(msm_data *d)
{
    free(d->points);
    free(d->scalars);
    d->points = d->scalars = NULL;
}

void msm_format(int curve, const uint8_t *point, char *text, size_t cap)
{
    if (zkmsm_curve_format_point(curve, point, text, cap))
        die("zk-msm: the result: %s", zkmsm_last_error());
}

int msm_expect(const char *path, const char *text)
{
    size_t len;
    uint8_t *want = slurp(path, &len);
    if (!want) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
        return 1;
    }
    while (len && isspace(want[len - 1]))
        len--;
    int rc = len != strlen(text) || memcmp(want, text, len) ? 3 : 0;
    if (rc)
        fprintf(stderr, "zk-msm: the result differs from %s\n", path);
    free(want);
    return rc;
}
