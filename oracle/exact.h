/* Exact oracle. Sum: a fixed-point superaccumulator over the whole float32 range, exact for
 * any float inputs and any count up to 2^32 (and beyond), rounded once. MPFR is used only
 * for the final rounding and for softmax. */
#ifndef RF_EXACT_H
#define RF_EXACT_H
#include <stddef.h>
#include <stdint.h>
#include <mpfr.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Superaccumulator. Layout is private to exact_sum.c but fixed-size so it can live on the
 * stack. Finite inputs are accumulated exactly; +inf, -inf and NaN are counted so the IEEE
 * result (inf, -inf, NaN for inf + -inf or any NaN) is reported. An exact zero sum is +0,
 * also when every input was -0 (what a kernel starting from 0.0f returns). */
#define RF_XSUM_WORDS 10   /* base-2^32 digits from 2^-149 up, the top one signed */
typedef struct {
  int64_t w[RF_XSUM_WORDS];
  uint64_t pending;   /* additions since the last carry normalisation */
  uint64_t n_pinf, n_ninf, n_nan;
} rf_xsum;

void rf_xsum_init(rf_xsum *a);
void rf_xsum_add(rf_xsum *a, const float *x, size_t n);
void rf_xsum_add1(rf_xsum *a, float x);
void rf_xsum_add_abs(rf_xsum *a, const float *x, size_t n);   /* accumulates |x_i| */
/* The exact value into out (its precision is raised to what exactness needs, <= 400 bits);
 * NaN / inf per IEEE when non-finite inputs were added. */
void rf_xsum_get(const rf_xsum *a, mpfr_t out);
/* The normalised digits (base 2^32 from 2^-149 up: digits 0..RF_XSUM_WORDS-2 in [0, 2^32),
 * the top one signed): one representation per value, so two accumulators hold the same
 * finite sum exactly when their digits are equal. And back: an accumulator from such digits
 * and the counts of +inf, -inf and NaN inputs (e.g. a device oracle's,
 * kernels/harness/oracle_device.h). */
void rf_xsum_digits(const rf_xsum *a, int64_t w[RF_XSUM_WORDS]);
void rf_xsum_from_digits(rf_xsum *a, const int64_t w[RF_XSUM_WORDS], uint64_t n_pinf,
                         uint64_t n_ninf, uint64_t n_nan);
/* Correctly rounded (round to nearest even) to float / to double, overflow to inf. */
float rf_xsum_round_f32(const rf_xsum *a);
double rf_xsum_round_f64(const rf_xsum *a);
/* |exact - approx| rounded UP to double (+inf if non-finite). */
double rf_xsum_abs_err_up(const rf_xsum *a, float approx);
/* The exact sum rounded UP (towards +inf) to double; for Σ|x_i| in bounds. */
double rf_xsum_round_up_f64(const rf_xsum *a);

/* Whole-array helpers. */
float rf_oracle_sum(const float *x, size_t n);           /* RN(Σ x_i) */
/* max and argmax: exact. NaN policy: NaN inputs are ignored (fmaxf semantics); a row of only
 * NaN gives NaN / index -1. Empty: max = -inf, argmax index = -1 with value -inf.
 * Ties go to the lowest index. Comparisons are IEEE, so -0.0 and +0.0 tie; max returns the
 * value at the argmax index (the first of equal zeros, with its sign). */
float rf_oracle_max(const float *x, size_t n);
int64_t rf_oracle_argmax(const float *x, size_t n, float *value);
/* min and argmin: the same rules mirrored: NaN ignored (fminf), only NaN gives NaN / -1, empty
 * gives +inf / -1, ties (-0 and +0 included) go to the lowest index, min is the value there. */
float rf_oracle_min(const float *x, size_t n);
int64_t rf_oracle_argmin(const float *x, size_t n, float *value);
/* The lowest index of a NaN in x[0..n), or -1: what a NaN-propagating argmax returns
 * (RF_CONTRACT_NAN_PROPAGATES, include/redfuzz/variant.h). */
int64_t rf_oracle_first_nan(const float *x, size_t n);

/* Softmax of one row from MPFR at >= 128 bits, m = max_j x_j:
 *   y_exact[j] = exp(x_j - m) / Σ_k exp(x_k - m), rounded to nearest double (relative error
 *                <= 2^-53, which bound checks account for);
 *   y_rn[j]    = the same rounded once to float (either array may be NULL);
 *   exp_sum    = Σ_k exp(x_k - m) rounded to double (may be NULL).
 * All three are correctly rounded from the true values (subnormal results included).
 * A row with a NaN or +inf gives NaN outputs (documented policy), and so does a row of only
 * -inf (0/0); a -inf entry in a row with a finite maximum gives exactly 0; cols == 0 writes
 * nothing. */
void rf_oracle_softmax_row(const float *x, uint32_t cols, double *y_exact, float *y_rn,
                           double *exp_sum);
/* The same for rows x cols (row-major), spread over `threads` host threads (0 = all cores).
 * exp_sum has `rows` entries; any output may be NULL. */
void rf_oracle_softmax(const float *x, uint32_t rows, uint32_t cols, double *y_exact,
                       float *y_rn, double *exp_sum, int threads);

#ifdef __cplusplus
}
#endif
#endif
