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
#include "kernels/device.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const rf_variant *variant;
  rf_verdict verdict;
  double err;          /* sum: |ŝ - s|; softmax: max_j |ŷ_j - y_j|; max/argmax: 0 or 1 (mismatch) */
  double bound;        /* the allowed error (sum: absolute; softmax: at the worst element) */
  double ratio;        /* err / bound: the largest over elements for softmax (0 when err = 0;
                          +inf when err > 0 = bound) */
  int suspicious;      /* sum error above the probabilistic level (information, not a verdict) */
  double ms;           /* serial mode: wall time of its launches + synchronisations;
                          batched (the default): NaN */
  float got;           /* sum/max: result; argmax: value; softmax: worst element */
  double want;         /* the exact value at the same place */
  long long got_index, want_index;   /* argmax; softmax: worst element index */
  double abs_sum;      /* sum: Σ|x_i| rounded up (the scale of the bound) */
  double probabilistic;/* sum: λ·√h·u·Σ|x_i| (Higham & Mary 2019) */
  uint64_t depth;      /* h: the plan's longest chain */
  char plan[160];
  char detail[512];    /* reason (unsupported), message (race, launch-error), or what differs */
} rf_result;

typedef struct rf_runner rf_runner;
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
/* After a GPU fault (rf_dev_lost()) found in serial mode: the variant that faulted and, in
 * *c, the case it ran (a pointer into the caller's cases). NULL when no fault was seen, or when
 * it was found at a batched synchronisation (then no variant can be named). */
const rf_variant *rf_runner_lost(const rf_runner *r, const rf_case **c);
/* GPUs also: the batch's variants go round-robin onto REDFUZZ_STREAMS streams (default 4, so
 * independent launches overlap on the device), and a batch whose launches repeat the last
 * one's exactly is recorded once as a launch graph and replayed from then on
 * (launch_graph.h; REDFUZZ_GRAPHS=0 turns that off). */

/* Counters since the runner was created. Where the softmax oracle's rows came from: the double oracle (with a rigorous margin),
 * MPFR because the row is a NaN row (oracle/softmax_special.h), or MPFR because some variant's
 * element was within the double oracle's margin of its bound. The same for the log ops' rows
 * (lse_*; MPFR also for rows with no finite entry). */
typedef struct {
  unsigned long long softmax_rows_double, softmax_rows_mpfr, softmax_rows_upgraded;
  unsigned long long lse_rows_double, lse_rows_mpfr, lse_rows_upgraded;
  /* Where the time went (wall ms, summed over cases): input generation, the exact oracle,
   * the upload of input + poison, enqueueing the launches, the synchronisation (the device
   * running them), the read-back, and the verdicts (bounds, comparisons, determinism). */
  double ms_generate, ms_oracle, ms_upload, ms_launch, ms_sync, ms_download, ms_judge;
  unsigned long long cases, batches, launched_runs;   /* launched_runs: variants, not repeats */
  /* GPUs: launch graphs recorded, and batches launched from one (launch_graph.h). */
  unsigned long long graphs_recorded, batches_replayed;
  unsigned long long kernel_runs;              /* launched_runs + determinism repeats */
  /* Kernels the harness enqueued (input generator and guards, the arena's device fill, exact
   * oracles, verdict kernels, row oracles and judges: kernels/launch_count.h), counted exactly.
   * The variants' own kernels are not: each of kernel_runs is one call of a variant's launch
   * function, which may enqueue several kernels that only it knows of. */
  unsigned long long harness_launches;
  /* Exact answers made on the device (runner_device.c), and how many of them were also
   * made on the host and compared (REDFUZZ_ORACLE_RECHECK). */
  unsigned long long oracle_device_cases, oracle_rechecks;
  unsigned long long inputs_device;            /* inputs made on the device (rf_gen_launch) */
  /* Verdict records made on the device (runner_verdict.c): batches judged from them, variant
   * results given from a record, results left to the host judge (something failed, or could
   * not be decided from the record), and results also judged on the host and compared
   * (REDFUZZ_VERDICT_RECHECK); ms_recheck: host time of every re-check (device answers and
   * device verdicts), not counted in ms_judge. */
  unsigned long long verdict_batches, verdict_device_runs, verdict_host_runs, verdict_rechecks;
  /* Softmax cases judged on the device (oracle and element checks there), and how many of
   * them the host path judged again (a failure, or a row the device could not decide). */
  unsigned long long softmax_device_cases, softmax_device_to_host;
  /* The same for float32 logsumexp and log-softmax cases (kernels/log_device.h). */
  unsigned long long log_device_cases, log_device_to_host;
  double ms_recheck;
  /* Background re-checks (rf_runner_recheck_background): the thread's time on them, off the
   * critical path and not in any stage above, and the part of ms_recheck the caller spent
   * waiting for it (a job due, or the queue full). */
  double ms_recheck_thread, ms_recheck_wait;
  /* Why cases were not wholly made and judged on the device (host_reasons.def): one reason a
   * case, and that case's host milliseconds (its generate, oracle, judge and host re-check
   * time: the stages the device path replaces; several cases of one run_many batch share
   * the batch's in proportion to their elements). */
  unsigned long long host_cases[RF_HOST_COUNT];
  double host_ms[RF_HOST_COUNT];
  /* Cases with no variant to launch (every one unsupported, or left out by the caller's
   * filter: the fuzz target's cost caps): no batch, so neither device nor host verdicts. */
  unsigned long long cases_unlaunched;
} rf_runner_stats;
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
typedef int (*rf_variant_filter)(const rf_variant *v, void *ctx);
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

#ifdef __cplusplus
}
#endif
#endif
