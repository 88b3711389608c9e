/* The fast log oracle: one logsumexp / log-softmax row in binary64 with rigorous margins
 * (logsumexp_double.c, derivation there and in docs/ORACLE.md, "The double log oracle").
 * The judge (run/judge_log.c) tries it first; a row it refuses, and a row with an output
 * whose verdict the margins cannot decide (rf_lse_check_range), goes to MPFR
 * (rf_oracle_lse_row, logsumexp.h). */
#ifndef RF_LOGSUMEXP_DOUBLE_H
#define RF_LOGSUMEXP_DOUBLE_H
#include <stdint.h>
#include "oracle/logsumexp.h"
#ifdef __cplusplus
extern "C" {
#endif

/* RF_LSE_DOUBLE_LOG_ULPS, the error of the double log() the margin assumes: log_row_types.h. */

/* What a double row knows of the true values (L = log Σ_j exp(x_j - m)) and of the MPFR
 * oracle's row for the same input:
 *   |L̂ - L| <= err_L, L̂ the row's log_s as computed here;
 *   the MPFR row's wd lies in [wd_lo, wd_hi]. */
/* (rf_lse_margin: log_row_types.h; the formulas are log_row_math.h's, shared with the device
 * judge, kernels/harness/log_device.h.) */

/* One row: row->lse = RN(m + L̂), row->log_s = L̂, row->m = m, row->wd = wd_hi, and (y not
 * NULL) y[j] = RN(RN(x_j - m) - L̂) (exactly -inf at -inf entries). Every finite value v of
 * them is within err_L + 2^-52 |v| of its true value (rf_lse_double_range). Returns 0; 1 for
 * a row with one finite entry (the rest -inf), whose values are exact and the MPFR oracle's
 * own (its row can be judged as an MPFR row); or -1 for a row it refuses: a NaN or +inf, no
 * finite entry, cols == 0 (the special rows of logsumexp.h: MPFR gives them), or a sum range
 * it cannot use (not reachable for cols < 2^32). */
int rf_oracle_lse_row_double(const float *x, uint32_t cols, rf_lse_row *row, rf_lse_margin *mg,
                             double *y);

/* [*lo, *hi] holds the MPFR oracle's double for the output whose double value here is v
 * (finite): the MPFR value is RN of the true value, and the true value is within
 * err_L + 2^-52 |v| of v. */
void rf_lse_double_range(const rf_lse_margin *mg, double v, double *lo, double *hi);

/* The lowest and highest rows the MPFR oracle can give for this input, field by field: |lse|,
 * log_s and wd at either end (m is exact). rf_bound_lse_row is monotone in each, so its bounds
 * from *lo and *hi enclose the bounds from the MPFR row. */
void rf_lse_double_rows(const rf_lse_row *row, const rf_lse_margin *mg, rf_lse_row *lo,
                        rf_lse_row *hi);

#ifdef __cplusplus
}
#endif
#endif
