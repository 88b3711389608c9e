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
#include "log_row_math.h"

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

/* The formulas are log_row_math.h's (shared with the device judge, kernels/harness/log_device.hip);
 * the host gives them the plan's and the models' figures. */
void rf_bound_lse_row(const rf_plan *plan, const rf_exp_model *em, const rf_log_model *lm,
                      const float *x, uint32_t cols, const rf_lse_row *row, rf_lse_bound *out) {
  const rf_lsr_params p = {{em->exp_ulps, em->ulps_per_arg, em->ftz, 0, rf_plan_depth(plan),
                            plan->rescales},
                           lm->log_ulps};
  /* Fast exps: error grows with the argument, capped at 88 (bounds.c). */
  const double span = em->ulps_per_arg > 0 && isfinite(row->lse) ? rf_lsr_span(x, cols, row->m) : 0;
  rf_lsr_bound_row(&p, span, cols, row, out);
}

double rf_lse_allowed(double kernel_bound, double want) { return rf_lsr_allowed(kernel_bound, want); }

double rf_lse_allowed_output(const rf_lse_bound *b, int is_lse, double want) {
  return rf_lsr_allowed_output(b, is_lse, want);
}

int rf_lse_check(float got, double want, double allowed, double *err) {
  return rf_lsr_check(got, want, allowed, err);
}

/* The margin argument of rf_lsr_surely_within (log_row_math.h): every want w of the interval
 * has |w - v| <= Δ = M + 2^-49 (|v| + M) + 2^-1072, M = err_L + 2^-52 |v|
 * (rf_lse_double_range's margin, rounded up, and its outward roundings are within that), so
 * |got - w| <= e (1 + 2^-52) + Δ with e = RN|got - v| (a subnormal difference is exact). The
 * allowed error at w is at least the formula's exact value at |w| >= |v| - Δ (monotone,
 * rounded up), which is >= allowed_v / (1 + 2^-49) - slope Δ (allowed_v is that formula at
 * |v| in a few roundings up, each within 2^-52 relative, or 2^-1074 absolute below the normal
 * range). The test asks for those with a factor (1 + 2^-40) of room on each side, which the
 * plain roundings of its own few operations (each within 2^-53, underflow within 2^-1074,
 * covered by 2^-1060 as allowed_v >= 2^-1000) cannot eat. */
int rf_lse_surely_within(float got, double v, double err_L, double allowed_v, double slope) {
  return rf_lsr_surely_within(got, v, err_L, allowed_v, slope);
}

/* The same tests as rf_lse_check, over the interval: |got - w| is convex in w, so its largest
 * value on [w_lo, w_hi] is at an end and its smallest is 0 inside (or the nearer end's); the
 * overflow test grows with |w| and allowed; the sign test is decided when both ends agree. */
int rf_lse_check_range(float got, double w_lo, double w_hi, double allowed_lo, double allowed_hi) {
  const int k = rf_lsr_check_range(got, w_lo, w_hi, allowed_lo, allowed_hi);
  return k == RF_LSR_RANGE_PASS ? RF_LSE_PASS : k == RF_LSR_RANGE_FAIL ? RF_LSE_FAIL : RF_LSE_UNSURE;
}

/* ---- an output in a 16-bit type (docs/TOLERANCES.md, "Log-op output in a 16-bit type") ----
 * log_row_math.h's rule, shared with the device judge. */
void rf_lse_out_range(double want, double allowed, rf_dtype t, rf_lse_range *out) {
  rf_lsr_out_range(want, allowed, (uint32_t)t, &out->lo, &out->hi, &out->reach);
}

int rf_lse_check_out(float got, double want, double allowed, rf_dtype t, double *err,
                     double *reach) {
  return rf_lsr_check_out(got, want, allowed, (uint32_t)t, err, reach);
}

int rf_lse_check_range_out(float got, double w_lo, double w_hi, double allowed_lo,
                           double allowed_hi, rf_dtype t) {
  const int k = rf_lsr_check_range_out(got, w_lo, w_hi, allowed_lo, allowed_hi, (uint32_t)t);
  return k == RF_LSR_RANGE_PASS ? RF_LSE_OUT_PASS : k == RF_LSR_RANGE_FAIL ? RF_LSE_OUT_FAIL
                                                                          : RF_LSE_OUT_UNSURE;
}
