/* Benchmark pieces (bench.h): timing, medians, byte counts, the 1-D oracle check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "../kernels/device.h"
#include "../kernels/variant.h"
#include "../oracle/exact.h"
#include "../oracle/bounds.h"

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
  if (op == RF_OP_SOFTMAX) return 2.0 * rows * cols * sizeof(float);
  return 4.0 * (double)n + 4.0;
}

double rf_bench_gbps(double bytes, double ms) { return ms > 0 ? bytes / ms / 1e6 : NAN; }

static int same_float(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

static rf_verdict check_sum(const rf_plan *plan, const float *x, uint64_t n, float got,
                            char *detail, size_t len) {
  rf_xsum xs;
  rf_xsum_init(&xs);
  rf_xsum_add(&xs, x, (size_t)n);
  rf_sum_facts facts;
  rf_sum_facts_compute(x, (size_t)n, &facts);
  if (!facts.all_finite) {
    /* Non-finite inputs: the IEEE result is the only right answer. */
    float want = rf_xsum_round_f32(&xs);
    if (same_float(got, want)) return RF_V_PASS;
    snprintf(detail, len, "got %.9g want %.9g (non-finite input)", (double)got, (double)want);
    return isfinite(got) ? RF_V_WRONG : RF_V_NONFINITE;
  }
  rf_sum_bound b;
  rf_bound_sum(plan, &facts, &b);
  if (!isfinite(got)) {
    if (b.overflow_possible) return RF_V_PASS;  /* some orders overflow: accepted */
    snprintf(detail, len, "got %.9g, a finite sum expected", (double)got);
    return RF_V_NONFINITE;
  }
  double err = rf_xsum_abs_err_up(&xs, got);
  if (rf_sum_within(&b, err)) return RF_V_PASS;
  snprintf(detail, len, "got %.9g want %.17g: error %.3g > bound %.3g", (double)got,
           rf_xsum_round_f64(&xs), err, b.bound);
  return RF_V_WRONG;
}

rf_verdict rf_bench_check_1d(rf_op op, const rf_plan *plan, const float *x, uint64_t n,
                             const void *got, char *detail, size_t len) {
  if (len) detail[0] = 0;
  if (op == RF_OP_SUM) return check_sum(plan, x, n, *(const float *)got, detail, len);
  if (op == RF_OP_MAX) {
    float g = *(const float *)got, want = rf_oracle_max(x, (size_t)n);
    if (same_float(g, want)) return RF_V_PASS;
    snprintf(detail, len, "got %.9g want %.9g", (double)g, (double)want);
    /* as rf_judge_max: only a NaN where a number was due is `nonfinite` */
    return isnan(g) && !isnan(want) ? RF_V_NONFINITE : RF_V_WRONG;
  }
  if (op == RF_OP_ARGMAX) {
    const rf_argmax_out *g = got;
    float want_value;
    int64_t want = rf_oracle_argmax(x, (size_t)n, &want_value);
    if (g->index == want && same_float(g->value, want_value)) return RF_V_PASS;
    snprintf(detail, len, "got x[%ld] = %.9g want x[%lld] = %.9g", (long)g->index,
             (double)g->value, (long long)want, (double)want_value);
    return RF_V_WRONG;
  }
  snprintf(detail, len, "%s is not a 1-D reduction", rf_op_name(op));
  return RF_V_WRONG;
}
