/* The background re-check queue (run/recheck_queue.h), no device needed:
 *  - a planted difference (one digit of a device answer off by 2^-149) is caught, with the
 *    case named, and every other job agrees;
 *  - when a job's result is taken depends only on the pushes and batch numbers, not on the
 *    thread's speed: a job is taken at its due batch, or early when the queue is full (the
 *    taking batch is computed from the rule and compared), and the drain takes the rest;
 *  - inputs copied (made on the host) and inputs made again by the thread give the same;
 *  - at most RF_RECHECK_QUEUE jobs are in flight;
 *  - all of it the same with one worker thread and with RF_RECHECK_THREADS of them (jobs
 *    then finish out of order; they are still taken in queue order).
 * Runs under ThreadSanitizer in the TSan CI job (label tsan). */
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "run/recheck_queue.h"

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

int main(void) {
  run_with(1);
  run_with(RF_RECHECK_THREADS);
  return rf_test_done();
}
