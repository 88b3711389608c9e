/* The runner: one case in, every matching variant run on the device, each held against the
 * exact oracle with its derived bound, one result per variant out. Device buffers are
 * allocated once and grown as needed; outputs and scratch are poisoned before every launch
 * and have guard zones checked after it. */
#ifndef RF_RUNNER_H
#define RF_RUNNER_H
#include <stddef.h>
#include "model/case.h"
#include "model/verdict.h"
#include "settings.h"
#include "host_reason.h"
#include "redfuzz/variant.h"
#include "kernels/harness/device.h"
#include "runner_types.h"
#ifdef __cplusplus
extern "C" {
#endif

/* NULL on device failure (message in err). set: the settings the edge read from the
 * environment (run/settings.h); NULL = every default. */
rf_runner *rf_runner_create(const rf_settings *set, char *err, size_t errlen);
void rf_runner_destroy(rf_runner *r);
const rf_device_info *rf_runner_device(const rf_runner *r);
/* Limits for decoding cases on this backend. */
rf_limits rf_runner_limits(const rf_runner *r);

/* Serial mode (also REDFUZZ_SERIAL=1): synchronise after every launch, so an asynchronous
 * device error names its variant and each result has its own time. The default launches
 * every variant of a case (deterministic ones twice) before one synchronisation, with one
 * poison upload and one read-back for all of them. */
void rf_runner_set_serial(rf_runner *r, int serial);
/* The repeat of each variant (a deterministic one's second run, which must give the same bits;
 * on the simulator every variant's, after a launch of another shape with zeroed scratch:
 * launch_checks.h) runs on 1 case in `every`, chosen from the case itself so that an input
 * always runs the same way: 1 (the default) every case, 0 none. About 40 % of a simulator
 * execution's time; its kernel coverage is never kept, so the coverage replay runs none and a
 * short campaign may run fewer (REDFUZZ_REPEAT_EVERY, docs/CAMPAIGNS.md). */
void rf_runner_set_repeat(rf_runner *r, uint64_t every);
/* After a GPU fault (rf_dev_lost()) found in serial mode: the variant that faulted and, in
 * *c, the case it ran (a pointer into the caller's cases). NULL when no fault was seen, or when
 * it was found at a batched synchronisation (then no variant can be named). */
const rf_variant *rf_runner_lost(const rf_runner *r, const rf_case **c);
/* The variant whose launch is running now (on the simulator the launch runs the kernel to
 * its end; on a GPU it only enqueues), or NULL: for a progress line written by another
 * thread while a long launch runs (cli/progress.h). */
const rf_variant *rf_runner_launching(const rf_runner *r);
/* GPUs also: the batch's variants go round-robin onto REDFUZZ_STREAMS streams (default 4, so
 * independent launches overlap on the device), and a batch whose launches repeat the last
 * one's exactly is recorded once as a launch graph and replayed from then on
 * (launch_graph.h; REDFUZZ_GRAPHS=0 turns that off). */

/* Counters since the runner was created (runner_types.h). */
rf_runner_stats rf_runner_get_stats(const rf_runner *r);

/* Long runs (sweeps, the fuzz target): the sampled re-checks of device-made answers
 * (REDFUZZ_ORACLE_RECHECK) go to a background host thread (run/recheck_queue.h), unless
 * REDFUZZ_RECHECK_BACKGROUND=0. A disagreement it finds is the harness failure of a later
 * batch's results (the message names the case that disagreed), or is returned by
 * rf_runner_recheck_drain, which the caller must call before its last report (it finishes
 * every pending re-check). Returns whether the queue runs. */
int rf_runner_recheck_background(rf_runner *r);
/* NULL, or the harness failure of a pending re-check (also printed to stderr). */
const char *rf_runner_recheck_drain(rf_runner *r);

/* Restricts which variants run (NULL = all of the case's op, mutants included). */
void rf_runner_set_filter(rf_runner *r, rf_variant_filter keep, void *ctx);

/* Runs every variant of c->op (or only c->variant when set). Returns the number of results
 * written (<= max), or -1 with a message in err when the case itself is invalid or the device
 * failed outside any variant. */
int rf_runner_run(rf_runner *r, const rf_case *c, rf_result *out, size_t max, char *err,
                  size_t errlen);

/* Several cases in one batch: out[i * max ...] holds case i's results and counts[i] their
 * number (-1: case i is invalid, message in err). The 1-D cases' inputs and exact
 * answers are computed on the runner's threads and all their variants launched before one
 * synchronisation; softmax cases, and every case in serial mode, run one at a time.
 * Returns 0, or -1 when some case failed. */
int rf_runner_run_many(rf_runner *r, const rf_case *cs, size_t ncases, rf_result *out,
                       size_t max, int *counts, char *err, size_t errlen);
/* 1 when rf_runner_run_many would batch c with other cases, 0 when it runs alone (row ops,
 * sparse inputs, serial mode): a caller that reports as it goes gives such a case a call of
 * its own, so that its results come out (and a stop loses nothing) as soon as it ends. */
int rf_runner_batchable(const rf_runner *r, const rf_case *c);

#ifdef __cplusplus
}
#endif
#endif
