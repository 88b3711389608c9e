/* The per-row formulas of the log ops' judge, written once for the host (logsumexp_double.c,
 * bounds_log.c, run/judge_log.c) and the device (kernels/harness/log_device.hip), as
 * softmax_row_math.h is for softmax: plain data in, plain data out, directed rounding from
 * dir_round.h, no libm but fabs, fmin and fmax (IEEE operations on every backend), so both
 * evaluate exactly these operations. The derivations stay where they were: the double log
 * oracle's margins in logsumexp_double.c (docs/ORACLE.md, "The double log oracle"), the
 * kernel bound in bounds_log.c (docs/TOLERANCES.md, "Logsumexp and log-softmax"), the checks
 * in bounds_log.c and run/judge_log.c; the comments here only name the step. Private to
 * oracle/, run/judge_log.c and the device twin. */
#ifndef RF_LOG_ROW_MATH_H
#define RF_LOG_ROW_MATH_H
#include <stdint.h>
#include "dir_round.h"
#include "log_row_types.h"
#include "log_special.h"
#include "softmax_row_math.h"

#define RF_LSR_REL_MARGIN 0x1.0000000000001p-52   /* 2u rounded up with room (step 3) */
#define RF_LSR_WD_EXACT 0x1p-900             /* rf_lse_wd_of(0, 1): the wd of an exact row */
#define RF_LSR_F32_OVERFLOW (0x1p128 - 0x1p103)   /* RN to float overflows from here (§7.4) */
#define RF_LSR_DEEP_ARG 110.0                /* as bounds.c: e^-110 < 2^-158 */
#define RF_LSR_DEEP_TERM_UP 0x1p-157
#define RF_LSR_FTZ_SLACK 0x1p-124            /* bounds_log.c says why */

RF_DR int rf_lsr_isnan(double v) { return v != v; }
RF_DR int rf_lsr_isinf(double v) { return v == v && v - v != 0; }

/* ---- the double oracle's margins (logsumexp_double.c, steps 1, 2, 5) --------------------- */
/* From the row's double exp-sum (s, ds, dmax as rf_expsum_double gives them, in any order of
 * summation: every bound holds for any order) and Lh = log(s): *mg. 0, or -1 for a sum range
 * it cannot use or Lh < 0 (the row is refused). */
RF_DR int rf_lsr_margin_make(uint32_t cols, double dmax, double s, double ds, double Lh,
                             rf_lse_margin *mg) {
  rf_smr_sum_range sr;                                   /* step 1 */
  rf_smr_oracle_sum_range(cols, dmax, &sr);
  if (!(sr.L > 0.5) || !(sr.U < 2)) return -1;
  if (!(Lh >= 0)) return -1;
  /* step 2 */
  const double u = 0x1p-53, two_ku = 2 * RF_LSE_DOUBLE_LOG_ULPS * u;   /* exact */
  const double lambda = fmax(up_sub(sr.U, 1.0), up_div(up_sub(1.0, sr.L), sr.L));
  mg->err_L = up_add(lambda, up_div(up_mul(two_ku, Lh), 1.0 - two_ku));   /* 1 - 2ku exact */
  /* step 5 */
  const double Cd = up_count(cols);
  const double gC = up_div(up_mul(Cd, u), dn_sub(1.0, up_mul(Cd, u)));
  const double w_hi = up_div(up_mul(ds, sr.U),
                             dn_mul(dn_mul(dn_mul(s, dn_sub(1.0, gC)), 1.0 - u), sr.rho_lo));
  const double w_lo = dn_div(dn_mul(ds, sr.L),
                             up_mul(up_mul(up_mul(s, up_add(1.0, gC)), 1.0 + u), sr.rho_hi));
  mg->wd_hi = up_add(up_mul(up_add(w_hi, 0x1p-913), RF_LSE_WD_REL_HI), RF_LSE_WD_ABS_HI);
  mg->wd_lo = fmax(0.0, dn_mul(dn_sub(w_lo, 0x1p-1030), RF_LSE_WD_REL_LO));
  return 0;
}

/* One finite entry m, the rest -inf: S = 1, L = 0, every value exact and the MPFR oracle's. */
RF_DR void rf_lsr_exact_row(float m, rf_lse_row *row, rf_lse_margin *mg) {
  const double md = m;
  row->lse = md + 0.0;
  row->log_s = 0;
  row->wd = RF_LSR_WD_EXACT;
  row->m = m;
  mg->err_L = 0;
  mg->wd_lo = mg->wd_hi = RF_LSR_WD_EXACT;
}

/* [*lo, *hi] holds the MPFR double of the output whose double value is v (step 3). */
RF_DR void rf_lsr_double_range(const rf_lse_margin *mg, double v, double *lo, double *hi) {
  const double M = up_add(mg->err_L, up_mul(RF_LSR_REL_MARGIN, fabs(v)));
  *lo = dn_sub(v, M);
  *hi = up_add(v, M);
}

/* The lowest and highest MPFR rows, field by field (step 4 for log_s). */
RF_DR void rf_lsr_double_rows(const rf_lse_row *row, const rf_lse_margin *mg, rf_lse_row *lo,
                              rf_lse_row *hi) {
  double a, b;
  rf_lsr_double_range(mg, row->lse, &a, &b);
  *lo = *hi = *row;
  hi->lse = fmax(fabs(a), fabs(b));
  lo->lse = a <= 0 && b >= 0 ? 0 : fmin(fabs(a), fabs(b));
  lo->log_s = fmax(0.0, dn_sub(row->log_s, mg->err_L));
  hi->log_s = up_add(row->log_s, mg->err_L);
  lo->wd = mg->wd_lo;
  hi->wd = mg->wd_hi;
}

/* ---- the kernel bound of one row (bounds_log.c, rf_bound_lse_row) ------------------------ */
/* span = max_j (m - x_j) over the entries that are not -inf, left to right (the device takes
 * the same maximum in its own order: a maximum is exact in any order). */
RF_DR double rf_lsr_span(const float *x, uint32_t cols, float m) {
  double span = 0;
  for (uint32_t j = 0; j < cols; j++) {
    if (x[j] == -1.0f / 0.0f) continue;
    const double dd = (double)m - (double)x[j];
    if (dd > span) span = dd;
  }
  return span;
}

/* span = max_j (m - x_j) over the entries that are not -inf (used only when the exp's error
 * grows with its argument). */
RF_DR void rf_lsr_bound_row(const rf_lsr_params *p, double span, uint32_t cols,
                            const rf_lse_row *row, rf_lse_bound *out) {
  out->eps_L = out->lse_bound = out->y_abs = out->y_rel = 0;
  if (rf_lsr_isnan(row->lse) || rf_lsr_isinf(row->lse) || cols == 0) return;
  const double inf = 1.0 / 0.0;
  const double u = RF_SMR_U, C = cols;
  const double H_gamma = rf_smr_gamma(p->sm.depth);
  const double R = up_count(p->sm.rescales);
  double k = p->sm.exp_ulps;
  if (p->sm.ulps_per_arg > 0) k = up_add(k, up_mul(p->sm.ulps_per_arg, fmin(up_step_pos(span), 88.0)));
  const double two_ku = up_mul(2 * k, u);
  const double th = up_div(two_ku, dn_sub(1.0, two_ku));
  const double tau = p->sm.ftz ? fmax(0x1p-126, up_mul(k, 0x1p-149)) : up_mul(k, 0x1p-149);
  const double mu = p->sm.ftz ? 0x1p-126 : 0x1p-150;
  const double eta = p->sm.ftz ? up_mul(up_add(R, 1.0), 3 * 0x1p-126) : 0;
  const double w = up_add(up_mul(up_add(R, 1.0), th), up_mul(R, u));
  const double K_hi = up_div(1.0, dn_sub(1.0, w));
  const double K_lo = dn_sub(1.0, w);
  if (!(th <= 1) || !(K_hi <= 2) || rf_lsr_isinf(H_gamma)) {
    out->eps_L = out->lse_bound = out->y_abs = out->y_rel = inf;
    return;
  }
  const double t_cap = up_add(up_mul(up_mul(RF_LSR_DEEP_ARG, 1 + 0x1p-51), u), eta);
  const double E_mul = up_div(1.0, dn_sub(1.0, t_cap));
  const double wd = fmin(row->wd, inf);
  const double arg = fmin(up_mul(E_mul, up_add(up_mul(u, wd), eta)),
                          up_mul(E_mul, up_add(up_mul(u, up_mul(RF_LSR_DEEP_ARG, 1 + 0x1p-51)), eta)));
  double A = up_add(up_mul(C, tau), up_mul(C, RF_LSR_DEEP_TERM_UP));
  if (p->sm.rescales) A = up_add(A, up_mul(4 * C, up_add(up_mul(R, tau), mu)));
  const double F = p->sm.ftz ? up_mul(2 * C, 0x1p-126) : 0;
  const double Hi = up_mul(up_add(1.0, H_gamma), up_add(up_add(up_mul(K_hi, up_add(1.0, arg)), A), F));
  const double Lo = dn_mul(dn_sub(1.0, H_gamma), dn_sub(dn_sub(dn_mul(K_lo, dn_sub(1.0, arg)), A), F));
  if (!(Lo > 0) || rf_lsr_isinf(Hi)) {
    out->eps_L = out->lse_bound = out->y_abs = out->y_rel = inf;
    return;
  }
  const double lambda = fmax(up_sub(Hi, 1.0), up_div(up_sub(1.0, Lo), Lo));
  const double L_up = up_mul(row->log_s, 1 + 0x1p-52);
  const double log_err = up_mul(p->log_ulps, up_add(up_mul(2 * u, up_add(L_up, lambda)), 0x1p-149));
  const double eps_L = up_add(lambda, log_err);
  out->eps_L = eps_L;
  const double lse_abs = up_mul(fabs(row->lse), 1 + 0x1p-52);
  out->lse_bound = up_add(up_add(up_mul(eps_L, 1 + u), up_mul(u, lse_abs)), RF_LSR_FTZ_SLACK);
  out->y_rel = up_add(up_mul(u, 1 + u), u);
  out->y_abs = up_add(up_mul(eps_L, 1 + u), 2 * RF_LSR_FTZ_SLACK);
}

/* ---- the checks (bounds_log.c) ----------------------------------------------------------- */
RF_DR double rf_lsr_allowed(double kernel_bound, double want) {
  if (rf_lsr_isnan(want) || rf_lsr_isinf(want)) return 0;
  return up_add(kernel_bound, up_mul(0x1p-52, fabs(want)));
}

RF_DR double rf_lsr_allowed_output(const rf_lse_bound *b, int is_lse, double want) {
  if (is_lse) return rf_lsr_allowed(b->lse_bound, want);
  const int fin = rf_smr_finite(want);
  double kb = fin ? b->y_abs + b->y_rel * fabs(want) * (1 + 0x1p-50) : 0;
  return rf_lsr_allowed(kb, want);
}

/* |got - want| exactly as s + t (TwoSum); *err gets it rounded up. */
RF_DR void rf_lsr_abs_err(float got, double want, double *s_out, double *t_out, double *err) {
  double a = got, c = -want;
  double s = a + c, bp = s - a;
  double t = (a - (s - bp)) + (c - bp);
  *err = t != 0 ? next_up(fabs(s)) : fabs(s);
  *s_out = s;
  *t_out = t;
}

RF_DR int rf_lsr_check(float got, double want, double allowed, double *err) {
  const double inf = 1.0 / 0.0;
  if (rf_lsp_want_is_special(want)) {   /* log_special.h: no tolerance */
    const int ok = rf_lsp_output_ok(got, want);
    *err = ok ? 0 : inf;
    return ok;
  }
  if (rf_lsr_isnan(got)) {
    *err = inf;
    return 0;
  }
  if (rf_lsr_isinf(got)) {
    int ok = (got > 0) == (want > 0) && up_add(fabs(want), allowed) >= RF_LSR_F32_OVERFLOW;
    *err = ok ? 0 : inf;
    return ok;
  }
  double s, t;
  rf_lsr_abs_err(got, want, &s, &t, err);
  double as = fabs(s);
  if (as < allowed) return 1;
  if (as > allowed) return 0;
  return t == 0 || (s > 0) != (t > 0);
}

RF_DR int rf_lsr_surely_within(float got, double v, double err_L, double allowed_v, double slope) {
  if (!(slope <= 0x1p-20) || !(allowed_v >= 0x1p-1000) || !rf_smr_finite(got) ||
      !rf_smr_finite(v) || !(err_L >= 0 && err_L < 1))
    return 0;
  const double av = fabs(v), M = err_L + 0x1p-52 * av;
  const double delta = M + 0x1p-49 * (av + M) + 0x1p-1072;
  const double lhs = (fabs((double)got - v) + delta * (1 + 0x1p-19)) * (1 + 0x1p-40);
  return lhs <= allowed_v * (1 - 0x1p-40) - 0x1p-1060;
}

enum { RF_LSR_RANGE_PASS, RF_LSR_RANGE_FAIL, RF_LSR_RANGE_UNSURE };   /* RF_LSE_PASS, ... */

RF_DR int rf_lsr_check_range(float got, double w_lo, double w_hi, double allowed_lo,
                             double allowed_hi) {
  double err;
  if (!rf_smr_finite(w_lo) || !rf_smr_finite(w_hi) || !(w_lo <= w_hi)) return RF_LSR_RANGE_UNSURE;
  if (rf_lsr_isnan(got)) return RF_LSR_RANGE_FAIL;
  const double a_lo = w_lo <= 0 && w_hi >= 0 ? 0 : fmin(fabs(w_lo), fabs(w_hi));
  const double a_hi = fmax(fabs(w_lo), fabs(w_hi));
  if (rf_lsr_isinf(got)) {
    const int all_match = got > 0 ? w_lo > 0 : w_hi <= 0;
    const int none_match = got > 0 ? w_hi <= 0 : w_lo > 0;
    if (none_match || (all_match && up_add(a_hi, allowed_hi) < RF_LSR_F32_OVERFLOW))
      return RF_LSR_RANGE_FAIL;
    if (all_match && up_add(a_lo, allowed_lo) >= RF_LSR_F32_OVERFLOW) return RF_LSR_RANGE_PASS;
    return RF_LSR_RANGE_UNSURE;
  }
  if (rf_lsr_check(got, w_lo, allowed_lo, &err) && rf_lsr_check(got, w_hi, allowed_lo, &err))
    return RF_LSR_RANGE_PASS;
  if ((got < w_lo && !rf_lsr_check(got, w_lo, allowed_hi, &err)) ||
      (got > w_hi && !rf_lsr_check(got, w_hi, allowed_hi, &err)))
    return RF_LSR_RANGE_FAIL;
  return RF_LSR_RANGE_UNSURE;
}

/* ---- an output in a 16-bit type (bounds_log.c; docs/TOLERANCES.md, "Log-op output in a
 * 16-bit type") ------------------------------------------------------------------------------
 * Types by number (rf_dtype): 0 f32, 1 f16, 2 bf16. */

/* RN_t(x) for t f16 or bf16 as a double, ties to even, ±inf beyond the type's largest finite
 * value (model/dtype.c's rf_dtype_round, which the host used before: the same function, with
 * integer operations on x's bits instead of frexp, ldexp and nearbyint, so the device
 * evaluates it too; tests/oracle/test_lsr_round.c compares the two). */
RF_DR double rf_lsr_round_t(uint32_t t, double x) {
  if (x != x || x - x != 0 || x == 0) return x;
  const int p = t == 2u ? 8 : 11, emin = t == 2u ? -126 : -14;
  const double max_finite = t == 2u ? 0x1.fep127 : 0x1.ffcp15;
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  const int neg = (int)(b >> 63), E = (int)((b >> 52) & 0x7ffu);
  /* A subnormal double is far below half the type's least quantum (2^-25, 2^-134): ±0. */
  if (E == 0) return neg ? -0.0 : 0.0;
  const int e = E - 1023;                                   /* |x| in [2^e, 2^(e+1)) */
  const uint64_t M = (b & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);   /* x = M 2^(e-52) */
  const int q = (e < emin ? emin : e) - (p - 1);            /* the quantum's exponent */
  const int sh = q - (e - 52);                              /* bits below the quantum */
  double r;
  if (sh <= 0) {
    r = fabs(x);                                            /* already a multiple of 2^q */
  } else if (sh > 53) {
    r = 0;                                                  /* |x| < 2^(q-1): below half */
  } else {
    uint64_t n = M >> sh;
    const uint64_t rem = M & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
    if (rem > half || (rem == half && (n & 1u))) n++;
    uint64_t pb = (uint64_t)(q + 1023) << 52;               /* 2^q: q in [-133, 1013] */
    double pq;
    memcpy(&pq, &pb, sizeof pq);
    r = (double)n * pq;                                     /* exact: n <= 2^53 */
  }
  if (r > max_finite) r = 1.0 / 0.0;
  return neg ? -r : r;
}

/* [*lo, *hi]: the outputs of type t a float32 result within allowed of want can round to (the
 * ends rounded outward first, then RN_t: monotone); *reach: the larger distance from want to
 * an end, rounded up (rf_lse_out_range). */
RF_DR void rf_lsr_out_range(double want, double allowed, uint32_t t, double *lo, double *hi,
                            double *reach) {
  *lo = rf_lsr_round_t(t, next_down(want - allowed));
  *hi = rf_lsr_round_t(t, next_up(want + allowed));
  const double a = up_sub(*hi, want), c = up_sub(want, *lo);
  *reach = a > c ? a : c;
}

/* rf_lsr_check for an output of type t (rf_lse_check_out): float32, a special want or a NaN
 * got as rf_lsr_check; else got in rf_lsr_out_range. *reach: the range's reach (allowed for
 * those rf_lsr_check decides). */
RF_DR int rf_lsr_check_out(float got, double want, double allowed, uint32_t t, double *err,
                           double *reach) {
  *reach = allowed;
  if (t == 0u || !rf_smr_finite(want) || rf_lsr_isnan(got))
    return rf_lsr_check(got, want, allowed, err);
  double lo, hi;
  rf_lsr_out_range(want, allowed, t, &lo, &hi, reach);
  const int ok = got >= lo && got <= hi;
  if (rf_lsr_isinf(got)) {
    *err = ok ? 0 : 1.0 / 0.0;
    return ok;
  }
  double s, tt;
  rf_lsr_abs_err(got, want, &s, &tt, err);
  return ok;
}

/* rf_lsr_check_out's verdict for every want in [w_lo, w_hi] with an allowed error between
 * allowed_lo and allowed_hi, t 16-bit (rf_lse_check_range_out): RF_LSR_RANGE_*. */
RF_DR int rf_lsr_check_range_out(float got, double w_lo, double w_hi, double allowed_lo,
                                 double allowed_hi, uint32_t t) {
  if (!rf_smr_finite(w_lo) || !rf_smr_finite(w_hi) || !(w_lo <= w_hi)) return RF_LSR_RANGE_UNSURE;
  if (rf_lsr_isnan(got)) return RF_LSR_RANGE_FAIL;
  const double in_lo = rf_lsr_round_t(t, next_down(w_hi - allowed_lo));
  const double in_hi = rf_lsr_round_t(t, next_up(w_lo + allowed_lo));
  if (got >= in_lo && got <= in_hi) return RF_LSR_RANGE_PASS;
  const double out_lo = rf_lsr_round_t(t, next_down(w_lo - allowed_hi));
  const double out_hi = rf_lsr_round_t(t, next_up(w_hi + allowed_hi));
  if (got < out_lo || got > out_hi) return RF_LSR_RANGE_FAIL;
  return RF_LSR_RANGE_UNSURE;
}

/* ---- one output's verdict (run/judge_log.c) ---------------------------------------------- */
/* UNSURE: the double oracle's margin cannot decide it (the row goes to MPFR). */
enum { RF_LSR_PASS = 0, RF_LSR_WRONG = 1, RF_LSR_NONFINITE = 2, RF_LSR_UNSURE = 3 };

/* A finite want and a NaN, or an infinity the bound does not reach: nonfinite; a special
 * want (NaN, ±inf) and anything else: wrong. */
RF_DR int rf_lsr_verdict_of(int ok, float got, double want) {
  if (ok) return RF_LSR_PASS;
  return rf_smr_finite(want) && !rf_smr_finite(got) ? RF_LSR_NONFINITE : RF_LSR_WRONG;
}

/* The worst output is the one with the largest err / allowed (judge_log.c's note). */
RF_DR double rf_lsr_ratio(double err, double allowed) {
  return err == 0 ? 0 : allowed == 0 ? 1.0 / 0.0 : err / allowed;
}

/* An output of type t (got as the float it is) against the MPFR oracle's want (or an exact
 * double row's value); *allowed: what it was held to (a 16-bit output's range's reach). */
RF_DR int rf_lsr_judge_exact(int is_lse, uint32_t t, const rf_lse_bound *b, float got,
                             double want, double *err, double *allowed) {
  const double a = rf_lsr_allowed_output(b, is_lse, want);
  return rf_lsr_verdict_of(rf_lsr_check_out(got, want, a, t, err, allowed), got, want);
}

/* The quick test of judge_log.c's judge_double (every want within the margin surely passes):
 * 1 with the figures it reports, else 0. The slope is the allowed error's in |want|. */
RF_DR int rf_lsr_quick_pass(int is_lse, const rf_lse_margin *mg, const rf_lse_bound *b_lo,
                            float got, double v, double *err, double *allowed) {
  const double allowed_v = rf_lsr_allowed_output(b_lo, is_lse, v);
  const double slope = is_lse ? 0x1p-52 : b_lo->y_rel * (1 + 0x1p-49) + 0x1p-52;
  if (!rf_lsr_surely_within(got, v, mg->err_L, allowed_v, slope)) return 0;
  *err = fabs((double)got - v);
  *allowed = allowed_v;
  return 1;
}

/* The wants the margin allows around v, [w[0], w[1]], and the allowed error at their lowest
 * and highest |want| from the lowest and highest rows' bounds, w[2] and w[3]. */
RF_DR void rf_lsr_want_range(int is_lse, const rf_lse_margin *mg, const rf_lse_bound *b_lo,
                             const rf_lse_bound *b_hi, double v, double w[4]) {
  rf_lsr_double_range(mg, v, &w[0], &w[1]);
  const double a_min = w[0] <= 0 && w[1] >= 0 ? 0 : fmin(fabs(w[0]), fabs(w[1]));
  const double a_max = fmax(fabs(w[0]), fabs(w[1]));
  w[2] = rf_lsr_allowed_output(b_lo, is_lse, a_min);
  w[3] = rf_lsr_allowed_output(b_hi, is_lse, a_max);
}

/* An output of type t against a double row's value v: the verdict every MPFR want within
 * the margin gives, or UNSURE; err and allowed against v, as the host reports them. A 16-bit
 * output takes the same quick test (a value of the type within a want's float32 allowed error
 * is in that want's range: RN_t is monotone and keeps the type's values), then its type's
 * range check. */
RF_DR int rf_lsr_judge_double(int is_lse, uint32_t t, const rf_lse_margin *mg,
                              const rf_lse_bound *b_lo, const rf_lse_bound *b_hi, float got,
                              double v, double *err, double *allowed) {
  if (!rf_smr_finite(v)) return rf_lsr_judge_exact(is_lse, t, b_hi, got, v, err, allowed);
  if (rf_lsr_quick_pass(is_lse, mg, b_lo, got, v, err, allowed)) return RF_LSR_PASS;
  double w[4];
  rf_lsr_want_range(is_lse, mg, b_lo, b_hi, v, w);
  const int k = t == 0u ? rf_lsr_check_range(got, w[0], w[1], w[2], w[3])
                        : rf_lsr_check_range_out(got, w[0], w[1], w[2], w[3], t);
  if (k == RF_LSR_RANGE_UNSURE) return RF_LSR_UNSURE;
  const int ok = k == RF_LSR_RANGE_PASS;
  double e;
  rf_lsr_check_out(got, v, rf_lsr_allowed_output(b_hi, is_lse, v), t, &e, allowed);
  *err = ok ? fmin(e, *allowed) : e;
  return rf_lsr_verdict_of(ok, got, v);
}
#endif
