/* Softmax oracle: known values (seed 004's [1000, 1001, 1002]), correct rounding of both
 * outputs against an independent MPFR formula y_j = 1 / Σ_k exp(x_k - x_j) at 600 bits,
 * constant rows (exactly RN(1/C)), -inf entries, the NaN policy, row sums, subnormal
 * outputs, and identical bits for any thread count. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpfr.h>
#include "oracle/exact.h"
#include "rf_test.h"
#include "oracle_testlib.h"

#define N(arr) (sizeof(arr) / sizeof((arr)[0]))
#define REF_BITS 600

/* y_j by a different formula than the oracle's, far more precisely than needed. */
static void reference_y(const float *x, uint32_t cols, uint32_t j, mpfr_t y) {
  mpfr_t d, t, s;
  mpfr_inits2(REF_BITS, d, t, s, (mpfr_ptr)0);
  mpfr_set_zero(s, 1);
  for (uint32_t k = 0; k < cols; k++) {
    mpfr_set_flt(d, x[k], MPFR_RNDN);
    mpfr_set_flt(t, x[j], MPFR_RNDN);
    mpfr_sub(d, d, t, MPFR_RNDN);                   /* exact at 600 bits */
    mpfr_exp(t, d, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
  }
  mpfr_set_prec(y, REF_BITS);
  mpfr_ui_div(y, 1, s, MPFR_RNDN);
  mpfr_clears(d, t, s, (mpfr_ptr)0);
}

/* Σ_k exp(x_k - max) at 600 bits. */
static double reference_exp_sum(const float *x, uint32_t cols) {
  float m = -INFINITY;
  for (uint32_t k = 0; k < cols; k++)
    if (x[k] > m) m = x[k];
  mpfr_t d, t, s;
  mpfr_inits2(REF_BITS, d, t, s, (mpfr_ptr)0);
  mpfr_set_zero(s, 1);
  for (uint32_t k = 0; k < cols; k++) {
    mpfr_set_flt(d, x[k], MPFR_RNDN);
    mpfr_sub_d(d, d, (double)m, MPFR_RNDN);
    mpfr_exp(t, d, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
  }
  double r = mpfr_get_d(s, MPFR_RNDN);
  mpfr_clears(d, t, s, (mpfr_ptr)0);
  return r;
}

/* Every output of the row is the correct rounding of the reference. */
static int row_is_correctly_rounded(const float *x, uint32_t cols) {
  double *ye = malloc(cols * sizeof *ye);
  float *yr = malloc(cols * sizeof *yr);
  double s;
  rf_oracle_softmax_row(x, cols, ye, yr, &s);
  mpfr_t y;
  mpfr_init2(y, REF_BITS);
  int ok = s == reference_exp_sum(x, cols);
  if (!ok) fprintf(stderr, "  exp_sum: got %a, want %a\n", s, reference_exp_sum(x, cols));
  for (uint32_t j = 0; j < cols; j++) {
    reference_y(x, cols, j, y);
    double want_d = mpfr_get_d(y, MPFR_RNDN);       /* MPFR rounds subnormals correctly */
    float want_f = mpfr_get_flt(y, MPFR_RNDN);
    if (ye[j] != want_d || yr[j] != want_f) {
      fprintf(stderr, "  col %u: got %a / %a, want %a / %a\n", j, ye[j], (double)yr[j], want_d,
              (double)want_f);
      ok = 0;
    }
  }
  mpfr_clear(y);
  free(ye);
  free(yr);
  return ok;
}

static void test_seed_example(void) {
  float x[] = {1000.0f, 1001.0f, 1002.0f};
  double y[3], s;
  float yr[3];
  rf_oracle_softmax_row(x, 3, y, yr, &s);
  /* softmax([0, 1, 2]) and 1 + e^-1 + e^-2 to 20 digits (the seed shows 1.5032): RN to
   * double is within 2^-53 relative, the decimals within 1e-20. */
  static const double want[] = {0.09003057317038045800, 0.24472847105479765247,
                                0.66524095577482188953};
  for (int j = 0; j < 3; j++) CHECK(fabs(y[j] - want[j]) <= 0x1p-53 * want[j] + 1e-20);
  CHECK(fabs(s - 1.50321472440805501349) <= 0x1p-53 * 1.5033 + 1e-20);
  CHECK(fabs(yr[2] - 0.66524095577482188953) <= 0x1p-24 * 0.6653);
  CHECK(row_is_correctly_rounded(x, 3));
  float shifted[] = {-1002.0f, -1001.0f, -1000.0f};  /* the same probabilities */
  double y2[3];
  rf_oracle_softmax_row(shifted, 3, y2, NULL, NULL);
  CHECK(y2[0] == y[0] && y2[1] == y[1] && y2[2] == y[2]);
}

static void test_random_rows_correctly_rounded(void) {
  uint64_t st = 8086;
  float x[64];
  int bad = 0;
  for (int t = 0; t < 60; t++) {
    uint32_t cols = 1 + tl_below(&st, 64);
    float scale = (float)(1u << tl_below(&st, 12)) * 0x1p-4f;
    for (uint32_t j = 0; j < cols; j++)
      x[j] = scale * (float)((int32_t)(tl_next(&st) >> 40) - (1 << 23)) * 0x1p-23f;
    if (!row_is_correctly_rounded(x, cols)) bad++;
  }
  CHECK_MSG(bad == 0, "%d random rows not correctly rounded", bad);
}

/* Outputs near and below the normal ranges of float (e^-100) and double (e^-740), tiny and
 * huge differences, a subnormal input. */
static void test_underflowing_outputs(void) {
  float x[] = {0.0f, -100.0f, -740.0f, -745.2f, -1e30f, 0x1p-149f, -88.7f, -103.9f};
  CHECK(row_is_correctly_rounded(x, N(x)));
  float yr[N(x)];
  double ye[N(x)];
  rf_oracle_softmax_row(x, N(x), ye, yr, NULL);
  CHECK(fpclassify(yr[1]) == FP_SUBNORMAL);
  CHECK(fpclassify(ye[2]) == FP_SUBNORMAL);
  CHECK(yr[4] == 0.0f && ye[4] == 0.0);
}

/* Spreads beyond any working precision: S is 1 + something below 2^-2000, and the terms
 * under e^-2000 are dropped with their error counted. Every output must be written. */
static void test_huge_spread(void) {
  float x[] = {0.0f, -1500.0f, -1999.0f, -2001.0f, -5000.0f, -1e6f, -FLT_MAX};
  double y[N(x)], s = NAN;
  float yr[N(x)];
  for (size_t j = 0; j < N(x); j++) {
    y[j] = NAN;
    yr[j] = NAN;
  }
  rf_oracle_softmax_row(x, N(x), y, yr, &s);
  CHECK(y[0] == 1.0 && yr[0] == 1.0f && s == 1.0);
  int zeros = 0;
  for (size_t j = 1; j < N(x); j++) zeros += y[j] == 0.0 && tl_bits(yr[j]) == 0u;
  CHECK(zeros == (int)N(x) - 1);
  CHECK(row_is_correctly_rounded(x, N(x)));
}

static void test_constant_rows(void) {
  static const uint32_t counts[] = {1, 2, 3, 7, 10, 1000, 1024, 4097};
  static const float values[] = {0.0f, 1000.0f, -FLT_MAX, FLT_MAX, 0x1p-149f, -3.5f};
  float *x = malloc(4097 * sizeof *x);
  double *y = malloc(4097 * sizeof *y);
  float *yr = malloc(4097 * sizeof *yr);
  int bad = 0;
  for (size_t c = 0; c < N(counts); c++)
    for (size_t v = 0; v < N(values); v++) {
      uint32_t n = counts[c];
      for (uint32_t j = 0; j < n; j++) x[j] = values[v];
      double s;
      rf_oracle_softmax_row(x, n, y, yr, &s);
      float want_f = 1.0f / (float)n;                /* IEEE division: RN(1/C) */
      double want_d = 1.0 / (double)n;
      for (uint32_t j = 0; j < n; j++)
        if (yr[j] != want_f || y[j] != want_d) bad++;
      if (s != (double)n) bad++;
    }
  CHECK_MSG(bad == 0, "%d constant-row outputs differ from RN(1/C)", bad);
  float one[] = {-7.25f};
  rf_oracle_softmax_row(one, 1, y, yr, NULL);
  CHECK(y[0] == 1.0 && yr[0] == 1.0f);
  free(x);
  free(y);
  free(yr);
}

static void test_minus_infinity(void) {
  float x[] = {0.0f, -INFINITY, 0.0f};
  double y[3], s;
  float yr[3];
  rf_oracle_softmax_row(x, 3, y, yr, &s);
  CHECK(y[0] == 0.5 && y[1] == 0.0 && y[2] == 0.5 && s == 2.0);
  CHECK(yr[0] == 0.5f && tl_bits(yr[1]) == 0u && yr[2] == 0.5f);
  float z[] = {-INFINITY, 5.0f};
  rf_oracle_softmax_row(z, 2, y, yr, &s);
  CHECK(y[0] == 0.0 && y[1] == 1.0 && yr[1] == 1.0f && s == 1.0);
}

/* Policy: NaN or +inf anywhere, or only -inf (0/0), gives NaN in every output. */
static void test_nan_policy(void) {
  float with_nan[] = {1.0f, NAN, 2.0f};
  float with_inf[] = {1.0f, INFINITY, 2.0f};
  float all_ninf[] = {-INFINITY, -INFINITY, -INFINITY};
  const float *rows[] = {with_nan, with_inf, all_ninf};
  for (int r = 0; r < 3; r++) {
    double y[3] = {0, 0, 0}, s = 0;
    float yr[3] = {0, 0, 0};
    rf_oracle_softmax_row(rows[r], 3, y, yr, &s);
    CHECK(isnan(y[0]) && isnan(y[1]) && isnan(y[2]) && isnan(s));
    CHECK(isnan(yr[0]) && isnan(yr[1]) && isnan(yr[2]));
  }
  float lone[] = {-INFINITY};
  double y1 = 0;
  rf_oracle_softmax_row(lone, 1, &y1, NULL, NULL);
  CHECK(isnan(y1));
}

static void test_empty_writes_nothing(void) {
  double y = 42.0, s = 42.0;
  float yr = 42.0f;
  float x = 1.0f;
  rf_oracle_softmax_row(&x, 0, &y, &yr, &s);
  rf_oracle_softmax(&x, 0, 5, &y, &yr, &s, 2);
  rf_oracle_softmax(&x, 5, 0, &y, &yr, &s, 2);
  CHECK(y == 42.0 && yr == 42.0f && s == 42.0);
}

/* |Σ_j y_exact[j] - 1| <= 2^-53 (each output within 2^-53 relative) + C 2^-1075 (underflow),
 * the sum taken exactly; the brief's 2^-50 is looser. */
static void test_row_sums(void) {
  uint32_t rows = 40, cols = 500;
  float *x = malloc((size_t)rows * cols * sizeof *x);
  double *y = malloc((size_t)rows * cols * sizeof *y);
  uint64_t st = 1234;
  for (size_t i = 0; i < (size_t)rows * cols; i++) {
    float shift = (float)((int)((i / cols) % 3) - 1) * 1000.0f;
    x[i] = shift + (float)((int32_t)(tl_next(&st) >> 40) - (1 << 23)) * 0x1p-18f;
  }
  rf_oracle_softmax(x, rows, cols, y, NULL, NULL, 2);
  mpfr_t *v = malloc(cols * sizeof *v);
  mpfr_ptr *p = malloc(cols * sizeof *p);
  for (uint32_t j = 0; j < cols; j++) {
    mpfr_init2(v[j], 53);
    p[j] = v[j];
  }
  mpfr_t sum, bound;
  mpfr_inits2(2200, sum, bound, (mpfr_ptr)0);
  mpfr_set_ui_2exp(bound, 1, -53, MPFR_RNDN);
  mpfr_t tiny;
  mpfr_init2(tiny, 64);
  mpfr_set_ui_2exp(tiny, cols, -1075, MPFR_RNDN);
  mpfr_add(bound, bound, tiny, MPFR_RNDN);           /* exact at 2200 bits */
  int bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    for (uint32_t j = 0; j < cols; j++) mpfr_set_d(v[j], y[(size_t)r * cols + j], MPFR_RNDN);
    mpfr_sum(sum, p, cols, MPFR_RNDN);               /* exact */
    mpfr_sub_ui(sum, sum, 1, MPFR_RNDN);
    if (mpfr_cmpabs(sum, bound) > 0) bad++;
  }
  CHECK_MSG(bad == 0, "%d rows sum further than 2^-53 from 1", bad);
  for (uint32_t j = 0; j < cols; j++) mpfr_clear(v[j]);
  mpfr_clears(sum, bound, tiny, (mpfr_ptr)0);
  free(v);
  free(p);
  free(x);
  free(y);
}

static int same_double_bits(const double *a, const double *b, size_t n) {
  return memcmp(a, b, n * sizeof *a) == 0;
}

static void test_thread_counts_agree(void) {
  uint32_t rows = 37, cols = 129;
  size_t n = (size_t)rows * cols;
  float *x = malloc(n * sizeof *x);
  uint64_t st = 55;
  for (size_t i = 0; i < n; i++) x[i] = tl_float_exp(&st, 120, 140);
  x[3] = -INFINITY;
  x[cols + 5] = NAN;                                 /* row 1 is NaN by policy */
  double *y[3], *s[3];
  float *yr[3];
  static const int threads[] = {1, 2, 0};
  for (int k = 0; k < 3; k++) {
    y[k] = malloc(n * sizeof *y[k]);
    yr[k] = malloc(n * sizeof *yr[k]);
    s[k] = malloc(rows * sizeof *s[k]);
    rf_oracle_softmax(x, rows, cols, y[k], yr[k], s[k], threads[k]);
  }
  for (int k = 1; k < 3; k++) {
    CHECK(same_double_bits(y[0], y[k], n));
    CHECK(memcmp(yr[0], yr[k], n * sizeof *yr[0]) == 0);
    CHECK(same_double_bits(s[0], s[k], rows));
  }
  double *one = malloc(cols * sizeof *one);                  /* and the single-row entry */
  rf_oracle_softmax_row(x + 2 * (size_t)cols, cols, one, NULL, NULL);
  CHECK(same_double_bits(one, y[0] + 2 * (size_t)cols, cols));
  CHECK(isnan(y[0][cols]) && !isnan(y[0][0]));
  free(one);
  for (int k = 0; k < 3; k++) {
    free(y[k]);
    free(yr[k]);
    free(s[k]);
  }
  free(x);
}

int main(void) {
  test_seed_example();
  test_random_rows_correctly_rounded();
  test_underflowing_outputs();
  test_huge_spread();
  test_constant_rows();
  test_minus_infinity();
  test_nan_policy();
  test_empty_writes_nothing();
  test_row_sums();
  test_thread_counts_agree();
  return rf_test_done();
}
