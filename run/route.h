/* A case's route through the runner, decided once, before its batch (docs/RUNNER.md, Routes):
 * where its input is made, where its exact answer is made, how its verdicts are made, whether
 * it may share a batch with other cases, and the first reason it meets for the host path
 * (host_reasons.def). A pure function of the backend policy, the settings and the case: no
 * device, no runner state. A batch takes the route of its cases (rf_route_join).
 *
 * Overlays the route does not decide, taken at run time: a row op's host answer reused for
 * the same input (runner.c: the case is then judged on the host, reason REUSED), the record
 * failures, the re-checks and the confirmation of a failure (dev_verdicts.c,
 * dev_answers.c). */
#ifndef RF_ROUTE_H
#define RF_ROUTE_H
#include "model/case.h"
#include "host_reason.h"
#include "settings.h"

typedef enum {
  RF_INPUT_HOST,
  RF_INPUT_DEVICE,
  RF_INPUT_SPARSE   /* a sparse case (rf_case_is_sparse): 1-D, or logsumexp past the dense
                       shapes; a zeroed device buffer with the markers written
                       (sparse_input.c), answered on the host from the markers (1-D) or from
                       the one row the host holds, run alone */
} rf_route_input;
typedef enum {
  RF_ANSWER_HOST,          /* the host oracle, before the batch */
  RF_ANSWER_DEVICE,        /* 1-D: the device oracle, with the batch (dev_answers.c) */
  RF_ANSWER_DEVICE_ROWS    /* row ops: the device row oracle feeding the device judge
                              (dev_verdicts.c); no host answer unless the host path needs one */
} rf_route_answer;
typedef enum {
  RF_VERDICT_HOST,            /* the host judge on the read-back outputs */
  RF_VERDICT_RECORDS,         /* 1-D: one record per variant (kernels/harness/verdict_device.h) */
  RF_VERDICT_ROW_SUMMARIES    /* row ops: a summary of every variant's rows (row_summary.h) */
} rf_route_verdict;

typedef struct {
  rf_route_input input;
  rf_route_answer answer;
  rf_route_verdict verdict;
  int batchable;              /* may share a batch with other cases (rf_runner_run_many) */
  rf_host_reason host_reason; /* the first reason met before the batch; RF_HOST_NONE: none */
} rf_route;

/* The settings resolved for a backend once: each device stage 0 off, 1 on for every case,
 * 2 auto (GPUs: from min_elems elements; the setting unset). serial may change later
 * (rf_runner_set_serial). */
typedef struct {
  int device_oracle, device_gen, device_verdict;
  unsigned long long min_elems;
  int serial;
  int cross_check;   /* REDFUZZ_SOFTMAX_ORACLE=mpfr or upgrade: row ops stay on the host */
  rf_limits dense;   /* the backend's dense shapes (rf_backend.limits): a sparse row case
                        within them goes the dense way */
} rf_route_policy;

rf_route_policy rf_route_policy_make(int is_sim, const rf_settings *set);
rf_route rf_route_decide(const rf_route_policy *pol, const rf_case *c);
/* A batch's verdict path from its cases' (a row op runs alone), folded one case at a time from
 * the first case's: records only when every case has them, else the host. */
static inline rf_route_verdict rf_route_join(rf_route_verdict batch, rf_route_verdict c) {
  return batch == c ? batch : RF_VERDICT_HOST;
}
#endif
