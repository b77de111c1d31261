/* libzkemu.so: LD_PRELOAD interposer that lets unmodified XDMA host tools talk to the emulator.
 *
 * The emulator (zkemu_harness) creates a device directory whose entries <prefix>_h2c_K, <prefix>_c2h_K and
 * <prefix>_user are Unix sockets.  open() of a socket fails with ENXIO; this library catches exactly that case,
 * connects to the socket and returns the connected descriptor, then serves the calls a tool makes on it:
 *   write() on h2c_K   one AXI4-Stream packet; returns when the RTL accepted its last beat (as the driver does)
 *   read() on c2h_K    returns at TLAST or when the buffer is full
 *   pread()/pwrite()   4-byte AXI4-Lite accesses on the user device (the driver's user device does the same)
 *   mmap() of user     registers by load and store, see zkemu_mmio.c
 * A blocked write()/read() ends like the driver's: after ZKEMU_TIMEOUT_MS (default 10000) with ETIMEDOUT, or on
 * a signal with EINTR; either cancels the transfer in the emulator.  Every other descriptor passes through.
 */
#define _GNU_SOURCE
#include "zkemu_preload.h"
#include "zkemu_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <ucontext.h>
#include <unistd.h>

#define MAX_FD 4096
static unsigned char g_kind[MAX_FD];
static char g_lock[MAX_FD]; /* one request at a time per connection */

static void lock(int fd) { while (__atomic_test_and_set(&g_lock[fd], __ATOMIC_ACQUIRE)) ; }
static void unlock(int fd) { __atomic_clear(&g_lock[fd], __ATOMIC_RELEASE); }
static int ours(int fd) { return fd >= 0 && fd < MAX_FD ? g_kind[fd] : NONE; }
int zkemu_kind(int fd) { return ours(fd); }

static long sys_write(int fd, const void *p, size_t n) { return syscall(SYS_write, fd, p, n); }
/* to the emulator: MSG_NOSIGNAL, so that an emulator that is gone (a card that disappeared) is an EPIPE, reported as
   EIO like the driver's answer for a removed device, not a SIGPIPE that kills the tool */
static long sys_send(int fd, const void *p, size_t n) { return syscall(SYS_sendto, fd, p, n, MSG_NOSIGNAL, NULL, 0); }
static long sys_read(int fd, void *p, size_t n) { return syscall(SYS_read, fd, p, n); }

/* whole frames: a signal never splits one */
static int send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        long r = sys_send(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static int recv_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        long r = sys_read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EPIPE;
            return -1;
        }
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static int timeout_ms(void)
{
    const char *e = getenv("ZKEMU_TIMEOUT_MS");
    return e && *e ? atoi(e) : 10000;
}

/* waits for the reply of the request in flight; a signal or the timeout cancels it first */
static int wait_reply(int fd, struct zkemu_rep *rep, int interruptible)
{
    int left = interruptible ? timeout_ms() : 0, why = 0; /* register accesses (also from a signal handler) wait */
    while (interruptible) {
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, left > 1000 ? 1000 : left);
        if (r > 0)
            break;
        if (r < 0 && errno == EINTR) {
            why = EINTR;
        } else if (r == 0 && (left -= left > 1000 ? 1000 : left) > 0) {
            continue;
        } else {
            why = r == 0 ? ETIMEDOUT : errno;
        }
        struct zkemu_req c = {ZKEMU_CANCEL, 0, 0};
        if (send_all(fd, &c, sizeof c))
            return -1;
        break;
    }
    if (recv_all(fd, rep, sizeof *rep))
        return -1;
    if (why && rep->status == 0)
        why = 0; /* it completed before the cancel arrived */
    if (why)
        rep->status = why;
    return 0;
}

/* the result of a read or write request: EIO when the emulator link failed, else the emulator's status or length */
static ssize_t reply_result(int bad, const struct zkemu_rep *rep)
{
    if (bad) {
        errno = EIO;
        return -1;
    }
    if (rep->status) {
        errno = rep->status;
        return -1;
    }
    return (ssize_t)rep->len;
}

static ssize_t emu_write(int fd, const void *buf, size_t n)
{
    struct zkemu_req q = {ZKEMU_WRITE, 0, n};
    struct zkemu_rep rep;
    lock(fd);
    int bad = send_all(fd, &q, sizeof q) || send_all(fd, buf, n) || wait_reply(fd, &rep, 1);
    unlock(fd);
    return reply_result(bad, &rep);
}

static ssize_t emu_read(int fd, void *buf, size_t n)
{
    struct zkemu_req q = {ZKEMU_READ, 0, n};
    struct zkemu_rep rep;
    lock(fd);
    int bad = send_all(fd, &q, sizeof q) || wait_reply(fd, &rep, 1);
    /* data of a cancelled read is dropped, as the driver drops a partly filled aborted transfer */
    if (!bad && rep.len) {
        if (rep.status == 0 || rep.status == ECANCELED) {
            bad = recv_all(fd, buf, rep.len);
        } else {
            char sink[4096];
            for (uint64_t left = rep.len; left && !bad; left -= left < sizeof sink ? left : sizeof sink)
                bad = recv_all(fd, sink, left < sizeof sink ? left : sizeof sink);
        }
    }
    unlock(fd);
    return reply_result(bad, &rep);
}

int zkemu_reg(int fd, uint32_t op, uint32_t off, uint32_t *val)
{
    struct zkemu_req q = {op, off, op == ZKEMU_REG_WRITE ? *val : 0};
    struct zkemu_rep rep;
    lock(fd);
    int bad = send_all(fd, &q, sizeof q) || wait_reply(fd, &rep, 0);
    unlock(fd);
    if (bad) {
        errno = EIO;
        return -1;
    }
    if (op == ZKEMU_REG_READ)
        *val = (uint32_t)rep.len;
    if (rep.status) {
        errno = rep.status;
        return -1;
    }
    return 0;
}

/* ---- open/close */
static int kind_of(const char *path, int *ch)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *u = strrchr(base, '_');
    if (u && !strcmp(u, "_user"))
        return USER;
    if (u && u - base >= 4 && (!strncmp(u - 4, "_h2c_", 5) || !strncmp(u - 4, "_c2h_", 5))) {
        *ch = atoi(u + 1);
        return u[-3] == 'h' ? H2C : C2H;
    }
    return NONE;
}

static int connect_emu(int dirfd, const char *path, int flags)
{
    struct stat st;
    int ch = 0, kind = kind_of(path, &ch);
    if (kind == NONE || fstatat(dirfd, path, &st, 0) || !S_ISSOCK(st.st_mode))
        return -2;
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (path[0] != '/' && dirfd != AT_FDCWD)
        return -2;
    if (strlen(path) >= sizeof a.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(a.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | ((flags & O_CLOEXEC) ? SOCK_CLOEXEC : 0), 0);
    if (fd < 0)
        return -1;
    if (fd >= MAX_FD || connect(fd, (struct sockaddr *)&a, sizeof a)) {
        int e = fd >= MAX_FD ? EMFILE : errno;
        syscall(SYS_close, fd);
        errno = e == ECONNREFUSED ? ENODEV : e; /* a stale socket: the emulator is gone */
        return -1;
    }
    g_kind[fd] = (unsigned char)kind;
    return fd;
}

static int do_open(int dirfd, const char *path, int flags, mode_t mode)
{
    long fd = syscall(SYS_openat, dirfd, path, flags, mode);
    if (fd >= 0 || errno != ENXIO)
        return (int)fd;
    int e = errno, r = connect_emu(dirfd, path, flags);
    if (r == -2) {
        errno = e;
        return -1;
    }
    return r;
}

static mode_t mode_arg(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0; }

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t m = mode_arg(flags, ap);
    va_end(ap);
    return do_open(AT_FDCWD, path, flags, m);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t m = mode_arg(flags, ap);
    va_end(ap);
    return do_open(dirfd, path, flags, m);
}
int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

int close(int fd)
{
    if (ours(fd))
        g_kind[fd] = NONE;
    return (int)syscall(SYS_close, fd);
}

/* ---- read/write */
ssize_t write(int fd, const void *buf, size_t n)
{
    switch (ours(fd)) {
    case NONE: return sys_write(fd, buf, n);
    case H2C: return emu_write(fd, buf, n);
    default: errno = EINVAL; return -1;
    }
}

ssize_t read(int fd, void *buf, size_t n)
{
    switch (ours(fd)) {
    case NONE: return sys_read(fd, buf, n);
    case C2H: return emu_read(fd, buf, n);
    default: errno = EINVAL; return -1;
    }
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    if (ours(fd) != USER)
        return ours(fd) ? (errno = ESPIPE, -1) : syscall(SYS_pread64, fd, buf, n, off);
    if (n != 4 || (off & 3)) {
        errno = EPROTO; /* the driver's user device: one aligned 32-bit word per call */
        return -1;
    }
    uint32_t v;
    if (zkemu_reg(fd, ZKEMU_REG_READ, (uint32_t)off, &v))
        return -1;
    memcpy(buf, &v, 4);
    return 4;
}
ssize_t pread64(int fd, void *buf, size_t n, off_t off) __attribute__((alias("pread")));

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    if (ours(fd) != USER)
        return ours(fd) ? (errno = ESPIPE, -1) : syscall(SYS_pwrite64, fd, buf, n, off);
    if (n != 4 || (off & 3)) {
        errno = EPROTO;
        return -1;
    }
    uint32_t v;
    memcpy(&v, buf, 4);
    return zkemu_reg(fd, ZKEMU_REG_WRITE, (uint32_t)off, &v) ? -1 : 4;
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) __attribute__((alias("pwrite")));

