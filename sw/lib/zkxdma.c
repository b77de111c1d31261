/* libzkxdma: device files, buffers, registers.  Transfers are in zkxdma_xfer.c. */
#define _GNU_SOURCE
#include "zkxdma.h"
#include "zkxdma_job.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void zk_set_error(zk_dev *d, int errnum, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (errnum)
        snprintf(d->err, sizeof d->err, "%s: %s", what, strerror(errnum));
    else
        snprintf(d->err, sizeof d->err, "%s", what);
}

const char *zk_error(const zk_dev *d) { return d->err[0] ? d->err : "no error"; }

const char *zk_default_prefix(int card, char *buf, size_t len)
{
    const char *env = getenv("ZKXDMA_DEVICE");
    if (env && *env)
        snprintf(buf, len, "%s", env);
    else
        snprintf(buf, len, "/dev/xdma%d", card);
    return buf;
}

const char *zk_path(const zk_dev *d, const char *kind, int ch, char *buf, size_t len)
{
    if (ch < 0)
        snprintf(buf, len, "%s_%s", d->prefix, kind);
    else
        snprintf(buf, len, "%s_%s_%d", d->prefix, kind, ch);
    return buf;
}

static int open_file(zk_dev *d, const char *kind, int ch, int flags)
{
    char path[300];
    zk_path(d, kind, ch, path, sizeof path);
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO)
            zk_set_error(d, e, "%s: open (an emulator socket? run with LD_PRELOAD=libzkemu.so, see sw/README.md)", path);
        else
            zk_set_error(d, e, "%s: open", path);
        errno = e;
    }
    return fd;
}

int zk_open(zk_dev *d, const char *prefix, unsigned what)
{
    memset(d, 0, sizeof *d);
    d->user = -1;
    d->timeout_ms = ZK_DEFAULT_TIMEOUT_MS;
    d->max_xfer = ZK_MAX_XFER;
    for (int k = 0; k < ZK_MAX_CHANNELS; k++)
        d->h2c[k] = d->c2h[k] = -1;
    if (snprintf(d->prefix, sizeof d->prefix, "%s", prefix) >= (int)sizeof d->prefix) {
        zk_set_error(d, ENAMETOOLONG, "%s", prefix);
        return -1;
    }
    for (int k = 0; k < ZK_MAX_CHANNELS; k++) {
        if ((what & ZK_H2C(k)) && (d->h2c[k] = open_file(d, "h2c", k, O_WRONLY)) < 0)
            goto fail;
        if ((what & ZK_C2H(k)) && (d->c2h[k] = open_file(d, "c2h", k, O_RDONLY)) < 0)
            goto fail;
    }
    if (what & ZK_USER) {
        if ((d->user = open_file(d, "user", -1, O_RDWR | O_SYNC)) < 0)
            goto fail;
        /* a regular file shorter than the window (a stand-in for the device) would fault past its end: use
           pread/pwrite there; the driver's character device reports size 0 and is mapped */
        struct stat st;
        int short_file = fstat(d->user, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size < ZK_USER_MAP_BYTES;
        void *m = short_file ? MAP_FAILED
                             : mmap(NULL, ZK_USER_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, d->user, 0);
        if (m != MAP_FAILED) {
            d->regs = m;
            d->regs_bytes = ZK_USER_MAP_BYTES;
        } /* else: 4-byte pread/pwrite, which the driver's user device also serves */
    }
    return 0;
fail:;
    int e = errno;
    char keep[sizeof d->err];
    memcpy(keep, d->err, sizeof keep);
    zk_close(d);
    memcpy(d->err, keep, sizeof keep);
    errno = e;
    return -1;
}

void zk_close(zk_dev *d)
{
    if (d->regs)
        munmap((void *)d->regs, d->regs_bytes);
    d->regs = NULL;
    if (d->user >= 0)
        close(d->user);
    d->user = -1;
    for (int k = 0; k < ZK_MAX_CHANNELS; k++) {
        if (d->h2c[k] >= 0)
            close(d->h2c[k]);
        if (d->c2h[k] >= 0)
            close(d->c2h[k]);
        d->h2c[k] = d->c2h[k] = -1;
    }
}

void *zk_alloc(size_t bytes)
{
    size_t rounded = (bytes + ZK_ALIGN - 1) / ZK_ALIGN * ZK_ALIGN;
    void *p = NULL;
    if (rounded == 0)
        rounded = ZK_ALIGN;
    int rc = posix_memalign(&p, ZK_ALIGN, rounded);
    if (rc) {
        errno = rc;
        return NULL;
    }
    memset(p, 0, rounded);
    return p;
}

void zk_free(void *p) { free(p); }

static int reg_check(zk_dev *d, uint32_t off)
{
    char path[300];
    if (d->user < 0) {
        zk_set_error(d, EBADF, "%s: register 0x%x: user device not open", zk_path(d, "user", -1, path, sizeof path), off);
        return -1;
    }
    if ((off & 3) || (d->regs && off >= d->regs_bytes)) {
        zk_set_error(d, EINVAL, "%s: register 0x%x", zk_path(d, "user", -1, path, sizeof path), off);
        return -1;
    }
    return 0;
}

int zk_reg_read(zk_dev *d, uint32_t off, uint32_t *val)
{
    if (reg_check(d, off))
        return -1;
    if (d->regs) {
        *val = d->regs[off / 4];
        return 0;
    }
    ssize_t n = pread(d->user, val, 4, off);
    if (n != 4) {
        char path[300];
        zk_set_error(d, n < 0 ? errno : EIO, "%s: read register 0x%x", zk_path(d, "user", -1, path, sizeof path), off);
        return -1;
    }
    return 0;
}

int zk_reg_write(zk_dev *d, uint32_t off, uint32_t val)
{
    if (reg_check(d, off))
        return -1;
    if (d->regs) {
        d->regs[off / 4] = val;
        __sync_synchronize();
        return 0;
    }
    ssize_t n = pwrite(d->user, &val, 4, off);
    if (n != 4) {
        char path[300];
        zk_set_error(d, n < 0 ? errno : EIO, "%s: write register 0x%x", zk_path(d, "user", -1, path, sizeof path), off);
        return -1;
    }
    return 0;
}

int zk_soft_reset(zk_dev *d)
{
    uint32_t id = 0;
    char path[300];
    if (zk_reg_read(d, ZK_SYS_ID, &id))
        return -1;
    if (id != ZK_SYS_MAGIC) {
        zk_set_error(d, 0, "%s: no system block at 0x%x (read 0x%08x, want 0x%08x): cannot reset the core",
                     zk_path(d, "user", -1, path, sizeof path), ZK_SYS_ID, id, ZK_SYS_MAGIC);
        return -1;
    }
    if (zk_reg_write(d, ZK_SYS_RESET, 1))
        return -1;
    /* the reset pulse is 16 core cycles; reading the ID back orders it after the write */
    return zk_reg_read(d, ZK_SYS_ID, &id);
}
