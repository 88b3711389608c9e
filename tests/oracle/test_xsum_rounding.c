/* The superaccumulator's roundings: ties to even, the binary32 overflow threshold, subnormal
 * results, directed roundings for error and Σ|x|, and the IEEE rules for inf and NaN. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <mpfr.h>
#include "oracle/exact.h"
#include "rf_test.h"
#include "oracle_testlib.h"

static rf_xsum sum_of(const float *x, size_t n) {
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add(&a, x, n);
  return a;
}

static float f32_of(const float *x, size_t n) {
  rf_xsum a = sum_of(x, n);
  return rf_xsum_round_f32(&a);
}

static int same_bits(float a, float b) { return tl_bits(a) == tl_bits(b); }

#define N(arr) (sizeof(arr) / sizeof((arr)[0]))

static void test_ties_to_even(void) {
  float tie_down[] = {1.0f, 0x1p-24f};                  /* 1 + ulp/2: to 1 (even) */
  CHECK(f32_of(tie_down, N(tie_down)) == 1.0f);
  float above[] = {1.0f, 0x1p-24f, 0x1p-149f};          /* just above the tie */
  CHECK(f32_of(above, N(above)) == 1.0f + 0x1p-23f);
  float below[] = {1.0f, 0x1p-24f, -0x1p-149f};
  CHECK(f32_of(below, N(below)) == 1.0f);
  float tie_up[] = {1.0f + 0x1p-23f, 0x1p-24f};         /* odd + ulp/2: up to even */
  CHECK(f32_of(tie_up, N(tie_up)) == 1.0f + 0x1p-22f);
  float neg_tie[] = {-1.0f - 0x1p-23f, -0x1p-24f};
  CHECK(f32_of(neg_tie, N(neg_tie)) == -1.0f - 0x1p-22f);
  float d_tie[] = {1.0f, 0x1p-53f};                     /* the same for double */
  rf_xsum a = sum_of(d_tie, N(d_tie));
  CHECK(rf_xsum_round_f64(&a) == 1.0);
  float d_above[] = {1.0f, 0x1p-53f, 0x1p-149f};
  a = sum_of(d_above, N(d_above));
  CHECK(rf_xsum_round_f64(&a) == 1.0 + 0x1p-52);
  float d_exact[] = {1.0f, 0x1p-30f};
  a = sum_of(d_exact, N(d_exact));
  CHECK(rf_xsum_round_f64(&a) == 1.0 + 0x1p-30);
  CHECK(rf_xsum_round_f32(&a) == 1.0f);
}

/* RN overflows exactly from 2^128 (1 - 2^-25) = FLT_MAX + 2^103 (half an ulp of FLT_MAX). */
static void test_overflow_threshold(void) {
  float at[] = {FLT_MAX, 0x1p103f};
  CHECK(f32_of(at, N(at)) == INFINITY);
  float below[] = {FLT_MAX, 0x1p103f, -0x1p-149f};
  CHECK(f32_of(below, N(below)) == FLT_MAX);
  float neg_at[] = {-FLT_MAX, -0x1p103f};
  CHECK(f32_of(neg_at, N(neg_at)) == -INFINITY);
  float neg_below[] = {-FLT_MAX, -0x1p103f, 0x1p-149f};
  CHECK(f32_of(neg_below, N(neg_below)) == -FLT_MAX);
  rf_xsum a = sum_of(at, N(at));                        /* finite in double */
  CHECK(rf_xsum_round_f64(&a) == 0x1p128 - 0x1p103);
}

/* Float sums are multiples of 2^-149, so subnormal results are exact. */
static void test_subnormal_results(void) {
  float largest_sub[] = {0x1p-126f, -0x1p-149f};
  CHECK(same_bits(f32_of(largest_sub, N(largest_sub)), tl_from_bits(0x007fffffu)));
  float smallest[] = {1.0f, 0x1p-149f, -1.0f};
  CHECK(f32_of(smallest, N(smallest)) == 0x1p-149f);
  float half[] = {0x1p-140f, -0x1p-141f};
  CHECK(f32_of(half, N(half)) == 0x1p-141f);
  float neg[] = {-0x1p-149f, -0x1p-149f, -0x1p-149f};
  CHECK(f32_of(neg, N(neg)) == -0x1p-149f * 3);
}

/* Policy: an exact zero is +0, also for inputs that are all -0 (a kernel's 0.0f identity
 * gives the same). */
static void test_zero_sign(void) {
  float cancel[] = {1.0f, -1.0f};
  CHECK(same_bits(f32_of(cancel, N(cancel)), 0.0f));
  float negzero[] = {-0.0f, -0.0f};
  CHECK(same_bits(f32_of(negzero, N(negzero)), 0.0f));
  CHECK(same_bits(f32_of(NULL, 0), 0.0f));
}

static void test_inf_nan(void) {
  float pinf[] = {1.0f, INFINITY, -FLT_MAX};
  CHECK(f32_of(pinf, N(pinf)) == INFINITY);
  float ninf[] = {-INFINITY, FLT_MAX, -INFINITY};
  CHECK(f32_of(ninf, N(ninf)) == -INFINITY);
  float both[] = {INFINITY, -INFINITY};
  CHECK(isnan(f32_of(both, N(both))));
  float nan[] = {NAN, 1.0f};
  CHECK(isnan(f32_of(nan, N(nan))));
  float nan_inf[] = {INFINITY, -NAN};
  CHECK(isnan(f32_of(nan_inf, N(nan_inf))));
  rf_xsum a = sum_of(pinf, N(pinf));
  CHECK(rf_xsum_round_f64(&a) == INFINITY);
  CHECK(rf_xsum_round_up_f64(&a) == INFINITY);
  CHECK(rf_xsum_abs_err_up(&a, INFINITY) == INFINITY);
  mpfr_t v;
  mpfr_init2(v, 64);
  rf_xsum_get(&a, v);
  CHECK(mpfr_inf_p(v) && mpfr_sgn(v) > 0);
  a = sum_of(both, N(both));
  rf_xsum_get(&a, v);
  CHECK(mpfr_nan_p(v));
  mpfr_clear(v);
}

/* Counts are exact in both paths (short arrays one at a time, long ones binned). */
static void test_special_counts(void) {
  size_t n = 20000;
  float *x = malloc(n * sizeof *x);
  for (size_t i = 0; i < n; i++) x[i] = 1.0f;
  x[5] = INFINITY;
  x[17] = INFINITY;
  x[9000] = -INFINITY;
  x[100] = NAN;
  x[19999] = -NAN;
  x[3] = tl_from_bits(0x7f800001u);                     /* signalling-pattern NaN */
  for (size_t len = 100; len <= n; len += n - 100) {    /* 100 and 20000 */
    rf_xsum a = sum_of(x, len);
    int big = len == n;
    CHECK(a.n_pinf == 2 && a.n_ninf == (big ? 1u : 0u) && a.n_nan == (big ? 3u : 1u));
    CHECK(isnan(rf_xsum_round_f32(&a)));
  }
  x[100] = x[19999] = x[3] = 1.0f;
  rf_xsum a = sum_of(x, n);
  CHECK(a.n_pinf == 2 && a.n_ninf == 1 && a.n_nan == 0 && isnan(rf_xsum_round_f32(&a)));
  x[9000] = 1.0f;
  a = sum_of(x, n);
  CHECK(rf_xsum_round_f32(&a) == INFINITY);
  free(x);
}

static void test_directed(void) {
  /* exact = 1 + 2^-60 + 2^-149: the error against 1.0f needs 90 bits, so RU moves it up. */
  float x[] = {1.0f, 0x1p-60f, 0x1p-149f};
  rf_xsum a = sum_of(x, N(x));
  double err = rf_xsum_abs_err_up(&a, 1.0f);
  CHECK(err == nextafter(0x1p-60, INFINITY));
  CHECK(rf_xsum_abs_err_up(&a, 2.0f) == 1.0 - 0x1p-60);  /* 1 - 2^-60 - 2^-149: RU is this */
  CHECK(rf_xsum_abs_err_up(&a, NAN) == INFINITY);
  CHECK(rf_xsum_round_up_f64(&a) == 1.0 + 0x1p-52);
  float exact[] = {1.0f, 0x1p-30f};
  a = sum_of(exact, N(exact));
  CHECK(rf_xsum_abs_err_up(&a, 1.0f) == 0x1p-30);
  CHECK(rf_xsum_abs_err_up(&a, 1.0f + 0x1p-23f) == 0x1p-23 - 0x1p-30);
  CHECK(rf_xsum_round_up_f64(&a) == 1.0 + 0x1p-30);
  float neg[] = {-1.0f, -0x1p-60f};                     /* towards +inf: -1 */
  a = sum_of(neg, N(neg));
  CHECK(rf_xsum_round_up_f64(&a) == -1.0);
  CHECK(rf_xsum_abs_err_up(&a, -1.0f) == 0x1p-60);
}

static void test_abs(void) {
  float x[] = {-1.0f, 2.0f, -3.0f, -0x1p-149f, INFINITY};
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add_abs(&a, x, 4);
  mpfr_t v;
  mpfr_init2(v, 8);
  rf_xsum_get(&a, v);
  CHECK(mpfr_get_prec(v) >= 152);                       /* 6 + 2^-149 needs 152 bits */
  mpfr_sub_ui(v, v, 6, MPFR_RNDN);
  CHECK(mpfr_cmp_ui_2exp(v, 1, -149) == 0);
  CHECK(rf_xsum_round_up_f64(&a) == nextafter(6.0, INFINITY));
  mpfr_clear(v);
  float ninf[] = {-INFINITY};
  rf_xsum_add_abs(&a, ninf, 1);
  CHECK(a.n_pinf == 1 && a.n_ninf == 0 && rf_xsum_round_up_f64(&a) == INFINITY);
  size_t n = 10000;                                     /* the binned path too */
  float *y = malloc(n * sizeof *y);
  for (size_t i = 0; i < n; i++) y[i] = (i & 1) ? -0.5f : 0.25f;
  rf_xsum_init(&a);
  rf_xsum_add_abs(&a, y, n);
  CHECK(rf_xsum_round_f64(&a) == 3750.0);
  free(y);
}

int main(void) {
  test_ties_to_even();
  test_overflow_threshold();
  test_subnormal_results();
  test_zero_sign();
  test_inf_nan();
  test_special_counts();
  test_directed();
  test_abs();
  return rf_test_done();
}
