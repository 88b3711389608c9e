/* Error bounds of logsumexp and log-softmax kernels (oracle/logsumexp.h). Derivation:
 * docs/TOLERANCES.md, "Logsumexp and log-softmax"; the comments name the step each line does.
 * Rounding as in bounds.c: every quantity an upper bound, through dir_round.h.
 *
 * The sum Ŝ that the kernels pass to logf is the softmax denominator, computed by the same
 * trees: its enclosure Ŝ / S in [Lo, Hi] follows bounds.c's softmax steps 1-5 (argument
 * rounding, the exp model, rescales, the tree's γ_h, absolute terms relative to S >= 1), with
 * the argument term weighted by the softmax weights p_j through the oracle's wd. Then
 *   |log Ŝ - log S| <= λ = max(Hi - 1, (1 - Lo) / Lo)       (log z <= z - 1 both ways),
 *   |logf(Ŝ) - log Ŝ| <= k_log ulp(log Ŝ) <= k_log (2u |log Ŝ| + 2^-149),  |log Ŝ| <= L + λ,
 * so eps_L = λ + k_log (2u (L + λ) + 2^-149). */
#include <math.h>
#include "oracle/logsumexp.h"
#include "model/dtype.h"
#include "dir_round.h"

/* logf models, in ulps of the result against the exact value.
 * GNU C Library manual, "Known Maximum Errors in Math Functions": logf on x86_64 is listed
 * at 1 ulp (the table measures against the correctly rounded result: +0.5). */
const rf_log_model RF_LOG_HOST_LIBM = {1.5};
/* CUDA C++ Programming Guide, "Mathematical Functions", single precision: logf 1 ulp from
 * the correctly rounded result: +0.5. */
const rf_log_model RF_LOG_CUDA_LOGF = {1.5};
/* ROCm "HIP math API", single precision: logf 1 ulp, measured against the host library's
 * logf, itself within 1.5 of the exact value (above): 2.5. */
const rf_log_model RF_LOG_OCML_LOGF = {2.5};

#define DEEP_ARG 110.0           /* as bounds.c: e^-110 < 2^-158 */
#define DEEP_TERM_UP 0x1p-157
/* Flush-to-zero slack of the last float operation (a subtraction or addition whose result,
 * or an input, is subnormal may be flushed on a GPU): 2 x 2^-126 for the result and the
 * inputs, and the same for x_j - m. */
#define FTZ_SLACK 0x1p-124

static void useless(rf_lse_bound *out) {
  out->eps_L = out->lse_bound = out->y_abs = out->y_rel = INFINITY;
}

void rf_bound_lse_row(const rf_plan *plan, const rf_exp_model *em, const rf_log_model *lm,
                      const float *x, uint32_t cols, const rf_lse_row *row, rf_lse_bound *out) {
  out->eps_L = out->lse_bound = out->y_abs = out->y_rel = 0;
  if (!isfinite(row->lse) || cols == 0) return;   /* special rows: compared by class */
  const double u = RF_U, C = cols;
  const double H_gamma = rf_gamma(rf_plan_depth(plan));
  const double R = up_count(plan->rescales);
  /* Fast exps: error grows with the argument, capped at 88 (bounds.c). */
  double k = em->exp_ulps;
  if (em->ulps_per_arg > 0) {
    double span = 0;
    for (uint32_t j = 0; j < cols; j++) {
      if (x[j] == -INFINITY) continue;
      double dd = (double)row->m - (double)x[j];
      if (dd > span) span = dd;
    }
    k = up_add(k, up_mul(em->ulps_per_arg, fmin(up_step_pos(span), 88.0)));
  }
  /* Step 2 of bounds.c: |ê - e| <= θ e + τ; μ one multiplication's underflow; η flushed
   * inputs and differences along a path. */
  const double two_ku = up_mul(2 * k, u);
  const double th = up_div(two_ku, dn_sub(1.0, two_ku));
  const double tau = em->ftz ? fmax(0x1p-126, up_mul(k, 0x1p-149)) : up_mul(k, 0x1p-149);
  const double mu = em->ftz ? 0x1p-126 : 0x1p-150;
  const double eta = em->ftz ? up_mul(up_add(R, 1.0), 3 * 0x1p-126) : 0;
  /* Rescales: each term carries 1 + R exp errors and R multiplication roundings. */
  const double w = up_add(up_mul(up_add(R, 1.0), th), up_mul(R, u));
  const double K_hi = up_div(1.0, dn_sub(1.0, w));
  const double K_lo = dn_sub(1.0, w);
  if (!(th <= 1) || !(K_hi <= 2) || isinf(H_gamma)) return useless(out);
  /* Step 1: argument errors t_j <= u |d_j| + η, e^t - 1 <= t E_mul; weighted by p_j:
   * arg = Σ p_j E_j <= E_mul (u wd + η). Deep elements (d_j < -110) are in A instead; the wd
   * the oracle gives includes them, which only makes arg larger. */
  const double t_cap = up_add(up_mul(up_mul(DEEP_ARG, 1 + 0x1p-51), u), eta);
  const double E_mul = up_div(1.0, dn_sub(1.0, t_cap));
  const double wd = fmin(row->wd, INFINITY);
  const double arg = fmin(up_mul(E_mul, up_add(up_mul(u, wd), eta)),
                          /* a term's E_j never exceeds the largest non-deep one */
                          up_mul(E_mul, up_add(up_mul(u, up_mul(DEEP_ARG, 1 + 0x1p-51)), eta)));
  /* Absolute terms relative to S >= 1: τ per exp, every element possibly deep, rescales'
   * s τ + μ, flushed sums. */
  double A = up_add(up_mul(C, tau), up_mul(C, DEEP_TERM_UP));
  if (plan->rescales) A = up_add(A, up_mul(4 * C, up_add(up_mul(R, tau), mu)));
  const double F = em->ftz ? up_mul(2 * C, 0x1p-126) : 0;
  /* Step 3: Ŝ / S in [Lo, Hi]. */
  const double Hi = up_mul(up_add(1.0, H_gamma), up_add(up_add(up_mul(K_hi, up_add(1.0, arg)), A), F));
  const double Lo = dn_mul(dn_sub(1.0, H_gamma), dn_sub(dn_sub(dn_mul(K_lo, dn_sub(1.0, arg)), A), F));
  if (!(Lo > 0) || isinf(Hi)) return useless(out);
  /* The log of the sum: λ, then logf's own error. L <= log_s (1 + 2^-52): log_s is L
   * correctly rounded to double. */
  const double lambda = fmax(up_sub(Hi, 1.0), up_div(up_sub(1.0, Lo), Lo));
  const double L_up = up_mul(row->log_s, 1 + 0x1p-52);
  const double log_err = up_mul(lm->log_ulps, up_add(up_mul(2 * u, up_add(L_up, lambda)), 0x1p-149));
  const double eps_L = up_add(lambda, log_err);
  out->eps_L = eps_L;
  /* logsumexp: ŷ = RN(m + L̂) = (m + L̂)(1 + δ) [+ a flush]: |ŷ - lse| <= eps_L + u |m + L̂|
   * <= eps_L (1 + u) + u |lse|, |lse| <= |lse_given| (1 + 2^-52). */
  const double lse_abs = up_mul(fabs(row->lse), 1 + 0x1p-52);
  out->lse_bound = up_add(up_add(up_mul(eps_L, 1 + u), up_mul(u, lse_abs)), FTZ_SLACK);
  /* log-softmax: ŷ_j = RN(d̂_j - L̂), d̂_j = RN(x_j - m) = d_j (1 + δ1) [+ η'], |d_j| <= |y_j|
   * (d_j <= 0 and y_j = d_j - L <= d_j): ŷ_j - y_j = (d̂_j - d_j) - (L̂ - L) + δ2 (d̂_j - L̂),
   * |d̂_j - L̂| <= |y_j| + u |y_j| + eps_L, so
   * |ŷ_j - y_j| <= (u |y_j| + eps_L)(1 + u) + u |y_j| + slack = y_rel |y_j| + y_abs. */
  out->y_rel = up_add(up_mul(u, 1 + u), u);
  out->y_abs = up_add(up_mul(eps_L, 1 + u), 2 * FTZ_SLACK);
}

double rf_lse_allowed(double kernel_bound, double want) {
  if (!isfinite(want)) return 0;
  return up_add(kernel_bound, up_mul(0x1p-52, fabs(want)));
}

double rf_lse_allowed_output(const rf_lse_bound *b, int is_lse, double want) {
  if (is_lse) return rf_lse_allowed(b->lse_bound, want);
  double kb = isfinite(want) ? b->y_abs + b->y_rel * fabs(want) * (1 + 0x1p-50) : 0;
  return rf_lse_allowed(kb, want);
}

/* Exact results of RN to float overflow from 2^128 (1 - 2^-25) on (IEEE 754-2019 §7.4). */
#define F32_OVERFLOW (0x1p128 - 0x1p103)

/* |got - want| exactly as s + t (TwoSum); *err gets it rounded up. */
static void abs_err(float got, double want, double *s_out, double *t_out, double *err) {
  double a = got, c = -want;
  double s = a + c, bp = s - a;
  double t = (a - (s - bp)) + (c - bp);
  *err = t != 0 ? next_up(fabs(s)) : fabs(s);
  *s_out = s;
  *t_out = t;
}

int rf_lse_check(float got, double want, double allowed, double *err) {
  if (isnan(want) || isinf(want)) {
    int ok = isnan(want) ? isnan(got) : got == want;
    *err = ok ? 0 : INFINITY;
    return ok;
  }
  if (isnan(got)) {
    *err = INFINITY;
    return 0;
  }
  if (isinf(got)) {
    /* The kernel's last operation rounds a value within the bound of the true one: it may
     * give an infinity when some value within `allowed` of want reaches the float overflow
     * threshold with got's sign. */
    int ok = (got > 0) == (want > 0) && up_add(fabs(want), allowed) >= F32_OVERFLOW;
    *err = ok ? 0 : INFINITY;
    return ok;
  }
  double s, t;
  abs_err(got, want, &s, &t, err);
  /* Compare: |s + t| <= allowed. |s| rounded toward |s + t| is exact when t = 0; else |s + t|
   * lies strictly between |s| and the neighbour in t's direction, so |s| < allowed, or
   * |s| == allowed with t pulling towards 0, decides. */
  double as = fabs(s);
  if (as < allowed) return 1;
  if (as > allowed) return 0;
  return t == 0 || (s > 0) != (t > 0);
}

/* Every want w of the interval has |w - v| <= Δ = M + 2^-49 (|v| + M) + 2^-1072, M = err_L +
 * 2^-52 |v| (rf_lse_double_range's margin, rounded up, and its outward roundings are within
 * that), so |got - w| <= e (1 + 2^-52) + Δ with e = RN|got - v| (a subnormal difference is
 * exact). The allowed error at w is at least the formula's exact value at |w| >= |v| - Δ
 * (monotone, rounded up), which is >= allowed_v / (1 + 2^-49) - slope Δ (allowed_v is that
 * formula at |v| in a few roundings up, each within 2^-52 relative, or 2^-1074 absolute
 * below the normal range). The test below asks for those with a factor (1 + 2^-40) of room
 * on each side, which the plain roundings of its own few operations (each within 2^-53,
 * underflow within 2^-1074, covered by 2^-1060 as allowed_v >= 2^-1000) cannot eat. */
int rf_lse_surely_within(float got, double v, double err_L, double allowed_v, double slope) {
  if (!(slope <= 0x1p-20) || !(allowed_v >= 0x1p-1000) || !isfinite(got) || !isfinite(v) ||
      !(err_L >= 0 && err_L < 1))
    return 0;
  const double av = fabs(v), M = err_L + 0x1p-52 * av;
  const double delta = M + 0x1p-49 * (av + M) + 0x1p-1072;
  const double lhs = (fabs((double)got - v) + delta * (1 + 0x1p-19)) * (1 + 0x1p-40);
  return lhs <= allowed_v * (1 - 0x1p-40) - 0x1p-1060;
}

/* The same tests as rf_lse_check, over the interval: |got - w| is convex in w, so its largest
 * value on [w_lo, w_hi] is at an end and its smallest is 0 inside (or the nearer end's); the
 * overflow test grows with |w| and allowed; the sign test is decided when both ends agree. */
int rf_lse_check_range(float got, double w_lo, double w_hi, double allowed_lo, double allowed_hi) {
  double err;
  if (!isfinite(w_lo) || !isfinite(w_hi) || !(w_lo <= w_hi)) return RF_LSE_UNSURE;
  if (isnan(got)) return RF_LSE_FAIL;
  const double a_lo = w_lo <= 0 && w_hi >= 0 ? 0 : fmin(fabs(w_lo), fabs(w_hi));
  const double a_hi = fmax(fabs(w_lo), fabs(w_hi));
  if (isinf(got)) {
    /* rf_lse_check: the sign matches when (got > 0) == (want > 0) */
    const int all_match = got > 0 ? w_lo > 0 : w_hi <= 0;
    const int none_match = got > 0 ? w_hi <= 0 : w_lo > 0;
    if (none_match || (all_match && up_add(a_hi, allowed_hi) < F32_OVERFLOW)) return RF_LSE_FAIL;
    if (all_match && up_add(a_lo, allowed_lo) >= F32_OVERFLOW) return RF_LSE_PASS;
    return RF_LSE_UNSURE;
  }
  if (rf_lse_check(got, w_lo, allowed_lo, &err) && rf_lse_check(got, w_hi, allowed_lo, &err))
    return RF_LSE_PASS;
  if ((got < w_lo && !rf_lse_check(got, w_lo, allowed_hi, &err)) ||
      (got > w_hi && !rf_lse_check(got, w_hi, allowed_hi, &err)))
    return RF_LSE_FAIL;
  return RF_LSE_UNSURE;
}

/* ---- an output in a 16-bit type (docs/TOLERANCES.md, "Log-op output in a 16-bit type") ---- */
void rf_lse_out_range(double want, double allowed, rf_dtype t, rf_lse_range *out) {
  /* The float32 result lies in [want - allowed, want + allowed]; RN_t is monotone, so its
   * rounding to t lies between the roundings of the ends, each widened one step outward
   * (the subtraction and addition in double are rounded). Ends beyond the type's overflow
   * threshold round to ±inf, which is how an overflowing result is accepted. */
  out->lo = rf_dtype_round(t, next_down(want - allowed));
  out->hi = rf_dtype_round(t, next_up(want + allowed));
  const double a = up_sub(out->hi, want), c = up_sub(want, out->lo);
  out->reach = a > c ? a : c;
}

int rf_lse_check_out(float got, double want, double allowed, rf_dtype t, double *err,
                     double *reach) {
  *reach = allowed;
  /* float32 outputs, special wants (the IEEE class in any type: inf and NaN convert exactly)
   * and a NaN for a finite want: as for float32. */
  if (t == RF_DTYPE_F32 || !isfinite(want) || isnan(got)) return rf_lse_check(got, want, allowed, err);
  rf_lse_range rg;
  rf_lse_out_range(want, allowed, t, &rg);
  *reach = rg.reach;
  const int ok = got >= rg.lo && got <= rg.hi;
  if (isinf(got)) {
    *err = ok ? 0 : INFINITY;
    return ok;
  }
  double s, tt;
  abs_err(got, want, &s, &tt, err);
  return ok;
}

/* Every want's range contains [RN_t(w_hi - allowed_lo), RN_t(w_lo + allowed_lo)] and lies in
 * [RN_t(w_lo - allowed_hi), RN_t(w_hi + allowed_hi)]: the double operations, the outward steps
 * and RN_t are all monotone. */
int rf_lse_check_range_out(float got, double w_lo, double w_hi, double allowed_lo,
                           double allowed_hi, rf_dtype t) {
  if (!isfinite(w_lo) || !isfinite(w_hi) || !(w_lo <= w_hi)) return RF_LSE_OUT_UNSURE;
  if (isnan(got)) return RF_LSE_OUT_FAIL;
  const double in_lo = rf_dtype_round(t, next_down(w_hi - allowed_lo));
  const double in_hi = rf_dtype_round(t, next_up(w_lo + allowed_lo));
  if (got >= in_lo && got <= in_hi) return RF_LSE_OUT_PASS;
  const double out_lo = rf_dtype_round(t, next_down(w_lo - allowed_hi));
  const double out_hi = rf_dtype_round(t, next_up(w_hi + allowed_hi));
  if (got < out_lo || got > out_hi) return RF_LSE_OUT_FAIL;
  return RF_LSE_OUT_UNSURE;
}
