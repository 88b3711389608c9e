/* The logsumexp / log-softmax output in a 16-bit type (rf_lse_check_out, docs/TOLERANCES.md
 * "Log-op output in a 16-bit type"): the float32 result within the log-op bound, rounded once
 * more to f16 or bf16, lies in [RN_t(want - allowed), RN_t(want + allowed)].
 *  - Correct results: rows of every distribution, made exact in each 16-bit type by the case
 *    generators (wide spans the type's range, near-overflow its maximum), through the three
 *    float reference pipelines (lse_pipelines.h) and rounded to the type: every output within
 *    its range (no false positive), the -inf of a log-softmax output below -max_t included.
 *  - The range is never wider than the first-order bound allowed + u_t (|want| + allowed) +
 *    2^(emin - p).
 *  - Planted: one value of the type beyond either end of the range is reported.
 *  - Overflow of the type: an exact result beyond f16's threshold 65520 must give +inf, one
 *    below it can not; a log-softmax row {65504, -65504} must give -inf in f16.
 *  - The interval form (rf_lse_check_range_out): its PASS and FAIL agree with the point check
 *    at every want of the interval.
 *  - Cancellation: lse of two f16 elements RN_16(-log 2) is about -2.1e-4; the correct
 *    rounding passes, log s rounded to f16 before m + L (the two-step mutant's 0) does not. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/case.h"
#include "model/dtype.h"
#include "model/dtype_bits.h"
#include "model/gen.h"
#include "oracle/logsumexp.h"
#include "rf_test.h"
#include "lse_pipelines.h"

#define COLS 257

static float x[CMAX];
static double y[CMAX];
static outputs o;

/* The next value of type t above v (v a value of t, not +inf). */
static float type_next_up(rf_dtype t, float v) {
  if (v == -INFINITY) return -(float)rf_dtype_get(t)->max_finite;
  uint16_t h = rf_f32_to_half((uint32_t)t, v);
  if (v == 0) h = 1;
  else if (v > 0) h++;
  else h--;
  return rf_half_to_f32((uint32_t)t, h);
}
static float type_next_down(rf_dtype t, float v) { return -type_next_up(t, -v); }
static float to_type(rf_dtype t, float v) { return rf_half_to_f32((uint32_t)t, rf_f32_to_half((uint32_t)t, v)); }

static double worst;   /* largest err / reach over the correct outputs with a finite range */
static int overflowed, checked, planted;

/* One output: the correct value (the float32 pipeline's, rounded to t) within its range, the
 * range no wider than the first-order bound, one value of t beyond either end outside. */
static int check_one(rf_dtype t, float f32_out, double want, double kernel_bound) {
  const rf_dtype_info *ti = rf_dtype_get(t);
  const double allowed = rf_lse_allowed(kernel_bound, want);
  const float got = to_type(t, f32_out);
  double err, reach;
  const int ok = rf_lse_check_out(got, want, allowed, t, &err, &reach);
  checked++;
  if (!isfinite(want)) return ok;
  rf_lse_range rg;
  rf_lse_out_range(want, allowed, t, &rg);
  if (isinf(got)) overflowed++;
  if (isfinite(rg.lo) && isfinite(rg.hi)) {
    const double first = allowed + ldexp(1, -ti->p) * (fabs(want) + allowed) + ldexp(1, ti->emin - ti->p);
    CHECK_MSG(rg.reach <= first * (1 + 0x1p-40), "%s: range reach %g wider than %g", ti->name,
              rg.reach, first);
    if (reach > 0 && err / reach > worst) worst = err / reach;
  }
  if (rg.hi != INFINITY) {
    CHECK(!rf_lse_check_out(type_next_up(t, (float)rg.hi), want, allowed, t, &err, &reach));
    planted++;
  }
  if (rg.lo != -INFINITY) {
    CHECK(!rf_lse_check_out(type_next_down(t, (float)rg.lo), want, allowed, t, &err, &reach));
    planted++;
  }
  return ok;
}

/* Every output of one pipeline's o against the oracle; 1 when all are within. */
static int row_ok(rf_dtype t, uint32_t C, const rf_lse_row *r, const rf_plan *p) {
  rf_lse_bound b;
  rf_bound_lse_row(p, &RF_EXP_HOST_LIBM, &RF_LOG_HOST_LIBM, x, C, r, &b);
  int ok = check_one(t, o.lse, r->lse, b.lse_bound);
  for (uint32_t j = 0; j < C; j++) {
    const double kb = isfinite(y[j]) ? b.y_abs + b.y_rel * fabs(y[j]) * (1 + 0x1p-50) : 0;
    ok &= check_one(t, o.y[j], y[j], kb);
  }
  return ok;
}

static void every_distribution(void) {
  int rows = 0, fails = 0;
  for (int t = RF_DTYPE_F16; t < RF_DTYPE_COUNT; t++)
    for (int d = 0; d < RF_DIST_COUNT; d++)
      for (uint64_t seed = 1; seed <= 2; seed++) {
        rf_case c;
        rf_case_default(&c);
        c.op = RF_OP_LOGSOFTMAX;
        c.n = 0;
        c.rows = 1;
        c.cols = COLS;
        c.dist = (rf_dist)d;
        c.seed = seed;
        c.dtype = (rf_dtype)t;
        rf_generate(&c, x);
        /* Special rows (NaN, +inf, only -inf) are compared by class, and the pipelines follow
         * logsumexp's rules only: the finite rows (-inf entries included) are the point. */
        int special = !isfinite(row_max(x, COLS));
        for (uint32_t j = 0; j < COLS; j++) special |= isnan(x[j]);
        if (special) continue;
        rf_lse_row r;
        rf_oracle_lse_row(x, COLS, &r, y);
        const rf_plan p1 = plan_seq(COLS), p2 = plan_tree(COLS), p3 = plan_online(COLS);
        seq(x, COLS, 0, &o);
        fails += !row_ok((rf_dtype)t, COLS, &r, &p1);
        tree(x, COLS, &o);
        fails += !row_ok((rf_dtype)t, COLS, &r, &p2);
        online(x, COLS, &o);
        fails += !row_ok((rf_dtype)t, COLS, &r, &p3);
        rows++;
      }
  CHECK_MSG(fails == 0, "%d pipelines exceeded their 16-bit range", fails);
  /* f16 wide rows span +-65504: some log-softmax outputs are below -65520 and must be -inf */
  CHECK(rows > 60 && overflowed > 0 && planted > checked);
  printf("16-bit log-op outputs: %d rows x 3 pipelines, %d outputs, %d overflowed to -inf, "
         "%d planted values caught; worst err/reach %.3g\n", rows, checked, overflowed, planted,
         worst);
  CHECK(worst > 0 && worst <= 1);
}

/* The overflow threshold of f16 (65504 + 16 = 65520, a tie that rounds to +inf). */
static void overflow(void) {
  double err, reach;
  const rf_dtype f16 = RF_DTYPE_F16;
  /* beyond the threshold: +inf required */
  CHECK(rf_lse_check_out(INFINITY, 65530.0, 1e-3, f16, &err, &reach) && reach == INFINITY);
  CHECK(!rf_lse_check_out(65504.0f, 65530.0, 1e-3, f16, &err, &reach));
  /* below it: 65504 required */
  CHECK(rf_lse_check_out(65504.0f, 65515.0, 1e-3, f16, &err, &reach));
  CHECK(!rf_lse_check_out(INFINITY, 65515.0, 1e-3, f16, &err, &reach));
  /* straddling it: either */
  CHECK(rf_lse_check_out(65504.0f, 65519.99, 0.02, f16, &err, &reach));
  CHECK(rf_lse_check_out(INFINITY, 65519.99, 0.02, f16, &err, &reach));
  CHECK(!rf_lse_check_out(-INFINITY, 65519.99, 0.02, f16, &err, &reach));
  /* log-softmax of {65504, -65504}: y_1 = -131008 is beyond -65520: -inf, not -65504 */
  const float row[2] = {65504.0f, -65504.0f};
  memcpy(x, row, sizeof row);
  rf_lse_row r;
  rf_oracle_lse_row(x, 2, &r, y);
  const rf_plan p = plan_seq(2);
  rf_lse_bound b;
  rf_bound_lse_row(&p, &RF_EXP_HOST_LIBM, &RF_LOG_HOST_LIBM, x, 2, &r, &b);
  const double a = rf_lse_allowed(b.y_abs + b.y_rel * fabs(y[1]) * (1 + 0x1p-50), y[1]);
  seq(x, 2, 0, &o);
  CHECK(to_type(f16, o.y[1]) == -INFINITY);
  CHECK(rf_lse_check_out(-INFINITY, y[1], a, f16, &err, &reach));
  CHECK(!rf_lse_check_out(-65504.0f, y[1], a, f16, &err, &reach));
  /* in float32 the same output is finite and -inf would be wrong */
  CHECK(!rf_lse_check_out(-INFINITY, y[1], a, RF_DTYPE_F32, &err, &reach));
}

/* Cancellation near 0: a = RN_16(-log 2) twice, lse = a + log 2 ~ -2.1e-4, where f16's spacing
 * is 2^-23: the one rounding of the float32 result is fine, L rounded to f16 first is not. */
static void cancellation(void) {
  const rf_dtype f16 = RF_DTYPE_F16;
  const float a = to_type(f16, (float)-0.693147180559945309417);
  x[0] = x[1] = a;
  rf_lse_row r;
  rf_oracle_lse_row(x, 2, &r, y);
  const rf_plan p = plan_seq(2);
  rf_lse_bound b;
  rf_bound_lse_row(&p, &RF_EXP_HOST_LIBM, &RF_LOG_HOST_LIBM, x, 2, &r, &b);
  const double allowed = rf_lse_allowed(b.lse_bound, r.lse);
  double err, reach;
  CHECK(fabs(r.lse) > 1e-4 && fabs(r.lse) < 1e-3);
  seq(x, 2, 0, &o);
  CHECK(rf_lse_check_out(to_type(f16, o.lse), r.lse, allowed, f16, &err, &reach));
  CHECK(reach < 1e-6);   /* absolute, at f16's spacing there, not u_16 |L| */
  const float two_step = to_type(f16, a + to_type(f16, logf(2.0f)));
  CHECK(!rf_lse_check_out(two_step, r.lse, allowed, f16, &err, &reach));
}

/* Special wants compare by class in every type. */
static void specials(void) {
  double err, reach;
  for (int t = RF_DTYPE_F16; t < RF_DTYPE_COUNT; t++) {
    CHECK(rf_lse_check_out(NAN, NAN, 0, (rf_dtype)t, &err, &reach));
    CHECK(!rf_lse_check_out(0.0f, NAN, 0, (rf_dtype)t, &err, &reach));
    CHECK(rf_lse_check_out(-INFINITY, -INFINITY, 0, (rf_dtype)t, &err, &reach));
    CHECK(!rf_lse_check_out(-65504.0f, -INFINITY, 0, (rf_dtype)t, &err, &reach));
    CHECK(!rf_lse_check_out(NAN, 1.0, 1e-3, (rf_dtype)t, &err, &reach) && err == INFINITY);
  }
}

/* The interval form (a want known only within [w_lo, w_hi], as a double oracle gives it): a
 * PASS holds for every want of the interval and both allowed errors, a FAIL for none; over
 * wants near 0, near f16's overflow threshold and in between, and values of the type around
 * them. All three answers occur. */
static void interval(void) {
  uint64_t s = 11;
  int n[3] = {0, 0, 0};
  static const double centres[] = {0.0, -2.1e-4, 1.0, -5.5, 300.0, -131008.0, 65515.0, 65519.9};
  for (int t = RF_DTYPE_F16; t < RF_DTYPE_COUNT; t++)
    for (size_t k = 0; k < sizeof centres / sizeof centres[0]; k++)
      for (int i = 0; i < 200; i++) {
        const double v = centres[k] * (1 + 0x1p-10 * (unit(&s) - 0.5));
        const double scale = fmax(fabs(v), 1e-4);
        const double margin = scale * ldexp(unit(&s), -(int)(next_rand(&s) % 30) - 8);
        const double a_lo = scale * ldexp(unit(&s), -(int)(next_rand(&s) % 20) - 6);
        const double a_hi = a_lo * (1 + unit(&s));
        const double w_lo = v - margin, w_hi = v + margin;
        float got = to_type((rf_dtype)t, (float)v);
        for (int step = (int)(next_rand(&s) % 7) - 3; step > 0; step--) got = type_next_up((rf_dtype)t, got);
        for (int step = (int)(next_rand(&s) % 7) - 3; step > 0; step--) got = type_next_down((rf_dtype)t, got);
        const int verdict = rf_lse_check_range_out(got, w_lo, w_hi, a_lo, a_hi, (rf_dtype)t);
        n[verdict + 1]++;
        if (verdict == RF_LSE_OUT_UNSURE) continue;
        for (int j = 0; j <= 16; j++) {
          const double w = w_lo + (w_hi - w_lo) * j / 16;
          if (w < w_lo || w > w_hi) continue;
          for (int a = 0; a < 2; a++) {
            double err, reach;
            const int ok = rf_lse_check_out(got, w, a ? a_hi : a_lo, (rf_dtype)t, &err, &reach);
            CHECK_MSG(ok == (verdict == RF_LSE_OUT_PASS), "%s: got %a, want %a in [%a, %a]: %d",
                      rf_dtype_name((rf_dtype)t), got, w, w_lo, w_hi, verdict);
          }
        }
      }
  printf("interval form: %d unsure, %d fail, %d pass\n", n[0], n[1], n[2]);
  CHECK(n[0] > 0 && n[1] > 0 && n[2] > 0);
  CHECK(rf_lse_check_range_out(NAN, 1, 2, 0.1, 0.1, RF_DTYPE_F16) == RF_LSE_OUT_FAIL);
  CHECK(rf_lse_check_range_out(1.0f, NAN, 2, 0.1, 0.1, RF_DTYPE_F16) == RF_LSE_OUT_UNSURE);
  /* beyond f16's range: -inf passes, -65504 fails */
  CHECK(rf_lse_check_range_out(-INFINITY, -131009.0, -131007.0, 1e-3, 2e-3, RF_DTYPE_F16) ==
        RF_LSE_OUT_PASS);
  CHECK(rf_lse_check_range_out(-65504.0f, -131009.0, -131007.0, 1e-3, 2e-3, RF_DTYPE_F16) ==
        RF_LSE_OUT_FAIL);
}

int main(void) {
  every_distribution();
  interval();
  overflow();
  cancellation();
  specials();
  return rf_test_done();
}
