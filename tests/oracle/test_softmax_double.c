/* The double softmax oracle (oracle/softmax_double.h) against MPFR: on random rows of every
 * input distribution (model/gen.h, cols 1..4096) and on hand-made rows (exps that are
 * subnormal or vanish in double, differences that are inexact in double, the -745.25 cut),
 * every output is within its returned rel (+ RF_SM_DOUBLE_ABS) of the exact value, and the
 * achieved error / allowed is printed. An oracle error of 2 rel y is caught; glibc's exp is
 * measured against the ulp figure the bound assumes; constant rows, non-finite rows and
 * empty rows follow the documented policy. */
#include <float.h>
#include <math.h>
#include <stdio.h>   /* before mpfr.h */
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "model/gen.h"
#include "oracle/softmax_double.h"
#include "oracle_testlib.h"
#include "rf_test.h"

#define CMAX 4096
#define REF_BITS 320   /* x_j - m of two floats is exact (278 bits at most) */

static mpfr_t e_mp[CMAX], s_mp, d_mp, err_mp, allow_mp;
static double y[CMAX];
static float x[CMAX * 3];

static void ref_init(void) {
  for (int j = 0; j < CMAX; j++) mpfr_init2(e_mp[j], REF_BITS);
  mpfr_inits2(REF_BITS, s_mp, d_mp, err_mp, allow_mp, (mpfr_ptr)0);
}
static void ref_clear(void) {
  for (int j = 0; j < CMAX; j++) mpfr_clear(e_mp[j]);
  mpfr_clears(s_mp, d_mp, err_mp, allow_mp, (mpfr_ptr)0);
}

/* Largest |y_j - Y_j| / (rel Y_j + RF_SM_DOUBLE_ABS) over the row, Y_j the exact softmax at
 * REF_BITS (its own error, about C 2^-318 relative, is far below what the test resolves).
 * Above 1: the double oracle broke its bound. */
static double worst_ratio(const float *xr, uint32_t C, const double *yr, double rel) {
  float m = -INFINITY;
  for (uint32_t j = 0; j < C; j++) m = fmaxf(m, xr[j]);
  mpfr_set_zero(s_mp, 1);
  for (uint32_t j = 0; j < C; j++) {
    mpfr_set_flt(d_mp, xr[j], MPFR_RNDN);
    mpfr_sub_d(d_mp, d_mp, (double)m, MPFR_RNDN);     /* exact */
    mpfr_exp(e_mp[j], d_mp, MPFR_RNDN);               /* 0 when below MPFR's range */
    mpfr_add(s_mp, s_mp, e_mp[j], MPFR_RNDN);
  }
  double worst = 0;
  for (uint32_t j = 0; j < C; j++) {
    mpfr_div(e_mp[j], e_mp[j], s_mp, MPFR_RNDN);      /* Y_j */
    mpfr_sub_d(err_mp, e_mp[j], yr[j], MPFR_RNDN);
    mpfr_abs(err_mp, err_mp, MPFR_RNDN);
    mpfr_mul_d(allow_mp, e_mp[j], rel, MPFR_RNDN);
    mpfr_add_d(allow_mp, allow_mp, RF_SM_DOUBLE_ABS, MPFR_RNDN);
    mpfr_div(err_mp, err_mp, allow_mp, MPFR_RNDU);
    double q = mpfr_get_d(err_mp, MPFR_RNDU);
    if (q > worst) worst = q;
  }
  return worst;
}

/* ---- rows ----------------------------------------------------------------------------------- */
static uint32_t random_cols(uint64_t *st) { /* log-uniform in 1..CMAX */
  double r = (double)(tl_next(st) >> 11) * 0x1p-53;
  uint32_t C = (uint32_t)exp(log((double)CMAX) * r);
  return C < 1 ? 1 : C > CMAX ? CMAX : C;
}
static float uni(uint64_t *st, double lo, double hi) {
  return (float)(lo + (hi - lo) * (double)(tl_next(st) >> 11) * 0x1p-53);
}

enum { H_DEEP, H_INEXACT_D, H_CUT, H_SUBNORMAL_EXP, H_SPREAD, H_COUNT };
static const char *hand_name[H_COUNT] = {"deep [-760,0]", "inexact x - m", "cut -745.25",
                                         "exp subnormal", "spread +-1e4"};
static void hand_row(int kind, float *xr, uint32_t C, uint64_t *st) {
  for (uint32_t j = 0; j < C; j++) {
    switch (kind) {
    case H_DEEP: xr[j] = uni(st, -760, 0); break;
    /* the maximum in [600, 708), half the rest small (|x| < 2^-30): x_j - m needs ~63 bits,
     * so d̂ rounds by up to 2^-44 = 2^-53 2^9 (the argument term of rel), and exp(d̂) stays
     * normal */
    case H_INEXACT_D:
      xr[j] = j == 0 ? uni(st, 600, 708) : j % 2 ? 0x1p-30f * uni(st, -1, 1) : uni(st, 0, 600);
      break;
    /* around the deep cut: d̂ just above and below -745.25 (exp(d) < 2^-1074 there) */
    case H_CUT: xr[j] = j == 0 ? 0.0f : -745.25f + uni(st, -0.01, 0.01); break;
    case H_SUBNORMAL_EXP: xr[j] = j == 0 ? 0.0f : uni(st, -745, -700); break;
    case H_SPREAD: xr[j] = uni(st, -1e4, 1e4); break;
    }
  }
}

/* ---- tests ---------------------------------------------------------------------------------- */
static void test_generated_rows(void) {
  uint64_t st = 2718;
  double worst_all = 0, worst_small_c = 0;
  long elems = 0, rows = 0, refused = 0;
  int ok = 1;
  printf("double oracle vs MPFR: largest err / (rel y + abs) per distribution\n");
  for (int d = 0; d < RF_DIST_COUNT; d++) {
    double worst = 0, rel_u_max = 0;
    for (int k = 0; k < 12; k++) {
      uint32_t C = random_cols(&st);
      rf_case c;
      rf_case_default(&c);
      c.op = RF_OP_SOFTMAX;
      c.n = 0;
      c.rows = 3; /* shifted-rows: x, x + 1000, x - 1000 */
      c.cols = C;
      c.dist = (rf_dist)d;
      c.seed = tl_next(&st);
      rf_generate(&c, x);
      for (uint32_t r = 0; r < 3; r++) {
        const float *xr = x + (size_t)r * C;
        double rel = rf_oracle_softmax_row_double(xr, C, y);
        rows++;
        /* refused exactly for the NaN rows (a NaN or +inf, or only -inf: every output NaN);
         * rows with -inf elements and a finite maximum are computed, those elements 0 */
        int poisoned = 0;
        float mx = -INFINITY;
        for (uint32_t j = 0; j < C; j++) {
          poisoned |= isnan(xr[j]) || xr[j] == INFINITY;
          if (xr[j] > mx) mx = xr[j];
        }
        const int nan_row = poisoned || mx == -INFINITY;
        if ((rel < 0) != nan_row) {
          fprintf(stderr, "dist %s C=%u row %u: rel %g on a row %s a NaN row\n",
                  rf_dist_name(c.dist), C, r, rel, nan_row ? "that is" : "that is not");
          refused++;
          continue;
        }
        if (rel < 0) continue;
        double q = worst_ratio(xr, C, y, rel);
        if (!(q <= 1)) {
          fprintf(stderr, "dist %s C=%u row %u: err/allowed %g (rel %g)\n", rf_dist_name(c.dist),
                  C, r, q, rel);
          ok = 0;
        }
        if (q > worst) worst = q;
        if (C <= 16 && rel > 0x1p-53 && q > worst_small_c) worst_small_c = q; /* not constant */
        if (rel / 0x1p-53 / (C + 8.0) > rel_u_max) rel_u_max = rel / 0x1p-53 / (C + 8.0);
        elems += C;
      }
    }
    printf("  %-14s %.3g   (largest rel / ((C + 8) 2^-53) %.2f)\n", rf_dist_name((rf_dist)d),
           worst, rel_u_max);
    if (worst > worst_all) worst_all = worst;
  }
  for (int h = 0; h < H_COUNT; h++) {
    double worst = 0;
    for (int k = 0; k < 16; k++) {
      uint32_t C = 2 + random_cols(&st) % (CMAX - 1);
      hand_row(h, x, C, &st);
      double rel = rf_oracle_softmax_row_double(x, C, y);
      rows++;
      if (rel < 0) {
        refused++;
        continue;
      }
      double q = worst_ratio(x, C, y, rel);
      if (!(q <= 1)) {
        fprintf(stderr, "%s C=%u: err/allowed %g (rel %g)\n", hand_name[h], C, q, rel);
        ok = 0;
      }
      if (q > worst) worst = q;
      elems += C;
    }
    printf("  %-14s %.3g\n", hand_name[h], worst);
    if (worst > worst_all) worst_all = worst;
  }
  printf("%ld rows, %ld elements; largest err / allowed %.3g (non-constant rows of <= 16 "
         "columns: %.3g)\n", rows, elems,
         worst_all, worst_small_c);
  CHECK(ok);
  CHECK(refused == 0);
  /* The margin is not silly: on short rows the achieved error reaches a visible part of it. */
  CHECK_MSG(worst_small_c >= 0.01, "largest ratio on short rows %g", worst_small_c);
}

/* The derived rel on a plain row, term by term: (2D + 4k + 1) u + γ_{C-1}, u = 2^-53, plus
 * the directed roundings of its evaluation (a few ulps of 1, i.e. a few 2u). */
static void test_rel_size(void) {
  float row[1000];
  uint64_t st = 99;
  for (int j = 0; j < 1000; j++) row[j] = uni(&st, -1, 1);
  row[7] = 1.0f;
  row[8] = -1.0f; /* D = 2 */
  double rel = rf_oracle_softmax_row_double(row, 1000, y);
  double first_order = (2 * 2 + 4 * RF_SM_DOUBLE_EXP_ULPS + 1 + 999) * 0x1p-53;
  CHECK_MSG(rel >= first_order && rel <= first_order + 24 * 0x1p-53, "rel = %.2f u, first order %.2f u",
            rel / 0x1p-53, first_order / 0x1p-53);
}

/* A planted oracle error: y[j] moved by 2 rel y[j] must be reported by the agreement test. */
static void test_planted_error_caught(void) {
  uint64_t st = 4711;
  int caught = 1, clean = 1;
  for (int k = 0; k < 40; k++) {
    uint32_t C = 2 + random_cols(&st) % (CMAX - 1);
    for (uint32_t j = 0; j < C; j++) x[j] = uni(&st, k % 2 ? -1 : -30, 1);
    double rel = rf_oracle_softmax_row_double(x, C, y);
    clean &= worst_ratio(x, C, y, rel) <= 1;
    uint32_t j = (uint32_t)(tl_next(&st) % C);
    double keep = y[j];
    y[j] = keep + (k % 4 < 2 ? 2 : -2) * rel * keep;
    caught &= worst_ratio(x, C, y, rel) > 1;
    y[j] = keep;
  }
  CHECK(clean);
  CHECK(caught);
}

/* glibc's exp against MPFR, in ulps of the exact value's binade (2^-1074 below 2^-1022), over
 * the arguments the oracle uses: measured well inside RF_SM_DOUBLE_EXP_ULPS. */
static void test_exp_measured(void) {
  uint64_t st = 31;
  mpfr_t e, t;
  mpfr_inits2(200, e, t, (mpfr_ptr)0);
  double worst = 0;
  for (int k = 0; k < 200000; k++) {
    double d;
    switch (k % 4) {
    case 0: d = -745.25 * (double)(tl_next(&st) >> 11) * 0x1p-53; break;
    case 1: d = -708.5 - 36.75 * (double)(tl_next(&st) >> 11) * 0x1p-53; break; /* subnormal */
    case 2: d = -ldexp((double)(tl_next(&st) >> 11) * 0x1p-53, -(int)(tl_next(&st) % 60)); break;
    default: d = (double)uni(&st, -100, 0) - (double)uni(&st, 0, 1e-3); break; /* as d̂ */
    }
    double got = exp(d);
    mpfr_set_d(t, d, MPFR_RNDN);
    mpfr_exp(e, t, MPFR_RNDN);
    long ex = mpfr_get_exp(e);                           /* e in [2^(ex-1), 2^ex) */
    long ulp_exp = ex - 53 < -1074 ? -1074 : ex - 53;
    mpfr_sub_d(t, e, got, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    mpfr_mul_2si(t, t, -ulp_exp, MPFR_RNDN);
    double ulps = mpfr_get_d(t, MPFR_RNDU);
    if (ulps > worst) worst = ulps;
  }
  mpfr_clears(e, t, (mpfr_ptr)0);
  printf("glibc exp: largest error %.3f ulp (the bound assumes %.1f)\n", worst,
         RF_SM_DOUBLE_EXP_ULPS);
  CHECK(worst <= RF_SM_DOUBLE_EXP_ULPS);
}

static void test_constant_and_special_rows(void) {
  static const float values[] = {0.0f, -3.5f, 1e30f, -FLT_MAX, 0x1p-149f};
  int exact = 1;
  for (uint32_t C = 1; C <= CMAX; C += (C < 64 ? 1 : 61)) {
    float v = values[C % 5];
    for (uint32_t j = 0; j < C; j++) x[j] = v;
    double rel = rf_oracle_softmax_row_double(x, C, y);
    exact &= rel == 0x1p-53;
    for (uint32_t j = 0; j < C; j++) exact &= y[j] == 1.0 / (double)C;
  }
  CHECK(exact);
  float mixed_zero[2] = {0.0f, -0.0f}; /* equal values: a constant row */
  CHECK(rf_oracle_softmax_row_double(mixed_zero, 2, y) == 0x1p-53 && y[0] == 0.5 && y[1] == 0.5);

  const float bad[3][3] = {{1.0f, NAN, 2.0f}, {1.0f, INFINITY, 2.0f},
                           {-INFINITY, -INFINITY, -INFINITY}};
  for (int r = 0; r < 3; r++) {
    y[0] = y[1] = y[2] = 0;
    CHECK(rf_oracle_softmax_row_double(bad[r], 3, y) == -1);
    CHECK(isnan(y[0]) && isnan(y[1]) && isnan(y[2]));
  }
  /* -inf among finite values: exactly 0 there, the rest the softmax of the finite ones. */
  const float neg_inf[4] = {-INFINITY, 0.0f, 1.0f, -INFINITY};
  double rel_ni = rf_oracle_softmax_row_double(neg_inf, 4, y);
  CHECK(rel_ni > 0 && rel_ni < 0x1p-45 && y[0] == 0 && y[3] == 0);
  CHECK(worst_ratio(neg_inf, 4, y, rel_ni) <= 1);
  const float one_left[3] = {-INFINITY, 5.0f, -INFINITY};   /* exp(0) / exp(0) */
  CHECK(rf_oracle_softmax_row_double(one_left, 3, y) > 0 && y[0] == 0 && y[1] == 1 && y[2] == 0);
  y[0] = 42;
  CHECK(rf_oracle_softmax_row_double(x, 0, y) == 0 && y[0] == 42);

  /* Huge spreads: the maximum gets 1 up to rel, everything else 0 or below the abs term. */
  float spread[5] = {0.0f, -1e30f, -FLT_MAX, -800.0f, -745.3f};
  double rel = rf_oracle_softmax_row_double(spread, 5, y);
  CHECK(rel > 0 && rel < 0x1p-40);
  CHECK(y[0] == 1 && y[1] == 0 && y[2] == 0 && y[3] == 0 && y[4] == 0);
  CHECK(worst_ratio(spread, 5, y, rel) <= 1);
}

int main(void) {
  ref_init();
  test_generated_rows();
  test_rel_size();
  test_planted_error_caught();
  test_exp_measured();
  test_constant_and_special_rows();
  ref_clear();
  mpfr_free_cache();
  return rf_test_done();
}
