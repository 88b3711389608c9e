/* Background re-checks of device-made answers (recheck_queue.h). */
#include "recheck_queue.h"
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "model/gen.h"
#include "kernels/harness/device.h"
#include "clock.h"

int rf_recheck_compare(const rf_case *c, const float *x, uint64_t elems,
                       const rf_oracle_dev_out *d, char *why, size_t len) {
  rf_oracle_dev_out want;
  char msg[256];
  rf_oracle_dev_host(x, elems, &want);
  why[0] = '\0';
  if (!rf_oracle_dev_compare(&want, d, msg, sizeof msg)) return 0;
  snprintf(why, len,
           "harness failure: the device oracle disagrees with the host oracle (%s) on "
           "op=%s n=%llu dist=%s seed=%llu", msg, rf_op_name(c->op), (unsigned long long)c->n,
           rf_dist_name(c->dist), (unsigned long long)c->seed);
  return -1;
}

/* One job on the thread: its own run, or the device oracle's answer against the host's (the
 * input made again here, into *gen, when the device made it). */
static void run_job(rf_recheck_job *j, float **gen, size_t *gen_cap) {
  if (j->run) {
    j->run(j->ctx, j->why, sizeof j->why);
    return;
  }
  const float *x = j->x;
  if (!x) {
    const size_t need = (size_t)(j->elems + 1) * sizeof(float);
    if (need > *gen_cap) {
      free(*gen);
      *gen = malloc(need);
      *gen_cap = *gen ? need : 0;
    }
    if (*gen) rf_generate(&j->c, *gen);
    x = *gen;
  }
  if (x) rf_recheck_compare(&j->c, x, j->elems, &j->dev, j->why, sizeof j->why);
  else snprintf(j->why, sizeof j->why, "out of host memory for the re-check of a device answer");
}

/* A worker: claims the oldest job no worker has claimed yet (q->next counts the claimed ones
 * from the head), runs it outside the lock, and marks it done. Jobs are claimed in queue
 * order but may finish in any order; the pusher takes them in queue order (take_oldest), so
 * what is reported, and when, does not depend on the workers' speed or number. */
static void *worker(void *arg) {
  rf_recheck_queue *q = arg;
  float *gen = NULL;
  size_t gen_cap = 0;
  pthread_mutex_lock(&q->mu);
  for (;;) {
    while (!q->stop && q->next >= q->count) pthread_cond_wait(&q->work, &q->mu);
    if (q->abandon || q->next >= q->count) break;   /* stopping, and nothing is left */
    rf_recheck_job *j = &q->job[(q->head + q->next) % RF_RECHECK_QUEUE];
    q->next++;                        /* claimed: no other worker takes it */
    pthread_mutex_unlock(&q->mu);     /* the job's slot is not touched by the pusher now */
    const double t0 = rf_now_ms();
    run_job(j, &gen, &gen_cap);
    const double ms = rf_now_ms() - t0;
    pthread_mutex_lock(&q->mu);
    j->ms = ms;
    j->done = 1;
    pthread_cond_broadcast(&q->finished);
  }
  pthread_mutex_unlock(&q->mu);
  free(gen);
  mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);   /* this thread's MPFR caches (the roundings) */
  return NULL;
}

/* Workers: one re-check of a 2^20 case takes ~19 ms of host time on the H200's host
 * (docs/RESULTS.md), longer than the GPU needs for the 64 cases between two sampled ones at
 * that size (~14 ms), so one thread would set a sweep's pace; up to RF_RECHECK_THREADS run
 * at once, never more than the cores less the pusher's own (and at least one). */
static unsigned worker_count(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  long n = cores > 1 ? cores - 1 : 1;
  return (unsigned)(n < RF_RECHECK_THREADS ? n : RF_RECHECK_THREADS);
}

int rf_recheck_queue_start(rf_recheck_queue *q, unsigned threads) {
  memset(q, 0, sizeof *q);
  /* The exact answer rounds with MPFR, which the caller's thread uses at the same time:
   * only with per-thread MPFR state (as softmax_oracle.c requires for its threads). */
  if (!mpfr_buildopt_tls_p()) return -1;
  if (pthread_mutex_init(&q->mu, NULL)) return -1;
  if (pthread_cond_init(&q->work, NULL) || pthread_cond_init(&q->finished, NULL)) return -1;
  const unsigned want = threads ? (threads < RF_RECHECK_THREADS ? threads : RF_RECHECK_THREADS)
                                : worker_count();
  for (q->threads = 0; q->threads < want; q->threads++)
    if (pthread_create(&q->thread[q->threads], NULL, worker, q)) break;
  if (!q->threads) return -1;
  q->started = 1;
  return 0;
}

/* Waits, under the lock, until *j is done: 0, or -1 when a stop was asked for first. A stop
 * (rf_dev_interrupt: the CLI's SIGINT or SIGTERM) ends every wait for a re-check: the host's
 * re-check of a 2^31-element case takes tens of seconds, and one signal must end a command
 * within about a second (issue 47), so the wait looks at the flag every 20 ms. */
static int wait_done(rf_recheck_queue *q, const rf_recheck_job *j) {
  while (!j->done) {
    if (rf_dev_interrupted()) return -1;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 20 * 1000 * 1000;
    if (until.tv_nsec >= 1000 * 1000 * 1000) until.tv_sec++, until.tv_nsec -= 1000 * 1000 * 1000;
    pthread_cond_timedwait(&q->finished, &q->mu, &until);
  }
  return 0;
}

/* The oldest job, waited for and removed; its harness failure (in q->why) or NULL. After a
 * stop, a job not done is left in the queue and *left set. */
static const char *take_oldest(rf_recheck_queue *q, int *left) {
  const double t0 = rf_now_ms();
  pthread_mutex_lock(&q->mu);
  rf_recheck_job *j = &q->job[q->head];
  if (wait_done(q, j)) {
    pthread_mutex_unlock(&q->mu);
    *left = 1;
    return NULL;
  }
  q->head = (q->head + 1) % RF_RECHECK_QUEUE;
  q->count--;
  q->bytes -= j->bytes;
  q->next--;   /* it was done, so a worker had claimed it */
  pthread_mutex_unlock(&q->mu);
  q->ms_wait += rf_now_ms() - t0;
  q->ms_thread += j->ms;
  free(j->x);
  j->x = NULL;
  const int oracle_job = !j->run;
  if (j->release) j->release(j->ctx);
  j->run = NULL;
  j->release = NULL;
  if (!j->why[0]) {
    q->agreed += oracle_job;   /* the other kinds count their own */
    return NULL;
  }
  /* Every disagreement is printed once, here (the caller sees only the first of a take). */
  fprintf(stderr, "redfuzz: %s (found by the background re-check)\n", j->why);
  snprintf(q->why, sizeof q->why, "%s", j->why);
  return q->why;
}

/* Queues *j (filled by the caller but for the queue's own fields) under the lock. */
static void enqueue(rf_recheck_queue *q, const rf_recheck_job *j, unsigned long long due) {
  pthread_mutex_lock(&q->mu);
  rf_recheck_job *slot = &q->job[(q->head + q->count) % RF_RECHECK_QUEUE];
  *slot = *j;
  slot->due = due;
  slot->done = 0;
  slot->why[0] = '\0';
  slot->ms = 0;
  q->count++;
  q->bytes += j->bytes;
  pthread_cond_signal(&q->work);
  pthread_mutex_unlock(&q->mu);
}

/* Whether the oldest job must be taken now: at a push of `bytes` (pushing), while the queue is
 * full or the new job would take it past RF_RECHECK_BYTES (an empty queue takes any job); at
 * batch `now` otherwise, while it is due. */
static int must_take(const rf_recheck_queue *q, int pushing, size_t bytes, unsigned long long now) {
  if (!q->count) return 0;
  if (pushing) return q->count == RF_RECHECK_QUEUE || q->bytes + bytes > RF_RECHECK_BYTES;
  return q->job[q->head].due <= now;
}

/* Takes the oldest jobs while must_take says so; the first harness failure among them (in
 * q->why), or NULL. */
static const char *take_while(rf_recheck_queue *q, int pushing, size_t bytes,
                              unsigned long long now) {
  const char *first = NULL;
  char keep[sizeof q->why];
  int left = 0;
  while (!left && must_take(q, pushing, bytes, now)) {
    const char *why = take_oldest(q, &left);
    if (why && !first) {
      snprintf(keep, sizeof keep, "%s", why);
      first = keep;
    }
  }
  if (left && !q->left_noted) {   /* a stop: the rest is not waited for, and that is said */
    q->left_noted = 1;
    fprintf(stderr, "redfuzz: stopped with %zu background re-check(s) of device-made answers "
            "not finished; they are not results\n", q->count);
  }
  if (!first) return NULL;
  snprintf(q->why, sizeof q->why, "%s", keep);
  return q->why;
}

const char *rf_recheck_queue_push(rf_recheck_queue *q, const rf_case *c, const float *x,
                                  uint64_t elems, const rf_oracle_dev_out *dev,
                                  unsigned long long due, int *oom) {
  *oom = 0;
  const size_t bytes = x ? (size_t)elems * sizeof(float) : 0;
  const char *why = take_while(q, 1, bytes, 0);
  if (must_take(q, 1, bytes, 0)) return why;   /* a stop left it full: no more re-checks */
  rf_recheck_job j = {.c = *c, .dev = *dev, .elems = elems, .bytes = bytes};
  if (x) {   /* the host's buffer is reused by the next batch */
    j.x = malloc((size_t)(elems ? elems : 1) * sizeof(float));
    if (!j.x) { *oom = 1; return why; }
    memcpy(j.x, x, (size_t)elems * sizeof(float));
  }
  enqueue(q, &j, due);
  return why;
}

const char *rf_recheck_queue_push_fn(rf_recheck_queue *q, rf_recheck_fn run,
                                     rf_recheck_release_fn release, void *ctx, size_t bytes,
                                     unsigned long long due) {
  const char *why = take_while(q, 1, bytes, 0);
  if (must_take(q, 1, bytes, 0)) {   /* a stop left it full: no more re-checks */
    if (release) release(ctx);
    return why;
  }
  rf_recheck_job j = {.run = run, .release = release, .ctx = ctx, .bytes = bytes};
  enqueue(q, &j, due);
  return why;
}

const char *rf_recheck_queue_take(rf_recheck_queue *q, unsigned long long now) {
  return take_while(q, 0, 0, now);
}

int rf_recheck_queue_stop(rf_recheck_queue *q) {
  if (!q->started) return 0;
  rf_recheck_queue_take(q, ~0ULL);
  pthread_mutex_lock(&q->mu);
  q->stop = 1;
  /* After a stop the workers end at their next job, and one still running (seconds of host
   * time on a huge case) is not joined: it is left to the process's end, so q and what it
   * holds must stay (the caller does not free them). */
  const int abandon = rf_dev_interrupted() && q->count > 0;
  q->abandon = abandon;
  pthread_cond_broadcast(&q->work);
  pthread_mutex_unlock(&q->mu);
  q->started = 0;
  if (abandon) {
    for (unsigned i = 0; i < q->threads; i++) pthread_detach(q->thread[i]);
    return 1;
  }
  for (unsigned i = 0; i < q->threads; i++) pthread_join(q->thread[i], NULL);
  pthread_cond_destroy(&q->work);
  pthread_cond_destroy(&q->finished);
  pthread_mutex_destroy(&q->mu);
  return 0;
}

int rf_recheck_bg_start(rf_recheck_bg *b) {
  if (!b->on && b->allowed) b->on = rf_recheck_queue_start(&b->q, 0) == 0;
  return b->on;
}

const char *rf_recheck_bg_take(rf_recheck_bg *b, int all) {
  if (!b->on) return NULL;
  const char *first = NULL;
  if (b->carry[0]) {   /* printed when it was taken */
    snprintf(b->taken, sizeof b->taken, "%s", b->carry);
    b->carry[0] = '\0';
    first = b->taken;
  }
  const double t0 = rf_now_ms();
  const char *why = rf_recheck_queue_take(&b->q, all ? ~0ULL : b->batch);
  if (!all) b->batch++;
  b->ms += rf_now_ms() - t0;
  return first ? first : why;
}

void rf_recheck_bg_carry(rf_recheck_bg *b, const char *why) {
  if (why && !b->carry[0]) snprintf(b->carry, sizeof b->carry, "%s", why);
}

int rf_recheck_bg_stop(rf_recheck_bg *b) {
  if (!b->on) return 0;
  b->on = 0;
  return rf_recheck_queue_stop(&b->q);
}
