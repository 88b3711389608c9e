/* Softmax checking cost (a program, not a test): prints figures, asserts nothing.
 *   bench_softmax_double [reps] [rows]
 * For cols 1024 and 4096 and the `uniform` and `wide` inputs (model/gen.h), best-of-reps
 * nanoseconds per element of
 *   double  the double oracle, rf_oracle_softmax_row_double;
 *   bound   rf_bound_softmax_row_rel with rel_kernel (what the runner computes per row);
 *   bound0  rf_bound_softmax_row without rel_kernel (the MPFR path's bound);
 *   check   rf_softmax_check of a float kernel's output (3-pass, sequential sum);
 *   mpfr    rf_oracle_softmax_row (one thread, fewer rows), for scale;
 * and how many elements and rows the check left UNSURE (those rows go to MPFR). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/gen.h"
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "oracle/softmax_double.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile double sink;

/* A correct float kernel: max, expf, sequential sum, IEEE division. */
static void kernel(const float *x, uint32_t cols, float *out) {
  float m = -INFINITY, s = 0;
  for (uint32_t j = 0; j < cols; j++) m = fmaxf(m, x[j]);
  for (uint32_t j = 0; j < cols; j++) s += out[j] = expf(x[j] - m);
  for (uint32_t j = 0; j < cols; j++) out[j] /= s;
}

static void run(uint32_t cols, rf_dist dist, int reps, uint32_t rows) {
  rf_case c;
  rf_case_default(&c);
  c.op = RF_OP_SOFTMAX;
  c.n = 0;
  c.rows = rows;
  c.cols = cols;
  c.dist = dist;
  size_t n = (size_t)rows * cols;
  float *x = malloc(n * sizeof *x), *yh = malloc(n * sizeof *yh);
  double *y = malloc(n * sizeof *y), *rel_o = malloc(rows * sizeof *rel_o);
  double *rel = malloc(cols * sizeof *rel), *relk = malloc(cols * sizeof *relk);
  rf_generate(&c, x);
  for (uint32_t r = 0; r < rows; r++) kernel(x + (size_t)r * cols, cols, yh + (size_t)r * cols);
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  rf_plan_add(&plan, RF_LEVEL_CHAIN, cols);

  double best[4] = {1e30, 1e30, 1e30, 1e30};
  long unsure = 0, unsure_rows = 0;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now_s();
    for (uint32_t r = 0; r < rows; r++)
      rel_o[r] = rf_oracle_softmax_row_double(x + (size_t)r * cols, cols, y + (size_t)r * cols);
    double t1 = now_s(), tb = 0, tc = 0, tb0 = 0;
    unsure = unsure_rows = 0;
    for (uint32_t r = 0; r < rows; r++) {
      const float *xr = x + (size_t)r * cols;
      const double *yr = y + (size_t)r * cols;
      rf_softmax_bound b = {.rel = rel, .rel_kernel = relk};
      double s0 = now_s();
      rf_bound_softmax_row_rel(&plan, &RF_EXP_HOST_LIBM, xr, cols, yr, rel_o[r], RF_SM_DOUBLE_ABS,
                               &b);
      double s1 = now_s();
      long u = 0;
      for (uint32_t j = 0; j < cols; j++)
        u += rf_softmax_check(&b, j, yh[(size_t)r * cols + j], yr[j]) == RF_SM_UNSURE;
      double s2 = now_s();
      rf_softmax_bound b0 = {.rel = rel};
      rf_bound_softmax_row(&plan, &RF_EXP_HOST_LIBM, xr, cols, yr, &b0);
      tb0 += now_s() - s2;
      tb += s1 - s0;
      tc += s2 - s1;
      unsure += u;
      unsure_rows += u > 0;
    }
    sink = y[n - 1] + rel[0];
    if (t1 - t0 < best[0]) best[0] = t1 - t0;
    if (tb < best[1]) best[1] = tb;
    if (tb0 < best[2]) best[2] = tb0;
    if (tc < best[3]) best[3] = tc;
  }
  uint32_t mrows = rows < 8 ? rows : 8;
  double t0 = now_s();
  for (uint32_t r = 0; r < mrows; r++)
    rf_oracle_softmax_row(x + (size_t)r * cols, cols, y, NULL, NULL);
  double tm = now_s() - t0;
  double per = 1e9 / (double)n;
  printf("softmax-check cols=%u dist=%s rows=%u double_ns=%.2f bound_ns=%.2f bound0_ns=%.2f "
         "check_ns=%.2f mpfr_ns=%.0f unsure_elems=%ld unsure_rows=%ld\n",
         cols, rf_dist_name(dist), rows, best[0] * per, best[1] * per, best[2] * per,
         best[3] * per, 1e9 * tm / ((double)mrows * cols), unsure, unsure_rows);
  free(x);
  free(yh);
  free(y);
  free(rel_o);
  free(rel);
  free(relk);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  int rows = argc > 2 ? atoi(argv[2]) : 64;
  if (reps < 1) reps = 1;
  if (rows < 1) rows = 1;
  static const uint32_t cols[] = {1024, 4096};
  static const rf_dist dists[] = {RF_DIST_UNIFORM, RF_DIST_WIDE};
  for (int ci = 0; ci < 2; ci++)
    for (int di = 0; di < 2; di++) run(cols[ci], dists[di], reps, (uint32_t)rows);
  mpfr_free_cache();
  return 0;
}
