/* libzkxdma: two input streams consumed in lockstep (seed 002), on the job machinery of zkxdma_xfer.c */
#define _GNU_SOURCE
#include "zkxdma.h"
#include "zkxdma_job.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

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
        while (gen == s->generation && !zkj_aborted(s))
            pthread_cond_wait(&s->cv, &s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return zkj_aborted(s) ? -1 : 0;
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
    return zkj_write_packet(a->s, a->w, st->h2c, p, bytes);
}

static void *pair_writer(void *p)
{
    pair_arg *a = p;
    zkj_block_stop_signals();
    size_t n = a->st[0].n_elems;
    if (a->mode == ZK_PAIR_NAIVE) {
        for (int k = 0; k < 2; k++)
            if (zkj_write_packet(a->s, a->w, a->st[k].h2c, a->st[k].data, a->st[k].n_elems * a->st[k].elem_bytes))
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
        if (zkj_check_channel(d, d->h2c, "h2c", s2[k].h2c))
            return -1;
    if (out_len && zkj_check_channel(d, d->c2h, "c2h", c2h))
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
    zkj_state_init(&s, d);
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
        if (out_len == 0 || zkj_start(&s, zkj_reader_main, &ra) == 0) {
            int writers = mode == ZK_PAIR_PARALLEL ? 2 : 1;
            for (int k = 0; k < writers && !atomic_load(&s.abort); k++) {
                pa[k].w = &s.w[s.n];
                zkj_start(&s, pair_writer, &pa[k]);
            }
            rc = zkj_watch(&s);
        }
    }
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
            zk_free(pa[k].stage[j]);
    zkj_state_free(&s);
    return rc;
}

