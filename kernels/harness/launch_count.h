/* Kernels enqueued by the harness's own launch functions (the device input generator and its
 * guards, the arena's device fill, the exact oracles, the verdict kernels, the row oracles and
 * judges), counted on the calling thread: each of those functions adds one for every kernel it
 * enqueues, right where it enqueues it, so a chunked or multi-kernel launch function is counted
 * exactly. The runner takes the difference around a batch (run/runner.c) and prints it per
 * execution (REDFUZZ_PROFILE=1), apart from the variants' launch calls, whose kernels are
 * enqueued inside each variant's own launch function and are not counted here. A thread-local
 * count: runners on other threads do not mix into it (every launch is enqueued by the thread
 * that runs the batch). */
#ifndef RF_LAUNCH_COUNT_H
#define RF_LAUNCH_COUNT_H
#ifdef __cplusplus
extern "C" {
#endif
void rf_launch_count_add(unsigned n);
/* Kernels counted on this thread since it started. */
unsigned long long rf_launch_count(void);
#ifdef __cplusplus
}
#endif
#endif
