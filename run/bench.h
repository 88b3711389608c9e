/* Pieces of `redfuzz bench` that do not print: device-event timing of a launch, medians,
 * logical byte counts, and the check of a timed 1-D result against the exact oracle (the
 * runner verifies only sizes within its limits; the bench also times larger ones). */
#ifndef RF_BENCH_H
#define RF_BENCH_H
#include <stddef.h>
#include <stdint.h>
#include "model/case.h"
#include "model/verdict.h"
#include "redfuzz/plan.h"

/* Enqueues one launch on the default stream; returns 0 or the backend's error code. */
typedef int (*rf_bench_launch_fn)(void *ctx);

/* Runs fn `warmup` times untimed, then `repeat` times, each alone between
 * rf_dev_timer_start and rf_dev_timer_stop_ms; samples[0..repeat) get the times in ms.
 * Returns 0, or the first error (the backend's code, or -1 when the timer failed without
 * one). */
int rf_bench_time(rf_bench_launch_fn fn, void *ctx, unsigned warmup, unsigned repeat,
                  double *samples);

/* The median of v[0..n) (the mean of the two middle values for even n); sorts v.
 * NaN for n == 0. */
double rf_bench_median(double *v, size_t n);

/* Logical bytes one launch must move: reductions read n floats and write one,
 * 4n + 4 (seed 000's bandwidth definition); softmax reads and writes rows*cols floats. */
double rf_bench_bytes(rf_op op, uint64_t n, uint32_t rows, uint32_t cols);
/* Bytes per millisecond as GB/s (10^9 bytes per second). */
double rf_bench_gbps(double bytes, double ms);

/* Holds a sum/max/argmax result (got: one float, or an argmax pair in the layout of
 * index_bits: rf_argmax_out for 0 or 32, rf_argmax_out64 for 64) of x[0..n) against
 * the exact oracle: sum within the bound of `plan` (rf_bound_sum), max and argmax exact
 * (ties to the lowest index), by the default contract (include/redfuzz/variant.h: either
 * zero for a sum of only zeros, NaN ignored). Returns pass, wrong or nonfinite, with what differs in
 * detail. plan is used only for sum. */
rf_verdict rf_bench_check_1d(rf_op op, uint32_t index_bits, const rf_plan *plan, const float *x,
                             uint64_t n, const void *got, char *detail, size_t len);
#endif
