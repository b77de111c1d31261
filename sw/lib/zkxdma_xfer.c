/* libzkxdma: transfers.  Workers (writers and the C2H reader) run on their own threads; the calling thread is
 * the watchdog: it aborts the job when no byte moved for timeout_ms, or on SIGINT/SIGTERM, by interrupting the
 * blocked read()/write() with SIGUSR2 (the driver then aborts that transfer and returns EINTR). */
#define _GNU_SOURCE
#include "zkxdma.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void zk_set_error(zk_dev *d, int errnum, const char *fmt, ...);

static volatile sig_atomic_t g_interrupted;
static void on_stop(int sig) { (void)sig; g_interrupted = 1; }
static void on_wake(int sig) { (void)sig; }
static pthread_once_t g_wake_once = PTHREAD_ONCE_INIT;
static void install_wake(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_wake; /* no SA_RESTART: a blocked read()/write() returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
}

int zk_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
        return -1;
    pthread_once(&g_wake_once, install_wake);
    return 0;
}

int zk_interrupted(void) { return g_interrupted != 0; }

/* ---- job state shared by the workers and the watchdog */
#define MAX_WORKERS 3
typedef struct worker {
    pthread_t tid;
    atomic_int done;
    int failed;
    char what[400]; /* what the worker is doing now (for the timeout message) */
    char err[768];
} worker;

typedef struct job_state {
    zk_dev *d;
    atomic_ullong progress; /* bytes moved, all channels */
    atomic_int abort;
    worker w[MAX_WORKERS];
    int n;
    /* chunk barrier of the parallel pair mode */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned arrived, generation;
} job_state;

static void fail(worker *w, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(worker *w, int errnum, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(w->err, sizeof w->err, "%s: %s", what, strerror(errnum));
    w->failed = 1;
}

static int aborted(job_state *s) { return atomic_load(&s->abort) || g_interrupted; }

/* writes len bytes: one write() per max_xfer bytes (the driver's maximum), each its own XDMA packet (TLAST); a
 * short write continues where it stopped */
static int write_packet(job_state *s, worker *w, int ch, const unsigned char *p, size_t len)
{
    char path[300];
    zk_path(s->d, "h2c", ch, path, sizeof path);
    if (((uintptr_t)p) % ZK_ALIGN) {
        fail(w, EINVAL, "%s: buffer %p is not 4 KiB aligned (allocate it with zk_alloc)", path, (const void *)p);
        return -1;
    }
    while (len > 0) {
        size_t max = s->d->max_xfer && s->d->max_xfer < ZK_MAX_XFER ? s->d->max_xfer : ZK_MAX_XFER;
        size_t n = len < max ? len : max;
        snprintf(w->what, sizeof w->what, "%s: write of %zu bytes", path, n);
        if (aborted(s)) {
            fail(w, EINTR, "%s: write aborted", path);
            return -1;
        }
        ssize_t r = write(s->d->h2c[ch], p, n);
        if (r < 0) {
            int e = errno;
            fail(w, e, "%s: write of %zu bytes%s", path, n, e == EINTR ? " aborted" : "");
            return -1;
        }
        if (r == 0) {
            fail(w, EIO, "%s: write returned 0", path);
            return -1;
        }
        atomic_fetch_add(&s->progress, (unsigned long long)r);
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

/* reads one packet of at most len bytes; returns its length */
static ssize_t read_packet(job_state *s, worker *w, int ch, unsigned char *p, size_t len)
{
    char path[300];
    zk_path(s->d, "c2h", ch, path, sizeof path);
    snprintf(w->what, sizeof w->what, "%s: read of %zu bytes", path, len);
    if (aborted(s)) {
        fail(w, EINTR, "%s: read aborted", path);
        return -1;
    }
    ssize_t r = read(s->d->c2h[ch], p, len);
    if (r < 0) {
        int e = errno;
        fail(w, e, "%s: read of %zu bytes%s", path, len, e == EINTR ? " aborted" : "");
        return -1;
    }
    if (r == 0) {
        fail(w, EIO, "%s: read returned 0 bytes (end of stream)", path);
        return -1;
    }
    atomic_fetch_add(&s->progress, (unsigned long long)r);
    return r;
}

static void block_stop_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

typedef struct reader_arg {
    job_state *s;
    worker *w;
    int ch;
    unsigned char *out;
    size_t out_len;
    const size_t *sizes;
    size_t n_sizes;
    size_t *got;
} reader_arg;

static void *reader_main(void *p)
{
    reader_arg *a = p;
    block_stop_signals();
    size_t pos = 0;
    if (a->sizes) {
        for (size_t i = 0; i < a->n_sizes; i++) {
            if (pos + a->sizes[i] > a->out_len) {
                fail(a->w, EINVAL, "output packet %zu overflows the %zu-byte buffer", i, a->out_len);
                break;
            }
            ssize_t r = read_packet(a->s, a->w, a->ch, a->out + pos, a->sizes[i]);
            if (r < 0)
                break;
            if (a->got)
                a->got[i] = (size_t)r;
            pos += a->sizes[i];
        }
    } else {
        while (pos < a->out_len) {
            ssize_t r = read_packet(a->s, a->w, a->ch, a->out + pos, a->out_len - pos);
            if (r < 0)
                break;
            pos += (size_t)r; /* a short packet: keep reading */
        }
    }
    atomic_store(&a->w->done, 1);
    return NULL;
}

/* the watchdog: returns 0 when every worker finished without error */
static int watch(job_state *s)
{
    const struct timespec tick = {0, 5 * 1000 * 1000};
    unsigned long long last = atomic_load(&s->progress);
    unsigned idle_ms = 0;
    int timed_out = 0;
    for (;;) {
        int all = 1, any_failed = 0;
        for (int i = 0; i < s->n; i++) {
            all &= atomic_load(&s->w[i].done);
            any_failed |= atomic_load(&s->w[i].done) && s->w[i].failed;
        }
        if (all)
            break;
        if (any_failed || g_interrupted)
            atomic_store(&s->abort, 1);
        if (atomic_load(&s->abort)) {
            pthread_mutex_lock(&s->mu);
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            for (int i = 0; i < s->n; i++)
                if (!atomic_load(&s->w[i].done))
                    pthread_kill(s->w[i].tid, SIGUSR2);
        }
        nanosleep(&tick, NULL);
        unsigned long long now = atomic_load(&s->progress);
        if (now != last) {
            last = now;
            idle_ms = 0;
        } else if (!atomic_load(&s->abort) && (idle_ms += 5) >= s->d->timeout_ms) {
            timed_out = 1;
            char blocked[400] = "";
            for (int i = s->n - 1; i >= 0; i--) /* a blocked writer first: the reader waits on it */
                if (!atomic_load(&s->w[i].done)) {
                    snprintf(blocked, sizeof blocked, "%s", s->w[i].what);
                    break;
                }
            zk_set_error(s->d, ETIMEDOUT, "%s: no progress for %u ms (the core stopped accepting or answering)",
                         blocked, s->d->timeout_ms);
            atomic_store(&s->abort, 1);
        }
    }
    for (int i = 0; i < s->n; i++)
        pthread_join(s->w[i].tid, NULL);
    if (timed_out)
        return -1;
    if (g_interrupted) {
        zk_set_error(s->d, EINTR, "%s: job stopped by a signal", s->d->prefix);
        return -1;
    }
    for (int i = 0; i < s->n; i++)
        if (s->w[i].failed) {
            snprintf(s->d->err, sizeof s->d->err, "%s", s->w[i].err);
            return -1;
        }
    return 0;
}

static void state_init(job_state *s, zk_dev *d)
{
    memset(s, 0, sizeof *s);
    s->d = d;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    pthread_once(&g_wake_once, install_wake);
}

static void state_free(job_state *s)
{
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
}

static int check_channel(zk_dev *d, const int *fds, const char *kind, int ch)
{
    if (ch < 0 || ch >= ZK_MAX_CHANNELS || fds[ch] < 0) {
        zk_set_error(d, EBADF, "%s: %s channel %d is not open", d->prefix, kind, ch);
        return -1;
    }
    return 0;
}

static int start(job_state *s, void *(*fn)(void *), void *arg)
{
    worker *w = &s->w[s->n];
    int rc = pthread_create(&w->tid, NULL, fn, arg);
    if (rc) {
        zk_set_error(s->d, rc, "%s: pthread_create", s->d->prefix);
        atomic_store(&s->abort, 1);
        return -1;
    }
    s->n++;
    return 0;
}

/* ---- single-stream job */
typedef struct writer_arg {
    job_state *s;
    worker *w;
    const zk_job *job;
} writer_arg;

static void *job_writer(void *p)
{
    writer_arg *a = p;
    block_stop_signals();
    for (size_t i = 0; i < a->job->n_in; i++)
        if (write_packet(a->s, a->w, a->job->h2c, a->job->in[i].data, a->job->in[i].len))
            break;
    atomic_store(&a->w->done, 1);
    return NULL;
}

int zk_run_job(zk_dev *d, const zk_job *job)
{
    if (check_channel(d, d->h2c, "h2c", job->h2c) || (job->out_len && check_channel(d, d->c2h, "c2h", job->c2h)))
        return -1;
    job_state s;
    state_init(&s, d);
    reader_arg ra = {&s, &s.w[0], job->c2h, job->out, job->out_len, job->out_sizes, job->n_out, job->got_sizes};
    writer_arg wa = {&s, &s.w[1], job};
    int rc = -1;
    /* the reader first: XDMA holds C2H data back until a read is posted, and H2C stalls behind it */
    if (job->out_len == 0 || start(&s, reader_main, &ra) == 0) {
        if (job->out_len == 0)
            wa.w = &s.w[0];
        if (start(&s, job_writer, &wa) == 0 || s.n > 0)
            rc = watch(&s);
    }
    state_free(&s);
    return rc;
}

/* ---- two streams in lockstep */
typedef struct pair_arg {
    job_state *s;
    worker *w;
    const zk_stream *st; /* both streams */
    int which;           /* PARALLEL: this thread's stream; else -1 (both, on this thread) */
    size_t chunk;
    zk_pair_mode mode;
    unsigned char *stage[2]; /* page-aligned copies when a chunk does not start on a page */
} pair_arg;

static int barrier(job_state *s)
{
    pthread_mutex_lock(&s->mu);
    unsigned gen = s->generation;
    if (++s->arrived == 2) {
        s->arrived = 0;
        s->generation++;
        pthread_cond_broadcast(&s->cv);
    } else {
        while (gen == s->generation && !aborted(s))
            pthread_cond_wait(&s->cv, &s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return aborted(s) ? -1 : 0;
}

static int write_chunk(pair_arg *a, int k, size_t first, size_t count)
{
    const zk_stream *st = &a->st[k];
    const unsigned char *p = (const unsigned char *)st->data + first * st->elem_bytes;
    size_t bytes = count * st->elem_bytes;
    if (((uintptr_t)p) % ZK_ALIGN) {
        memcpy(a->stage[k], p, bytes);
        p = a->stage[k];
    }
    return write_packet(a->s, a->w, st->h2c, p, bytes);
}

static void *pair_writer(void *p)
{
    pair_arg *a = p;
    block_stop_signals();
    size_t n = a->st[0].n_elems;
    if (a->mode == ZK_PAIR_NAIVE) {
        for (int k = 0; k < 2; k++)
            if (write_packet(a->s, a->w, a->st[k].h2c, a->st[k].data, a->st[k].n_elems * a->st[k].elem_bytes))
                break;
    } else {
        for (size_t first = 0; first < n; first += a->chunk) {
            size_t count = n - first < a->chunk ? n - first : a->chunk;
            if (a->which >= 0) {
                if (write_chunk(a, a->which, first, count) || barrier(a->s))
                    break;
            } else if (write_chunk(a, 0, first, count) || write_chunk(a, 1, first, count)) {
                break;
            }
        }
    }
    atomic_store(&a->w->done, 1);
    if (a->which >= 0 && a->w->failed) { /* release the other thread's barrier */
        atomic_store(&a->s->abort, 1);
        pthread_mutex_lock(&a->s->mu);
        pthread_cond_broadcast(&a->s->cv);
        pthread_mutex_unlock(&a->s->mu);
    }
    return NULL;
}

int zk_run_pair(zk_dev *d, const zk_stream s2[2], size_t chunk_elems, zk_pair_mode mode, int c2h, void *out,
                size_t out_len)
{
    for (int k = 0; k < 2; k++)
        if (check_channel(d, d->h2c, "h2c", s2[k].h2c))
            return -1;
    if (out_len && check_channel(d, d->c2h, "c2h", c2h))
        return -1;
    if (s2[0].n_elems != s2[1].n_elems || chunk_elems == 0) {
        zk_set_error(d, EINVAL, "%s: paired streams need equal element counts (%zu, %zu) and a chunk >= 1", d->prefix,
                     s2[0].n_elems, s2[1].n_elems);
        return -1;
    }
    for (int k = 0; k < 2; k++)
        if (((uintptr_t)s2[k].data) % ZK_ALIGN) {
            char path[300];
            zk_set_error(d, EINVAL, "%s: buffer %p is not 4 KiB aligned (allocate it with zk_alloc)",
                         zk_path(d, "h2c", s2[k].h2c, path, sizeof path), s2[k].data);
            return -1;
        }
    job_state s;
    state_init(&s, d);
    pair_arg pa[2];
    memset(pa, 0, sizeof pa);
    int rc = -1, ok = 1;
    for (int k = 0; k < 2; k++) {
        pa[k] = (pair_arg){&s, NULL, s2, mode == ZK_PAIR_PARALLEL ? k : -1, chunk_elems, mode, {NULL, NULL}};
        for (int j = 0; j < 2; j++)
            if (!(pa[k].stage[j] = zk_alloc(chunk_elems * s2[j].elem_bytes)))
                ok = 0;
    }
    if (!ok) {
        zk_set_error(d, ENOMEM, "%s: staging buffers", d->prefix);
    } else {
        reader_arg ra = {&s, &s.w[0], c2h, out, out_len, NULL, 0, NULL};
        if (out_len == 0 || start(&s, reader_main, &ra) == 0) {
            int writers = mode == ZK_PAIR_PARALLEL ? 2 : 1;
            for (int k = 0; k < writers && !atomic_load(&s.abort); k++) {
                pa[k].w = &s.w[s.n];
                start(&s, pair_writer, &pa[k]);
            }
            rc = watch(&s);
        }
    }
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
            zk_free(pa[k].stage[j]);
    state_free(&s);
    return rc;
}

int zk_write(zk_dev *d, int ch, const void *buf, size_t len)
{
    zk_packet p = {buf, len};
    zk_job job = {ch, 0, &p, 1, NULL, 0, NULL, 0, NULL};
    return zk_run_job(d, &job);
}

ssize_t zk_read_packet(zk_dev *d, int ch, void *buf, size_t len)
{
    if (check_channel(d, d->c2h, "c2h", ch))
        return -1;
    ssize_t r = read(d->c2h[ch], buf, len);
    if (r < 0) {
        char path[300];
        zk_set_error(d, errno, "%s: read of %zu bytes", zk_path(d, "c2h", ch, path, sizeof path), len);
    }
    return r;
}
