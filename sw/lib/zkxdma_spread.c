/* libzkxdma: one batch over several cards (zk_spread, zkxdma.h).  One thread per card takes jobs of consecutive
 * items from a shared queue, so every card's DMA is in flight at once; job sizes follow the measured rates; a
 * failed card's job goes back to the queue for the others. */
#define _GNU_SOURCE
#include "zkxdma.h"
#include "zkxdma_job.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct range { size_t first, count; } range;
typedef struct interval { double t0, t1; } interval;

typedef struct spread {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int n;
    const char *const *names;
    const char *what;
    size_t n_items, max_chunk;
    zk_spread_fn run;
    void *ctx;
    zk_spread_card *cards;
    range *queue;              /* work not handed out; a failed card's job is appended */
    size_t q_len, q_cap;
    size_t *outstanding;       /* items of each card's job in flight */
    int live, stop;
    interval *iv;              /* every job's time span, for the overlap figures */
    size_t n_iv, cap_iv;
    size_t retried;
    char err[1024];
} spread;

typedef struct card_arg { spread *s; int card; } card_arg;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ceil without libm */
static double up(double x)
{
    double t = (double)(size_t)x;
    return t < x ? t + 1 : t;
}

static double rate(const zk_spread_card *c) { return c->busy_s > 0 ? (double)c->items / c->busy_s : 0; }

static size_t queued(const spread *s)
{
    size_t r = 0;
    for (size_t i = 0; i < s->q_len; i++)
        r += s->queue[i].count;
    return r;
}

/* the size of card c's next job (mutex held): a probe of a quarter of an even share before its rate is known,
 * then its share of the work left (queued plus the other cards' jobs in flight) in proportion to its rate */
static size_t job_size(const spread *s, int c)
{
    double size;
    if (s->live == 1) {
        size = (double)queued(s);
    } else if (s->cards[c].jobs == 0) {
        size = up((double)s->n_items / (4.0 * s->live));
    } else {
        double known = 0, sum = 0;
        int n_known = 0;
        size_t pending = queued(s);
        for (int i = 0; i < s->n; i++)
            if (!s->cards[i].failed && s->cards[i].jobs) {
                known += rate(&s->cards[i]);
                n_known++;
            }
        for (int i = 0; i < s->n; i++)
            if (!s->cards[i].failed) {
                sum += s->cards[i].jobs ? rate(&s->cards[i]) : known / n_known; /* unmeasured: the mean */
                if (i != c)
                    pending += s->outstanding[i];
            }
        size = sum > 0 ? up((double)pending * rate(&s->cards[c]) / sum) : (double)pending;
    }
    size_t z = size < 1 ? 1 : (size_t)size;
    return z > s->max_chunk ? s->max_chunk : z;
}

static void push(spread *s, range r)
{
    if (s->q_len == s->q_cap) {
        size_t cap = s->q_cap ? 2 * s->q_cap : 8;
        range *q = realloc(s->queue, cap * sizeof *q);
        if (!q) { /* cannot requeue: stop the batch rather than lose items */
            s->stop = 1;
            snprintf(s->err, sizeof s->err, "out of memory requeueing %zu %s", r.count, s->what);
            return;
        }
        s->queue = q;
        s->q_cap = cap;
    }
    s->queue[s->q_len++] = r;
}

/* mutex held: the next job of card c, or count 0 when there is nothing left for it */
static range take(spread *s, int c)
{
    for (;;) {
        if (s->stop)
            return (range){0, 0};
        if (s->q_len) {
            size_t z = job_size(s, c);
            range *h = &s->queue[0];
            range r = {h->first, z < h->count ? z : h->count};
            h->first += r.count;
            h->count -= r.count;
            if (h->count == 0)
                memmove(s->queue, s->queue + 1, --s->q_len * sizeof *s->queue);
            s->outstanding[c] = r.count;
            return r;
        }
        int busy = 0; /* another card's job may fail and come back: wait for it */
        for (int i = 0; i < s->n; i++)
            busy |= s->outstanding[i] != 0;
        if (!busy)
            return (range){0, 0};
        pthread_cond_wait(&s->cv, &s->mu);
    }
}

static void record(spread *s, double t0, double t1)
{
    if (s->n_iv == s->cap_iv) {
        size_t cap = s->cap_iv ? 2 * s->cap_iv : 64;
        interval *v = realloc(s->iv, cap * sizeof *v);
        if (!v)
            return; /* only the overlap figures lose this job */
        s->iv = v;
        s->cap_iv = cap;
    }
    s->iv[s->n_iv++] = (interval){t0, t1};
}

static void *card_main(void *p)
{
    card_arg *a = p;
    spread *s = a->s;
    int c = a->card;
    zk_spread_card *me = &s->cards[c];
    zkj_block_stop_signals(); /* SIGINT/SIGTERM go to the calling thread; every job's watchdog sees the flag */
    pthread_mutex_lock(&s->mu);
    for (;;) {
        range r = take(s, c);
        if (r.count == 0)
            break;
        pthread_mutex_unlock(&s->mu);
        char err[sizeof me->err] = "";
        double t0 = now();
        int rc = s->run(s->ctx, c, r.first, r.count, err, sizeof err);
        double t1 = now();
        pthread_mutex_lock(&s->mu);
        s->outstanding[c] = 0;
        record(s, t0, t1);
        if (rc == 0) {
            me->items += r.count;
            me->jobs++;
            me->busy_s += t1 - t0;
        } else if (zk_interrupted()) {
            s->stop = 1;
            snprintf(s->err, sizeof s->err, "interrupted (%.900s)", err[0] ? err : s->names[c]);
        } else {
            me->failed = 1;
            snprintf(me->err, sizeof me->err, "%s", err[0] ? err : "job failed");
            s->live--;
            fprintf(stderr, "%s\n", me->err); /* run's message names the device */
            if (s->live > 0) {
                fprintf(stderr, "zk: card %s dropped; its %zu %s (%zu..%zu) are retried on the %d remaining card(s)\n",
                        s->names[c], r.count, s->what, r.first, r.first + r.count - 1, s->live);
                s->retried += r.count;
                push(s, r);
            } else {
                s->stop = 1;
                snprintf(s->err, sizeof s->err, "every card failed; the last: %.200s: %.700s", s->names[c], me->err);
            }
        }
        pthread_cond_broadcast(&s->cv);
        if (me->failed)
            break;
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static int by_time(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* busy_any: union of the job spans; busy_all: time with n jobs in flight at once */
static void overlap(const spread *s, zk_spread_stats *st)
{
    double (*ev)[2] = malloc(2 * s->n_iv * sizeof *ev);
    st->wall_s = st->busy_any_s = st->busy_all_s = 0;
    if (!ev || s->n_iv == 0) {
        free(ev);
        return;
    }
    double lo = s->iv[0].t0, hi = s->iv[0].t1;
    for (size_t i = 0; i < s->n_iv; i++) {
        ev[2 * i][0] = s->iv[i].t0, ev[2 * i][1] = 1;
        ev[2 * i + 1][0] = s->iv[i].t1, ev[2 * i + 1][1] = -1;
        lo = s->iv[i].t0 < lo ? s->iv[i].t0 : lo;
        hi = s->iv[i].t1 > hi ? s->iv[i].t1 : hi;
    }
    qsort(ev, 2 * s->n_iv, sizeof *ev, by_time);
    int depth = 0;
    for (size_t i = 0; i + 1 < 2 * s->n_iv; i++) {
        depth += (int)ev[i][1];
        double dt = ev[i + 1][0] - ev[i][0];
        if (depth > 0)
            st->busy_any_s += dt;
        if (depth >= s->n)
            st->busy_all_s += dt;
    }
    st->wall_s = hi - lo;
    free(ev);
}

int zk_spread(int n_cards, const char *const *names, size_t n_items, size_t max_chunk, const char *what,
              zk_spread_fn run, void *ctx, zk_spread_card *cards, zk_spread_stats *stats, char *err, size_t errlen)
{
    if (n_cards < 1 || n_cards > ZK_MAX_CARDS || max_chunk == 0) {
        snprintf(err, errlen, "zk_spread: %d cards (1..%d), max_chunk %zu (>= 1)", n_cards, ZK_MAX_CARDS, max_chunk);
        errno = EINVAL;
        return -1;
    }
    spread s;
    memset(&s, 0, sizeof s);
    s.n = s.live = n_cards;
    s.names = names;
    s.what = what;
    s.n_items = n_items;
    s.max_chunk = max_chunk;
    s.run = run;
    s.ctx = ctx;
    s.cards = cards;
    memset(cards, 0, (size_t)n_cards * sizeof *cards);
    pthread_t tid[ZK_MAX_CARDS];
    card_arg args[ZK_MAX_CARDS];
    s.outstanding = calloc((size_t)n_cards, sizeof *s.outstanding);
    if (!s.outstanding) {
        snprintf(err, errlen, "zk_spread: out of memory");
        return -1;
    }
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    if (n_items)
        push(&s, (range){0, n_items});
    int started = 0;
    for (int c = 0; c < n_cards; c++) {
        args[c] = (card_arg){&s, c};
        int e = pthread_create(&tid[c], NULL, card_main, &args[c]);
        if (e) {
            pthread_mutex_lock(&s.mu);
            s.stop = 1;
            snprintf(s.err, sizeof s.err, "pthread_create: %s", strerror(e));
            pthread_cond_broadcast(&s.cv);
            pthread_mutex_unlock(&s.mu);
            break;
        }
        started++;
    }
    for (int c = 0; c < started; c++)
        pthread_join(tid[c], NULL);
    int rc = 0;
    if (s.stop || queued(&s)) {
        snprintf(err, errlen, "%s", s.err[0] ? s.err : "work left undone");
        rc = -1;
    }
    if (stats) {
        overlap(&s, stats);
        stats->retried = s.retried;
    }
    pthread_mutex_destroy(&s.mu);
    pthread_cond_destroy(&s.cv);
    free(s.queue);
    free(s.iv);
    free(s.outstanding);
    return rc;
}
