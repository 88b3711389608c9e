/* The superaccumulator's exact value against mpfr_sum (correctly rounded, here at a precision
 * that holds every bit of any float sum, so it is the exact sum) on random and adversarial
 * inputs. Both ways in are covered: arrays shorter than 4096 elements are added one at a
 * time, longer ones through the bins. */
#include <float.h>
#include <math.h>
#include <stdio.h>   /* before mpfr.h, for mpfr_fprintf */
#include <stdlib.h>
#include <mpfr.h>
#include "oracle/exact.h"
#include "rf_test.h"
#include "oracle_testlib.h"

#define REF_BITS 512   /* > 2^-149 .. 2^(128 + 64): every float sum is exact at this width */

/* Exact Σ x_i by mpfr_sum. */
static void reference_sum(const float *x, size_t n, mpfr_t out) {
  mpfr_t *v = malloc((n ? n : 1) * sizeof *v);
  mpfr_ptr *p = malloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; i < n; i++) {
    mpfr_init2(v[i], 24);
    mpfr_set_flt(v[i], x[i], MPFR_RNDN);
    p[i] = v[i];
  }
  mpfr_set_prec(out, REF_BITS);
  CHECK(mpfr_sum(out, p, n, MPFR_RNDN) == 0);   /* exact */
  for (size_t i = 0; i < n; i++) mpfr_clear(v[i]);
  free(v);
  free(p);
}

/* 1 when the accumulator holds exactly the sum of x and its roundings are MPFR's. */
static int matches_reference_quiet(const rf_xsum *a, const float *x, size_t n, int quiet) {
  mpfr_t ref, got;
  mpfr_inits2(REF_BITS, ref, got, (mpfr_ptr)0);
  reference_sum(x, n, ref);
  rf_xsum_get(a, got);
  int ok = mpfr_equal_p(ref, got) && rf_xsum_round_f32(a) == mpfr_get_flt(ref, MPFR_RNDN) &&
           rf_xsum_round_f64(a) == mpfr_get_d(ref, MPFR_RNDN);
  if (!ok && !quiet) mpfr_fprintf(stderr, "  want %Ra\n  got  %Ra\n", ref, got);
  mpfr_clears(ref, got, (mpfr_ptr)0);
  return ok;
}

static int matches_reference(const rf_xsum *a, const float *x, size_t n) {
  return matches_reference_quiet(a, x, n, 0);
}

static int check_array(const float *x, size_t n) {
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add(&a, x, n);
  return matches_reference(&a, x, n);
}

static void shuffle(float *x, size_t n, uint64_t *st) {
  for (size_t i = n; i > 1; i--) {
    size_t j = tl_next(st) % i;
    float t = x[i - 1];
    x[i - 1] = x[j];
    x[j] = t;
  }
}

static void test_small_adversarial(void) {
  float c1[] = {0x1p100f, 1.0f, -0x1p100f};
  CHECK(check_array(c1, 3));
  CHECK(rf_oracle_sum(c1, 3) == 1.0f);
  float c2[] = {FLT_MAX, FLT_MAX, -FLT_MAX};
  CHECK(check_array(c2, 3));
  CHECK(rf_oracle_sum(c2, 3) == FLT_MAX);
  float c3[] = {0x1p127f, -0x1p-149f};          /* a borrow through every digit */
  CHECK(check_array(c3, 2));
  float c4[] = {-0x1p127f, 0x1p-149f, -0x1p-149f, 0x1p-149f};
  CHECK(check_array(c4, 4));
  float c5[] = {0x1p-149f, -FLT_MAX, FLT_MAX};
  CHECK(check_array(c5, 3));
  CHECK(rf_oracle_sum(c5, 3) == 0x1p-149f);
  CHECK(check_array(NULL, 0));
  CHECK(rf_oracle_sum(NULL, 0) == 0.0f);
}

static void test_repeated_patterns(void) {
  size_t n = (size_t)1 << 20;
  float *x = malloc((n + 1) * sizeof *x);
  for (size_t i = 0; i < n; i++) x[i] = FLT_MAX;
  CHECK(check_array(x, n));
  CHECK(isinf(rf_oracle_sum(x, n)));
  for (size_t i = 0; i < n; i++) x[i] = 0x1p-149f;   /* many subnormals: 2^-129 exactly */
  CHECK(check_array(x, n));
  CHECK(rf_oracle_sum(x, n) == 0x1p-129f);
  for (size_t i = 0; i <= n; i++) x[i] = (i & 1) ? -1.0f : 1.0f;
  CHECK(check_array(x, n));
  CHECK(rf_oracle_sum(x, n) == 0.0f);
  CHECK(rf_oracle_sum(x, n + 1) == 1.0f);
  free(x);
}

/* Random floats over the whole range, then the same with heavy cancellation: every large
 * value is followed (somewhere) by its negation, leaving a small exact residue. */
static void test_random(void) {
  uint64_t st = 12345;
  size_t cap = 50000;
  float *x = malloc(2 * cap * sizeof *x);
  int bad = 0;
  for (int trial = 0; trial < 60; trial++) {
    size_t n = 1 + tl_below(&st, (uint32_t)cap);
    uint32_t lo = tl_below(&st, 255), hi = lo + tl_below(&st, 255 - lo);
    for (size_t i = 0; i < n; i++) x[i] = tl_float_exp(&st, lo, hi);
    if (!check_array(x, n)) bad++;
    size_t m = n;
    for (size_t i = 0; i < n; i++)
      if (tl_below(&st, 4)) x[m++] = -x[i];
    for (int k = 0; k < 8; k++) x[m++] = tl_float_exp(&st, 0, 20);
    shuffle(x, m, &st);
    if (!check_array(x, m)) bad++;
  }
  CHECK_MSG(bad == 0, "%d random trials differ from mpfr_sum", bad);
  free(x);
}

/* Sizes on both sides of the one-at-a-time / bins switch (4096) and of the 2^20 chunks: after
 * a binned chunk, 100 more elements go one at a time and 5000 more are binned again. */
static void test_size_boundaries(void) {
  static const size_t sizes[] = {1,    7,     4095, 4096, 4097, 65543, ((size_t)1 << 20) + 100,
                                 ((size_t)1 << 20) + 5000};
  size_t cap = ((size_t)1 << 20) + 5000;
  float *x = malloc(cap * sizeof *x);
  uint64_t st = 777;
  for (size_t i = 0; i < cap; i++) x[i] = tl_float_exp(&st, 0, 254);
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    CHECK_MSG(check_array(x, sizes[k]), "n = %zu", sizes[k]);
  free(x);
}

/* add, add1 and split calls agree with one another. */
static void test_add_paths_agree(void) {
  uint64_t st = 99;
  size_t n = 3000;
  float x[3000];
  for (size_t i = 0; i < n; i++) x[i] = tl_float_exp(&st, 0, 254);
  rf_xsum a, b, c;
  rf_xsum_init(&a);
  rf_xsum_init(&b);
  rf_xsum_init(&c);
  rf_xsum_add(&a, x, n);
  for (size_t i = 0; i < n; i++) rf_xsum_add1(&b, x[i]);
  rf_xsum_add(&c, x, 7);
  rf_xsum_add(&c, x + 7, n - 7);
  CHECK(matches_reference(&a, x, n));
  CHECK(matches_reference(&b, x, n));
  CHECK(matches_reference(&c, x, n));
}

/* The comparison itself is sensitive: one unit of 2^-149 more is reported. */
static void test_check_catches_planted_error(void) {
  float x[] = {0x1p100f, 1.0f, -0x1p100f, 0x1p-20f};
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add(&a, x, 4);
  rf_xsum_add1(&a, 0x1p-149f);
  CHECK(!matches_reference_quiet(&a, x, 4, 1));
}

int main(void) {
  test_small_adversarial();
  test_repeated_patterns();
  test_random();
  test_size_boundaries();
  test_add_paths_agree();
  test_check_catches_planted_error();
  return rf_test_done();
}
