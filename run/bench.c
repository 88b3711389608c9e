/* Benchmark pieces (bench.h): timing, medians, byte counts, the 1-D oracle check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "backend.h"
#include "judge.h"
#include "kernels/harness/device.h"
#include "redfuzz/variant.h"
#include "oracle/exact.h"
#include "oracle/bounds.h"

/* The device's pending error if there is one, else `fallback`. */
static int first_error(int fallback) {
  int e = rf_dev_last_error();
  return e ? e : fallback;
}

int rf_bench_time(rf_bench_launch_fn fn, void *ctx, unsigned warmup, unsigned repeat,
                  double *samples) {
  rf_dev_last_error();
  for (unsigned i = 0; i < warmup; i++) {
    int e = fn(ctx);
    if (e) return first_error(e);
  }
  if (rf_dev_sync()) return first_error(-1);
  for (unsigned i = 0; i < repeat; i++) {
    if (rf_dev_timer_start()) return first_error(-1);
    int e = fn(ctx);
    double ms = rf_dev_timer_stop_ms();
    if (e) return first_error(e);
    if (ms < 0) return first_error(-1);
    samples[i] = ms;
  }
  /* An asynchronous fault of the last launch surfaces only here. */
  return first_error(0);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double rf_bench_median(double *v, size_t n) {
  if (n == 0) return NAN;
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double rf_bench_bytes(rf_op op, uint64_t n, uint32_t rows, uint32_t cols) {
  if (op == RF_OP_SOFTMAX || op == RF_OP_LOGSOFTMAX) return 2.0 * rows * cols * sizeof(float);
  if (op == RF_OP_LOGSUMEXP) return ((double)rows * cols + rows) * sizeof(float);
  return 4.0 * (double)n + 4.0;
}

double rf_bench_gbps(double bytes, double ms) { return ms > 0 ? bytes / ms / 1e6 : NAN; }

/* The result through the one judge (judge.h): a timed GPU result is judged exactly as the
 * runner judges it, float-atomic model of the backend included. */
rf_verdict rf_bench_check_1d(rf_op op, const rf_plan *plan, const float *x, uint64_t n,
                             const void *got, char *detail, size_t len) {
  /* The default contract (include/redfuzz/variant.h): the runner's judge holds a variant to
   * its own; this check of a timed result, and of a reference library's (CUB starts its sums
   * from +0), must not raise the false alarms a stricter rule would. */
  const uint32_t contract = 0;
  rf_result res;
  memset(&res, 0, sizeof res);
  if (op == RF_OP_SUM) {
    rf_xsum xs;
    rf_xsum_init(&xs);
    rf_xsum_add(&xs, x, (size_t)n);
    rf_sum_facts facts;
    rf_sum_facts_compute(x, (size_t)n, &facts);
    float g = *(const float *)got;
    rf_judge_sum_exact(&xs, &facts, plan, rf_backend.sum_model, contract, g, &res);
  } else if (op == RF_OP_MAX) {
    float g = *(const float *)got;
    float mv;
    const int64_t mi = rf_oracle_argmax(x, (size_t)n, &mv);
    const rf_maxarg_want w = rf_judge_maxarg_want(mv, mi, rf_oracle_first_nan(x, (size_t)n),
                                                  contract);
    rf_judge_max_exact(w.value, g, &res);   /* its detail: got and want */
  } else if (op == RF_OP_ARGMAX) {
    const rf_argmax_out *g = got;
    float mv;
    const int64_t mi = rf_oracle_argmax(x, (size_t)n, &mv);
    const rf_maxarg_want w = rf_judge_maxarg_want(mv, mi, rf_oracle_first_nan(x, (size_t)n),
                                                  contract);
    const float at_got = g->index >= 0 && (uint64_t)g->index < n ? x[g->index] : NAN;
    rf_judge_argmax_exact(w.value, w.index, g, contract, at_got, &res);
    if (res.verdict != RF_V_PASS)
      snprintf(res.detail, sizeof res.detail, "got x[%ld] = %.9g want x[%lld] = %.9g",
               (long)g->index, (double)g->value, (long long)w.index, (double)w.value);
  } else {
    snprintf(res.detail, sizeof res.detail, "%s is not a 1-D reduction", rf_op_name(op));
    res.verdict = RF_V_WRONG;
  }
  if (len) snprintf(detail, len, "%s", res.verdict == RF_V_PASS ? "" : res.detail);
  return res.verdict;
}
