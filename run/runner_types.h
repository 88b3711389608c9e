/* The runner's result and statistics types (runner.h), apart from its functions, so that its
 * stages (runner_internal.h) use them without depending on the runner itself. */
#ifndef RF_RUNNER_TYPES_H
#define RF_RUNNER_TYPES_H
#include <stddef.h>
#include <stdint.h>
#include "model/case.h"
#include "model/verdict.h"
#include "host_reason.h"
#include "rules.h"
#include "redfuzz/variant.h"
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
  rf_rule rule;        /* a failure: the contract rule that decided it (run/rules.def), part of
                          the finding's signature; RF_RULE_NONE otherwise */
} rf_result;

typedef struct rf_runner rf_runner;

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
   * oracles, verdict kernels, row oracles and judges: kernels/harness/launch_count.h), counted
   * exactly.
   * The variants' own kernels are not: each of kernel_runs is one call of a variant's launch
   * function, which may enqueue several kernels that only it knows of. */
  unsigned long long harness_launches;
  /* Exact answers made on the device (dev_answers.c), and how many of them were also
   * made on the host and compared (REDFUZZ_ORACLE_RECHECK). */
  unsigned long long oracle_device_cases, oracle_rechecks;
  unsigned long long inputs_device;            /* inputs made on the device (rf_gen_launch) */
  unsigned long long inputs_sparse;            /* sparse inputs: zeroed buffer + markers */
  /* Verdict records made on the device (dev_verdicts.c): batches judged from them, variant
   * results given from a record, results left to the host judge (something failed, or could
   * not be decided from the record), and results also judged on the host and compared
   * (REDFUZZ_VERDICT_RECHECK); ms_recheck: host time of every re-check (device answers and
   * device verdicts), not counted in ms_judge. */
  unsigned long long verdict_batches, verdict_device_runs, verdict_host_runs, verdict_rechecks;
  /* Softmax cases judged on the device (oracle and element checks there), and how many of
   * them the host path judged again (a failure, or a row the device could not decide). */
  unsigned long long softmax_device_cases, softmax_device_to_host;
  /* The same for float32 logsumexp and log-softmax cases (kernels/harness/log_device.h). */
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

/* Which variants run (rf_runner_set_filter). */
typedef int (*rf_variant_filter)(const rf_variant *v, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
