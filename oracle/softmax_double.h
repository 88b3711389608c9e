/* The fast softmax oracle: one row in binary64 with a rigorous error bound (softmax_double.c,
 * derivation in docs/TOLERANCES.md, "The double oracle"). The runner tries it first and
 * falls back to MPFR (rf_oracle_softmax_row, oracle/exact.h) only for rows it cannot judge
 * with it: rows it refuses (-1) and rows with an element that rf_softmax_check
 * (oracle/bounds.h) calls RF_SM_UNSURE. */
#ifndef RF_SOFTMAX_DOUBLE_H
#define RF_SOFTMAX_DOUBLE_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Absolute part of the error bound: covers outputs that underflow in double (derivation in
 * softmax_double.c; the computed need is <= 8 * 2^-1074). */
#define RF_SM_DOUBLE_ABS 0x1p-1070
/* The error of glibc's exp() this bound assumes, in ulps of the result against the exact
 * value (softmax_double.c says where the figure comes from). */
#define RF_SM_DOUBLE_EXP_ULPS 2.0

/* y[j] ~ y_j = exp(x_j - m) / Σ_k exp(x_k - m), m = max_j x_j, computed in double. Returns
 * rel, rounded up, such that for every j
 *     |y[j] - y_j| <= rel * y_j + RF_SM_DOUBLE_ABS        (y_j the true value);
 * rel is about (2 max|x_j - m| + cols + 30) 2^-53 (max over x_j - m >= -745.25).
 * A constant row (every x_j equal) gives y[j] = RN(1/cols) exactly rounded, rel = 2^-53.
 * A row whose outputs are all NaN (a NaN or +inf in it, or only -inf: rf_smr_row_is_nan)
 * returns -1 and sets y to NaN (rf_oracle_softmax_row fills such rows). A -inf element of a
 * row with a finite maximum gets y[j] = 0, its exact value, and the bound covers the row. cols == 0 returns 0 and writes nothing. */
double rf_oracle_softmax_row_double(const float *x, uint32_t cols, double *y);

#ifdef __cplusplus
}
#endif
#endif
