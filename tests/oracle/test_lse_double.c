/* The double log oracle (oracle/logsumexp_double.h) against the MPFR one (logsumexp.h):
 * - honest margins: on rows of every input distribution (model/gen.h, cols 1..4096) and on
 *   hand-made rows (deep tails, the -745.25 cut, differences inexact in double, spreads of
 *   ±10^4, -inf entries, cancellation near lse = 0, huge values), MPFR's lse, log_s, wd and
 *   y_j all lie in the intervals the double row gives (rf_lse_double_range,
 *   rf_lse_double_rows); the largest |double - MPFR| / margin is printed;
 * - refusals: exactly the special rows (NaN, +inf, no finite entry, empty); rows of one finite
 *   entry are exact, the MPFR row bit for bit;
 * - planted errors: an output 2^-10 beyond its allowed error (from the MPFR row) must be
 *   decided FAIL and one 2^-10 inside PASS by the double judge (rf_lse_check_range over the
 *   margins); at the float boundary itself the double judge may say UNSURE but never
 *   contradicts MPFR, and the judge's quick test (rf_lse_surely_within) accepts the errors
 *   2^-10 inside and none beyond; an oracle planted off by twice its margin is caught;
 * - glibc's log measured against MPFR in ulps, against RF_LSE_DOUBLE_LOG_ULPS. */
#include <float.h>
#include <math.h>
#include <stdio.h>   /* before mpfr.h */
#include <stdlib.h>
#include <mpfr.h>
#include "model/gen.h"
#include "oracle/logsumexp_double.h"
#include "oracle_testlib.h"
#include "rf_test.h"

#define CMAX 4096

static float x[CMAX * 3];
static double y_d[CMAX], y_m[CMAX];

static double unit(uint64_t *st) { return (double)(tl_next(st) >> 11) * 0x1p-53; }
static float uni(uint64_t *st, double lo, double hi) { return (float)(lo + (hi - lo) * unit(st)); }
static uint32_t random_cols(uint64_t *st) { /* log-uniform in 1..CMAX */
  uint32_t C = (uint32_t)exp(log((double)CMAX) * unit(st));
  return C < 1 ? 1 : C > CMAX ? CMAX : C;
}

static int special_row(const float *xr, uint32_t C) {
  int finite = 0;
  for (uint32_t j = 0; j < C; j++) {
    if (isnan(xr[j]) || xr[j] == INFINITY) return 1;
    finite |= isfinite(xr[j]) != 0;
  }
  return !finite;
}

/* v's margin used: |v - want| / (err_L + 2^-52 |v|); 0 for equal values. */
static double used(const rf_lse_margin *mg, double v, double want) {
  double d = fabs(v - want);
  return d == 0 ? 0 : d / (mg->err_L + 0x1p-52 * fabs(v));
}
static int in_range(const rf_lse_margin *mg, double v, double want) {
  double lo, hi;
  rf_lse_double_range(mg, v, &lo, &hi);
  return lo <= want && want <= hi;
}

/* One row both ways; 1 when every MPFR value lies in the double row's intervals (or the row
 * is refused exactly when it is special). *worst gets the largest margin used. */
static int honest_row(const float *xr, uint32_t C, double *worst, const char *what) {
  rf_lse_row rd, rm, lo, hi;
  rf_lse_margin mg;
  int k = rf_oracle_lse_row_double(xr, C, &rd, &mg, y_d);
  rf_oracle_lse_row(xr, C, &rm, y_m);
  if ((k < 0) != special_row(xr, C)) {
    fprintf(stderr, "%s C=%u: refused %d on a row that is %sspecial\n", what, C, k < 0,
            special_row(xr, C) ? "" : "not ");
    return 0;
  }
  if (k < 0) return 1;
  if (k == 1) {   /* exact: the MPFR row itself, bit for bit */
    int same = rd.lse == rm.lse && rd.log_s == rm.log_s && rd.wd == rm.wd && rd.m == rm.m &&
               signbit(rd.lse) == signbit(rm.lse);
    for (uint32_t j = 0; j < C; j++) same &= y_d[j] == y_m[j] && signbit(y_d[j]) == signbit(y_m[j]);
    if (!same) fprintf(stderr, "%s C=%u: an exact row differs from MPFR's\n", what, C);
    return same;
  }
  rf_lse_double_rows(&rd, &mg, &lo, &hi);
  int ok = in_range(&mg, rd.lse, rm.lse) && lo.lse <= fabs(rm.lse) && fabs(rm.lse) <= hi.lse &&
           lo.log_s <= rm.log_s && rm.log_s <= hi.log_s && mg.wd_lo <= rm.wd &&
           rm.wd <= mg.wd_hi && rd.m == rm.m;
  double q = used(&mg, rd.lse, rm.lse);
  for (uint32_t j = 0; j < C; j++) {
    if (!isfinite(y_m[j])) {
      ok &= y_d[j] == y_m[j];   /* -inf at -inf entries, exactly */
      continue;
    }
    ok &= in_range(&mg, y_d[j], y_m[j]);
    double qj = used(&mg, y_d[j], y_m[j]);
    q = qj > q ? qj : q;
  }
  if (!ok)
    fprintf(stderr, "%s C=%u: MPFR outside the margins: lse %.17g / %.17g, log_s %.17g / %.17g "
            "(err_L %.3g), wd %.17g in [%.17g, %.17g]\n", what, C, rd.lse, rm.lse, rd.log_s,
            rm.log_s, mg.err_L, rm.wd, mg.wd_lo, mg.wd_hi);
  if (q > *worst) *worst = q;
  return ok;
}

static void test_generated_rows(void) {
  uint64_t st = 1618;
  int bad = 0;
  long rows = 0;
  printf("double log oracle vs MPFR: largest |double - MPFR| / margin per distribution\n");
  for (int d = 0; d < RF_DIST_COUNT; d++) {
    double worst = 0;
    for (int k = 0; k < 10; k++) {
      uint32_t C = random_cols(&st);
      rf_case c;
      rf_case_default(&c);
      c.op = RF_OP_LOGSOFTMAX;
      c.n = 0;
      c.rows = 3;
      c.cols = C;
      c.dist = (rf_dist)d;
      c.seed = tl_next(&st);
      rf_generate(&c, x);
      for (uint32_t r = 0; r < 3; r++, rows++)
        bad += !honest_row(x + (size_t)r * C, C, &worst, rf_dist_name(c.dist));
    }
    printf("  %-14s %.3g\n", rf_dist_name((rf_dist)d), worst);
  }
  CHECK_MSG(bad == 0, "%d of %ld generated rows", bad, rows);
}

enum { H_DEEP, H_CUT, H_INEXACT_D, H_SPREAD, H_NEG_INF, H_CANCEL, H_HUGE, H_COUNT };
static const char *hand_name[H_COUNT] = {"deep [-760,0]", "cut -745.25", "inexact x - m",
                                         "spread +-1e4", "-inf sprinkled", "cancellation",
                                         "huge +-FLT_MAX"};
static void hand_row(int kind, float *xr, uint32_t C, uint64_t *st) {
  for (uint32_t j = 0; j < C; j++) {
    switch (kind) {
    case H_DEEP: xr[j] = uni(st, -760, 0); break;
    case H_CUT: xr[j] = j == 0 ? 0.0f : -745.25f + uni(st, -0.01, 0.01); break;
    /* the maximum in [600, 708), half the rest tiny: x_j - m needs ~63 bits */
    case H_INEXACT_D:
      xr[j] = j == 0 ? uni(st, 600, 708) : j % 2 ? 0x1p-30f * uni(st, -1, 1) : uni(st, 0, 600);
      break;
    case H_SPREAD: xr[j] = uni(st, -1e4, 1e4); break;
    case H_NEG_INF: xr[j] = j == 0 || tl_below(st, 3) ? uni(st, -10, 10) : -INFINITY; break;
    /* lse = log Σ exp(t_j) - log C ~ mean t: cancellation near 0 */
    case H_CANCEL: xr[j] = (float)(uni(st, -0x1p-14, 0x1p-14) - log((double)C)); break;
    case H_HUGE: xr[j] = tl_below(st, 2) ? FLT_MAX * uni(st, 0.5, 1) : -FLT_MAX * uni(st, 0, 1); break;
    }
  }
}

static void test_hand_rows(void) {
  uint64_t st = 31415;
  for (int h = 0; h < H_COUNT; h++) {
    double worst = 0;
    int bad = 0;
    for (int k = 0; k < 16; k++) {
      uint32_t C = 1 + random_cols(&st) % CMAX;
      hand_row(h, x, C, &st);
      bad += !honest_row(x, C, &worst, hand_name[h]);
    }
    printf("  %-14s %.3g\n", hand_name[h], worst);
    CHECK_MSG(bad == 0, "%s: %d rows", hand_name[h], bad);
  }
}

/* Refusals and exact entries. */
static void test_policy(void) {
  rf_lse_row r;
  rf_lse_margin mg;
  float nan_row[3] = {1, NAN, 2}, pinf_row[3] = {1, INFINITY, 2};
  float ninf_row[2] = {-INFINITY, -INFINITY}, mixed[3] = {-INFINITY, 2, -INFINITY};
  CHECK(rf_oracle_lse_row_double(nan_row, 3, &r, &mg, y_d) < 0);
  CHECK(rf_oracle_lse_row_double(pinf_row, 3, &r, &mg, y_d) < 0);
  CHECK(rf_oracle_lse_row_double(ninf_row, 2, &r, &mg, y_d) < 0);
  CHECK(rf_oracle_lse_row_double(x, 0, &r, &mg, NULL) < 0);
  /* a lone finite element: exact (returns 1), the MPFR row itself */
  rf_lse_row rm;
  CHECK(rf_oracle_lse_row_double(mixed, 3, &r, &mg, y_d) == 1);
  rf_oracle_lse_row(mixed, 3, &rm, y_m);
  CHECK(y_d[0] == -INFINITY && y_d[2] == -INFINITY && r.m == 2.0f);
  CHECK(r.lse == 2.0 && y_d[1] == 0 && r.log_s == 0 && r.wd == rm.wd && rm.lse == 2.0);
  float neg_zero[2] = {-0.0f, -INFINITY};
  CHECK(rf_oracle_lse_row_double(neg_zero, 2, &r, &mg, y_d) == 1);
  rf_oracle_lse_row(neg_zero, 2, &rm, y_m);
  CHECK(r.lse == rm.lse && signbit(r.lse) == signbit(rm.lse) && signbit(y_d[0]) == signbit(y_m[0]));
  /* two finite elements: the margins apply (not exact) */
  float two[2] = {1.0f, -3.0f};
  CHECK(rf_oracle_lse_row_double(two, 2, &r, &mg, y_d) == 0);
  double lo, hi;
  rf_lse_double_range(&mg, r.lse, &lo, &hi);
  CHECK(lo < r.lse && r.lse < hi && hi - lo < 0x1p-45);
}

/* ---- planted errors ------------------------------------------------------------------------- */
static rf_plan plan_seq(uint32_t C) { rf_plan p = {0}; rf_plan_add(&p, RF_LEVEL_CHAIN, C); return p; }
static rf_plan plan_tree(uint32_t C) {
  rf_plan p = {0};
  rf_plan_add(&p, RF_LEVEL_CHAIN, (C + 255) / 256);
  rf_plan_add(&p, RF_LEVEL_LDS, 8);
  return p;
}

/* The double judge's verdict for got against output v of the double row (run/judge_log.c does
 * the same per output). */
static int double_verdict(const rf_plan *p, const float *xr, uint32_t C, int is_lse, float got,
                          double v, const rf_lse_row *rd, const rf_lse_margin *mg) {
  rf_lse_row lo, hi;
  rf_lse_bound b_lo, b_hi;
  rf_lse_double_rows(rd, mg, &lo, &hi);
  rf_bound_lse_row(p, &RF_EXP_HOST_LIBM, &RF_LOG_HOST_LIBM, xr, C, &lo, &b_lo);
  rf_bound_lse_row(p, &RF_EXP_HOST_LIBM, &RF_LOG_HOST_LIBM, xr, C, &hi, &b_hi);
  double w_lo, w_hi;
  rf_lse_double_range(mg, v, &w_lo, &w_hi);
  double a_min = w_lo <= 0 && w_hi >= 0 ? 0 : fmin(fabs(w_lo), fabs(w_hi));
  double a_max = fmax(fabs(w_lo), fabs(w_hi));
  return rf_lse_check_range(got, w_lo, w_hi, rf_lse_allowed_output(&b_lo, is_lse, a_min),
                            rf_lse_allowed_output(&b_hi, is_lse, a_max));
}

static int n_planted, n_boundary, n_boundary_unsure;

/* One output (the lse, or y_0 of a log-softmax row) against errors at 1 ± 2^-10 times its
 * allowed error and at the float boundary, on both sides. */
static void plant(const rf_plan *p, const float *xr, uint32_t C, int is_lse) {
  rf_lse_row rd, rm;
  rf_lse_margin mg;
  if (rf_oracle_lse_row_double(xr, C, &rd, &mg, y_d) != 0) return;   /* exact row (C = 1) */
  rf_oracle_lse_row(xr, C, &rm, y_m);
  rf_lse_bound b;
  rf_bound_lse_row(p, &RF_EXP_HOST_LIBM, &RF_LOG_HOST_LIBM, xr, C, &rm, &b);
  const double want = is_lse ? rm.lse : y_m[0], v = is_lse ? rd.lse : y_d[0];
  const double allowed = rf_lse_allowed_output(&b, is_lse, want);
  double err;
  /* floats dense enough here that 1 ± 2^-10 is resolved */
  if (!(ldexp(1, ilogb(want) - 23) < allowed * 0x1p-13)) return;
  for (int side = -1; side <= 1; side += 2) {
    float out = (float)(want + side * allowed * (1 + 0x1p-10));
    float in = (float)(want + side * allowed * (1 - 0x1p-10));
    CHECK(!rf_lse_check(out, want, allowed, &err) && rf_lse_check(in, want, allowed, &err));
    CHECK(double_verdict(p, xr, C, is_lse, out, v, &rd, &mg) == RF_LSE_FAIL);
    CHECK(double_verdict(p, xr, C, is_lse, in, v, &rd, &mg) == RF_LSE_PASS);
    /* the float boundary: never the opposite of MPFR's verdict */
    float f = (float)(want + side * allowed);
    while (fabs((double)f - want) > allowed) f = nextafterf(f, (float)want);
    float beyond = nextafterf(f, side > 0 ? INFINITY : -INFINITY);
    int kin = double_verdict(p, xr, C, is_lse, f, v, &rd, &mg);
    int kout = double_verdict(p, xr, C, is_lse, beyond, v, &rd, &mg);
    CHECK(kin != RF_LSE_FAIL && kout != RF_LSE_PASS);
    /* the judge's quick test: yes well inside, never beyond */
    const double slope = is_lse ? 0x1p-52 : b.y_rel * (1 + 0x1p-49) + 0x1p-52;
    rf_lse_row lo, hi;
    rf_lse_bound b_lo;
    rf_lse_double_rows(&rd, &mg, &lo, &hi);
    rf_bound_lse_row(p, &RF_EXP_HOST_LIBM, &RF_LOG_HOST_LIBM, xr, C, &lo, &b_lo);
    const double allowed_v = rf_lse_allowed_output(&b_lo, is_lse, v);
    CHECK(rf_lse_surely_within(in, v, mg.err_L, allowed_v, slope));
    CHECK(!rf_lse_surely_within(out, v, mg.err_L, allowed_v, slope));
    CHECK(!rf_lse_surely_within(beyond, v, mg.err_L, allowed_v, slope));
    CHECK(!rf_lse_surely_within(f, v, mg.err_L, allowed_v, slope) || kin == RF_LSE_PASS);
    n_boundary += 2;
    n_boundary_unsure += (kin == RF_LSE_UNSURE) + (kout == RF_LSE_UNSURE);
    n_planted += 2;
  }
  /* An oracle planted off by twice its margin: the true value lies outside the interval the
   * double row claims, which the honesty check above would report. */
  rf_lse_margin off = mg;
  double lo, hi;
  rf_lse_double_range(&mg, v, &lo, &hi);
  double planted = v + 2 * (hi - v) + 0x1p-60;
  rf_lse_double_range(&off, planted, &lo, &hi);
  CHECK(!(lo <= want && want <= hi));
}

static void test_planted(void) {
  uint64_t st = 2024;
  const uint32_t cols[] = {2, 7, 31, 256, 1024, 4096};
  for (size_t k = 0; k < sizeof cols / sizeof *cols; k++) {
    const uint32_t C = cols[k];
    rf_plan ps[2] = {plan_seq(C), plan_tree(C)};
    for (int pi = 0; pi < 2; pi++)
      for (int rep = 0; rep < 4; rep++) {
        /* logsumexp near 0 (cancellation: dense floats, an absolute bound) */
        hand_row(H_CANCEL, x, C, &st);
        plant(&ps[pi], x, C, 1);
        /* log-softmax: y_0 = -L for a row whose maximum dominates (L tiny) */
        x[0] = uni(&st, -1, 1);
        for (uint32_t j = 1; j < C; j++) x[j] = x[0] - uni(&st, 18, 30);
        plant(&ps[pi], x, C, 0);
      }
  }
  printf("planted: %d errors at 1 +- 2^-10 of the allowed decided; float boundary: %d of %d "
         "left to MPFR (UNSURE)\n", n_planted, n_boundary_unsure, n_boundary);
  CHECK(n_planted >= 150);
}

/* glibc log in ulps of the exact value (MPFR, 128 bits), on sums in [1, 2^32]. */
static void test_log_ulps(void) {
  uint64_t st = 777;
  mpfr_t v;
  mpfr_init2(v, 128);
  double worst = 0;
  for (int i = 0; i < 200000; i++) {
    double s = i % 2 ? exp2(32 * unit(&st)) : 1 + (double)(tl_next(&st) % 4096) * 0x1p-52;
    if (s == 1) continue;
    mpfr_set_d(v, s, MPFR_RNDN);
    mpfr_log(v, v, MPFR_RNDN);
    double L = mpfr_get_d(v, MPFR_RNDN);
    mpfr_sub_d(v, v, log(s), MPFR_RNDN);
    double q = fabs(mpfr_get_d(v, MPFR_RNDN)) / ldexp(1, ilogb(L) - 52);
    if (q > worst) worst = q;
  }
  mpfr_clear(v);
  printf("glibc log: %.3f ulp at most (%.1f assumed)\n", worst, RF_LSE_DOUBLE_LOG_ULPS);
  CHECK(worst <= RF_LSE_DOUBLE_LOG_ULPS);
}

int main(void) {
  test_generated_rows();
  test_hand_rows();
  test_policy();
  test_planted();
  test_log_ulps();
  mpfr_free_cache();
  return rf_test_done();
}
