/* What the runner's stages share (docs/RUNNER.md): a batch's cases (batch_case) and variant
 * runs (pending), a case's exact answer (oracle_answer), a judging thread's context
 * (judge_ctx), and the judges' entry points (judge.c, judge_log.c, op_table.c). The runner's
 * own state is in runner.c alone; each stage's is in its header (dev_inputs.h, dev_answers.h,
 * dev_verdicts.h, recheck_queue.h's rf_recheck_bg). Not part of the runner's API. */
#ifndef RF_RUNNER_INTERNAL_H
#define RF_RUNNER_INTERNAL_H
#include "runner_types.h"
#include "settings.h"
#include "kernels/harness/device.h"
#include "backend.h"
#include "oracle/exact.h"
#include "oracle/bounds.h"
#include "oracle/logsumexp.h"
#include "oracle/logsumexp_double.h"
#include "buffers.h"
#include "arena.h"
#include "workers.h"
#include "launch_graph.h"
#include "kernels/harness/oracle_device.h"
#include "recheck_queue.h"
#include "oracle_ctx.h"
#include "route.h"
#include "clock.h"
#include "case_outputs.h"

/* ---- the exact answer for one case ------------------------------------------------------ */
typedef struct {
  rf_xsum xs;              /* sum */
  rf_sum_facts facts;
  float max_value;         /* max, argmax; min, argmin: their minimum (the op's extremum) */
  int64_t argmax_index;    /* argmax; argmin: the lowest index of the minimum */
  int64_t first_nan;       /* max, argmax, min, argmin: the lowest index of a NaN, or -1 (a contract with
                              RF_CONTRACT_NAN_PROPAGATES wants NaN and this index) */
  /* softmax: y (rows*cols) from the double oracle, or from MPFR for the rows whose
   * row_mpfr is set (rows the double oracle refuses, or upgraded by a judge that could not
   * decide within its margin); row_rel: the double oracle's error bound per row. */
  double *y;               /* logsoftmax: y_j = x_j - lse from MPFR, rows*cols */
  double *row_rel;
  unsigned char *row_mpfr;
  rf_lse_row *lse;         /* logsumexp, logsoftmax: each row's facts (oracle/logsumexp.h),
                              from the double oracle with its margins, or from MPFR where
                              row_mpfr is set (as for softmax; also the double oracle's exact
                              rows, which are the MPFR row itself) */
  rf_lse_margin *lse_margin;
  int on_device;           /* sum/max/argmax: to be filled from the device oracle's record
                              (dev_answers.c) once the batch has run (RF_ANSWER_DEVICE) */
  int dev_answered, rechecked;   /* it came from the device; the host re-checked it */
  int queued;              /* its re-check is on the background queue (recheck_queue.h) */
  rf_oracle_dev_out dev_answer;  /* the device's record, for a later re-check */
  int sm_device;           /* a row op (softmax, a float32 log op): to be judged on the device
                              (dev_verdicts.c); no host answer was made (RF_ANSWER_DEVICE_ROWS) */
} oracle_answer;

/* One case of a batch: its input on the host, its exact answer and its input's slot. */
typedef struct {
  const rf_case *c;
  const float *x;
  const void *x_in;        /* the input in its device layout when that is not x (f16, bf16:
                              16-bit encodings, rf_dtype_store); NULL for f32 */
  uint64_t elems;
  oracle_answer *o;
  int in_slot;
  int dev_slot;            /* the device oracle's record in the batch's arena, or -1 */
  rf_route route;          /* decided once, before the batch (route.h) */
  int dev_gen;             /* route.input: the input is made on the device (dev_inputs.c),
                              or sparse (sparse_input.c); x unused */
  int sparse;              /* route.input is RF_INPUT_SPARSE */
  const float *dev_x;      /* the input on the device (after the commit) */
  const char *harness;     /* the host disagreed with the device: the harness failure */
  rf_host_reason host_reason;   /* why it went to the host path (host_reasons.def), the
                                   first met; RF_HOST_NONE: wholly on the device */
} batch_case;

/* Simulator: the launch of another shape made before run 1 (run/launch_checks.h). */
typedef struct {
  int ok;                /* one was found (else run 1 follows run 0 directly) */
  rf_case c;             /* the case it stands for: its size, block and grid requests */
  rf_launch_cfg cfg;
  size_t ob, sb;         /* its output and scratch bytes */
  int out_slot, scratch_slot;
} rf_other_launch;

/* One variant in the batch: run 0, and for deterministic variants run 1 into its own output
 * and scratch (compared bit for bit with run 0); on the simulator every variant has run 1,
 * after a launch of another shape and with zeroed scratch (run/launch_checks.h). */
typedef struct pending {
  const rf_variant *v;
  batch_case *bc;
  rf_result *res;
  rf_plan plan;
  rf_launch_cfg cfg;
  size_t ob, sb;
  int runs;
  int out_slot[2], scratch_slot[2];
  rf_verdict fail[2];            /* a device-side failure of that run, seen at launch */
  double ms;                     /* serial mode: wall time of its launches + synchronisations */
  int redo;                      /* a parallel judge left it undecided: judge again serially */
  char fail_detail[2][sizeof ((rf_result *)0)->detail];
  rf_other_launch other;         /* simulator: launched before run 1 */
  rf_verdict probe_fail;         /* GPUs: the contract probe's refusal (launch_checks.h) */
  char probe_detail[256];
} pending;

#define RF_MAX_JUDGE_THREADS 8

/* What one judging thread owns: scratch for the bounds of a row, and whether it may recompute
 * a row with MPFR (only the serial pass may: the oracle's rows are shared). */
typedef struct {
  rf_oracle_ctx *oc;     /* the oracle it judges against (shared; counters on upgrades) */
  rf_host_buf rel, rel_kernel;
  rf_host_buf got_f32;   /* a 16-bit softmax output as floats (exact) */
  int may_upgrade;
  int needs_upgrade;   /* set when a row was undecided and may_upgrade was 0 */
} judge_ctx;
void rf_judge_ctx_free(judge_ctx *jc);   /* its scratch (judge.c) */




/* 1 when case c's exact answer comes from its markers (a 1-D case of a sparse distribution):
 * rf_compute_oracle then reads no input (x may be NULL). */
int rf_oracle_from_markers(const rf_case *c);
/* op_table.c: the host's exact answer of case c for input x, by the op's row of the op table
 * (softmax: double oracle, MPFR for refused rows); where the route makes it on the device, the
 * runner does not call it. */
void rf_compute_oracle(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                       oracle_answer *o);
/* judge.c: softmax's exact answer (the op table's softmax oracle). */
void rf_oracle_softmax_case(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                            oracle_answer *o);
/* contract: the variant's RF_CONTRACT_* bits (include/redfuzz/variant.h, judge.h). */
void rf_judge_max(const oracle_answer *o, uint32_t contract, float got, rf_result *res);
/* The exp a softmax variant's plan declares, as this backend computes it. */
const rf_exp_model *rf_judge_exp_model(const rf_plan *plan);
/* The logf the log variants call, as this backend computes it (judge_log.c). */
const rf_log_model *rf_judge_log_model(void);
/* A sum's output of type t against the exact sum (judge.h, rf_judge_sum_exact_typed). */
void rf_judge_sum_typed(const oracle_answer *o, const rf_plan *plan, rf_dtype t,
                        uint32_t contract, float got, rf_result *res);
/* x: the case's input on the host, or NULL when it was made on the device (a tie-any
 * contract's element is then generated again, rf_gen_one). */
void rf_judge_argmax(const oracle_answer *o, const rf_case *c, const float *x,
                     uint32_t contract, const rf_argmax_out64 *got, rf_result *res);
/* Every row of a softmax output; may recompute rows with MPFR when jc->may_upgrade, else
 * sets jc->needs_upgrade and returns early. */
void rf_judge_softmax(judge_ctx *jc, const batch_case *bc, const rf_plan *plan,
                      const float *got, rf_result *res);
/* The same for an output of type ot (16-bit: its bound widened by the final rounding). */
void rf_judge_softmax_typed(judge_ctx *jc, const batch_case *bc, const rf_plan *plan,
                            rf_dtype ot, const float *got, rf_result *res);

/* judge_log.c: logsumexp and log-softmax from the double oracle (MPFR for the rows it
 * refuses), every output against its bound (oracle/logsumexp.h); rows the double oracle's
 * margins cannot decide are upgraded to MPFR as softmax's are (jc->may_upgrade, else
 * jc->needs_upgrade and an early return). */
void rf_oracle_lse_case(rf_oracle_ctx *oc, const rf_case *c, const float *x, oracle_answer *o);
void rf_judge_lse(judge_ctx *jc, const batch_case *bc, const rf_plan *plan, rf_dtype ot,
                  const float *got, rf_result *res);

/* bc->host_reason = why unless it already has one: the first reason met counts. */
static inline void rf_runner_host_note(batch_case *bc, rf_host_reason why) {
  if (bc->host_reason == RF_HOST_NONE) bc->host_reason = why;
}
#endif
