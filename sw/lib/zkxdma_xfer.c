/* libzkxdma: transfers.  Workers (writers and the C2H reader) run on their own threads; the calling thread is
 * the watchdog: it aborts the job when no byte moved for timeout_ms, or on SIGINT/SIGTERM, by interrupting the
 * blocked read()/write() with SIGUSR2 (the driver then aborts that transfer and returns EINTR). */
#define _GNU_SOURCE
#include "zkxdma.h"
#include "zkxdma_job.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t zkj_interrupted_flag;
static void on_stop(int sig) { (void)sig; zkj_interrupted_flag = 1; }
static void on_wake(int sig) { (void)sig; }
static pthread_once_t g_wake_once = PTHREAD_ONCE_INIT;
static void install_wake_once(void)
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
    pthread_once(&g_wake_once, install_wake_once);
    return 0;
}

int zk_interrupted(void) { return zkj_interrupted_flag != 0; }

static void fail(worker *w, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(worker *w, int errnum, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(w->err, sizeof w->err, "%s: %s", what, strerror(errnum));
    w->errnum = errnum;
    w->failed = 1;
}

int zkj_aborted(job_state *s) { return atomic_load(&s->abort) || zkj_interrupted_flag; }

/* writes len bytes: one write() per max_xfer bytes (the driver's maximum), each its own XDMA packet (TLAST); a
 * short write continues where it stopped */
int zkj_write_packet(job_state *s, worker *w, int ch, const unsigned char *p, size_t len)
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
        pthread_mutex_lock(&s->mu); /* the watchdog reads it */
        snprintf(w->what, sizeof w->what, "%s: write of %zu bytes", path, n);
        pthread_mutex_unlock(&s->mu);
        if (zkj_aborted(s)) {
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
    pthread_mutex_lock(&s->mu);
    snprintf(w->what, sizeof w->what, "%s: read of %zu bytes", path, len);
    pthread_mutex_unlock(&s->mu);
    if (zkj_aborted(s)) {
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

void zkj_block_stop_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}


void *zkj_reader_main(void *p)
{
    reader_arg *a = p;
    zkj_block_stop_signals();
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
int zkj_watch(job_state *s)
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
        if (any_failed || zkj_interrupted_flag)
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
                    pthread_mutex_lock(&s->mu);
                    snprintf(blocked, sizeof blocked, "%s", s->w[i].what);
                    pthread_mutex_unlock(&s->mu);
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
    if (zkj_interrupted_flag) {
        zk_set_error(s->d, EINTR, "%s: job stopped by a signal", s->d->prefix);
        return -1;
    }
    /* the cause, not its echo: a failure other than an abort first, writers (later workers) before the reader,
       whose failure usually follows from a stalled input */
    int pick = -1;
    for (int i = s->n - 1; i >= 0; i--)
        if (s->w[i].failed && (pick < 0 || (s->w[pick].errnum == EINTR && s->w[i].errnum != EINTR)))
            pick = i;
    if (pick >= 0) {
        snprintf(s->d->err, sizeof s->d->err, "%s", s->w[pick].err);
        return -1;
    }
    return 0;
}

void zkj_state_init(job_state *s, zk_dev *d)
{
    memset(s, 0, sizeof *s);
    s->d = d;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    pthread_once(&g_wake_once, install_wake_once);
}

void zkj_state_free(job_state *s)
{
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
}

int zkj_check_channel(zk_dev *d, const int *fds, const char *kind, int ch)
{
    if (ch < 0 || ch >= ZK_MAX_CHANNELS || fds[ch] < 0) {
        zk_set_error(d, EBADF, "%s: %s channel %d is not open", d->prefix, kind, ch);
        return -1;
    }
    return 0;
}

int zkj_start(job_state *s, void *(*fn)(void *), void *arg)
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
    zkj_block_stop_signals();
    for (size_t i = 0; i < a->job->n_in; i++)
        if (zkj_write_packet(a->s, a->w, a->job->h2c, a->job->in[i].data, a->job->in[i].len))
            break;
    atomic_store(&a->w->done, 1);
    return NULL;
}

int zk_run_job(zk_dev *d, const zk_job *job)
{
    if (zkj_check_channel(d, d->h2c, "h2c", job->h2c) || (job->out_len && zkj_check_channel(d, d->c2h, "c2h", job->c2h)))
        return -1;
    job_state s;
    zkj_state_init(&s, d);
    reader_arg ra = {&s, &s.w[0], job->c2h, job->out, job->out_len, job->out_sizes, job->n_out, job->got_sizes};
    writer_arg wa = {&s, &s.w[1], job};
    int rc = -1;
    /* the reader first: XDMA holds C2H data back until a read is posted, and H2C stalls behind it */
    if (job->out_len == 0 || zkj_start(&s, zkj_reader_main, &ra) == 0) {
        if (job->out_len == 0)
            wa.w = &s.w[0];
        if (zkj_start(&s, job_writer, &wa) == 0 || s.n > 0)
            rc = zkj_watch(&s);
    }
    zkj_state_free(&s);
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
    if (zkj_check_channel(d, d->c2h, "c2h", ch))
        return -1;
    ssize_t r = read(d->c2h[ch], buf, len);
    if (r < 0) {
        char path[300];
        zk_set_error(d, errno, "%s: read of %zu bytes", zk_path(d, "c2h", ch, path, sizeof path), len);
    }
    return r;
}
