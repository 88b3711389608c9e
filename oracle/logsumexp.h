/* The exact oracle for logsumexp and log-softmax (logsumexp_oracle.c) and their error bounds
 * (bounds_log.c); the derivation is docs/TOLERANCES.md, "Logsumexp and log-softmax", the
 * rules for NaN and infinities docs/ORACLE.md. The oracle reads floats: a 16-bit input is the
 * same real numbers (its conversion is exact); a 16-bit output adds one rounding
 * (rf_lse_check_out). */
#ifndef RF_LOGSUMEXP_H
#define RF_LOGSUMEXP_H
#include <stdint.h>
#include "redfuzz/plan.h"
#include "redfuzz/dtype.h"
#include "oracle/bounds.h"
#include "oracle/log_row_types.h"   /* rf_lse_row, rf_lse_bound, RF_LSE_WD_* */
#ifdef __cplusplus
extern "C" {
#endif

/* One row from MPFR (>= 128 bits, Ziv's strategy as for softmax), m = max_j x_j:
 *   lse     = log Σ_j exp(x_j), correctly rounded to double;
 *   log_s   = log Σ_j exp(x_j - m) >= 0, correctly rounded to double (the part of lse the
 *             kernels compute with a log; the bound scales with it);
 *   wd      = an upper bound of W = Σ_j p_j |x_j - m|, p_j = exp(x_j - m) / Σ_k exp(x_k - m)
 *             (the softmax weights: how much the rounding of the arguments x_j - m moves
 *             the sum; derivation in bounds_log.c), within
 *             [W RF_LSE_WD_REL_LO, W RF_LSE_WD_REL_HI + RF_LSE_WD_ABS_HI] (logsumexp_oracle.c,
 *             weighted_spread; the double oracle relies on it, logsumexp_double.c);
 *   y[j]    = x_j - lse, correctly rounded to double (y may be NULL).
 * Special rows (docs/ORACLE.md): a NaN gives lse = NaN and y = NaN; else a +inf gives
 * lse = +inf and y = NaN; else a row of only -inf gives lse = -inf and y = NaN; a -inf entry
 * in a row with a finite maximum gives y_j = -inf exactly. log_s and wd are then 0.
 * cols == 0: lse = -inf (the empty sum is 0), nothing else written.
 * (rf_lse_row: log_row_types.h.) */
/* wd from num (the double sum of e_j |d_j|) and S in double, as the MPFR oracle forms it (the
 * factor and the addend cover num's and S's rounding, logsumexp_oracle.c). */
static inline double rf_lse_wd_of(double num, double s) { return num / s * (1 + 0x1p-19) + 0x1p-900; }
void rf_oracle_lse_row(const float *x, uint32_t cols, rf_lse_row *out, double *y);
/* The same for rows x cols (row-major; y: rows*cols or NULL), rows spread over `threads`
 * host threads (at most 64); the same bits whatever the thread count. */
void rf_oracle_lse(const float *x, uint32_t rows, uint32_t cols, rf_lse_row *out, double *y,
                   int threads);

/* The log the kernels call (logf, as the backend computes it), in ulps of the result
 * against the exact value (sources in bounds_log.c). */
typedef struct { double log_ulps; } rf_log_model;
extern const rf_log_model RF_LOG_HOST_LIBM, RF_LOG_CUDA_LOGF, RF_LOG_OCML_LOGF;

/* The kernel's error on L = log Σ exp(x_j - m), for a finite row: the computed
 * L̂ = logf(Ŝ), Ŝ the float sum of the plan, satisfies |L̂ - L| <= eps_L (true L). And the
 * two outputs (docs/TOLERANCES.md):
 *   logsumexp  ŷ = RN(m + L̂):            |ŷ - lse| <= lse_bound (true lse);
 *   log-softmax ŷ_j = RN(RN(x_j - m) - L̂): |ŷ_j - y_j| <= y_abs + y_rel |y_j| (true y_j).
 * The oracle's own error (its outputs are correctly rounded doubles) is NOT folded in:
 * rf_lse_allowed does that. Every value rounded up; +inf when the plan is beyond the
 * analysis (e.g. h u >= 1). (rf_lse_bound: log_row_types.h; the formulas are
 * log_row_math.h's, shared with the device judge.) */
void rf_bound_lse_row(const rf_plan *plan, const rf_exp_model *em, const rf_log_model *lm,
                      const float *x, uint32_t cols, const rf_lse_row *row, rf_lse_bound *out);
/* The error allowed between a kernel output and the oracle's double `want` (the correctly
 * rounded value of a true value that the kernel must be within `kernel_bound` of):
 * kernel_bound + 2^-52 |want|, rounded up. */
double rf_lse_allowed(double kernel_bound, double want);
/* rf_lse_allowed for one output of a row with bound b: logsumexp (is_lse) within b->lse_bound;
 * log-softmax within b->y_rel |y_j| + b->y_abs, |y_j| <= |want| (1 + 2^-52). It grows with
 * |want| and with b's fields (the double oracle's judge relies on that, run/judge_log.c). */
double rf_lse_allowed_output(const rf_lse_bound *b, int is_lse, double want);
/* 1 when got is an acceptable float result for the exact value whose correctly rounded
 * double is want, within `allowed` (rf_lse_allowed): NaN and ±inf wants need the same
 * class; a finite want accepts ±inf only when want itself rounds to that infinity in
 * float; otherwise |got - want| <= allowed, compared exactly. *err gets |got - want| rounded
 * up (0 for a matching special, +inf for a class mismatch). */
int rf_lse_check(float got, double want, double allowed, double *err);

/* rf_lse_check's verdict for a want that is only known to lie in [w_lo, w_hi] (finite), with
 * an allowed error between allowed_lo and allowed_hi for every want there (the caller takes
 * them at the ends: rf_lse_allowed and the kernel bounds grow with |want| and with the
 * row's facts). RF_LSE_PASS when rf_lse_check passes every such want, RF_LSE_FAIL when it
 * fails every one, else RF_LSE_UNSURE (the double oracle's margin cannot decide: MPFR). */
enum { RF_LSE_PASS, RF_LSE_FAIL, RF_LSE_UNSURE };
int rf_lse_check_range(float got, double w_lo, double w_hi, double allowed_lo, double allowed_hi);
/* A quick test, in plain arithmetic, that rf_lse_check_range would say RF_LSE_PASS for the
 * double oracle's value v (margin from err_L, rf_lse_double_range): allowed_v is the allowed
 * error at |want| = |v| from the lowest row's bound, and `slope` bounds how fast the allowed
 * error shrinks with |want| (at most 2^-20; else 0). 1 only when every want of the interval
 * surely passes; 0 says nothing (ask rf_lse_check_range). */
int rf_lse_surely_within(float got, double v, double err_L, double allowed_v, double slope);

/* An output in the 16-bit type t (f16, bf16): the float32 result, within `allowed` of want
 * (rf_lse_allowed), rounded once more to t. RN_t is monotone, so the output lies in
 * [lo, hi] = [RN_t(want - allowed), RN_t(want + allowed)] (the ends rounded outward first);
 * an end is ±inf where want ± allowed reaches t's overflow threshold (f16: 65520), so an
 * infinity is accepted exactly when a result that overflows t is possible, and required when
 * both ends overflow. reach: the larger distance from want to an end, rounded up (+inf with an
 * infinite end), for reports (docs/TOLERANCES.md, "Log-op output in a 16-bit type"). */
typedef struct { double lo, hi, reach; } rf_lse_range;
void rf_lse_out_range(double want, double allowed, rf_dtype t, rf_lse_range *out);
/* rf_lse_check for an output of type t, got as a float (exact): t f32, a special want or a NaN
 * got: rf_lse_check; else 1 when got is in rf_lse_out_range. *err: |got - want| rounded up (0
 * for an accepted infinity); *reach: the range's reach (allowed for f32). */
int rf_lse_check_out(float got, double want, double allowed, rf_dtype t, double *err,
                     double *reach);
/* rf_lse_check_out's verdict for a want only known to lie in [w_lo, w_hi] (finite; e.g. a
 * double oracle's value and its margin), with an allowed error between allowed_lo and
 * allowed_hi for every want there, t a 16-bit type: RF_LSE_OUT_PASS when got is in the range
 * of every such want ([RN_t(w_hi - allowed_lo), RN_t(w_lo + allowed_lo)], ends outward),
 * RF_LSE_OUT_FAIL when it is in none ([RN_t(w_lo - allowed_hi), RN_t(w_hi + allowed_hi)]
 * leaves it out), else RF_LSE_OUT_UNSURE (ask the exact oracle). A NaN got fails. */
enum { RF_LSE_OUT_FAIL = 0, RF_LSE_OUT_PASS = 1, RF_LSE_OUT_UNSURE = -1 };
int rf_lse_check_range_out(float got, double w_lo, double w_hi, double allowed_lo,
                           double allowed_hi, rf_dtype t);

#ifdef __cplusplus
}
#endif
#endif
