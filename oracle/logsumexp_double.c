/* Logsumexp and log-softmax of one row in binary64 with rigorous margins
 * (logsumexp_double.h; docs/ORACLE.md, "The double log oracle").
 *
 * Computation, u = 2^-53, C = cols, m = max_j x_j (exact: a float):
 *   d̂_j = RN(x_j - m), ê_j = exp(d̂_j) or 0 when deep, Ŝ = Σ ê_j   (rf_expsum_double)
 *   L̂   = log(Ŝ)                                                   (glibc)
 *   lse = RN(m + L̂),  y_j = RN(d̂_j - L̂).
 * True values: d_j = x_j - m <= 0, S = Σ exp(d_j) >= 1, L = log S >= 0, lse = m + L,
 * y_j = d_j - L. The steps:
 *
 * 1. The sum. softmax_double.c steps 1-3 (rf_smr_oracle_sum_range): Ŝ / S in [Lr, Ur]. They
 *    hold for -inf entries too (ê_j = e_j = 0, inside the deep elements' τ_j).
 *
 * 2. The log of the sum. log z <= z - 1 for z > 0, so |log Ŝ - log S| = |log(Ŝ/S)| <=
 *    λ = max(Ur - 1, (1 - Lr) / Lr). glibc's log is within k ulps of log Ŝ, k =
 *    RF_LSE_DOUBLE_LOG_ULPS = 2: the double log of glibc 2.28 on (the ARM optimized-routines
 *    algorithm) states about 0.52 ulp in its source, and the GNU C Library manual's "Known
 *    Maximum Errors in Math Functions" lists its measured errors against the correctly
 *    rounded result (+0.5 against the exact value); we take 2, the margin softmax_double.h
 *    takes for exp, and tests/oracle/test_lse_double.c measures it (0.513 at most on 200 000
 *    sums). log Ŝ is 0 or normal (Ŝ = 1 or Ŝ >= 1 + 2^-52), so k ulp(log Ŝ) <=
 *    2ku log Ŝ <= 2ku L̂ / (1 - 2ku):
 *        |L̂ - L| <= err_L = λ + 2ku L̂ / (1 - 2ku).
 *    L̂ >= 0: the maximum's term is exp(0) = 1 exactly (C11 Annex F.10.3.1), the sum of
 *    nonnegative terms from 1 on stays >= 1 (RN is monotone) and log(1) = +0 (F.10.3.7);
 *    checked all the same (a row with L̂ < 0 is refused).
 *
 * 3. The outputs. m is exact and an addition whose result is subnormal is exact, so each
 *    rounding below is within u of its result, relative:
 *        |lse - (m + L)| <= |L̂ - L| + u |lse|                      <= err_L + 2^-52 |lse|;
 *        |y_j - (d_j - L)| <= |d̂_j - d_j| + |L̂ - L| + u |y_j|     <= err_L + 2^-52 |y_j|,
 *    since |d̂_j - d_j| <= u |d̂_j| and |d̂_j| <= |y_j| (d̂_j <= 0 and L̂ >= 0, so
 *    d̂_j - L̂ <= d̂_j <= 0, and RN is monotone). The MPFR oracle's double is RN of the true
 *    value, so it lies in [RD(v - M), RU(v + M)], M the margin (rf_lse_double_range).
 *
 * 4. log_s. MPFR's log_s is RN(L): in [RD(L̂ - err_L), RU(L̂ + err_L)], and >= 0.
 *
 * 5. wd. The MPFR oracle's wd (logsumexp_oracle.c, weighted_spread) is within
 *    [W (1 + 2^-21), W (1 + 2^-18) + 2^-899] of W = Σ_j p_j |d_j| (logsumexp.h,
 *    RF_LSE_WD_*). Here N̂ = Σ ê_j |d̂_j| over the non-deep elements (rf_expsum_double's ds:
 *    C roundings of nonnegative terms at most, fused or not, so within γ_C relative and
 *    C 2^-1074 absolute of the exact sum of the products). With ê_j = e_j ρ_j + τ_j (step 1),
 *    |d̂_j| / |d_j| in [1 - u, 1 + u], and the deep elements' e_j |d_j| < 2^-1075 2^129 (a
 *    difference of floats is below 2^129): C < 2^32 keeps every absolute term below 2^-913
 *    for the upper end and 2^-1030 for the lower, so with S in [Ŝ/Ur, Ŝ/Lr] and S >= 1,
 *        W <= N̂ Ur / (Ŝ (1 - γ_C)(1 - u) ρ_lo) + 2^-913,
 *        W >= N̂ Lr / (Ŝ (1 + γ_C)(1 + u) ρ_hi) - 2^-1030.
 *
 * Every bound is evaluated with directed rounding (dir_round.h), in log_row_math.h's functions
 * (steps 1, 2, 5: rf_lsr_margin_make; 3: rf_lsr_double_range; 4: rf_lsr_double_rows), which
 * the device oracle evaluates too (kernels/harness/log_device.hip). Cost: one exp per element, one
 * log per row, O(C) double operations. */
#include "logsumexp_double.h"

#include <math.h>

#include "expsum_double.h"
#include "log_row_math.h"   /* the steps' formulas, shared with kernels/harness/log_device.hip */
#include "log_special.h"

/* One finite entry, the rest -inf: S = 1, L = 0, lse = m, y_j = 0 at the maximum and -inf
 * elsewhere, all exact, and wd as the MPFR oracle forms it from num = 0: its very row. */
static int exact_row(const float *x, uint32_t cols, float m, rf_lse_row *row, rf_lse_margin *mg,
                     double *y) {
  const double md = m;
  rf_lsr_exact_row(m, row, mg);
  if (y)
    for (uint32_t j = 0; j < cols; j++) y[j] = ((double)x[j] - md) - 0.0;
  return 1;
}

int rf_oracle_lse_row_double(const float *x, uint32_t cols, rf_lse_row *row, rf_lse_margin *mg,
                             double *y) {
  if (cols == 0) return -1;
  rf_row_scan scan;
  rf_row_scan_of(x, cols, &scan);
  if (rf_smr_row_is_nan(scan.poisoned, scan.m)) return -1;   /* log_special.h's rows */
  if (scan.n_finite == 1) return exact_row(x, cols, scan.m, row, mg, y);
  rf_expsum es;
  rf_expsum_double(x, cols, scan.m, NULL, &es);
  /* steps 1, 2 and 5 */
  const double Lh = log(es.s);
  if (rf_lsr_margin_make(cols, es.dmax, es.s, es.ds, Lh, mg)) return -1;
  /* step 3 */
  const double md = scan.m;
  row->m = scan.m;
  row->log_s = Lh;
  row->lse = md + Lh;
  row->wd = mg->wd_hi;
  if (y)
    for (uint32_t j = 0; j < cols; j++) y[j] = ((double)x[j] - md) - Lh;
  return 0;
}

void rf_lse_double_range(const rf_lse_margin *mg, double v, double *lo, double *hi) {
  rf_lsr_double_range(mg, v, lo, hi);
}

void rf_lse_double_rows(const rf_lse_row *row, const rf_lse_margin *mg, rf_lse_row *lo,
                        rf_lse_row *hi) {
  rf_lsr_double_rows(row, mg, lo, hi);
}
