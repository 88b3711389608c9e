/* What the runner's files share (runner.c: batches and launches; judge.c: the exact answer
 * of a case and the verdict of each output against it). Not part of the runner's API. */
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
                              (runner_device.c) once the batch has run (RF_ANSWER_DEVICE) */
  int dev_answered, rechecked;   /* it came from the device; the host re-checked it */
  int queued;              /* its re-check is on the background queue (recheck_queue.h) */
  rf_oracle_dev_out dev_answer;  /* the device's record, for a later re-check */
  int sm_device;           /* a row op (softmax, a float32 log op): to be judged on the device
                              (runner_verdict.c); no host answer was made (RF_ANSWER_DEVICE_ROWS) */
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
  int dev_gen;             /* route.input: the input is made on the device (runner_device.c),
                              or sparse (sparse_input.c); x unused */
  int sparse;              /* route.input is RF_INPUT_SPARSE */
  const float *dev_x;      /* the input on the device (after the commit) */
  const char *harness;     /* the host disagreed with the device: the harness failure */
  rf_host_reason host_reason;   /* why it went to the host path (host_reasons.def), the
                                   first met; RF_HOST_NONE: wholly on the device */
} batch_case;

/* One variant in the batch: run 0, and for deterministic variants run 1 into its own output
 * and scratch (compared bit for bit with run 0). */
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


struct rf_runner {
  rf_device_info dev;
  rf_arena arena;                /* the batch's outputs, scratch and input, guarded (arena.h) */
  rf_arena in_arena;             /* simulator: the input on its own, exactly sized, so that
                                    AddressSanitizer sees reads far past or before it */
  rf_host_buf x, pending, saved;
  rf_oracle_ctx oracle;          /* the host oracle's buffers, modes and row counters */
  /* Several cases in one batch (rf_runner_run_many): their inputs, answers, descriptions. */
  rf_host_buf many_x, many_answer, many_case;
  rf_host_buf x_in, many_x_in;   /* 16-bit inputs in their device layout (batch_case.x_in) */
  rf_host_buf descs;             /* the batch's launches (launch_graph.h) */
  size_t n_descs;                /* how many descs hold (0: none could be described) */
  rf_graph_cache graphs;
  int use_graphs;                /* GPUs, unless REDFUZZ_GRAPHS=0 or serial */
  unsigned streams;              /* GPUs: REDFUZZ_STREAMS (1..RF_DEV_STREAMS), default all */
  size_t judge_threads;          /* REDFUZZ_JUDGE_THREADS, default: the cores, at most 8 */
  rf_workers *workers;           /* started at the first big softmax case */
  judge_ctx judges[RF_MAX_JUDGE_THREADS];   /* per worker; [0] is the caller's */
  rf_runner_stats stats;
  int serial;                    /* synchronise after every launch (attribution, timing) */
  const rf_variant *lost_variant;/* serial: the variant whose fault lost the device, and on */
  const rf_case *lost_case;      /* which case (the caller's pointer) */
  rf_route_policy route;         /* the settings that decide each case's route (route.h) */
  void *gen_dev;                 /* inputs made on the device, with their guards */
  void *sparse_dev;              /* the sparse input of the last case (sparse_input.c) */
  uint64_t max_n;                /* REDFUZZ_MAX_N, or 0: the backend's */
  char sparse_msg[160];
  size_t gen_cap;
  rf_host_buf recheck_x;
  unsigned long oracle_recheck;  /* 1 in this many device answers is checked on the host */
  int oracle_scratch_slot;
  int oracle_plant;              /* REDFUZZ_DEVICE_ORACLE_PLANT=1 (tests the re-check) */
  int recheck_background;        /* REDFUZZ_RECHECK_BACKGROUND: the caller may ask for rq */
  int rq_on;                     /* re-checks go to rq (rf_runner_recheck_background) */
  rf_recheck_queue rq;
  unsigned long long rq_batch;   /* batches collected since rq started (its clock) */
  unsigned long long rq_agreed;  /* rq.agreed already counted in stats */
  char rq_carry[512];            /* a failure taken while queueing a softmax re-check: the
                                    next batch's (recheck_rows.c, runner_device.c) */
  /* Verdict records made on the device (runner_verdict.c). */
  int vd_on;                     /* this batch is judged from its records (its cases' route) */
  int vd_rec_slot, vd_item_slot; /* its records (fetched) and item descriptions (uploaded) */
  size_t vd_n;                   /* its variants (records) */
  size_t vd_max_ob;              /* its largest output */
  int smd_rec_slot;              /* row ops: a summary of each variant's rows (kernels/
                                    row_summary.h; fetched with the records) */
  const struct pending *vd_ps;   /* the batch's variants (row ops: summary i is ps[i]'s) */
  void *smd_dev;                 /* row ops: the device oracle's y and row facts, then one
                                    chunk's per-row records (persistent; never read back) */
  size_t smd_cap;
  size_t smd_rec_off;            /* where the records start in smd_dev */
  uint32_t row_chunk;            /* rows judged per launch (REDFUZZ_ROW_CHUNK; 0: derived) */
  int vd_recheck_now;            /* this batch is also judged on the host and compared */
  unsigned long verdict_recheck; /* 1 in this many such batches is also judged on the host */
  int verdict_plant;             /* REDFUZZ_DEVICE_VERDICT_PLANT=1 (tests the re-checks) */
  rf_host_buf vd_items, vd_res, vd_host;
  rf_host_buf vd_rowj;           /* row ops: each variant's part of the one judge launch */
  rf_variant_filter keep;
  void *keep_ctx;
  /* The last case's input and exact answer: launch-parameter sweeps over one input (and the
   * shrinker) reuse them instead of generating, uploading and solving again. */
  int have_last;
  rf_case last;
  oracle_answer answer;
};


/* A row op's re-check batch in a long run: the host's judgement of the variants given from
 * their records goes to the background queue (recheck_rows.c). how[i]: the rf_verdict_from
 * of each variant (verdict_from.h); a record whose guards, poison or repeat the host sees
 * otherwise is turned into a disagreement now (how[i] = RF_FROM_DISAGREE, dev[i] its result).
 * 0 when queued (or nothing to re-check), -1 when the caller must re-check now (too big, out
 * of memory, no read-back). */
int rf_runner_rows_recheck_queue(rf_runner *r, const pending *ps, size_t n,
                                 unsigned char *how, rf_result *dev);
/* 1 when case c's exact answer comes from its markers (a 1-D case of a sparse distribution):
 * rf_compute_oracle then reads no input (x may be NULL). */
int rf_oracle_from_markers(const rf_case *c);
/* sparse_input.c: bc's input (a sparse distribution) into its own zeroed, read-only device
 * buffer with the markers written; bc->dev_x set. NULL, or what failed. */
const char *rf_sparse_input_make(rf_runner *r, batch_case *bc);
void rf_sparse_input_free(rf_runner *r);
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
                     uint32_t contract, const rf_argmax_out *got, rf_result *res);
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

/* runner_device.c: the device oracle in a batch (see there). */
void rf_runner_device_init(rf_runner *r, const rf_settings *set);
int rf_runner_device_slots(rf_runner *r, batch_case *bcs, size_t nc);
const char *rf_runner_device_inputs(rf_runner *r, batch_case *bcs, size_t nc,
                                    const rf_arena *inputs);
const char *rf_runner_device_launch(rf_runner *r, batch_case *bcs, size_t nc);
void rf_runner_device_confirm(rf_runner *r, batch_case *bc, const rf_result *res);
void rf_runner_device_harness(const batch_case *bc, rf_result *res);
void rf_runner_device_free(rf_runner *r);
const char *rf_runner_device_collect(rf_runner *r, batch_case *bcs, size_t nc);
/* rf_runner_recheck_background and rf_runner_recheck_drain (runner.h) of runner.c. */
int rf_runner_device_background(rf_runner *r);
const char *rf_runner_device_drain(rf_runner *r);

/* runner_verdict.c: verdict records made on the device for batches of 1-D cases (see there). */
void rf_runner_verdict_init(rf_runner *r, const rf_settings *set);
int rf_runner_verdict_slots(rf_runner *r, rf_route_verdict batch, size_t n);
int rf_runner_verdict_items(rf_runner *r, const batch_case *bcs, size_t nc, const pending *ps,
                            size_t n);
const char *rf_runner_verdict_launch(rf_runner *r);
const char *rf_runner_verdict_fetch(rf_runner *r, const batch_case *bcs, size_t nc);
pending *rf_runner_verdict_judge(rf_runner *r, pending *ps, size_t n, size_t *n_host);
void rf_runner_verdict_finish(rf_runner *r, pending *ps, size_t n);
void rf_runner_verdict_free(rf_runner *r);
/* bc->host_reason = why unless it already has one: the first reason met counts. */
static inline void rf_runner_host_note(batch_case *bc, rf_host_reason why) {
  if (bc->host_reason == RF_HOST_NONE) bc->host_reason = why;
}
#endif
