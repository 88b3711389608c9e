/* The row scan and the double exp-sum (expsum_double.h). */
#include "expsum_double.h"

#include <math.h>

#include "softmax_row_math.h"

void rf_row_scan_of(const float *x, uint32_t cols, rf_row_scan *out) {
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

void rf_expsum_double(const float *x, uint32_t cols, float m, double *e, rf_expsum *out) {
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
