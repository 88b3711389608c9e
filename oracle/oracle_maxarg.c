/* Exact max and argmax, min and argmin (policy in exact.h and docs/ORACLE.md). Comparisons are IEEE, so
 * -0.0 == +0.0 is a tie and the lowest index wins; max returns the value stored at the
 * argmax index, so max and argmax always agree on which element they report. */
#include <math.h>
#include "oracle/exact.h"

/* The extremum of x in the direction sign (+1: the largest, -1: the smallest) over the
 * non-NaN values, the lowest index of a tie (the comparison is strict); only NaN gives NaN and
 * index -1, an empty x the identity (-inf for max, +inf for min) and -1. One loop for both, so
 * argmax and argmin cannot drift apart in their tie or NaN rule. */
static int64_t arg_extremum(const float *x, size_t n, float sign, float *value) {
  int64_t best = -1;
  float best_v = -sign * INFINITY;
  int seen_nan = 0;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    if (isnan(v)) {
      seen_nan = 1;                                        /* ignored, like fmaxf and fminf */
    } else if (best < 0 || sign * v > sign * best_v) {   /* strict: ties keep the lower index */
      best = (int64_t)i;
      best_v = v;
    }
  }
  if (best < 0 && seen_nan) best_v = NAN;
  if (value) *value = best_v;
  return best;
}

int64_t rf_oracle_argmax(const float *x, size_t n, float *value) {
  return arg_extremum(x, n, 1.0f, value);
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
  return arg_extremum(x, n, -1.0f, value);
}

float rf_oracle_min(const float *x, size_t n) {
  float v;
  rf_oracle_argmin(x, n, &v);
  return v;
}
