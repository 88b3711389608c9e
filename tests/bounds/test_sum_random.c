/* The sum bound over random data: four float summation orders (sequential, pairwise, a
 * 256-lane grid-stride chain + LDS tree, 256-blocks + atomics in random order) never exceed
 * γ_h Σ|x_i| for their plans, over thousands of inputs from six distributions, n = 1..10^5;
 * a result one float beyond the bound (computed independently with MPFR) is reported; a
 * dropped element is caught under the pairwise plan. The exact errors come from the oracle's
 * superaccumulator, cross-checked against mpfr_sum on a sample. */
#include <float.h>
#include <math.h>
#include <stdio.h>   /* before mpfr.h */
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "rf_test.h"

#define NMAX 100000
#define LANES 256
#define TRIALS 3000

static uint64_t next_rand(uint64_t *s) { /* splitmix64 (Steele, Lea, Flood 2014) */
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}
static float unit(uint64_t *s) { return (float)(next_rand(s) >> 40) * 0x1p-24f; } /* [0,1) */
static float with_exp(uint64_t *s, uint32_t lo, uint32_t hi, int any_sign) {
  uint64_t r = next_rand(s);
  uint32_t e = lo + (uint32_t)((r >> 32) % (hi - lo + 1));
  uint32_t b = (uint32_t)(r & (any_sign ? 0x807fffffu : 0x7fffffu)) | (e << 23);
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

enum { D_UNIFORM_POS, D_UNIFORM, D_WIDE, D_CANCEL, D_SUBNORMAL, D_WIDE_POS, D_COUNT };
static const char *dist_name[D_COUNT] = {"uniform[0.5,1)", "uniform[-1,1)", "wide",
                                         "cancellation", "subnormal", "wide-positive"};

static void generate(int d, float *x, size_t n, uint64_t *s) {
  for (size_t i = 0; i < n; i++) {
    switch (d) {
    case D_UNIFORM_POS: x[i] = 0.5f + 0.5f * unit(s); break;
    case D_UNIFORM: x[i] = 2 * unit(s) - 1; break;
    case D_WIDE: x[i] = with_exp(s, 90, 170, 1); break;      /* 2^-37 .. 2^43 */
    case D_WIDE_POS: x[i] = with_exp(s, 100, 160, 0); break;
    case D_SUBNORMAL: x[i] = with_exp(s, 0, 6, 1); break;    /* subnormal and just above */
    case D_CANCEL: /* pairs x, -x(1 + tiny) and rare small terms: Σ x_i << Σ|x_i| */
      if (i % 2 == 0) x[i] = with_exp(s, 120, 140, 1);
      else x[i] = -x[i - 1] * (1 + ((next_rand(s) & 1) ? 0x1p-20f : 0.0f));
      if (next_rand(s) % 64 == 0) x[i] = with_exp(s, 80, 100, 1);
      break;
    }
  }
}

/* The summation orders, each with the plan a kernel of that shape would report. */
static float seq_sum(const float *x, size_t n) {
  float s = x[0];
  for (size_t i = 1; i < n; i++) s += x[i];
  return s;
}
static float pair_sum(const float *x, size_t n) {
  if (n == 1) return x[0];
  return pair_sum(x, n / 2) + pair_sum(x + n / 2, n - n / 2);
}
static float lds_tree(float *v) { /* v[0..LANES): stride halving, as in the seed's v1 */
  for (unsigned stride = LANES / 2; stride > 0; stride >>= 1)
    for (unsigned t = 0; t < stride; t++) v[t] += v[t + stride];
  return v[0];
}
static float lanes_sum(const float *x, size_t n) {
  float v[LANES];
  for (unsigned t = 0; t < LANES; t++) {
    float acc = 0;
    for (size_t i = t; i < n; i += LANES) acc += x[i];
    v[t] = acc;
  }
  return lds_tree(v);
}
static float atomic_blocks_sum(const float *x, size_t n, uint64_t *rng) {
  size_t nb = (n + LANES - 1) / LANES;
  float *part = malloc(nb * sizeof *part);
  for (size_t b = 0; b < nb; b++) {
    float v[LANES];
    for (unsigned t = 0; t < LANES; t++) v[t] = b * LANES + t < n ? x[b * LANES + t] : 0.0f;
    part[b] = lds_tree(v);
  }
  for (size_t i = nb; i > 1; i--) { /* atomics land in any order */
    size_t j = next_rand(rng) % i;
    float t = part[i - 1];
    part[i - 1] = part[j];
    part[j] = t;
  }
  float out = 0;
  for (size_t b = 0; b < nb; b++) out += part[b];
  free(part);
  return out;
}

enum { A_SEQ, A_PAIR, A_LANES, A_ATOMIC, A_COUNT };
static const char *alg_name[A_COUNT] = {"sequential", "pairwise", "lanes+lds", "lds+atomic"};

static rf_plan plan_for(int a, size_t n) {
  rf_plan p;
  memset(&p, 0, sizeof p);
  switch (a) {
  case A_SEQ: rf_plan_add(&p, RF_LEVEL_CHAIN, n - 1); break;
  case A_PAIR: rf_plan_add(&p, RF_LEVEL_LDS, rf_ceil_log2(n)); break;
  case A_LANES:
    rf_plan_add(&p, RF_LEVEL_CHAIN, rf_div_ceil(n, LANES));
    rf_plan_add(&p, RF_LEVEL_LDS, 8);
    break;
  case A_ATOMIC:
    rf_plan_add(&p, RF_LEVEL_LDS, 8);
    rf_plan_add(&p, RF_LEVEL_ATOMIC, rf_div_ceil(n, LANES));
    break;
  }
  return p;
}

/* |exact - approx| rounded up, by mpfr_sum: independent of the superaccumulator. */
static double mpfr_abs_err_up(const float *x, size_t n, float approx) {
  mpfr_t *v = malloc((n + 1) * sizeof *v);
  mpfr_ptr *p = malloc((n + 1) * sizeof *p);
  for (size_t i = 0; i <= n; i++) {
    mpfr_init2(v[i], 24);
    mpfr_set_flt(v[i], i < n ? x[i] : -approx, MPFR_RNDN);
    p[i] = v[i];
  }
  mpfr_t s;
  mpfr_init2(s, 53);
  mpfr_sum(s, p, n + 1, MPFR_RNDA); /* correctly rounded away from zero */
  double e = fabs(mpfr_get_d(s, MPFR_RNDA));
  for (size_t i = 0; i <= n; i++) mpfr_clear(v[i]);
  mpfr_clears(s, (mpfr_ptr)0);
  free(v);
  free(p);
  return e;
}

/* The smallest float above s + bound, by MPFR from the exact sum (not by the bound code). */
static float first_float_beyond(const rf_xsum *xs, double bound) {
  mpfr_t s, t;
  mpfr_init2(s, 2);
  mpfr_init2(t, 1200);
  rf_xsum_get(xs, s);
  mpfr_set(t, s, MPFR_RNDN);        /* exact: 1200 bits hold any float sum */
  mpfr_add_d(t, t, bound, MPFR_RNDN); /* exact at 1200 bits */
  float f = mpfr_get_flt(t, MPFR_RNDU);
  if (mpfr_cmp_d(t, f) == 0) f = nextafterf(f, INFINITY);
  mpfr_clears(s, t, (mpfr_ptr)0);
  return f;
}

int main(void) {
  static float x[NMAX];
  uint64_t rng = 2024;
  double worst[A_COUNT] = {0};
  long over_prob[A_COUNT] = {0}, judged[A_COUNT] = {0};
  int never_exceeds = 1, beyond_caught = 1, edge_passes = 1, mpfr_agrees = 1, drop_caught = 1;
  long mpfr_checked = 0;
  for (int trial = 0; trial < TRIALS; trial++) {
    int d = trial % D_COUNT;
    /* n log-uniform in [1, 10^5] */
    size_t n = (size_t)exp(log(NMAX) * (double)(next_rand(&rng) >> 11) * 0x1p-53);
    if (n < 1) n = 1;
    if (n > NMAX) n = NMAX;
    generate(d, x, n, &rng);
    rf_xsum xs;
    rf_xsum_init(&xs);
    rf_xsum_add(&xs, x, n);
    rf_sum_facts f;
    rf_sum_facts_compute(x, n, &f);
    for (int a = 0; a < A_COUNT; a++) {
      rf_plan plan = plan_for(a, n);
      rf_sum_bound b;
      rf_bound_sum(&plan, &f, &b);
      float got = a == A_SEQ ? seq_sum(x, n) : a == A_PAIR ? pair_sum(x, n)
                : a == A_LANES ? lanes_sum(x, n) : atomic_blocks_sum(x, n, &rng);
      double err = rf_xsum_abs_err_up(&xs, got);
      if (trial % 97 == 0 && a == A_SEQ && n <= 20000) {
        mpfr_agrees &= mpfr_abs_err_up(x, n, got) == err;
        mpfr_checked++;
      }
      if (!rf_sum_within(&b, err)) {
        never_exceeds = 0;
        fprintf(stderr, "trial %d %s n=%zu %s: err %.17g > bound %.17g\n", trial, dist_name[d],
                n, alg_name[a], err, b.bound);
      }
      if (b.bound > 0 && err / b.bound > worst[a]) worst[a] = err / b.bound;
      over_prob[a] += err > b.probabilistic;
      judged[a]++;
      /* Planted: one float beyond ŝ's allowed interval is out, the one before it is in. */
      float beyond = first_float_beyond(&xs, b.bound);
      beyond_caught &= !rf_sum_within(&b, rf_xsum_abs_err_up(&xs, beyond));
      edge_passes &= rf_sum_within(&b, rf_xsum_abs_err_up(&xs, nextafterf(beyond, -INFINITY)));
      /* Planted: the pairwise sum without its last element (>= 0.5) must fail. */
      if (a == A_PAIR && d == D_UNIFORM_POS && n >= 2)
        drop_caught &= !rf_sum_within(&b, rf_xsum_abs_err_up(&xs, pair_sum(x, n - 1)));
    }
  }
  CHECK(never_exceeds);
  CHECK(beyond_caught);
  CHECK(edge_passes);
  CHECK(drop_caught);
  CHECK(mpfr_agrees && mpfr_checked > 10);
  printf("%d trials, n = 1..%d; largest err/bound and share above the probabilistic level:\n",
         TRIALS, NMAX);
  for (int a = 0; a < A_COUNT; a++)
    printf("  %-11s %.3g  %ld/%ld\n", alg_name[a], worst[a], over_prob[a], judged[a]);
  return rf_test_done();
}
