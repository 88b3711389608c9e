/* The background re-check queue (run/recheck_queue.h), no device needed:
 *  - a planted difference (one digit of a device answer off by 2^-149) is caught, with the
 *    case named, and every other job agrees;
 *  - when a job's result is taken depends only on the pushes and batch numbers, not on the
 *    thread's speed: a job is taken at its due batch, or early when the queue is full (the
 *    taking batch is computed from the rule and compared), and the drain takes the rest;
 *  - inputs copied (made on the host) and inputs made again by the thread give the same;
 *  - at most RF_RECHECK_QUEUE jobs are in flight, and at most RF_RECHECK_BYTES held by them:
 *    a push that would pass it takes the oldest first (push_fn jobs of a third of it);
 *  - a bigger case is due later (rf_recheck_due);
 *  - all of it the same with one worker thread and with RF_RECHECK_THREADS of them (jobs
 *    then finish out of order; they are still taken in queue order);
 *  - a stop (SIGINT or SIGTERM in the CLI) ends every wait for a job at once.
 * Runs under ThreadSanitizer in the TSan CI job (label tsan). */
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "run/recheck_queue.h"
#include "run/clock.h"
#include "kernels/harness/device.h"
#include <stdio.h>
#include <unistd.h>

#define BATCHES 200
#define LAG (2 * RF_RECHECK_QUEUE)   /* long enough for 3 pushes per 2 batches to fill the queue */
#define PLANT_AT 7

static void make_case(rf_case *c, unsigned long long b) {
  rf_case_default(c);
  c->op = RF_OP_SUM;
  c->n = 1000 + b;
  c->dist = (rf_dist)(b % RF_DIST_COUNT);
  c->seed = b;
}

/* The batch at which the rule takes the planted job (the 12th pushed): every due job at the
 * start of a batch, then the oldest early for each push on a full queue. 3 jobs per 2
 * batches fill the queue whatever RF_RECHECK_QUEUE is, so the early rule is exercised. */
static long expected_take(void) {
  unsigned long long due[RF_RECHECK_QUEUE];
  long id[RF_RECHECK_QUEUE];
  size_t head = 0, count = 0;
  long pushed = 0;
  for (unsigned long long b = 0; b < BATCHES; b++) {
    for (; count && due[head] <= b; head = (head + 1) % RF_RECHECK_QUEUE, count--)
      if (id[head] == 11) return (long)b;
    for (int k = 0; k < (b % 2 ? 1 : 2); k++) {
      if (count == RF_RECHECK_QUEUE) {
        if (id[head] == 11) return (long)b;
        head = (head + 1) % RF_RECHECK_QUEUE;
        count--;
      }
      const size_t at = (head + count++) % RF_RECHECK_QUEUE;
      due[at] = b + LAG;
      id[at] = pushed++;
    }
  }
  return -1;
}

static void run_with(unsigned threads) {
  static float x[2000];
  rf_recheck_queue q;
  CHECK(rf_recheck_queue_start(&q, threads) == 0);
  CHECK(q.threads == threads);
  int failures = 0, oom = 0;
  long taken_at = -1;   /* the batch at which the planted job's failure came back */
  size_t max_in_flight = 0;
  for (unsigned long long b = 0; b < BATCHES; b++) {
    if (rf_recheck_queue_take(&q, b)) { failures++; taken_at = (long)b; }
    /* Two jobs on even batches: the queue fills, and full pushes take the oldest early. */
    for (int k = 0; k < (b % 2 ? 1 : 2); k++) {
      rf_case c;
      make_case(&c, b);
      rf_generate(&c, x);
      rf_oracle_dev_out d;
      rf_oracle_dev_host(x, c.n, &d);
      if (b == PLANT_AT && k == 0) d.sum_w[0] ^= 1;
      const char *why = rf_recheck_queue_push(&q, &c, (b + k) & 1 ? x : NULL, c.n, &d, b + LAG, &oom);
      CHECK(!oom);
      if (why) {
        failures++;
        taken_at = (long)b;
        CHECK_MSG(strstr(why, "harness failure: the device oracle disagrees with the host oracle "
                              "(sum digit 0") != NULL && strstr(why, "n=1007 ") != NULL &&
                  strstr(why, "seed=7") != NULL, "%s", why);
      }
      if (q.count > max_in_flight) max_in_flight = q.count;
    }
  }
  if (rf_recheck_queue_take(&q, ~0ULL)) failures++;
  CHECK(q.count == 0);
  /* Taken early: the queue filled before its due batch. */
  CHECK(expected_take() >= 0 && expected_take() < PLANT_AT + LAG);
  CHECK_MSG(taken_at == expected_take(), "the planted job was taken at batch %ld, the rule "
            "says %ld", taken_at, expected_take());
  CHECK(failures == 1);
  const unsigned long long pushed = BATCHES / 2 * 3;
  CHECK_MSG(q.agreed == pushed - 1, "%llu of %llu jobs agreed", q.agreed, pushed);
  CHECK(max_in_flight == RF_RECHECK_QUEUE);
  CHECK(q.ms_thread > 0);
  rf_recheck_queue_stop(&q);
}

/* push_fn jobs: each holds a third of the byte budget and more, so two fit and the third
 * push takes the oldest (its planted failure comes back from that push), whatever the slots. */
static int released;
static void fn_run(void *ctx, char *why, size_t len) {
  if (*(const int *)ctx) snprintf(why, len, "planted failure of job %d", *(const int *)ctx);
}
static void fn_release(void *ctx) { (void)ctx; released++; }

static void bytes_budget(void) {
  rf_recheck_queue q;
  CHECK(rf_recheck_queue_start(&q, 2) == 0);
  static int plant[6] = {0, 1, 0, 0, 0, 0};   /* job 1 fails */
  const size_t third = RF_RECHECK_BYTES / 3 + 1;
  released = 0;
  const char *why[6];
  for (int k = 0; k < 6; k++) {
    why[k] = rf_recheck_queue_push_fn(&q, fn_run, fn_release, &plant[k], third, 1000);
    CHECK_MSG(q.bytes <= RF_RECHECK_BYTES && q.count <= 2, "push %d: %zu bytes in %zu jobs",
              k, q.bytes, q.count);
    CHECK_MSG(released == (k < 2 ? 0 : k - 1), "push %d: %d jobs taken early", k, released);
  }
  /* job 0 taken at push 2, job 1 (the plant) at push 3 */
  CHECK(why[0] == NULL && why[1] == NULL && why[2] == NULL);
  CHECK_MSG(why[3] && strstr(why[3], "planted failure of job 1"), "%s", why[3] ? why[3] : "NULL");
  CHECK(why[4] == NULL && why[5] == NULL);
  CHECK(rf_recheck_queue_take(&q, ~0ULL) == NULL);
  CHECK(q.count == 0 && q.bytes == 0 && released == 6);
  rf_recheck_queue_stop(&q);
  /* The lag grows with the case: a 2^22-element case gets 8,192 batches more than a small one. */
  CHECK(rf_recheck_due(10, 0) == 10 + RF_RECHECK_LAG);
  CHECK(rf_recheck_due(10, UINT64_C(1) << 22) == 10 + RF_RECHECK_LAG + (UINT64_C(1) << 22) / RF_RECHECK_LAG_ELEMS);
}

/* A stop (rf_dev_interrupt) ends the waits: a job that would take 30 s is neither waited for
 * by take nor joined by stop (which says so by returning 1), and a push on the queue it left
 * full is dropped (released, not queued over a running job). Last: the flag stays set. */
static void slow_run(void *ctx, char *why, size_t len) {
  (void)ctx;
  (void)why;
  (void)len;
  sleep(30);
}

static void stop_ends_waits(void) {
  static rf_recheck_queue q;   /* static: after a stop its worker may still use it */
  CHECK(rf_recheck_queue_start(&q, 1) == 0);
  static int plant[RF_RECHECK_QUEUE + 1];
  released = 0;
  for (int k = 0; k < RF_RECHECK_QUEUE; k++)
    rf_recheck_queue_push_fn(&q, slow_run, fn_release, &plant[k], 1, 1000);
  CHECK(q.count == RF_RECHECK_QUEUE);
  rf_dev_interrupt();
  const double t0 = rf_now_ms();
  CHECK(rf_recheck_queue_take(&q, ~0ULL) == NULL);
  CHECK(rf_recheck_queue_push_fn(&q, slow_run, fn_release, &plant[RF_RECHECK_QUEUE], 1, 1000) == NULL);
  CHECK_MSG(released == 1 && q.count == RF_RECHECK_QUEUE, "%d released, %zu queued", released, q.count);
  CHECK(rf_recheck_queue_stop(&q) == 1);
  const double ms = rf_now_ms() - t0;
  CHECK_MSG(ms < 5000, "the stop took %.0f ms (a job takes 30 s)", ms);
  printf("after a stop: take, push and stop returned in %.0f ms\n", ms);
}

int main(void) {
  bytes_budget();
  run_with(1);
  run_with(RF_RECHECK_THREADS);
  stop_ends_waits();
  return rf_test_done();
}
