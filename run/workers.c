#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "workers.h"

struct rf_workers {
  pthread_mutex_t mu;
  pthread_cond_t wake, done;
  unsigned threads;        /* the caller + started threads */
  pthread_t *tid;
  /* The current job, published under mu with a new generation. */
  unsigned long generation;
  int stop;
  rf_work_fn fn;
  void *ctx;
  size_t count;
  atomic_size_t next;      /* the next index to take */
  unsigned busy;           /* started threads still in the current job (under mu) */
};

/* Takes indices until none are left. */
static void drain(rf_workers *w, unsigned worker) {
  for (size_t i; (i = atomic_fetch_add(&w->next, 1)) < w->count;) w->fn(w->ctx, i, worker);
}

typedef struct { rf_workers *w; unsigned id; } start_arg;

static void *worker_main(void *arg) {
  start_arg *sa = arg;
  rf_workers *w = sa->w;
  unsigned id = sa->id;
  free(sa);
  unsigned long seen = 0;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->stop && w->generation == seen) pthread_cond_wait(&w->wake, &w->mu);
    if (w->stop) break;
    seen = w->generation;
    pthread_mutex_unlock(&w->mu);
    drain(w, id);
    pthread_mutex_lock(&w->mu);
    if (--w->busy == 0) pthread_cond_signal(&w->done);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

rf_workers *rf_workers_create(unsigned threads) {
  if (threads < 2) return NULL;
  rf_workers *w = calloc(1, sizeof *w);
  pthread_t *tid = calloc(threads, sizeof *tid);
  if (!w || !tid) {
    free(w);
    free(tid);
    return NULL;
  }
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->wake, NULL);
  pthread_cond_init(&w->done, NULL);
  w->tid = tid;
  w->threads = 1;
  for (unsigned t = 1; t < threads; t++) {
    start_arg *sa = malloc(sizeof *sa);
    if (!sa) break;
    *sa = (start_arg){w, t};
    if (pthread_create(&tid[t], NULL, worker_main, sa) != 0) {
      free(sa);
      break;
    }
    w->threads++;
  }
  if (w->threads < 2) {
    rf_workers_destroy(w);
    return NULL;
  }
  return w;
}

unsigned rf_workers_count(const rf_workers *w) { return w ? w->threads : 1; }

void rf_workers_run(rf_workers *w, rf_work_fn fn, void *ctx, size_t count) {
  pthread_mutex_lock(&w->mu);
  w->fn = fn;
  w->ctx = ctx;
  w->count = count;
  atomic_store(&w->next, 0);
  w->busy = w->threads - 1;
  w->generation++;
  pthread_cond_broadcast(&w->wake);
  pthread_mutex_unlock(&w->mu);
  drain(w, 0);
  pthread_mutex_lock(&w->mu);
  while (w->busy) pthread_cond_wait(&w->done, &w->mu);
  pthread_mutex_unlock(&w->mu);
}

void rf_workers_destroy(rf_workers *w) {
  if (!w) return;
  pthread_mutex_lock(&w->mu);
  w->stop = 1;
  pthread_cond_broadcast(&w->wake);
  pthread_mutex_unlock(&w->mu);
  for (unsigned t = 1; t < w->threads; t++) pthread_join(w->tid[t], NULL);
  pthread_cond_destroy(&w->wake);
  pthread_cond_destroy(&w->done);
  pthread_mutex_destroy(&w->mu);
  free(w->tid);
  free(w);
}
