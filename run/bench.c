/* Benchmark pieces (bench.h): timing, medians, byte counts, the 1-D oracle check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "backend.h"
#include "judge.h"
#include "op_table.h"
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
  /* the input read once, the output written once (by the op table's outputs column) */
  const int outs = rf_op_shape_of(op).outputs;
  if (outs == RF_OUTS_ELEM) return 2.0 * rows * cols * sizeof(float);
  if (outs == RF_OUTS_ROW) return ((double)rows * cols + rows) * sizeof(float);
  return 4.0 * (double)n + 4.0;
}

double rf_bench_gbps(double bytes, double ms) { return ms > 0 ? bytes / ms / 1e6 : NAN; }

/* The result through the one judge (judge.h): a timed GPU result is judged exactly as the
 * runner judges it, float-atomic model of the backend included. */
rf_verdict rf_bench_check_1d(rf_op op, uint32_t index_bits, const rf_plan *plan, const float *x,
                             uint64_t n, const void *got, char *detail, size_t len) {
  /* The default contract (include/redfuzz/variant.h): the runner's judge holds a variant to
   * its own; this check of a timed result, and of a reference library's (CUB starts its sums
   * from +0), must not raise the false alarms a stricter rule would. */
  rf_variant v;
  memset(&v, 0, sizeof v);
  v.op = op;
  v.out_dtype = RF_DTYPE_F32;
  v.contract = 0;
  v.index_bits = index_bits;
  rf_result res;
  memset(&res, 0, sizeof res);
  if (rf_op_has_rows(op) || (unsigned)op >= RF_OP_COUNT) {
    snprintf(res.detail, sizeof res.detail, "%s is not a 1-D reduction", rf_op_name(op));
    res.verdict = RF_V_WRONG;
  } else {
    /* The runner's oracle and judge through the op table, on a one-case batch of the host's
     * input (x, n) and the default contract. */
    rf_case c;
    rf_case_default(&c);
    c.op = op;
    c.n = n;
    oracle_answer o;
    memset(&o, 0, sizeof o);
    rf_compute_oracle(NULL, &c, x, n, &o);
    batch_case bc;
    memset(&bc, 0, sizeof bc);
    bc.c = &c;
    bc.x = x;
    bc.elems = n;
    bc.o = &o;
    pending p;
    memset(&p, 0, sizeof p);
    p.v = &v;
    p.bc = &bc;
    p.res = &res;
    p.plan = *plan;
    rf_op_row_of(op)->judge(NULL, &p, got, &res);
    if (res.verdict != RF_V_PASS && rf_op_shape_of(op).pair) {
      const rf_argmax_out64 g = rf_argmax_read(got, index_bits);
      const rf_maxarg_want w = rf_judge_maxarg_want(o.max_value, o.argmax_index, o.first_nan, 0);
      snprintf(res.detail, sizeof res.detail, "got x[%lld] = %.9g want x[%lld] = %.9g",
               (long long)g.index, (double)g.value, (long long)w.index, (double)w.value);
    }
  }
  if (len) snprintf(detail, len, "%s", res.verdict == RF_V_PASS ? "" : res.detail);
  return res.verdict;
}
