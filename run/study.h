/* The device-free pieces of `redfuzz study` (issue 6): the sizes it sweeps, the host
 * reference sums, the error measures of one run, and the statistics of the summary. */
#ifndef RF_STUDY_H
#define RF_STUDY_H
#include <stddef.h>
#include <stdint.h>
#include "runner.h"
#include "oracle/exact.h"
#include "oracle/bounds.h"
#ifdef __cplusplus
extern "C" {
#endif

/* "A..B" or a single "A", each a number of model/number.h in 1..2^64-1, A <= B. 0, or -1
 * with why (may be NULL) saying which end is wrong and how ("'2^4..' has no HI", "HI '2^70'
 * is out of range ...", "LO 0 ...", "LO 9 is above HI 3"). A HI past what a command can run
 * is for the command to clamp, with a note (study, tolerance), not an error here. */
int rf_study_parse_range(const char *s, uint64_t *lo, uint64_t *hi, char *why, size_t whylen);

/* The sizes swept in [lo, hi], ascending: every power of two, the odd size nearest above
 * 2^(k+1/2) between consecutive powers (so odd lengths and ragged tails are covered too),
 * and lo and hi themselves. Returns how many were written (at most max). */
size_t rf_study_sizes(uint64_t lo, uint64_t hi, uint64_t *out, size_t max);

/* The host references, judged exactly as the runner judges a sum variant. */
typedef enum { RF_STUDY_CPU_SEQUENTIAL, RF_STUDY_CPU_PAIRWISE, RF_STUDY_CPU_COUNT } rf_study_cpu;
const char *rf_study_cpu_name(rf_study_cpu which);            /* "cpu/sequential", ... */
int rf_study_cpu_parse(const char *name, rf_study_cpu *out);  /* 0, or -1 when not a reference */
/* The sum in binary32 and its plan: sequential is x0 + x1 + ... (h = n-1); pairwise splits
 * every range into halves ceil(n/2) + floor(n/2) (h = ceil(log2 n)). */
float rf_study_cpu_sum(rf_study_cpu which, const float *x, size_t n, rf_plan *plan);
/* Runs the reference and fills out like rf_runner_run does (variant is NULL). */
void rf_study_cpu_run(rf_study_cpu which, const float *x, size_t n, const rf_xsum *exact,
                      const rf_sum_facts *facts, rf_result *out);

/* The spacing of binary32 numbers at |v|: 2^(e-23) for 2^e <= |v| < 2^(e+1), and 2^-149
 * below 2^-126. */
double rf_study_ulp_f32(double v);

/* One run's error, in the units the study reports. NaN marks a measure that does not apply
 * (a relative error of an exact zero, Σ|x| for softmax). */
typedef struct {
  int usable;          /* verdict pass or wrong with a finite error: enters the statistics */
  double err;          /* sum: |ŝ - s|; softmax: |ŷ_j - y_j| at the element of largest err/bound */
  double rel_s;        /* err / |s| (softmax: err / y_j, the relative elementwise error) */
  double rel_abs;      /* sum: err / Σ|x_i| */
  double ulps;         /* err in ulps of the exact result rounded to binary32 */
  double bound, ratio; /* the derived bound at the same place and err / bound */
  double scale;        /* the unit the scaled columns divide by: u·Σ|x_i| (sum), u·max(y_j,
                          2^-126) (softmax: relative, except for results that underflow) */
  double scaled_err, scaled_bound;
  double sqrt_h;       /* √h: the probabilistic level (Higham & Mary 2019) in the scaled unit */
} rf_study_measure;
void rf_study_measure_of(rf_op op, const rf_result *r, rf_study_measure *m);

/* The q-quantile (0 <= q <= 1) of v[0..n) by linear interpolation between order statistics
 * (Hyndman & Fan 1996, definition 7, R's default). Sorts v. NaN when n = 0. */
double rf_study_quantile(double *v, size_t n, double q);
/* Least-squares slope of y against x. 0 and *slope set, or -1 when fewer than two distinct x. */
int rf_study_fit_slope(const double *x, const double *y, size_t n, double *slope);

#ifdef __cplusplus
}
#endif
#endif
