/* Softmax of one row in binary64 with a rigorous relative error bound (softmax_double.h).
 *
 * Computation, u = 2^-53 (binary64 unit roundoff), C = cols, m = max_j x_j (exact: a float):
 *   d̂_j = RN(x_j - m)            (double subtraction of two floats)
 *   ê_j = exp(d̂_j)               (glibc), or 0 when d̂_j < -745.25 ("deep")
 *   Ŝ   = ê_1 + ... + ê_C         (double, left to right)
 *   ŷ_j = RN(ê_j / Ŝ)
 * True values: d_j = x_j - m <= 0, e_j = exp(d_j), S = Σ e_j >= 1 (the maximum's term is
 * exp(0) = 1), y_j = e_j / S. Each term of the bound:
 *
 * 1. The difference. One rounding of a real whose magnitude is 0 or >= 2^-149 (normal in
 *    double): |d̂_j - d_j| <= u|d_j| <= u|d̂_j| / (1 - u). With D = max |d̂_j| over the
 *    elements that are not deep, every such element has |d̂_j - d_j| <= t = uD/(1-u), so
 *    exp(d̂_j) / e_j lies in [e^-t, e^t], and e^t - 1 <= E = t/(1-t) (e^t <= 1/(1-t)).
 *
 * 2. exp. The GNU C Library manual, "Known Maximum Errors in Math Functions", lists exp
 *    (double) on x86_64 at 1 ulp; the table comes from glibc's test suite
 *    (sysdeps/x86_64/fpu/libm-test-ulps), which measures against the correctly rounded
 *    result, so against the exact value it is 1.5 ulp. We take k = RF_SM_DOUBLE_EXP_ULPS = 2
 *    (tests/oracle/test_softmax_double.c measures it: about 0.5). For any result v,
 *    k ulp(v) <= 2ku v + k 2^-1074 (ulp(v) <= 2^-52 v for normal v, 2^-1074 below), the ulp
 *    taken of the exact or of the computed value alike:
 *        ê_j = exp(d̂_j)(1 + θ_j) + τ_j,  |θ_j| <= θ = 2ku/(1-2ku),  |τ_j| <= τ = k 2^-1074/(1-2ku).
 *    With step 1: ê_j = e_j ρ_j + τ_j, ρ_j in [ρ_lo, ρ_hi] = [(1-θ)/(1+E), (1+θ)(1+E)].
 *    Deep elements: d̂_j < -745.25 implies d_j < -745.25 (RN is monotone, -745.25 is a
 *    double), so e_j < e^-745.25 < 2^-1075; ê_j = 0 = e_j·1 + τ_j with |τ_j| < 2^-1074 <= τ
 *    (ρ_j = 1 is inside [ρ_lo, ρ_hi]).
 *
 * 3. The sum of C nonnegative terms, left to right: Ŝ = Σ ê_j (1 + η_j), |η_j| <= γ_{C-1}
 *    = (C-1)u/(1-(C-1)u) (Higham 2002, §4.2 and Lemma 3.1; an addition whose result is
 *    subnormal is exact, so no absolute term). With S >= 1:
 *        Ŝ/S <= U = (1+γ_{C-1})(ρ_hi + Cτ),   Ŝ/S >= L = (1-γ_{C-1})(ρ_lo - Cτ).
 *
 * 4. The division: ŷ_j = (ê_j/Ŝ)(1 + δ) + μ, |δ| <= u, |μ| <= 2^-1075 (half the subnormal
 *    spacing; we use 2^-1074). Then, with Ŝ >= L S >= L:
 *        ŷ_j - y_j = y_j [ρ_j (S/Ŝ)(1+δ) - 1] + τ_j (1+δ)/Ŝ + μ, so
 *        |ŷ_j - y_j| <= y_j max(ρ_hi(1+u)/L - 1, 1 - ρ_lo(1-u)/U) + τ(1+u)/L + 2^-1074.
 *    rel is the max (each side computed, rounded up); the absolute part needs L >= 1/2 to
 *    stay below 8·2^-1074 <= RF_SM_DOUBLE_ABS = 2^-1070 and is checked here (L is about
 *    1 - 2^-20 even at C = 2^32).
 *    To first order rel = (2D + 4k + 1)u + γ_{C-1}, and the directed roundings below add
 *    about 20u: about 2^-43 at C = 1024 for logits in [-1, 1], 2^-41 at C = 4096, at most
 *    (1520 + C)u for any row.
 *
 * -inf elements (the maximum finite): d̂_j = -inf < -745.25, so ê_j = 0 = e_j exactly; they
 *    are deep elements with τ_j = 0, so every step above holds with them.
 *
 * 5. Constant rows (every x_j equal, so d̂_j = 0 exactly): y_j = 1/C exactly, and RN(1/C)
 *    is within u of it relative (1/C is normal): rel = 2^-53, the MPFR oracle's quality.
 *
 * Every bound above is evaluated with directed rounding (dir_round.h), so the returned rel
 * is itself an upper bound. Cost: one exp per element and O(C) double operations; the
 * bound itself is O(1) per row. */
#include "softmax_double.h"

#include <math.h>

#include "expsum_double.h"
#include "softmax_row_math.h"

/* rel for a row of C columns whose non-deep elements have |d̂_j| <= dmax; -1 if the
 * absolute part would not fit RF_SM_DOUBLE_ABS (not reachable for C < 2^32): steps 1-4
 * above, in softmax_row_math.h (shared with the device oracle). */
static double row_rel(uint32_t C, double dmax) { return rf_smr_oracle_rel(C, dmax); }

double rf_oracle_softmax_row_double(const float *x, uint32_t cols, double *y) {
  if (cols == 0) return 0;
  rf_row_scan scan;
  rf_row_scan_of(x, cols, &scan);
  /* Special values (softmax_special.h): a NaN row is MPFR's to fill; a -inf element of a row
   * with a finite maximum gets d = -inf, below DEEP_D: e = 0, exactly its true value. */
  if (rf_smr_row_is_nan(scan.poisoned, scan.m)) {
    for (uint32_t j = 0; j < cols; j++) y[j] = NAN;
    return -1;
  }
  if (scan.equal) { /* step 5 */
    const double r = 1.0 / (double)cols;
    for (uint32_t j = 0; j < cols; j++) y[j] = r;
    return 0x1p-53;
  }
  rf_expsum es;   /* steps 1-3: ê_j into y, Ŝ = es.s */
  rf_expsum_double(x, cols, scan.m, y, &es);
  double rel = row_rel(cols, es.dmax);
  if (rel < 0) {
    for (uint32_t j = 0; j < cols; j++) y[j] = NAN;
    return -1;
  }
  for (uint32_t j = 0; j < cols; j++) y[j] /= es.s;
  return rel;
}
