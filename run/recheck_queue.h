/* The host re-checks of device-made 1-D answers (dev_answers.c) and of softmax verdict
 * records (recheck_rows.c: softmax and the log ops) on background threads, off the batch's critical path (issue
 * 12): the GPU goes on with the next batches while up to RF_RECHECK_THREADS host threads
 * make the sampled cases' inputs and exact answers again and compare them with the device's.
 *
 * Deterministic: when a re-check's result is looked at depends neither on the threads' speed
 * nor on their number. Each job is due RF_RECHECK_LAG batches after it was queued; the
 * runner takes every due job at the start of a batch's collection (waiting for it if the
 * threads are behind), the oldest job early when the queue is full (RF_RECHECK_QUEUE jobs:
 * bounded memory), and every job at the drain (the end of a sweep, a fuzz campaign's exit).
 * Each disagreement is printed on stderr when it is taken ("... (found by the background
 * re-check)"). One taken at a batch is that batch's harness failure, with the message the
 * synchronous re-check gives (it names the case that disagreed); taken at the drain, the
 * caller reports it (cli/cli_sweep.c: on stderr, exit status 1; fuzz/fuzz_target.c: on
 * stderr with the case, then abort).
 * Not thread-safe: one runner's thread pushes and takes. */
#ifndef RF_RECHECK_QUEUE_H
#define RF_RECHECK_QUEUE_H
#include <pthread.h>
#include <stddef.h>
#include "model/case.h"
#include "kernels/harness/oracle_device.h"

#define RF_RECHECK_QUEUE 64  /* jobs in flight at most (a ring of small records). A long lag
                                (below) keeps many jobs in flight: 64 covers 4,096 batches at
                                the default rate of 1 case in 64 */
#define RF_RECHECK_BYTES ((size_t)2 << 30)   /* what the queued jobs hold at most (input copies
                                and copied outputs): a push that would pass it takes the oldest
                                jobs first, so memory is bounded whatever the queue's length */
#define RF_RECHECK_THREADS 8 /* workers at most (recheck_queue.c: worker_count: the cores less
                                one). A row op's job judges every variant's output again: a
                                2^22-element softmax case takes seconds of one host thread, so
                                on the H200's 16-core host 4 workers fell behind (fifth GPU
                                session) */
#define RF_RECHECK_LAG 256   /* batches from queueing to taking, for a small case. In fuzzing a
                                batch is one execution: at 1,000 a second a lag of 64 gave a
                                2^22 case's re-check (~80 ms on the H200's host) 64 ms, and the
                                pusher waited 126-163 us an execution for it (docs/RESULTS.md,
                                fourth GPU session) */
#define RF_RECHECK_LAG_ELEMS 512   /* and one batch more for every 512 elements of the case: a
                                job's host time grows with its size (a whole row-op case judged
                                again takes up to seconds at 2^22), and with one lag for all
                                sizes the fuzz loop still waited 87 us an execution for the
                                big ones at ~1,500 executions/s (seventh GPU session). 2^22
                                elements: 8,448 batches, ~2.8 s at 3,000 a second */

/* The batch at which a job queued at batch `now` for a case of `elems` elements is taken. */
static inline unsigned long long rf_recheck_due(unsigned long long now, uint64_t elems) {
  return now + RF_RECHECK_LAG + elems / RF_RECHECK_LAG_ELEMS;
}

/* Another kind of re-check (dev_verdicts.c: a softmax batch's verdicts): run on the thread
 * fills why ("" when the device was right); release, on the pusher's thread when the job is
 * taken, frees ctx. */
typedef void (*rf_recheck_fn)(void *ctx, char *why, size_t len);
typedef void (*rf_recheck_release_fn)(void *ctx);

typedef struct {
  rf_recheck_fn run;            /* NULL: the device oracle's answer below */
  rf_recheck_release_fn release;
  void *ctx;
  rf_case c;
  rf_oracle_dev_out dev;        /* the device's answer, as the runner will use it */
  float *x;                     /* the input when the host made it (a copy), else NULL */
  uint64_t elems;
  unsigned long long due;       /* the batch number at which it is taken */
  size_t bytes;                 /* what it holds (x, or the caller's ctx): RF_RECHECK_BYTES */
  int done;                     /* set by the thread under the lock */
  char why[512];                /* the harness failure, or "" when the answers agree */
  double ms;                    /* the thread's time on it */
} rf_recheck_job;

typedef struct {
  pthread_t thread[RF_RECHECK_THREADS];
  unsigned threads;             /* workers started */
  pthread_mutex_t mu;
  pthread_cond_t work, finished;
  int started, stop;
  int abandon;                  /* a stop (rf_dev_interrupt): workers end at their next job */
  int left_noted;               /* "stopped with N re-checks not finished" said once */
  rf_recheck_job job[RF_RECHECK_QUEUE];
  size_t head, count, next;     /* ring: oldest, jobs in it, next for the thread */
  size_t bytes;                 /* held by the jobs in it */
  /* Totals: device-oracle jobs taken that agreed, the thread's time (every job), and the
   * pusher's waits for it. */
  unsigned long long agreed;
  double ms_thread, ms_wait;
  char why[512];                /* the last harness failure taken */
} rf_recheck_queue;

/* The host's answer for c on input x against the device's d: 0 when equal, else -1 with the
 * harness failure in why (the one message for the synchronous and background re-checks). */
int rf_recheck_compare(const rf_case *c, const float *x, uint64_t elems,
                       const rf_oracle_dev_out *d, char *why, size_t len);

/* Starts `threads` workers (at most RF_RECHECK_THREADS; 0: the cores less one, at most that).
 * 0, or -1 when no thread can start or MPFR is not thread-safe (the caller then
 * re-checks synchronously). */
int rf_recheck_queue_start(rf_recheck_queue *q, unsigned threads);
/* Queues a re-check of case c (x: its host input, copied, or NULL when made on the device)
 * against the device answer dev, due at batch `due` (rf_recheck_due). When the queue is full,
 * or the new job's bytes would take it past RF_RECHECK_BYTES, the oldest jobs are taken first
 * until it fits: the first harness failure among them (or NULL) is returned, as by
 * rf_recheck_queue_take.
 * *oom is set when the input copy cannot be allocated (nothing queued). */
const char *rf_recheck_queue_push(rf_recheck_queue *q, const rf_case *c, const float *x,
                                  uint64_t elems, const rf_oracle_dev_out *dev,
                                  unsigned long long due, int *oom);
/* Queues run(ctx) (release(ctx) when it is taken), ctx holding `bytes`, as
 * rf_recheck_queue_push does. */
const char *rf_recheck_queue_push_fn(rf_recheck_queue *q, rf_recheck_fn run,
                                     rf_recheck_release_fn release, void *ctx, size_t bytes,
                                     unsigned long long due);
/* Takes every job due at batch `now` or before (all of them when now is ~0ULL), waiting for
 * the thread where needed; the first harness failure among them (a static buffer, valid
 * until the next call), or NULL. After a stop (rf_dev_interrupt) no wait goes on: the jobs
 * not done stay in the queue, not results, and stderr says how many once. */
const char *rf_recheck_queue_take(rf_recheck_queue *q, unsigned long long now);
/* Finishes every job, stops the threads: 0. After a stop (rf_dev_interrupt) with jobs not
 * done: the threads are left to end at the process's exit (a huge case's re-check takes
 * seconds), and 1: then q, and what holds it, must not be freed. */
int rf_recheck_queue_stop(rf_recheck_queue *q);

/* The runner's background re-check session (rf_runner_recheck_background): the queue while it
 * runs, the batch clock its jobs are due by, and a failure carried to the next batch. The
 * device answers (dev_answers.c) and the row verdicts (recheck_rows.c) push to it; the runner
 * starts, takes at each batch, drains and stops it. Only the caller's thread touches it. */
typedef struct {
  int allowed;                  /* REDFUZZ_RECHECK_BACKGROUND, with a sampling rate */
  int on;
  rf_recheck_queue q;
  unsigned long long batch;     /* batches collected since it started (its clock) */
  char carry[512];              /* a failure taken while queueing a row re-check: the next
                                   batch's (its take returns it first) */
  char taken[512];              /* the carried failure, as returned */
  double ms;                    /* the caller's time on it: pushes, waits, input copies */
} rf_recheck_bg;

/* Starts the queue once (when allowed); whether it runs. */
int rf_recheck_bg_start(rf_recheck_bg *b);
/* A batch's take (all = 0: the jobs due at its clock, which then advances) or the drain
 * (all = 1: every job): the carried failure first, else the first taken, else NULL. */
const char *rf_recheck_bg_take(rf_recheck_bg *b, int all);
/* A failure taken while pushing a row re-check (its job is not this batch's): kept for the
 * next take, unless one is kept already. */
void rf_recheck_bg_carry(rf_recheck_bg *b, const char *why);
int rf_recheck_bg_stop(rf_recheck_bg *b);   /* rf_recheck_queue_stop's 1: b must stay */
#endif
