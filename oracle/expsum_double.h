/* The part of a row that the double softmax oracle (softmax_double.c) and the double log
 * oracle (logsumexp_double.c) share: one scan for the maximum and the special values, and the
 * exp-sum Ŝ = Σ_j exp(RN(x_j - m)) in binary64. The error range of Ŝ is
 * rf_smr_oracle_sum_range (softmax_row_math.h); the derivation is softmax_double.c, steps
 * 1-3 (docs/TOLERANCES.md, "The double oracle"). Private to oracle/. Inline, so that each
 * caller's copy drops what it does not use (softmax: ds; the log oracle: e), which keeps the
 * softmax oracle as fast as it was before the sharing (~5 ns an element). */
#ifndef RF_EXPSUM_DOUBLE_H
#define RF_EXPSUM_DOUBLE_H
#include <math.h>
#include <stdint.h>
#include "softmax_row_math.h"

typedef struct {
  float m;        /* max_j x_j over the entries that are not NaN (-inf when there is none) */
  int finite;     /* every entry finite */
  int poisoned;   /* some entry is NaN or +inf */
  int equal;      /* every entry equal to x[0] (== : NaN makes it 0) */
  uint32_t n_finite;
} rf_row_scan;

/* With m = the row's maximum (finite), d̂_j = RN(x_j - m) and "deep" meaning d̂_j < -745.25
 * (exp(d) < 2^-1075 there; -inf entries are deep):
 *   s    = Σ_j ê_j, left to right, ê_j = exp(d̂_j) (glibc), 0 for a deep element;
 *   ds   = Σ_j ê_j (-d̂_j), left to right, the products in RN (the softmax-weighted spread
 *          before the division by s; nonnegative terms);
 *   dmax = max |d̂_j| over the elements that are not deep (0 when none).
 * e, when not NULL, gets every ê_j. */
typedef struct {
  double s, ds, dmax;
} rf_expsum;

static inline void rf_row_scan_of(const float *x, uint32_t cols, rf_row_scan *out) {
  float m = -INFINITY;
  int finite = 1, poisoned = 0, equal = 1;
  uint32_t n_finite = 0;
  for (uint32_t j = 0; j < cols; j++) {
    float v = x[j];
    n_finite += isfinite(v) != 0;
    finite &= isfinite(v) != 0;
    poisoned |= isnan(v) || v == INFINITY;
    equal &= v == x[0];
    m = v > m ? v : m;
  }
  *out = (rf_row_scan){.m = m, .finite = finite, .poisoned = poisoned, .equal = equal,
                       .n_finite = n_finite};
}

static inline void rf_expsum_double(const float *x, uint32_t cols, float m, double *e,
                                    rf_expsum *out) {
  const double md = m;
  double s = 0, ds = 0, dmax = 0;
  for (uint32_t j = 0; j < cols; j++) {
    double d = (double)x[j] - md, ej = 0;
    if (d >= RF_SMR_DEEP_D) {   /* false for -inf entries */
      ej = exp(d);
      dmax = -d > dmax ? -d : dmax;
      ds += ej * -d;
    }
    if (e) e[j] = ej;
    s += ej;
  }
  *out = (rf_expsum){.s = s, .ds = ds, .dmax = dmax};
}

#endif
