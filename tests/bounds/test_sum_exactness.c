/* The sum bound's exactness tightening: 0 for ones and alternating ±1 (so a dropped element is
 * caught), not 0 once Σ|x_i| passes 2^(24+e); a float sum in any order of data that meet the
 * condition equals the exact sum; the facts (Σ|x|, min_exp, finiteness); non-finite and
 * overflow policy. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "rf_test.h"

static uint64_t next_rand(uint64_t *s) { /* splitmix64 (Steele, Lea, Flood 2014) */
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static rf_plan plan_of(rf_level_kind k1, uint64_t a1, rf_level_kind k2, uint64_t a2) {
  rf_plan p;
  memset(&p, 0, sizeof p);
  rf_plan_add(&p, k1, a1);
  rf_plan_add(&p, k2, a2);
  return p;
}

static float seq_sum(const float *x, size_t n) {
  float s = 0;
  for (size_t i = 0; i < n; i++) s += x[i];
  return s;
}
static float pair_sum(const float *x, size_t n) {
  if (n == 0) return 0;
  if (n == 1) return x[0];
  return pair_sum(x, n / 2) + pair_sum(x + n / 2, n - n / 2);
}

static double abs_err(const float *x, size_t n, float got) {
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add(&a, x, n);
  return rf_xsum_abs_err_up(&a, got);
}

/* ones / alternating of length n: bound 0 for three plans, the correct sum passes and the sum
 * with one element dropped fails. */
static void check_integer_case(const char *name, float first, int alternate, size_t n,
                               int want_exact) {
  float *x = malloc(n * sizeof *x);
  for (size_t i = 0; i < n; i++) x[i] = alternate && (i & 1) ? -first : first;
  rf_sum_facts f;
  rf_sum_facts_compute(x, n, &f);
  CHECK(f.all_finite && f.any_nonzero && f.min_exp == 0 && f.abs_sum_up == (double)n);
  rf_plan plans[3] = {
      plan_of(RF_LEVEL_CHAIN, n - 1, RF_LEVEL_HOST, 0),
      plan_of(RF_LEVEL_LDS, 8, RF_LEVEL_ATOMIC, (n + 255) / 256),
      plan_of(RF_LEVEL_CHAIN, (n + 131071) / 131072, RF_LEVEL_SECOND_KERNEL, 16)};
  for (int k = 0; k < 3; k++) {
    rf_sum_bound b;
    rf_bound_sum(&plans[k], &f, &b);
    CHECK_MSG(b.exact == want_exact && (b.bound == 0) == want_exact,
              "%s n=%zu plan %d: exact %d bound %g", name, n, k, b.exact, b.bound);
    CHECK(!b.overflow_possible);
    float good = k == 0 ? seq_sum(x, n) : pair_sum(x, n);
    CHECK_MSG(rf_sum_within(&b, abs_err(x, n, good)), "%s n=%zu plan %d: correct sum rejected",
              name, n, k);
    if (want_exact) {
      /* The bug the tightening exists for: one element dropped. */
      float dropped = k == 0 ? seq_sum(x, n - 1) : pair_sum(x + 1, n - 1);
      CHECK_MSG(!rf_sum_within(&b, abs_err(x, n, dropped)), "%s n=%zu plan %d: dropped element "
                "not caught", name, n, k);
    }
  }
  free(x);
}

static void test_seed_inputs(void) {
  check_integer_case("ones", 1.0f, 0, 1027, 1);
  check_integer_case("ones", 1.0f, 0, 16777215, 1);
  check_integer_case("ones", 1.0f, 0, 16777216, 1);  /* 2^24 itself is a float */
  check_integer_case("ones", 1.0f, 0, 16777217, 0);  /* Σ = 2^24 + 1 > 2^24 */
  check_integer_case("alternating+", 1.0f, 1, 1027, 1);
  check_integer_case("alternating-", -1.0f, 1, 1027, 1);
  check_integer_case("alternating+", 1.0f, 1, 16777216, 1);
  check_integer_case("alternating-", -1.0f, 1, 16777217, 0);

  /* The float sum of 2^24 + 1 ones really is inexact (2^24), and within the non-zero bound. */
  size_t n = 16777217;
  float *x = malloc(n * sizeof *x);
  for (size_t i = 0; i < n; i++) x[i] = 1.0f;
  rf_sum_facts f;
  rf_sum_facts_compute(x, n, &f);
  rf_plan pw = plan_of(RF_LEVEL_LDS, 25, RF_LEVEL_HOST, 0);
  rf_sum_bound b;
  rf_bound_sum(&pw, &f, &b);
  float s = pair_sum(x, n);
  CHECK(s == 16777216.0f && abs_err(x, n, s) == 1.0 && rf_sum_within(&b, 1.0));
  free(x);
}

/* Integers times 2^e with Σ|x| <= 2^(24+e): float sums in random orders and random trees are
 * exact; at Σ|x| = 2^(24+e) + 2^e the bound is not zero any more. */
static float tree_sum(float *x, size_t n, uint64_t *rng) {
  if (n == 1) return x[0];
  size_t cut = 1 + next_rand(rng) % (n - 1);
  return tree_sum(x, cut, rng) + tree_sum(x + cut, n - cut, rng);
}

static void test_exactness_lemma(void) {
  uint64_t rng = 7;
  enum { N = 4096 };
  static float x[N];
  int all_exact = 1, all_zero_bound = 1;
  for (int trial = 0; trial < 400; trial++) {
    int e = (int)(next_rand(&rng) % 200) - 140; /* 2^e from 2^-140 to 2^59 */
    size_t n = 1 + next_rand(&rng) % N;
    uint64_t budget = (UINT64_C(1) << 24), used = 0;
    for (size_t i = 0; i < n; i++) {
      uint64_t left = budget - used, per = budget / n;
      uint64_t k = left ? next_rand(&rng) % (per < left ? per + 1 : left + 1) : 0;
      if (i == n - 1 && trial % 2) k = left; /* half the trials sit exactly on 2^(24+e) */
      used += k;
      x[i] = ldexpf((float)k, e) * ((next_rand(&rng) & 1) ? -1.0f : 1.0f);
    }
    rf_sum_facts f;
    rf_sum_facts_compute(x, n, &f);
    rf_plan p = plan_of(RF_LEVEL_CHAIN, n, RF_LEVEL_HOST, 0);
    rf_sum_bound b;
    rf_bound_sum(&p, &f, &b);
    all_zero_bound &= b.exact && b.bound == 0;
    rf_xsum a;
    rf_xsum_init(&a);
    rf_xsum_add(&a, x, n);
    float want = rf_xsum_round_f32(&a);
    /* random permutation, then sequential and a random tree */
    for (size_t i = n; i > 1; i--) {
      size_t j = next_rand(&rng) % i;
      float t = x[i - 1];
      x[i - 1] = x[j];
      x[j] = t;
    }
    all_exact &= rf_xsum_abs_err_up(&a, seq_sum(x, n)) == 0;
    all_exact &= rf_xsum_abs_err_up(&a, tree_sum(x, n, &rng)) == 0;
    all_exact &= seq_sum(x, n) == want;
  }
  CHECK(all_zero_bound);
  CHECK(all_exact);

  /* One step past the condition: {2^24 - 1, 2} * 2^e is not exact (2^24 + 1 is no float). */
  float y[2] = {ldexpf(16777215.0f, -30), ldexpf(2.0f, -30)};
  rf_sum_facts f;
  rf_sum_facts_compute(y, 2, &f);
  CHECK(f.min_exp == -30); /* 16777215 is odd */
  rf_plan p = plan_of(RF_LEVEL_CHAIN, 1, RF_LEVEL_HOST, 0);
  rf_sum_bound b;
  rf_bound_sum(&p, &f, &b);
  CHECK(!b.exact && b.bound > 0);
  CHECK(abs_err(y, 2, y[0] + y[1]) > 0 && rf_sum_within(&b, abs_err(y, 2, y[0] + y[1])));
}

static void test_facts(void) {
  rf_sum_facts f;
  float a[] = {0.5f, 0.25f, -0.75f};
  rf_sum_facts_compute(a, 3, &f);
  CHECK(f.min_exp == -2 && f.abs_sum_up == 1.5 && f.any_nonzero && f.all_finite);
  float b[] = {6.0f, 0.0f, -0.0f};
  rf_sum_facts_compute(b, 3, &f);
  CHECK(f.min_exp == 1 && f.abs_sum_up == 6.0);
  float c[] = {0x1p-149f, 0x1.8p-140f};
  rf_sum_facts_compute(c, 2, &f);
  CHECK(f.min_exp == -149);
  float d[] = {FLT_MAX};
  rf_sum_facts_compute(d, 1, &f);
  CHECK(f.min_exp == 104 && f.abs_sum_up == (double)FLT_MAX);
  float z[] = {0.0f, -0.0f};
  rf_sum_facts_compute(z, 2, &f);
  CHECK(!f.any_nonzero && f.min_exp == 0 && f.abs_sum_up == 0 && f.all_finite);
  rf_sum_facts_compute(z, 0, &f);
  CHECK(!f.any_nonzero && f.abs_sum_up == 0);
  float g[] = {1.0f, INFINITY, 2.0f, NAN};
  rf_sum_facts_compute(g, 4, &f);
  CHECK(!f.all_finite && f.abs_sum_up == 3.0);

  /* Σ|x| rounded up: above the exact value, within n 2^-52 of it, for wide random data. */
  uint64_t rng = 99;
  enum { N = 50000 };
  static float w[N];
  int up = 1, tight = 1;
  for (int trial = 0; trial < 20; trial++) {
    for (size_t i = 0; i < N; i++) {
      uint32_t bits = (uint32_t)next_rand(&rng);
      bits = (bits & 0x807fffffu) | ((uint32_t)(1 + next_rand(&rng) % 200) << 23);
      memcpy(&w[i], &bits, sizeof bits);
    }
    rf_sum_facts_compute(w, N, &f);
    rf_xsum xs;
    rf_xsum_init(&xs);
    rf_xsum_add_abs(&xs, w, N);
    double exact_up = rf_xsum_round_up_f64(&xs);
    up &= f.abs_sum_up >= exact_up;
    tight &= f.abs_sum_up <= exact_up * (1 + N * 0x1p-52);
  }
  CHECK(up);
  CHECK(tight);
}

static void test_nonfinite_and_overflow(void) {
  rf_plan p = plan_of(RF_LEVEL_CHAIN, 3, RF_LEVEL_HOST, 0);
  rf_sum_facts f;
  rf_sum_bound b;
  float inf_in[] = {1.0f, INFINITY, 2.0f, 3.0f};
  rf_sum_facts_compute(inf_in, 4, &f);
  rf_bound_sum(&p, &f, &b);
  CHECK(b.bound == 0 && !b.exact && !b.overflow_possible);
  float inf_big[] = {FLT_MAX, -INFINITY, FLT_MAX, 1.0f};
  rf_sum_facts_compute(inf_big, 4, &f);
  rf_bound_sum(&p, &f, &b);
  CHECK(b.bound == 0 && !b.exact && b.overflow_possible);

  /* 2 FLT_MAX: the partial sum overflows in float, and the bound says it may. */
  float big[] = {FLT_MAX, FLT_MAX, -FLT_MAX, 1.0f};
  rf_sum_facts_compute(big, 4, &f);
  rf_bound_sum(&p, &f, &b);
  CHECK(!b.exact && b.overflow_possible && isinf(big[0] + big[1]));
  /* Far from the threshold: no overflow possible, a finite positive bound. */
  float mid[] = {0x1p126f, 1.0f, -0x1p125f, 3.0f};
  rf_sum_facts_compute(mid, 4, &f);
  rf_bound_sum(&p, &f, &b);
  CHECK(!b.exact && !b.overflow_possible && b.bound > 0 && isfinite(b.bound));
  double lam = 4.0 * sqrt(3.0) * 0x1p-24 * f.abs_sum_up; /* λ √h u Σ|x|, h = 3 */
  CHECK(b.probabilistic >= lam * (1 - 0x1p-50) && b.probabilistic <= lam * (1 + 0x1p-40));
  /* Exact near the top: 2 * 0x1.fffffcp126 = FLT_MAX - 2^104 is a float. */
  float top[] = {0x1.fffffcp126f, 0x1.fffffcp126f};
  rf_sum_facts_compute(top, 2, &f);
  rf_bound_sum(&p, &f, &b);
  CHECK(b.exact && b.bound == 0 && !b.overflow_possible && isfinite(top[0] + top[1]));
}

int main(void) {
  test_facts();
  test_seed_inputs();
  test_exactness_lemma();
  test_nonfinite_and_overflow();
  return rf_test_done();
}
