/* The cheap checks of one run of a variant, before any judge reads its output: the failure
 * seen at its launch, the guard zones of its output and scratch (arena.h), and words of its
 * output still holding the poison (buffers.h). The host judge (runner.c) and the background
 * re-check of row ops (recheck_rows.c) make them; the device's verdict kernel makes the same
 * ones into its records (kernels/harness/verdict_device.h). */
#ifndef RF_OUTPUT_CHECKS_H
#define RF_OUTPUT_CHECKS_H
#include "runner_internal.h"

/* Run k of p from the fetched arena a: 0 when its output can be judged, else -1 with the
 * failure in res (its launch's, `oob` for a guard, `unwritten` for the poison). */
int rf_runner_collect_run(const rf_arena *a, const pending *p, int k, rf_result *res);
#endif
