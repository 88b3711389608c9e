/* What the runner's files share (runner.c: batches and launches; judge.c: the exact answer
 * of a case and the verdict of each output against it). Not part of the runner's API. */
#ifndef RF_RUNNER_INTERNAL_H
#define RF_RUNNER_INTERNAL_H
#include "runner.h"
#include "backend.h"
#include "oracle/exact.h"
#include "oracle/bounds.h"
#include "buffers.h"
#include "arena.h"
#include "workers.h"
#include "launch_graph.h"
#include "kernels/oracle_device.h"

/* ---- the exact answer for one case ------------------------------------------------------ */
typedef struct {
  rf_xsum xs;              /* sum */
  rf_sum_facts facts;
  float max_value;         /* max, argmax */
  int64_t argmax_index;
  /* softmax: y (rows*cols) from the double oracle, or from MPFR for the rows whose
   * row_mpfr is set (rows the double oracle refuses, or upgraded by a judge that could not
   * decide within its margin); row_rel: the double oracle's error bound per row. */
  double *y;
  double *row_rel;
  unsigned char *row_mpfr;
  int on_device;           /* sum/max/argmax: to be filled from the device oracle's record
                              (runner_device.c) once the batch has run */
  int dev_answered, rechecked;   /* it came from the device; the host re-checked it */
  rf_oracle_dev_out dev_answer;  /* the device's record, for a later re-check */
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
  int dev_gen;             /* the input is made on the device (runner_device.c); x unused */
  const float *dev_x;      /* the input on the device (after the commit) */
  const char *harness;     /* the host disagreed with the device: the harness failure */
} batch_case;

#define RF_SIM_MAX_THREADS (1u << 20)
#define RF_MAX_JUDGE_THREADS 8
/* Scratch per launch: the softmax exp buffer at the largest case (2^24 floats) fits. */
#define RF_MAX_SCRATCH_BYTES ((size_t)256 << 20)

/* What one judging thread owns: scratch for the bounds of a row, and whether it may recompute
 * a row with MPFR (only the serial pass may: the oracle's rows are shared). */
typedef struct {
  struct rf_runner *r;
  rf_host_buf rel, rel_kernel;
  rf_host_buf got_f32;   /* a 16-bit softmax output as floats (exact) */
  int may_upgrade;
  int needs_upgrade;   /* set when a row was undecided and may_upgrade was 0 */
} judge_ctx;


struct rf_runner {
  rf_device_info dev;
  rf_arena arena;                /* the batch's outputs, scratch and input, guarded (arena.h) */
  rf_arena in_arena;             /* simulator: the input on its own, exactly sized, so that
                                    AddressSanitizer sees reads far past or before it */
  rf_host_buf x, y_exact, row_rel, row_mpfr, pending, saved;
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
  int softmax_mpfr_only;         /* REDFUZZ_SOFTMAX_ORACLE=mpfr: no double oracle (cross-check) */
  int softmax_upgrade_all;       /* REDFUZZ_SOFTMAX_ORACLE=upgrade: every double row counts as
                                    undecided, so the MPFR fallback runs (tests it) */
  int device_oracle, device_gen; /* answers / inputs of 1-D cases made on the device
                                    (runner_device.c): 0 off, 1 on, 2 auto (GPUs, big cases) */
  unsigned long long device_min_elems;
  void *gen_dev;                 /* inputs made on the device, with their guards */
  size_t gen_cap;
  rf_host_buf recheck_x;
  unsigned long oracle_recheck;  /* 1 in this many device answers is checked on the host */
  int oracle_scratch_slot;
  int oracle_plant;              /* REDFUZZ_DEVICE_ORACLE_PLANT=1 (tests the re-check) */
  rf_variant_filter keep;
  void *keep_ctx;
  /* The last case's input and exact answer: launch-parameter sweeps over one input (and the
   * shrinker) reuse them instead of generating, uploading and solving again. */
  int have_last;
  rf_case last;
  oracle_answer answer;
};

double rf_now_ms(void);

/* judge.c */
/* The exact answer of case c for input x (softmax: double oracle, MPFR for refused rows). */
void rf_compute_oracle(rf_runner *r, const rf_case *c, const float *x, uint64_t elems,
                       oracle_answer *o);
void rf_judge_sum(const rf_runner *r, const oracle_answer *o, const rf_plan *plan, float got,
                  rf_result *res);
void rf_judge_max(const oracle_answer *o, float got, rf_result *res);
/* rf_judge_sum for an output of type t (judge.h, rf_judge_sum_exact_typed). */
void rf_judge_sum_typed(const rf_runner *r, const oracle_answer *o, const rf_plan *plan,
                        rf_dtype t, float got, rf_result *res);
void rf_judge_argmax(const oracle_answer *o, const rf_argmax_out *got, rf_result *res);
/* Every row of a softmax output; may recompute rows with MPFR when jc->may_upgrade, else
 * sets jc->needs_upgrade and returns early. */
void rf_judge_softmax(judge_ctx *jc, const batch_case *bc, const rf_plan *plan,
                      const float *got, rf_result *res);
/* The same for an output of type ot (16-bit: its bound widened by the final rounding). */
void rf_judge_softmax_typed(judge_ctx *jc, const batch_case *bc, const rf_plan *plan,
                            rf_dtype ot, const float *got, rf_result *res);

/* runner_device.c: the device oracle in a batch (see there). */
void rf_runner_device_init(rf_runner *r, const rf_settings *set);
int rf_runner_device_oracle_for(const rf_runner *r, const rf_case *c);
int rf_runner_device_gen_for(const rf_runner *r, const rf_case *c);
int rf_runner_device_slots(rf_runner *r, batch_case *bcs, size_t nc);
const char *rf_runner_device_inputs(rf_runner *r, batch_case *bcs, size_t nc,
                                    const rf_arena *inputs);
const char *rf_runner_device_launch(rf_runner *r, batch_case *bcs, size_t nc);
void rf_runner_device_confirm(rf_runner *r, batch_case *bc, const rf_result *res);
void rf_runner_device_harness(const batch_case *bc, rf_result *res);
void rf_runner_device_free(rf_runner *r);
const char *rf_runner_device_collect(rf_runner *r, batch_case *bcs, size_t nc);
#endif
