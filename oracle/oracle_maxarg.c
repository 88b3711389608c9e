/* Exact max and argmax, min and argmin (policy in exact.h and docs/ORACLE.md). Comparisons are IEEE, so
 * -0.0 == +0.0 is a tie and the lowest index wins; max returns the value stored at the
 * argmax index, so max and argmax always agree on which element they report. */
#include <math.h>
#include "oracle/exact.h"

int64_t rf_oracle_argmax(const float *x, size_t n, float *value) {
  int64_t best = -1;
  float best_v = -INFINITY;
  int seen_nan = 0;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    if (isnan(v)) {
      seen_nan = 1;                         /* ignored, like fmaxf */
    } else if (best < 0 || v > best_v) {    /* strict: ties keep the lower index */
      best = (int64_t)i;
      best_v = v;
    }
  }
  if (best < 0 && seen_nan) best_v = NAN;   /* only NaN: NaN / -1; empty: -inf / -1 */
  if (value) *value = best_v;
  return best;
}

float rf_oracle_max(const float *x, size_t n) {
  float v;
  rf_oracle_argmax(x, n, &v);
  return v;
}

int64_t rf_oracle_first_nan(const float *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (isnan(x[i])) return (int64_t)i;
  return -1;
}

/* The mirror of rf_oracle_argmax: the smallest non-NaN value, the lowest index of a tie. */
int64_t rf_oracle_argmin(const float *x, size_t n, float *value) {
  int64_t best = -1;
  float best_v = INFINITY;
  int seen_nan = 0;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    if (isnan(v)) {
      seen_nan = 1;                         /* ignored, like fminf */
    } else if (best < 0 || v < best_v) {    /* strict: ties keep the lower index */
      best = (int64_t)i;
      best_v = v;
    }
  }
  if (best < 0 && seen_nan) best_v = NAN;   /* only NaN: NaN / -1; empty: +inf / -1 */
  if (value) *value = best_v;
  return best;
}

float rf_oracle_min(const float *x, size_t n) {
  float v;
  rf_oracle_argmin(x, n, &v);
  return v;
}
