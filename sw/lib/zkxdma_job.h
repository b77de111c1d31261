/* libzkxdma internals: the job machinery (workers, watchdog) that zkxdma_xfer.c and zkxdma_pair.c share */
#ifndef ZKXDMA_JOB_H
#define ZKXDMA_JOB_H
#include "zkxdma.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#define HIDDEN __attribute__((visibility("hidden")))

HIDDEN void zk_set_error(zk_dev *d, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
extern HIDDEN volatile sig_atomic_t zkj_interrupted_flag;

/* ---- job state shared by the workers and the watchdog */
#define MAX_WORKERS 3
typedef struct worker {
    pthread_t tid;
    atomic_int done;
    atomic_int failed; /* set before done */
    int errnum;
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

HIDDEN int zkj_aborted(job_state *s);
/* one packet: write()s of at most max_xfer bytes; 0 or -1 (w->err set) */
HIDDEN int zkj_write_packet(job_state *s, worker *w, int ch, const unsigned char *p, size_t len);
HIDDEN void zkj_block_stop_signals(void);
HIDDEN void *zkj_reader_main(void *p);
/* the watchdog loop of the calling thread; joins the workers; 0 when all succeeded */
HIDDEN int zkj_watch(job_state *s);
HIDDEN void zkj_state_init(job_state *s, zk_dev *d);
HIDDEN void zkj_state_free(job_state *s);
HIDDEN int zkj_check_channel(zk_dev *d, const int *fds, const char *kind, int ch);
HIDDEN int zkj_start(job_state *s, void *(*fn)(void *), void *arg);
#endif
