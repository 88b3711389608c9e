/* The bound of a sum accumulated in float32 and rounded once to a 16-bit output type
 * (rf_bound_sum_output, docs/TOLERANCES.md "Inputs and outputs in 16-bit types"):
 *  - a correct computation (float32 sums in index order and pairwise, then one rounding to
 *    the type) always lands in [RN_t(s - B), RN_t(s + B)], over every distribution, several
 *    lengths and seeds, in both 16-bit types;
 *  - the range is never wider than the first-order bound B + u_t (|s| + B) + 2^(emin - p);
 *  - with exact data (B = 0) the range is the single value RN_t(s), so a dropped element shows;
 *  - a value one step of the type beyond either end is outside (the planted error is seen). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/case.h"
#include "model/dtype.h"
#include "model/dtype_bits.h"
#include "model/gen.h"
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "rf_test.h"

static float x[1 << 13];

static float pairwise(const float *v, size_t n) {
  if (n == 1) return v[0];
  return pairwise(v, n / 2) + pairwise(v + n / 2, n - n / 2);
}

/* The next value of type t above v (v finite, a value of t). */
static float type_next_up(rf_dtype t, float v) {
  uint16_t h = rf_f32_to_half((uint32_t)t, v);
  if (v == 0) h = 1;
  else if (v > 0) h++;
  else h--;
  return rf_half_to_f32((uint32_t)t, h);
}

/* Softmax rows in a 16-bit type: a correct float32 row (max, expf, sequential sum, division)
 * rounded to the type stays within the widened bound against MPFR; the widened bound never
 * shrinks the float32 one; a value just beyond an element's allowed error is reported. */
static void test_softmax_output(void) {
  static double y[1024], rel[1024];
  static float yh[1024];
  int rows = 0;
  for (int t = RF_DTYPE_F16; t < RF_DTYPE_COUNT; t++)
    for (int d = 0; d < RF_DIST_COUNT; d++)
      for (uint64_t seed = 1; seed <= 2; seed++) {
        rf_case c;
        rf_case_default(&c);
        c.op = RF_OP_SOFTMAX;
        c.n = 0;
        c.rows = 1;
        c.cols = 257;
        c.dist = (rf_dist)d;
        c.seed = seed;
        c.dtype = (rf_dtype)t;
        rf_generate(&c, x);
        float m = -INFINITY;
        for (uint32_t j = 0; j < c.cols; j++) m = fmaxf(m, x[j]);
        if (!isfinite(m)) continue;
        int has_nan = 0;
        for (uint32_t j = 0; j < c.cols; j++) has_nan |= isnan(x[j]);
        if (has_nan) continue;
        float sum = 0;
        for (uint32_t j = 0; j < c.cols; j++) sum += expf(x[j] - m);
        for (uint32_t j = 0; j < c.cols; j++)
          yh[j] = rf_half_to_f32((uint32_t)t, rf_f32_to_half((uint32_t)t, expf(x[j] - m) / sum));
        rf_oracle_softmax_row(x, c.cols, y, NULL, NULL);
        rf_plan plan;
        memset(&plan, 0, sizeof plan);
        plan.div = RF_DIV_IEEE;
        rf_plan_add(&plan, RF_LEVEL_CHAIN, c.cols);
        rf_softmax_bound b = {.rel = rel};
        rf_bound_softmax_row(&plan, &RF_EXP_HOST_LIBM, x, c.cols, y, &b);
        const double rel0 = rel[0], abs0 = b.abs_floor;
        rf_bound_softmax_output(&b, c.cols, (rf_dtype)t);
        CHECK(rel[0] >= rel0 && b.abs_floor >= abs0);
        for (uint32_t j = 0; j < c.cols; j++)
          CHECK_MSG(rf_softmax_within(&b, j, yh[j], y[j]), "%s %s col %u: %a vs %a",
                    rf_dtype_name((rf_dtype)t), rf_dist_name(c.dist), j, yh[j], y[j]);
        /* planted: element 0 moved just beyond its allowed error */
        const double allowed = rel[0] * y[0] + b.abs_floor;
        const float beyond = (float)(y[0] + allowed * 1.001) ;
        if (beyond > y[0] + allowed) CHECK(!rf_softmax_within(&b, 0, beyond, y[0]));
        rows++;
      }
  printf("16-bit softmax output bound: %d rows checked\n", rows);
}

int main(void) {
  test_softmax_output();
  static const uint64_t lengths[] = {2, 31, 257, 1027, 8191};
  int checked = 0, exact_cases = 0;
  for (int t = RF_DTYPE_F16; t < RF_DTYPE_COUNT; t++) {
    const rf_dtype_info *ti = rf_dtype_get((rf_dtype)t);
    for (int d = 0; d < RF_DIST_COUNT; d++)
      for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
          rf_case c;
          rf_case_default(&c);
          c.dist = (rf_dist)d;
          c.n = lengths[k];
          c.seed = seed;
          c.dtype = (rf_dtype)t;
          rf_generate(&c, x);
          rf_sum_facts f;
          rf_sum_facts_compute(x, c.n, &f);
          if (!f.all_finite || !f.any_nonzero) continue;
          rf_xsum xs;
          rf_xsum_init(&xs);
          rf_xsum_add(&xs, x, c.n);
          const double s = rf_xsum_round_f64(&xs);
          rf_plan plan;
  memset(&plan, 0, sizeof plan);
          rf_plan_add(&plan, RF_LEVEL_CHAIN, c.n);   /* covers both orders below */
          rf_sum_bound b;
          rf_bound_sum(&plan, &f, &b);
          if (b.overflow_possible) continue;
          rf_sum_out_range rg;
          rf_bound_sum_output(&b, s, (rf_dtype)t, &rg);
          float seq = -0.0f;
          for (uint64_t i = 0; i < c.n; i++) seq += x[i];
          const float outs[2] = {seq, pairwise(x, c.n)};
          for (int o = 0; o < 2; o++) {
            const float out = rf_half_to_f32((uint32_t)t, rf_f32_to_half((uint32_t)t, outs[o]));
            CHECK_MSG(out >= rg.lo && out <= rg.hi, "%s %s n %llu: %a outside [%a, %a]",
                      ti->name, rf_dist_name(c.dist), (unsigned long long)c.n, out, rg.lo, rg.hi);
          }
          /* no wider than the first-order bound (finite ends) */
          if (isfinite(rg.lo) && isfinite(rg.hi)) {
            const double first = b.bound + ldexp(1, -ti->p) * (fabs(s) + b.bound) +
                                 ldexp(1, ti->emin - ti->p);
            CHECK_MSG(rg.bound <= first * (1 + 0x1p-40), "%s %s: range %g wider than %g",
                      ti->name, rf_dist_name(c.dist), rg.bound, first);
            /* one step of the type beyond either end is outside */
            CHECK(!(type_next_up((rf_dtype)t, (float)rg.hi) <= rg.hi));
            CHECK(-type_next_up((rf_dtype)t, -(float)rg.lo) < rg.lo);
          }
          if (b.exact) {
            CHECK(rg.lo == rg.hi && rg.lo == rf_dtype_round((rf_dtype)t, s));
            exact_cases++;
          }
          checked++;
        }
  }
  /* exact data: 2051 ones in f16 round to 2052; a dropped element (2050) is outside */
  rf_case c;
  rf_case_default(&c);
  c.dist = RF_DIST_ONES;
  c.n = 2051;
  c.dtype = RF_DTYPE_F16;
  rf_generate(&c, x);
  rf_sum_facts f;
  rf_sum_facts_compute(x, c.n, &f);
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  rf_plan_add(&plan, RF_LEVEL_CHAIN, c.n);
  rf_sum_bound b;
  rf_bound_sum(&plan, &f, &b);
  rf_sum_out_range rg;
  rf_bound_sum_output(&b, 2051.0, RF_DTYPE_F16, &rg);
  CHECK(b.exact && rg.lo == 2052 && rg.hi == 2052);
  CHECK(!(2050.0 >= rg.lo && 2050.0 <= rg.hi));
  /* overflow of the narrow type: 65520 and above round to +inf in f16, which is then the answer */
  rf_sum_bound big = {.bound = 0, .exact = 1};
  rf_bound_sum_output(&big, 65520.0, RF_DTYPE_F16, &rg);
  CHECK(rg.lo == INFINITY && rg.hi == INFINITY && rg.bound == INFINITY);
  big = (rf_sum_bound){.bound = 16.0, .exact = 0};
  rf_bound_sum_output(&big, 65510.0, RF_DTYPE_F16, &rg);
  CHECK(rg.lo == 65504.0 && rg.hi == INFINITY);   /* either is allowed */
  printf("16-bit output bound: %d sums checked (%d exact)\n", checked, exact_cases);
  return rf_test_done();
}
