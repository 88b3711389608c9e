/* The per-row formulas of the softmax judge, written once for the host (softmax_double.c,
 * bounds.c) and the device (kernels/harness/softmax_device.hip): plain data in, plain data out,
 * directed rounding from dir_round.h, no libm but fmax (so every backend evaluates exactly
 * these operations). The derivations are where they were: the double oracle's bound in
 * softmax_double.c (docs/TOLERANCES.md, "The double oracle"), the kernel bound in bounds.c
 * (docs/TOLERANCES.md, "Softmax"); the comments here only name the step. Private to oracle/
 * and its device twin. */
#ifndef RF_SOFTMAX_ROW_MATH_H
#define RF_SOFTMAX_ROW_MATH_H
#include <stdint.h>
#include "dir_round.h"
#include "softmax_row_types.h"
#include "softmax_double.h"
#include "softmax_special.h"

/* ---- the double oracle (softmax_double.c) ------------------------------------------------ */
#define RF_SMR_DEEP_D (-745.25)   /* exp(-745.25) < 2^-1075: 745.25 / ln 2 > 1075.18 */
#define RF_SMR_EXP_ULPS RF_SM_DOUBLE_EXP_ULPS   /* softmax_double.h says why */
#define RF_SMR_ABS RF_SM_DOUBLE_ABS

/* The range of the double exp-sum of a row of C columns whose non-deep elements have
 * |d̂_j| <= dmax (rf_expsum_double): every term is ê_j = e_j ρ_j + τ_j with ρ_j in
 * [rho_lo, rho_hi], |τ_j| <= tau, and the sum Ŝ / S lies in [L, U] (S >= 1 the true sum);
 * g = γ_{C-1}. Steps 1-3 of softmax_double.c; shared with the log oracle (logsumexp_double.c). */
typedef struct {
  double g, tau, rho_lo, rho_hi, L, U;
} rf_smr_sum_range;

RF_DR void rf_smr_oracle_sum_range(uint32_t C, double dmax, rf_smr_sum_range *r) {
  const double u = 0x1p-53, k = RF_SMR_EXP_ULPS;
  const double cu = (double)(C - 1) * u;              /* exact: C - 1 < 2^53 */
  r->g = up_div(cu, 1.0 - cu);                        /* γ_{C-1}; 1 - cu exact */
  const double t = up_div(up_mul(u, dmax), dn_one_minus(u));
  const double E = up_div(t, dn_sub(1.0, t));
  const double two_ku = 2 * k * u;                    /* exact */
  const double th = up_div(two_ku, 1.0 - two_ku);     /* 1 - 2ku exact */
  r->tau = up_div(k * 0x1p-1074, 1.0 - two_ku);
  r->rho_hi = up_mul(up_add(1.0, th), up_add(1.0, E));
  r->rho_lo = dn_div(dn_sub(1.0, th), up_add(1.0, E));
  const double ctau = up_mul(up_count(C), r->tau);
  r->U = up_mul(up_add(1.0, r->g), up_add(r->rho_hi, ctau));
  r->L = dn_mul(dn_sub(1.0, r->g), dn_sub(r->rho_lo, ctau));
}

/* rel for a row of C columns whose non-deep elements have |d̂_j| <= dmax; -1 if the absolute
 * part would not fit RF_SMR_ABS (not reachable for C < 2^32). Steps 1-4 of softmax_double.c. */
RF_DR double rf_smr_oracle_rel(uint32_t C, double dmax) {
  const double u = 0x1p-53;
  rf_smr_sum_range r;
  rf_smr_oracle_sum_range(C, dmax, &r);
  if (!(r.L >= 0.5)) return -1;
  const double hi = up_sub(up_div(up_mul(r.rho_hi, up_add(1.0, u)), r.L), 1.0);
  const double lo = up_sub(1.0, dn_div(dn_mul(r.rho_lo, 1.0 - u), r.U)); /* 1 - u exact */
  const double abs_need = up_add(up_div(up_mul(r.tau, up_add(1.0, u)), r.L), 0x1p-1074);
  if (!(abs_need <= RF_SMR_ABS)) return -1;
  return hi > lo ? hi : lo;
}

/* ---- the kernel bound of one row (bounds.c, rf_bound_softmax_row_rel) -------------------- */
#define RF_SMR_U 0x1p-24              /* RF_U */
#define RF_SMR_DEEP_ARG 110.0         /* exp(d) negligible below d = -110: e^-110 < 2^-158 */
#define RF_SMR_DEEP_TERM_UP 0x1p-157  /* >= e^-110 (1 + θ) and >= e^-110 (1-u) K_hi */
#define RF_SMR_SLACK (1 + 0x1p-50)    /* lets a plain RN check rel*y + abs >= |ŷ - y| stay rigorous */

/* D_j of pass 1: RN(m - x_j) stepped up (0 when it is 0), or -1 for a deep element (> 110). */
RF_DR double rf_smr_D(float m, float x) {
  double dd = (double)m - (double)x;   /* RN; dd > 110 proves the exact d_j < -110 */
  return !(dd <= RF_SMR_DEEP_ARG) ? -1.0 : up_step_pos(dd);
}

/* γ_h (Higham 2002, Lemma 3.1) rounded up; +inf when h u >= 1 (rf_gamma). */
RF_DR double rf_smr_gamma(uint64_t h) {
  if (h == 0) return 0;
  if (h >= (UINT64_C(1) << 24)) return 1.0 / 0.0;
  double hu = (double)h * RF_SMR_U;              /* exact */
  return up_div(hu, 1.0 - hu);                   /* 1 - hu exact */
}

/* An upper bound of Σ_j a_j b_j (n nonnegative terms) from s computed in plain RN (bounds.c). */
RF_DR double rf_smr_dot_up(double s, uint32_t n) {
  if (n == 0) return 0;
  const double nu = (double)(n - 1) * 0x1p-53;        /* exact */
  const double g = up_div(nu, 1.0 - nu);              /* γ_{n-1}; 1 - nu exact */
  return up_add(up_div(up_mul(s, 1 + 0x1p-52), dn_sub(1.0, g)), up_mul(n, 0x1p-1074));
}

/* Step 6 of bounds.c: the kernel's bound folded with the oracle's error (om = 1 - y_rel
 * rounded down). */
RF_DR double rf_smr_fold_rel(double y_rel, double om, double rel_y) {
  return up_mul(up_div(up_add(rel_y, y_rel), om), RF_SMR_SLACK);
}
RF_DR double rf_smr_fold_abs(double y_abs, double abs_k, double rel_max) {
  double a = y_abs > 0 ? up_add(abs_k, up_mul(y_abs, up_add(1.0, rel_max))) : abs_k;
  return up_mul(a, RF_SMR_SLACK);
}

/* The constants of a row that is neither NaN nor constant, for an oracle within y_rel, y_abs
 * (0 <= y_rel <= 1/2, checked by the caller). 0, or -1 when no useful bound exists (then every
 * bound is +inf: bounds.c's bound_useless). */
RF_DR int rf_smr_consts_make(const rf_smr_params *p, const rf_smr_facts *f, double y_rel,
                             double y_abs, rf_smr_consts *k) {
  const double u = RF_SMR_U, C = f->cols;
  const double om = dn_one_minus(y_rel);
  const double H_gamma = rf_smr_gamma(p->depth);
  const double R = up_count(p->rescales);
  /* A fast exp's error grows with its argument, capped at 88 (bounds.c). */
  double kk = p->exp_ulps;
  if (p->ulps_per_arg > 0) {
    double span = up_step_pos(f->span);
    kk = up_add(kk, up_mul(p->ulps_per_arg, span < 88.0 ? span : 88.0));
  }
  const double two_ku = up_mul(2 * kk, u);
  const double th = up_div(two_ku, dn_sub(1.0, two_ku));
  const double tau_k = up_mul(kk, 0x1p-149);
  const double tau = p->ftz ? (0x1p-126 > tau_k ? 0x1p-126 : tau_k) : tau_k;
  const double mu = p->ftz ? 0x1p-126 : 0x1p-150;
  const double eta = p->ftz ? up_mul(up_add(R, 1.0), 3 * 0x1p-126) : 0;
  const double c_hi = p->recip_mul ? up_mul(1 + u, 1 + u) : 1 + u;
  const double c_lo = p->recip_mul ? dn_mul(1 - u, 1 - u) : 1 - u;
  const double w = up_add(up_mul(up_add(R, 1.0), th), up_mul(R, u));
  const double K_hi = up_div(1.0, dn_sub(1.0, w));
  const double K_lo = dn_sub(1.0, w);
  if (!(th <= 1) || !(K_hi <= 2) || !(H_gamma < 1.0 / 0.0)) return -1;
  /* Pass 1's sums, then the argument errors. */
  const double t_cap = up_add(up_mul(up_mul(RF_SMR_DEEP_ARG, 1 + 0x1p-51), u), eta);
  const double E_mul = up_div(1.0, dn_sub(1.0, t_cap));
  double yd = rf_smr_dot_up(f->yd_s, f->cols);
  if (y_abs > 0) yd = up_add(yd, up_mul(up_mul(y_abs, C), f->D_max));
  yd = up_div(yd, om);
  const double arg = up_mul(E_mul, up_add(up_mul(u, yd), eta));
  /* Absolute terms and Ŝ/S in [L, U]. */
  double A = up_add(up_mul(C, tau), up_mul(up_count(f->n_deep), RF_SMR_DEEP_TERM_UP));
  if (p->rescales) A = up_add(A, up_mul(4 * C, up_add(up_mul(R, tau), mu)));
  const double F = p->ftz ? up_mul(2 * C, 0x1p-126) : 0;
  const double U = up_mul(up_add(1.0, H_gamma),
                          up_add(up_add(up_mul(K_hi, up_add(1.0, arg)), A), F));
  const double L = dn_mul(dn_sub(1.0, H_gamma),
                          dn_sub(dn_sub(dn_mul(K_lo, dn_sub(1.0, arg)), A), F));
  if (!(L > 0) || !(U < 1.0 / 0.0)) return -1;
  /* Pass 2's constants. */
  const double abs0 = up_add(up_mul(up_add(RF_SMR_DEEP_TERM_UP, tau), c_hi), mu);
  const double num_hi = up_mul(up_add(1.0, th), c_hi);
  const double num_lo = dn_mul(dn_sub(1.0, th), c_lo);
  const double a_hi = up_div(num_hi, L), b_hi = up_sub(a_hi, 1.0);
  const double a_lo = up_div(num_lo, U), b_lo = up_sub(1.0, dn_div(num_lo, U));
  const double alpha_E = up_mul(a_hi > a_lo ? a_hi : a_lo, E_mul);
  const double beta = b_hi > b_lo ? b_hi : b_lo;
  k->kappa = up_mul(alpha_E, u);
  k->beta1 = eta > 0 ? up_add(up_mul(alpha_E, eta), beta) : beta;
  const double fold = up_mul(up_div(1.0, om), RF_SMR_SLACK);
  k->kappa_f = up_mul(k->kappa, fold);
  k->beta_f = up_mul(up_add(k->beta1, y_rel), fold);
  k->rel_deep = up_mul(y_rel, fold);
  const double rel_top = up_add(up_mul(k->kappa_f, f->D_max), k->beta_f);
  const double rel_max = k->rel_deep > rel_top ? k->rel_deep : rel_top;
  k->abs_kernel = abs0;
  k->abs_floor = rf_smr_fold_abs(y_abs, abs0, rel_max);
  k->row_sum_bound = up_add(up_add(up_mul(k->kappa, yd), k->beta1), up_mul(C, abs0));
  return 0;
}

/* ---- a 16-bit output's final rounding (bounds.c, rf_bound_softmax_output) ---------------- */
/* |RN_t(v) - v| <= u_t |v| + eta_t (docs/TOLERANCES.md, "Softmax output in a 16-bit type"):
 * an element's rel becomes rel + u_t (1 + rel), an absolute term abs (1 + u_t) + eta_t, the
 * row sum's bound R + u_t (1 + R) + cols eta_t. One definition, so the device judge of 16-bit
 * outputs (issue 12) widens exactly as the host does. */
RF_DR double rf_smr_out_rel(double rel, double ut) { return up_add(rel, up_mul(ut, up_add(1.0, rel))); }
RF_DR double rf_smr_out_abs(double abs, double ut, double eta) {
  return up_add(up_mul(abs, up_add(1.0, ut)), eta);
}
RF_DR double rf_smr_out_row_sum(double row_sum_bound, double ut, double eta, uint32_t cols) {
  return up_add(rf_smr_out_rel(row_sum_bound, ut), up_mul((double)cols, eta));
}

/* ---- the element checks (bounds.c: rf_softmax_within, rf_softmax_check) ----------------- */
RF_DR int rf_smr_finite(double v) { return v - v == 0; }   /* no libm: false for inf, NaN */
RF_DR double rf_smr_abs(double v) { return v < 0 ? -v : v; }

/* |y_hat - y| <= rel y + abs_floor, the right side rounded up, the left side exact (TwoSum);
 * 0 for non-finite y_hat or y. */
RF_DR int rf_smr_within(double rel, double abs_floor, double y_hat, double y_exact) {
  if (!rf_smr_finite(y_hat) || !rf_smr_finite(y_exact)) return 0;
  double allowed = up_add(up_mul(rel, y_exact), abs_floor);
  double a = y_hat, c = -y_exact;
  double s = a + c, bp = s - a;
  double t = (a - (s - bp)) + (c - bp);
  if (s < 0 || (s == 0 && t < 0)) {
    s = -s;
    t = -t;
  }
  return s < allowed || (s == allowed && t <= 0);
}

/* Sign of g(y) = |y_hat - y| - (r y + a) at one y: -1 surely <= 0, +1 surely > 0, 0 unknown.
 * |y_hat - y| is exact as s + t (TwoSum); r y + a is rounded both ways. */
RF_DR int rf_smr_excess_sign(double y_hat, double y, double r, double a) {
  double allowed_up = up_add(up_mul(r, y), a), allowed_dn = dn_add(dn_mul(r, y), a);
  if (allowed_up != allowed_up || allowed_dn != allowed_dn) return 0; /* inf * 0: no answer */
  double c = -y, s = y_hat + c, bp = s - y_hat;
  double t = (y_hat - (s - bp)) + (c - bp);
  if (s < 0 || (s == 0 && t < 0)) {
    s = -s;
    t = -t;
  }
  if (s < allowed_dn || (s == allowed_dn && t <= 0)) return -1;
  if (s > allowed_up || (s == allowed_up && t > 0)) return 1;
  return 0;
}

enum { RF_SMR_PASS, RF_SMR_FAIL, RF_SMR_UNSURE };

/* The three-way check of bounds.h's rf_softmax_check for one element: r = rel_kernel[j],
 * a = abs_kernel, the oracle's y_approx within y_rel, y_abs of the true y.
 * g is convex in y (|.| minus a linear function), so on Y = [lo, hi] it is <= 0 everywhere
 * iff it is at both ends, and > 0 everywhere iff it is at both ends and the kink y = y_hat,
 * where g = -r y_hat - a <= 0 for y_hat >= 0, is not inside. */
RF_DR int rf_smr_check(double r, double a, double y_rel, double y_abs, double y_hat,
                       double y_approx) {
  if (!rf_smr_finite(y_approx) || !(y_rel >= 0 && y_rel <= 0.5) || !(y_abs >= 0))
    return RF_SMR_UNSURE;
  if (!rf_smr_finite(y_hat)) return RF_SMR_FAIL;
  const double yh = y_hat;
  /* Fast pass, plain arithmetic with a wide margin. For y in Y (y_rel <= 1/2):
   *   y_approx - y <= y_rel y_approx + y_abs,  y - y_approx <= 2 (y_rel y_approx + y_abs),
   * so with r <= 1, |y_hat - y| <= r y + a for all of Y when
   *   |y_hat - y_approx| + 3 y_rel y_approx + 3 y_abs <= r y_approx + a.
   * Computed in RN, each side is within (1+2^-53)^3 relative and 2^-1072 absolute (products
   * that underflow; y_approx <= 2) of its value (a fused multiply-add only rounds less);
   * with the right side >= 2^-1000 and y_abs <= 2^-1060, "left <= 3/4 right" leaves room. */
  if (r <= 1 && y_abs <= 0x1p-1060 && y_approx >= 0 && y_approx <= 2) {
    double lhs = rf_smr_abs(yh - y_approx) + y_approx * (3 * y_rel);
    double rhs = r * y_approx + a;
    if (rhs >= 0x1p-1000 && lhs <= 0.75 * rhs) return RF_SMR_PASS;
  }
  double lo = y_approx, hi = y_approx;
  if (y_rel != 0 || y_abs != 0) {
    /* y >= (y_approx - y_abs)/(1 + y_rel), y <= (y_approx + y_abs)/(1 - y_rel), y >= 0 */
    lo = dn_div(y_abs > 0 ? dn_sub(y_approx, y_abs) : y_approx, up_add(1.0, y_rel));
    hi = up_div(y_abs > 0 ? up_add(y_approx, y_abs) : y_approx, dn_one_minus(y_rel));
    if (lo < 0) lo = 0;
  }
  int s_lo = rf_smr_excess_sign(yh, lo, r, a);
  int s_hi = hi == lo ? s_lo : rf_smr_excess_sign(yh, hi, r, a);
  if (s_lo < 0 && s_hi < 0) return RF_SMR_PASS;
  if (s_lo > 0 && s_hi > 0 && !(lo < yh && yh < hi)) return RF_SMR_FAIL;
  return RF_SMR_UNSURE;
}
#endif
