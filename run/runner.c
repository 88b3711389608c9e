/* The runner (runner.h): generate → oracle → batches of variant runs (poison, launch, one
 * synchronisation, guards and poison checked) → verdicts against the oracle within each
 * variant's derived bound (judge.c). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runner.h"
#include "runner_internal.h"
#include "dev_inputs.h"
#include "dev_answers.h"
#include "dev_verdicts.h"
#include "input_check.h"
#include "output_checks.h"
#include "launch_prep.h"
#include "contain.h"
#include "launch_checks.h"
#include "op_table.h"
#include "model/gen.h"
#include "model/dtype.h"
#include "kernels/harness/launch_count.h"
#include "oracle/mp_alloc.h"

/* The runner's whole state. The stages own theirs (dev_inputs, answers, verdicts, the
 * background session); the arena and the host oracle are lent to those that need them. */
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
  rf_runner_stats stats;         /* the orchestrator's counters; the stages count their own
                                    (rf_runner_get_stats adds them up) */
  int serial;                    /* synchronise after every launch (attribution, timing) */
  const rf_variant *lost_variant;/* serial: the variant whose fault lost the device, and on */
  const rf_case *lost_case;      /* which case (the caller's pointer) */
  const rf_variant *launching;   /* the variant whose launch runs now, or NULL: read by another
                                    thread (rf_runner_launching), so atomic */
  rf_route_policy route;         /* the settings that decide each case's route (route.h) */
  uint64_t max_n;                /* REDFUZZ_MAX_N, or 0: the backend's */
  /* The stages (docs/RUNNER.md, "A batch, stage by stage"). */
  rf_dev_inputs inputs;          /* device-made and sparse inputs (dev_inputs.h) */
  rf_dev_answers answers;        /* exact answers made on the device (dev_answers.h) */
  rf_dev_verdicts verdicts;      /* verdicts made on the device (dev_verdicts.h) */
  rf_input_check check;          /* whether a variant wrote its input (input_check.h) */
  uint64_t ns_per_elem;          /* REDFUZZ_LAUNCH_NS_PER_ELEM: the simulator's limit grows */
  rf_recheck_bg bg;              /* background re-checks (recheck_queue.h) */
  rf_launch_checks checks;       /* the launch contract, state across launches (launch_checks.h) */
  uint64_t repeat_every;         /* the repeat runs on 1 case in this many (rf_runner_set_repeat) */
  rf_variant_filter keep;
  void *keep_ctx;
  /* The last case's input and exact answer: launch-parameter sweeps over one input (and the
   * shrinker) reuse them instead of generating, uploading and solving again. */
  int have_last;
  rf_case last;
  oracle_answer answer;
};

/* Host time of every re-check: the batch's own (a re-check batch judged on the host too) and
 * the stages'. */
static double ms_recheck(const rf_runner *r) {
  return r->stats.ms_recheck + r->answers.ms_recheck + r->verdicts.ms_recheck + r->bg.ms;
}

void rf_runner_set_filter(rf_runner *r, rf_variant_filter keep, void *ctx) {
  r->keep = keep;
  r->keep_ctx = ctx;
}

rf_runner *rf_runner_create(const rf_settings *set, char *err, size_t errlen) {
  rf_oracle_mp_alloc_install();
  rf_runner *r = calloc(1, sizeof *r);
  if (!r) { snprintf(err, errlen, "out of host memory"); return NULL; }
  int e = rf_dev_info(&r->dev);
  /* Create the device context now (CUDA does it lazily, ~0.1 s), not inside the first case. */
  if (!e) e = rf_dev_sync();
  if (e) {
    snprintf(err, errlen, "no usable device: %s", rf_dev_error_string(e));
    free(r);
    return NULL;
  }
  rf_settings defaults;
  if (!set) { rf_settings_default(&defaults); set = &defaults; }
  r->serial = set->serial != 0;
  r->repeat_every = 1;
  r->max_n = set->max_n;
  r->route = rf_route_policy_make(rf_backend.is_sim, set);
  rf_dev_sim_set_target_nvidia(set->sim_target == RF_TARGET_NVIDIA);
  rf_dev_sim_set_fault_loses_device(set->sim_fault_loses_device != 0);
  rf_dev_sim_set_threads(set->sim_threads ? (unsigned)set->sim_threads : 1u);
  rf_dev_set_launch_timeout_ms(set->launch_timeout_ms);   /* the watchdog: `timeout` */
  r->ns_per_elem = set->launch_ns_per_elem;
  rf_input_check_init(&r->check, (int)set->input_check, rf_backend.is_sim);
  rf_launch_set_sim_max_threads(set->sim_max_threads);
  /* REDFUZZ_COVERAGE_FOLD's names ("0", reference, baseline, full) to the simulator's folds. */
  static const int folds[] = {[RF_COV_FOLD_OFF] = RF_DEV_FOLD_OFF,
                              [RF_COV_FOLD_REFERENCE] = RF_DEV_FOLD_REFERENCE,
                              [RF_COV_FOLD_BASELINE] = RF_DEV_FOLD_BASELINE,
                              [RF_COV_FOLD_FULL] = RF_DEV_FOLD_FULL};
  const size_t fold = set->coverage_fold % (sizeof folds / sizeof folds[0]);   /* 0..3 (settings.def) */
  rf_dev_sim_coverage(set->coverage_fold_set ? folds[fold] : RF_DEV_FOLD_BLOCKS,
                      set->coverage_cmp == RF_COV_CMP_ALL);
  r->arena.exact = r->in_arena.exact = rf_backend.is_sim;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  r->judge_threads = set->judge_threads ? (size_t)set->judge_threads
                     : cores > 0 ? (size_t)cores : 1;
  if (r->judge_threads > RF_MAX_JUDGE_THREADS) r->judge_threads = RF_MAX_JUDGE_THREADS;
  for (unsigned t = 0; t < RF_MAX_JUDGE_THREADS; t++) r->judges[t].oc = &r->oracle;
  r->oracle.mpfr_only = set->softmax_oracle == RF_ORACLE_MPFR;
  r->oracle.upgrade_all = set->softmax_oracle == RF_ORACLE_UPGRADE;
  r->oracle.threads = r->judge_threads;
  r->use_graphs = !rf_backend.is_sim && set->graphs;
  r->streams = set->streams ? (unsigned)set->streams : rf_backend.streams;
  if (r->streams > rf_backend.streams) r->streams = rf_backend.streams;
  r->bg.allowed = set->recheck_background && set->oracle_recheck;
  rf_dev_answers_init(&r->answers, &r->arena, &r->bg, set);
  rf_dev_verdicts_init(&r->verdicts, &r->arena, &r->oracle, &r->bg, set);
  return r;
}

void rf_runner_set_repeat(rf_runner *r, uint64_t every) { r->repeat_every = every; }

/* Whether c's variants get their repeat: a function of the case alone (its seed, sizes and
 * launch request through splitmix64), so an input runs the same way in every process. */
static int repeats_case(const rf_runner *r, const rf_case *c) {
  if (r->repeat_every <= 1) return r->repeat_every == 1;
  uint64_t h = c->seed ^ (c->n * UINT64_C(0x9e3779b97f4a7c15)) ^
               ((uint64_t)c->rows << 32 | c->cols) ^ ((uint64_t)c->block << 40) ^
               ((uint64_t)c->grid << 8) ^ ((uint64_t)c->dist << 56);
  return rf_splitmix64(&h) % r->repeat_every == 0;
}

void rf_runner_set_serial(rf_runner *r, int serial) {
  r->serial = serial;
  r->route.serial = serial != 0;
}

const rf_variant *rf_runner_launching(const rf_runner *r) {
  return __atomic_load_n(&r->launching, __ATOMIC_RELAXED);
}

const rf_variant *rf_runner_lost(const rf_runner *r, const rf_case **c) {
  if (c) *c = r->lost_case;
  return r->lost_variant;
}
rf_runner_stats rf_runner_get_stats(const rf_runner *r) {
  rf_runner_stats s = r->stats;
  s.ms_recheck = ms_recheck(r);
  s.inputs_device = r->inputs.made;
  s.inputs_sparse = r->inputs.sparse_made;
  s.oracle_device_cases = r->answers.cases;
  s.oracle_rechecks = r->answers.rechecks + r->bg.q.agreed;   /* in the batch; background */
  s.ms_recheck_thread = r->bg.q.ms_thread;
  s.ms_recheck_wait = r->bg.q.ms_wait;
  const rf_dev_verdicts *v = &r->verdicts;
  s.verdict_batches = v->batches;
  s.verdict_device_runs = v->device_runs;
  s.verdict_host_runs = v->host_runs;
  s.verdict_rechecks = v->rechecks;
  s.softmax_device_cases = v->softmax_cases;
  s.softmax_device_to_host = v->softmax_to_host;
  s.log_device_cases = v->log_cases;
  s.log_device_to_host = v->log_to_host;
  const rf_oracle_counts *k = &r->oracle.counts;   /* the host oracle's (oracle_ctx.h) */
  s.softmax_rows_double = k->softmax_rows_double;
  s.softmax_rows_mpfr = k->softmax_rows_mpfr;
  s.softmax_rows_upgraded = k->softmax_rows_upgraded;
  s.lse_rows_double = k->lse_rows_double;
  s.lse_rows_mpfr = k->lse_rows_mpfr;
  s.lse_rows_upgraded = k->lse_rows_upgraded;
  return s;
}

/* The background re-check session (recheck_queue.h), lent to the device answers and verdicts. */
int rf_runner_recheck_background(rf_runner *r) { return rf_recheck_bg_start(&r->bg); }
const char *rf_runner_recheck_drain(rf_runner *r) { return rf_recheck_bg_take(&r->bg, 1); }

void rf_runner_destroy(rf_runner *r) {
  if (!r) return;
  /* After a stop a host re-check may still run on a worker that uses r->bg: nothing is freed
   * (the process is ending; its exit takes the memory and the device). */
  if (rf_recheck_bg_stop(&r->bg)) return;
  rf_graph_cache_free(&r->graphs);
  rf_dev_inputs_free(&r->inputs);
  rf_dev_answers_free(&r->answers);
  rf_dev_verdicts_free(&r->verdicts);
  rf_launch_checks_free(&r->checks);
  rf_input_check_free(&r->check);
  rf_arena_free(&r->arena);
  rf_arena_free(&r->in_arena);
  rf_host_buf_free(&r->many_x);
  rf_host_buf_free(&r->many_answer);
  rf_host_buf_free(&r->many_case);
  rf_host_buf_free(&r->descs);
  rf_workers_destroy(r->workers);
  for (unsigned t = 0; t < RF_MAX_JUDGE_THREADS; t++) rf_judge_ctx_free(&r->judges[t]);
  rf_host_buf_free(&r->saved);
  rf_host_buf_free(&r->x);
  rf_host_buf_free(&r->x_in);
  rf_host_buf_free(&r->many_x_in);
  rf_oracle_ctx_free(&r->oracle);
  rf_host_buf_free(&r->pending);
  free(r);
}

const rf_device_info *rf_runner_device(const rf_runner *r) { return &r->dev; }

rf_limits rf_runner_limits(const rf_runner *r) {
  rf_limits l = rf_backend.limits;
  if (r->max_n) l.max_n = r->max_n;   /* REDFUZZ_MAX_N */
  return l;
}

/* Elements of a case's input the host holds: all of one made on the host; of a sparse input
 * (route.c), one row of a row case (its rows are that row repeated, model/gen_markers.h),
 * none of a 1-D case (answered from its markers). */
static uint64_t host_elems(const rf_case *c, int sparse) {
  if (!sparse) return rf_case_elems(c);
  return rf_op_has_rows(c->op) && c->rows ? c->cols : 0;
}

/* What a 1-D or sparse case's input costs in memory, against what the device has: a dense
 * input is made on the host (floats, plus its 16-bit form) and held on the device; a sparse
 * one (its route's, so a sparse row case within the dense shapes is a dense one) is a zeroed
 * buffer (sparse_input.c), free on the simulator (untouched zero pages). 0, or -1 with the
 * figures in err. */
static int check_memory(const rf_runner *r, const rf_case *c, char *err, size_t errlen) {
  const int sparse = rf_route_decide(&r->route, c).input == RF_INPUT_SPARSE;
  const int rows = rf_op_has_rows(c->op);
  if (rows && !sparse) return 0;   /* dense rows*cols stay within the backend's fixed caps */
  const uint64_t n = rf_case_elems(c), esz = rf_dtype_bytes(c->dtype);
  uint64_t dev = sparse && rf_backend.is_sim ? 0 : (n + c->misalign) * esz;
  uint64_t host = sparse ? host_elems(c, 1) * sizeof(float)
                         : n * (sizeof(float) + (esz < sizeof(float) ? esz : 0));
  if (rf_backend.is_sim) { dev += host; host = 0; }   /* its device memory is the host's */
  size_t free_b = 0, total_b = 0;
  if (!dev || rf_dev_mem_info(&free_b, &total_b)) return 0;
  if (dev <= total_b) return 0;
  snprintf(err, errlen, "%s: %llu %s elements need %llu bytes of %s memory (%s), but it has "
           "%llu bytes", rows ? "rows*cols" : "n", (unsigned long long)n, rf_dtype_name(c->dtype),
           (unsigned long long)dev, rf_backend.is_sim ? "host" : "device",
           sparse ? "the zeroed input" : "the input and its host copy",
           (unsigned long long)total_b);
  return -1;
}

/* ---- one batch: every variant of its cases, launched before one synchronisation ------- */
/* Resolves the launch; 0 when the variant takes part in the batch, else its result is final. */
static int prepare(const rf_runner *r, batch_case *bc, const rf_variant *v, rf_result *res,
                   pending *p) {
  const rf_case *c = bc->c;
  memset(res, 0, sizeof *res);
  memset(p, 0, sizeof *p);
  res->variant = v;
  p->v = v;
  p->bc = bc;
  p->res = res;
  if (rf_launch_prepare(v, c, &r->dev, &p->cfg, &p->plan, &p->sb, res)) return -1;
  p->ob = rf_runner_output_bytes(c, v->out_dtype, v->index_bits);
  /* The simulator repeats every variant, after a launch of another shape
   * (launch_checks.h); GPUs, and the simulator on sparse cases (markers,
   * signed-markers, of any size: minutes a run at the largest), the
   * deterministic ones, as they are. */
  const int sim_checks = rf_backend.is_sim && !bc->sparse;
  p->runs = (v->deterministic || sim_checks) && p->ob && repeats_case(r, c) ? 2 : 1;
  if (sim_checks && p->runs == 2) rf_checks_pick_other(v, c, &p->cfg, &r->dev, &p->other);
  return 0;
}

/* GPUs: the input shares the batch's arena (one upload). The simulator, where copies cost
 * nothing, keeps it apart so AddressSanitizer bounds it exactly. */
static rf_arena *input_arena(rf_runner *r) { return r->in_arena.exact ? &r->in_arena : &r->arena; }

/* Everything the launch of run k of p reads (also the key of launch graphs). */
static rf_launch_desc launch_desc(rf_runner *r, const pending *p, int k, unsigned stream) {
  rf_launch_desc d;
  memset(&d, 0, sizeof d);
  d.variant = p->v;
  d.cfg = p->cfg;
  d.x = p->bc->dev_x;   /* dev_inputs.c: in the arena, or made on the device */
  d.out = rf_arena_dev(&r->arena, p->out_slot[k]);
  d.scratch = p->sb ? rf_arena_dev(&r->arena, p->scratch_slot[k]) : NULL;
  d.stream = stream;
  return d;
}

/* Enqueues run k of p as described by d. The simulator runs a launch to its end inside
 * v->launch, so its status belongs to this run; on a GPU only launch-time errors show here. */
static void launch_run(rf_runner *r, pending *p, int k, const rf_launch_desc *d) {
  const rf_case *c = p->bc->c;
  char *msg = p->fail_detail[k];
  rf_launch_args a = {.x = d->x, .out = (void *)d->out, .scratch = (void *)d->scratch,
                      .stream = rf_dev_stream(d->stream), .cfg = d->cfg};
  if (rf_dev_lost()) {   /* a GPU context after a fault: nothing can run in this process */
    p->fail[k] = RF_V_LAUNCH_ERROR;
    snprintf(msg, sizeof p->fail_detail[k], "not run: the device was lost to an earlier "
             "kernel's fault in this process (%s)", rf_dev_error_string(rf_dev_lost()));
    return;
  }
  if (k == 1 && p->fail[0] != RF_V_PASS) {
    /* Run 0 failed at its launch (the simulator's status: race, timeout, crash ...): its
     * verdict is that failure whatever the repeat gives, so the repeat is not launched (a
     * racy or hanging kernel would cost its report or its limit twice). */
    p->fail[1] = p->fail[0];
    snprintf(msg, sizeof p->fail_detail[k], "%s", p->fail_detail[0]);
    return;
  }
  if (rf_dev_interrupted()) {   /* a stop was asked for: the caller drops this batch */
    p->fail[k] = RF_V_LAUNCH_ERROR;
    snprintf(msg, sizeof p->fail_detail[k], "not run: a stop was asked for (SIGINT or SIGTERM)");
    return;
  }
  /* The repeat (k = 1) of a deterministic variant must not replay run 0's block order and
   * interleaving, or an order-dependent result could never show as nondeterministic. It runs
   * in reverse (blocks descending, threads from the highest), or in order after a reverse
   * run 0: both orders differ from every other schedule's, and they are the simulator's
   * cheapest (prefetched, ordered arrivals). A random repeat cost ~2.5 times as much per
   * switch and was most of a campaign's repeat time (docs/SIMULATOR.md, "The repeat in
   * order"). The simulator's repeat of another variant runs under run 0's schedule. */
  const int sched = k == 0 ? (int)c->sched : rf_checks_repeat_sched(p);
  if (k == 1 && rf_backend.is_sim && !p->bc->sparse) {
    /* State across launches and scratch read before it is written (launch_checks.h): the
     * repeat follows a launch of another shape, and its scratch holds zeros. */
    rf_verdict ov = p->sb && rf_arena_refill(&r->arena, p->scratch_slot[1], 0) ? RF_V_LAUNCH_ERROR
                  : rf_checks_launch_other(&r->checks, &r->arena, p, a.stream, sched, c->seed,
                                           c->wave, msg, sizeof p->fail_detail[k]);
    if (ov != RF_V_PASS) {
      if (!msg[0]) snprintf(msg, sizeof p->fail_detail[k], "cannot zero the repeat's scratch");
      p->fail[k] = ov;
      return;
    }
  }
  rf_dev_last_error();
  rf_dev_sim_take_status(msg, sizeof p->fail_detail[k]);
  rf_dev_sim_configure(sched, c->seed, c->wave);
  double t0 = rf_now_ms();
  /* The repeat's kernel coverage is not kept (fuzz build): the same kernels on the same case
   * under a schedule derived from run 0's, whose fold at every switch was ~14 % of an
   * execution's instructions (docs/SIMULATOR.md, "The determinism repeat adds no coverage"). */
  if (k == 1) rf_dev_sim_quiet_coverage(1);
  int e = 0;
  /* Contained (run/contain.h): plugin code that exits or faults here is the variant's `crash`,
   * and what its kernels reported before that is dropped with it. The simulator checks the
   * launch contract between begin and end (device.h). */
  rf_dev_contract_begin(a.stream);
  __atomic_store_n(&r->launching, p->v, __ATOMIC_RELAXED);
  const int ended = rf_contained_launch(p->v, &a, &e, msg, sizeof p->fail_detail[k]);
  __atomic_store_n(&r->launching, NULL, __ATOMIC_RELAXED);
  rf_dev_contract_end();
  if (k == 1) rf_dev_sim_quiet_coverage(0);
  if (ended) {
    char drop[8];
    rf_dev_last_error();
    rf_dev_sim_take_status(drop, sizeof drop);
    p->fail[k] = RF_V_CRASH;
    return;
  }
  int le = rf_dev_last_error();
  /* After the launch's error is taken: a mark that fails clears its own. */
  if (!r->serial) rf_dev_mark_progress(a.stream);   /* the batch's watchdog (device.h) */
  int st = rf_dev_sim_take_status(msg, sizeof p->fail_detail[k]);
  if (!e) e = le;
  if (st == RF_DEV_STATUS_INPUT_WRITTEN) {   /* a write into the read-only input (protect) */
    char sim_msg[sizeof p->fail_detail[k]];
    snprintf(sim_msg, sizeof sim_msg, "%s", msg);
    p->fail[k] = rf_input_check_fault(&r->check, p, rf_dev_sim_status_address(), sim_msg, msg,
                                      sizeof p->fail_detail[k]);
  } else if (st && !rf_dev_lost()) {
    p->fail[k] = rf_launch_status_verdict(st);
  }
  /* The input as it was, for the next variant (and this one's write found unless it failed
   * otherwise first), before serial mode's synchronisation: on a GPU the check runs on this
   * run's stream, after the launch. */
  rf_input_check_run(&r->check, p, k, a.stream);
  if (r->serial && !e && !st && p->fail[k] == RF_V_PASS) e = rf_dev_sync();
  if (rf_dev_lost()) {
    /* Serial: this launch was synchronised alone, so the fault is this variant's: `crash`,
     * and the caller learns who (rf_runner_lost). Batched: as on a GPU, the fault shows at the
     * batch's synchronisation, where no variant can be named. */
    if (rf_dev_lost() == RF_DEV_INTERRUPTED) {   /* a stop: nobody's fault, nothing judged */
      p->fail[k] = RF_V_LAUNCH_ERROR;
      snprintf(msg, sizeof p->fail_detail[k], "not finished: %s",
               rf_dev_error_string(RF_DEV_INTERRUPTED));
    } else if (r->serial) {
      /* A launch past the wall-clock limit (rf_dev_sync) is this variant's `timeout`. */
      const int timed_out = rf_dev_lost() == RF_DEV_TIMEOUT;
      p->fail[k] = timed_out ? RF_V_TIMEOUT : RF_V_CRASH;
      if (!st) snprintf(msg, sizeof p->fail_detail[k], "%s: %s",
                        timed_out ? "timeout" : "device fault", rf_dev_error_string(rf_dev_lost()));
      r->lost_variant = p->v;
      r->lost_case = c;
    }
    return;
  }
  if (p->fail[k] != RF_V_PASS) return;   /* a status, or a write into its input */
  p->ms += rf_now_ms() - t0;
  if (e) {
    p->fail[k] = RF_V_LAUNCH_ERROR;
    snprintf(msg, sizeof p->fail_detail[k], "%s", rf_dev_error_string(e));
  }
}

static void judge_variant(const rf_runner *r, judge_ctx *jc, const pending *p) {
  rf_result *res = p->res;
  if (rf_runner_collect_run(&r->arena, p, 0, res)) return;
  const void *got = rf_arena_host(&r->arena, p->out_slot[0]);
  rf_op_row_of(p->bc->c->op)->judge(jc, p, got, res);
  if (res->verdict != RF_V_PASS || p->runs < 2 || jc->needs_upgrade) return;
  /* A deterministic variant must give the same bits when run again (the simulator's repeat
   * of another variant: launch_checks.c compares it). */
  rf_result second = *res;
  if (rf_runner_collect_run(&r->arena, p, 1, &second)) {
    *res = second;
  } else if (p->v->deterministic &&
             memcmp(rf_arena_host(&r->arena, p->out_slot[1]), got, p->ob) != 0) {
    res->verdict = RF_V_NONDETERMINISTIC;
    snprintf(res->detail, sizeof res->detail, "a second run gave different bits");
  }
}

/* ---- verdicts, in parallel for big softmax cases and batches of several cases --------- */
typedef struct {
  rf_runner *r;
  pending *ps;
} judge_job;

/* One variant on worker `worker`, with that worker's scratch; never upgrades a row. */
static void judge_one(void *arg, size_t i, unsigned worker) {
  judge_job *j = arg;
  judge_ctx *jc = &j->r->judges[worker];
  jc->may_upgrade = 0;
  jc->needs_upgrade = 0;
  judge_variant(j->r, jc, &j->ps[i]);
  j->ps[i].redo = jc->needs_upgrade;
}

/* Softmax cases of at least this many elements are judged by several threads (one variant
 * each at a time); below it the hand-over costs more than it saves. */
#define RF_PARALLEL_JUDGE_ELEMS 2048u

/* Starts the pool on first use; NULL when the runner judges on one thread. */
static rf_workers *workers(rf_runner *r) {
  if (!r->workers && r->judge_threads > 1) r->workers = rf_workers_create((unsigned)r->judge_threads);
  return r->workers;
}

static void judge_all(rf_runner *r, size_t ncases, pending *ps, size_t n) {
  const rf_case *c = ps[0].bc->c;
  const int parallel = n > 1 && (ncases > 1 || (rf_op_has_rows(c->op) &&
                                                rf_case_elems(c) >= RF_PARALLEL_JUDGE_ELEMS));
  rf_result *saved = parallel && workers(r) ? rf_host_buf_get(&r->saved, n * sizeof *saved) : NULL;
  if (saved) {
    /* Each worker judges against the shared oracle read-only; a variant with a row too close
     * to its bound for the double oracle is judged again below, serially, with the upgrade. */
    for (size_t i = 0; i < n; i++) saved[i] = *ps[i].res;
    judge_job job = {r, ps};
    rf_workers_run(r->workers, judge_one, &job, n);
  }
  judge_ctx *serial = &r->judges[0];   /* also worker 0 of the pool */
  serial->may_upgrade = 1;
  for (size_t i = 0; i < n; i++) {
    if (saved && !ps[i].redo) continue;
    if (saved) *ps[i].res = saved[i];
    serial->needs_upgrade = 0;
    judge_variant(r, serial, &ps[i]);
  }
}

/* ---- launching a batch: directly, or from a recorded launch graph ---------------------- */
/* Describes every run of the batch into r->descs (pending i on stream i mod streams);
 * NULL (and n_descs 0) when out of host memory. */
static rf_launch_desc *describe(rf_runner *r, pending *ps, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += (size_t)ps[i].runs;
  rf_launch_desc *d = rf_host_buf_get(&r->descs, total * sizeof *d);
  r->n_descs = 0;
  if (!d) return NULL;
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < ps[i].runs; k++)
      d[r->n_descs++] = launch_desc(r, &ps[i], k, (unsigned)(i % r->streams));
  return d;
}

static void launch_direct(rf_runner *r, pending *ps, size_t n, const rf_launch_desc *d) {
  size_t j = 0;
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < ps[i].runs; k++) launch_run(r, &ps[i], k, &d[j++]);
}

static int any_launch_failure(const pending *ps, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < ps[i].runs; k++)
      if (ps[i].fail[k] != RF_V_PASS) return 1;
  return 0;
}

/* Records the batch's launches into a graph (nothing runs); NULL when any launch or the
 * recording failed (then every run's launch-time state is as before). */
static void *record(rf_runner *r, pending *ps, size_t n, const rf_launch_desc *d) {
  if (rf_dev_capture_begin(r->streams)) return NULL;
  launch_direct(r, ps, n, d);
  void *g = NULL;
  int e = rf_dev_capture_end(r->streams, &g);
  if (any_launch_failure(ps, n) || e) {
    for (size_t i = 0; i < n; i++) memset(ps[i].fail, 0, sizeof ps[i].fail);
    rf_dev_graph_free(g);
    return NULL;
  }
  return g;
}

/* Enqueues every run as describe() left them in r->descs; returns the graph action taken
 * (RF_GRAPH_DIRECT when none). */
static rf_graph_action launch_batch(rf_runner *r, pending *ps, size_t n) {
  const rf_launch_desc *d = r->descs.p;
  const size_t nd = r->n_descs;
  rf_graph_action act = r->use_graphs && !r->serial ? rf_graph_decide(&r->graphs, d, nd)
                                                    : RF_GRAPH_DIRECT;
  if (act == RF_GRAPH_RECORD) {
    void *g = record(r, ps, n, d);
    rf_graph_note_recorded(&r->graphs, d, nd, g);
    if (g) r->stats.graphs_recorded++;
    else act = RF_GRAPH_DIRECT;
  }
  if (act != RF_GRAPH_DIRECT) {
    if (rf_dev_graph_launch(r->graphs.graph) == 0) {
      r->stats.batches_replayed++;
      return act;
    }
    rf_graph_forget(&r->graphs);
  }
  launch_direct(r, ps, n, d);
  return RF_GRAPH_DIRECT;
}

/* One batch on its way through the stages below: what failed (the first failure, for every
 * variant not judged), the synchronisation's error, how it was launched. */
typedef struct {
  batch_case *bcs;
  size_t nc;
  pending *ps;
  size_t n;
  const char *fail;
  int se;                   /* the synchronisation's error, or 0 */
  rf_graph_action act;
  char lost_msg[200];
  double t_fetched, recheck0;   /* the judging's clock starts at the fetch */
  unsigned long long launches0;
} batch;

/* Slots in the arena: outputs first (read back as one prefix), then the verdict records and
 * the device answers (fetched too), scratch (only its guards), the records' items, inputs.
 * 0, or -1 when out of host memory. */
static int batch_slots(rf_runner *r, batch *b) {
  rf_arena *a = &r->arena;
  pending *ps = b->ps;
  int host_oom = 0;
  rf_arena_reset(a);
  r->n_descs = 0;
  for (size_t i = 0; i < b->n; i++)
    for (int k = 0; k < ps[i].runs; k++)
      host_oom |= (ps[i].out_slot[k] = rf_arena_add(a, ps[i].ob, 1)) < 0;
  rf_route_verdict verdict = b->bcs[0].route.verdict;   /* the batch's: its cases' (route.h) */
  for (size_t i = 1; i < b->nc; i++) verdict = rf_route_join(verdict, b->bcs[i].route.verdict);
  host_oom |= rf_dev_verdicts_slots(&r->verdicts, verdict, b->n) < 0;
  host_oom |= rf_dev_answers_slots(&r->answers, b->bcs, b->nc) < 0;   /* fetched too: before scratch */
  for (size_t i = 0; i < b->n; i++)
    for (int k = 0; k < ps[i].runs; k++)
      host_oom |= ps[i].sb && (ps[i].scratch_slot[k] = rf_arena_add(a, ps[i].sb, 0)) < 0;
  for (size_t i = 0; i < b->n; i++) {   /* the simulator's launches of another shape */
    rf_other_launch *o = &ps[i].other;
    if (!o->ok) continue;
    host_oom |= (o->out_slot = rf_arena_add(a, o->ob, 0)) < 0;
    host_oom |= o->sb && (o->scratch_slot = rf_arena_add(a, o->sb, 0)) < 0;
  }
  host_oom |= rf_dev_verdicts_items(&r->verdicts, b->bcs, b->nc, ps, b->n) < 0;
  rf_arena *ia = input_arena(r);
  if (ia != a) rf_arena_reset(ia);
  for (size_t i = 0; i < b->nc; i++) {
    batch_case *bc = &b->bcs[i];
    if (bc->dev_gen) continue;   /* made on the device (dev_inputs.c) */
    const size_t esz = rf_dtype_bytes(bc->c->dtype);
    bc->in_slot = rf_arena_add_input(ia, bc->x_in ? bc->x_in : (const void *)bc->x,
                                     bc->elems * esz, rf_input_misalign(bc->c) * esz);
    host_oom |= bc->in_slot < 0;
  }
  return host_oom ? -1 : 0;
}

/* One upload (inputs, guards, poison; with records, guards and poison written on the device). */
static void batch_upload(rf_runner *r, batch *b, int host_oom) {
  rf_arena *a = &r->arena, *ia = input_arena(r);
  const double t0 = rf_now_ms();
  b->fail = host_oom ? "out of host memory for the output slots"
          : (r->verdicts.on ? rf_arena_commit_device_fill(a) : rf_arena_commit(a)) ||
            (ia != a && rf_arena_commit(ia))
          ? "cannot allocate or upload the device buffers" : NULL;
  r->stats.ms_upload += rf_now_ms() - t0;
}

/* The inputs and answers made on the device, every variant's runs, the verdict kernels. */
static void batch_launch(rf_runner *r, batch *b) {
  const double t0 = rf_now_ms();
  if (!b->fail) b->fail = rf_dev_inputs_place(&r->inputs, b->bcs, b->nc, input_arena(r));
  if (!b->fail) b->fail = rf_dev_answers_launch(&r->answers, b->bcs, b->nc);
  if (!b->fail) {
    /* Dense inputs live in the input arena and in the buffer of device-made ones. */
    void *const bufs[2] = {input_arena(r)->dev, r->inputs.gen};
    int moved = 0;
    b->fail = rf_input_check_begin(&r->check, b->bcs, b->nc, b->ps, b->n, bufs, &moved);
    if (moved) rf_graph_forget(&r->graphs);   /* recorded with the check's old buffer */
  }
  if (!b->fail && !describe(r, b->ps, b->n))
    b->fail = "out of host memory for the launch descriptions";
  /* GPUs: each variant's first launch in the process once under stream capture (the
   * contract; the simulator checks every launch), its refusal given after the launches (a
   * recording would clear it). */
  if (!b->fail && !rf_backend.is_sim) rf_checks_probe(&r->checks, &r->arena, b->ps, b->n);
  b->act = b->fail ? RF_GRAPH_DIRECT : launch_batch(r, b->ps, b->n);
  for (size_t i = 0; i < b->n && !b->fail; i++) {
    pending *p = &b->ps[i];
    if (p->probe_fail == RF_V_PASS || p->fail[0] != RF_V_PASS) continue;
    p->fail[0] = p->probe_fail;
    snprintf(p->fail_detail[0], sizeof p->fail_detail[0], "%s", p->probe_detail);
  }
  rf_input_check_end(&r->check);   /* the protect way's pages writable again */
  if (!b->fail) b->fail = rf_dev_verdicts_launch(&r->verdicts);
  r->stats.ms_launch += rf_now_ms() - t0;
}

/* One synchronisation; a device error fails the whole batch. */
static void batch_sync(rf_runner *r, batch *b) {
  const double t0 = rf_now_ms();
  unsigned long long launched = 0;   /* the watchdog's deadline is per launch (device.h) */
  for (size_t i = 0; i < b->n; i++) launched += (unsigned long long)b->ps[i].runs;
  b->se = b->fail ? 0 : rf_dev_sync_for(launched + 1);
  if (!b->fail && b->se && r->lost_variant) {
    /* Serial: a variant of the batch faulted and was named; the rest cannot be read back. */
    snprintf(b->lost_msg, sizeof b->lost_msg, "not judged: the device was lost to %s's fault "
             "before the outputs were read back", r->lost_variant->name);
    b->fail = b->lost_msg;
  } else if (!b->fail && b->se) {
    b->fail = b->se == RF_DEV_TIMEOUT
            ? "a launch of this batch did not finish in time (REDFUZZ_LAUNCH_TIMEOUT_MS) and the "
              "device is lost to this process (REDFUZZ_SERIAL=1 names the variant; `sweep` does "
              "that itself in a new worker process)"
            : rf_dev_error_is_fault(b->se)
            ? "a kernel of this batch faulted and the device is lost to this process "
              "(REDFUZZ_SERIAL=1 names the variant; `sweep` does that itself in a new worker "
              "process)"
            : "asynchronous device error in this batch of launches (REDFUZZ_SERIAL=1 runs one "
              "variant per synchronisation to attribute it)";
  }
  r->stats.ms_sync += rf_now_ms() - t0;
}

/* One download: judged from device records, only those (and the device's answers) come
 * back; else the whole arena. Then the device's answers into the cases' (timed as judging). */
static void batch_fetch(rf_runner *r, batch *b) {
  const double t0 = rf_now_ms();
  if (!b->fail && r->verdicts.on) b->fail = rf_dev_verdicts_fetch(&r->verdicts, b->bcs, b->nc);
  else if (!b->fail && rf_arena_fetch(&r->arena))
    b->fail = "cannot read the device outputs back";
  if (!b->fail) b->fail = rf_input_check_collect(&r->check, b->ps, b->n);
  b->t_fetched = rf_now_ms();
  b->recheck0 = ms_recheck(r);
  r->stats.ms_download += b->t_fetched - t0;
  if (!b->fail) b->fail = rf_dev_answers_collect(&r->answers, b->bcs, b->nc);
}

/* Each variant's time (serial mode), and on a failed batch its verdict. */
static void batch_failed(const rf_runner *r, batch *b) {
  for (size_t i = 0; i < b->n; i++) {
    const pending *p = &b->ps[i];
    rf_result *res = p->res;
    /* Serial runs time each variant (both of its runs); a batched launch has no time of
     * its own (NaN, printed as "-"). */
    res->ms = r->serial ? p->ms : NAN;
    if (b->fail && r->serial && any_launch_failure(p, 1)) {
      /* Serial: the faulting variant's `crash` (and "not run" after it) stand. */
      for (int k = 0; k < p->runs; k++)
        if (p->fail[k] != RF_V_PASS) {
          res->verdict = p->fail[k];
          snprintf(res->detail, sizeof res->detail, "%s", p->fail_detail[k]);
          break;
        }
    } else if (b->fail) {
      /* A batch past the wall-clock limit: every variant in it might be the one that hangs;
       * `timeout` for all (serial mode, or sweep's new worker, names the one). */
      res->verdict = b->se == RF_DEV_TIMEOUT ? RF_V_TIMEOUT : RF_V_LAUNCH_ERROR;
      int why = b->se && b->fail != b->lost_msg;   /* the named fault already says it */
      snprintf(res->detail, sizeof res->detail, "%s%s%s", b->fail, why ? ": " : "",
               why ? rf_dev_error_string(b->se) : "");
    }
  }
}

/* The verdicts: from the records where they decide, the host path for the rest (or every
 * variant of a re-check batch, then compared); a failure against a device-made answer is
 * confirmed by the host oracle first. */
static void batch_judge(rf_runner *r, batch *b) {
  pending *ps = b->ps;
  const size_t n = b->n;
  size_t nh = n;
  pending *hp = r->verdicts.on ? rf_dev_verdicts_judge(&r->verdicts, ps, n, &nh) : ps;
  /* What the records left to the host path (failures), or a re-check batch: as without
   * records, from the buffers. */
  double tj = rf_now_ms();
  if (nh && r->verdicts.on && rf_arena_fetch(&r->arena)) {
    for (size_t i = 0; i < nh; i++) {
      hp[i].res->verdict = RF_V_LAUNCH_ERROR;
      snprintf(hp[i].res->detail, sizeof hp[i].res->detail, "cannot read the device outputs back");
    }
  } else if (nh) {
    judge_all(r, b->nc, hp, nh);
  }
  if (r->verdicts.on && r->verdicts.recheck_now) r->stats.ms_recheck += rf_now_ms() - tj;
  rf_dev_verdicts_finish(&r->verdicts, ps, n);   /* a re-check batch only */
  for (size_t i = 0; i < n; i++) rf_dev_answers_confirm(&r->answers, ps[i].bc, ps[i].res);
  for (size_t i = 0; i < n; i++) rf_dev_answers_harness(ps[i].bc, ps[i].res);
}

/* Launch graphs: only a batch that ran without a failure of any kind may be recorded next
 * time; a replayed one that failed at the synchronisation is forgotten. */
static void batch_graphs(rf_runner *r, const batch *b) {
  if (b->act == RF_GRAPH_DIRECT && r->use_graphs && !r->serial) {
    int clean = !b->fail && !any_launch_failure(b->ps, b->n);
    for (size_t i = 0; i < b->n && clean; i++)
      clean = b->ps[i].res->verdict != RF_V_OOB && b->ps[i].res->verdict != RF_V_LAUNCH_ERROR &&
              b->ps[i].res->verdict != RF_V_INPUT_WRITTEN;
    if (r->n_descs) rf_graph_note_direct(&r->graphs, r->descs.p, r->n_descs, clean);
  } else if (b->act != RF_GRAPH_DIRECT && b->se) {
    rf_graph_forget(&r->graphs);
  }
}

static void batch_count(rf_runner *r, const batch *b) {
  r->stats.ms_judge += rf_now_ms() - b->t_fetched - (ms_recheck(r) - b->recheck0);
  r->stats.batches++;
  r->stats.launched_runs += b->n;
  for (size_t i = 0; i < b->n; i++) r->stats.kernel_runs += (unsigned long long)b->ps[i].runs;
  r->stats.harness_launches += rf_launch_count() - b->launches0;
}

/* Every prepared variant of the batch's cases: slots, one upload (inputs, guards, poison),
 * the launches, one synchronisation, one download, then the verdicts (docs/RUNNER.md). */
static void run_batch_once(rf_runner *r, batch_case *bcs, size_t nc, pending *ps, size_t n) {
  batch b = {.bcs = bcs, .nc = nc, .ps = ps, .n = n, .act = RF_GRAPH_DIRECT,
             .launches0 = rf_launch_count()};   /* the harness's launches (launch_count.h) */
  const int host_oom = batch_slots(r, &b) < 0;
  batch_upload(r, &b, host_oom);
  batch_launch(r, &b);
  batch_sync(r, &b);
  batch_fetch(r, &b);
  batch_failed(r, &b);
  if (!b.fail) batch_judge(r, &b);
  /* The simulator: why a repeat gave other bits (state across launches, scratch). */
  if (!b.fail && rf_backend.is_sim) rf_checks_attribute(&r->checks, &r->arena, &r->judges[0], ps, n);
  batch_graphs(r, &b);
  batch_count(r, &b);
}

static void run_batch(rf_runner *r, batch_case *bcs, size_t nc, pending *ps, size_t n) {
  /* The largest case's work: a batch's cases are small (SWEEP_BATCH_ELEMS), a huge one alone. */
  uint64_t most = 0;
  for (size_t i = 0; i < nc; i++) most = bcs[i].elems > most ? bcs[i].elems : most;
  rf_dev_set_launch_work(most, r->ns_per_elem);
  run_batch_once(r, bcs, nc, ps, n);
  if (r->serial || r->streams < 2 || !rf_input_check_any(ps, n) || rf_dev_lost()) return;
  /* GPUs: the batch's variants ran side by side on several streams, so a variant may have
   * read an input another had changed before the check after that one put it back. The
   * whole batch again, one launch per synchronisation: each variant alone on an intact
   * input, and the one that writes it named by its own check. */
  for (size_t i = 0; i < n; i++) {
    batch_case *bc = ps[i].bc;
    const rf_variant *v = ps[i].v;
    rf_result *res = ps[i].res;
    (void)prepare(r, bc, v, res, &ps[i]);   /* it was prepared before: it takes part again */
  }
  r->serial = 1;
  run_batch_once(r, bcs, nc, ps, n);
  r->serial = 0;
}

/* ---- why cases went to the host path (host_reasons.def) -------------------------------- */
/* The host path's clock (the stages the device path replaces) and its MPFR row counters,
 * taken before a case or a batch of cases. */
typedef struct { double ms; unsigned long long upgraded, mpfr; } host_mark;
static host_mark host_mark_now(const rf_runner *r) {
  const rf_runner_stats *s = &r->stats;
  const rf_oracle_counts *k = &r->oracle.counts;
  return (host_mark){s->ms_generate + s->ms_oracle + s->ms_judge + ms_recheck(r),
                     k->softmax_rows_upgraded + k->lse_rows_upgraded,
                     k->softmax_rows_mpfr + k->lse_rows_mpfr};
}

/* After the batch: a 1-D case judged without records, and which kind an undecided row was
 * (what the host path then needed: a row op runs alone, so the counters are its own); then
 * each case's reason and its share of the host time since m0 (by elements) into the stats. */
static void host_tally(rf_runner *r, batch_case *bcs, size_t nc, host_mark m0) {
  const host_mark m1 = host_mark_now(r);
  double total = 0;
  for (size_t i = 0; i < nc; i++) {
    batch_case *bc = &bcs[i];
    if (!rf_op_has_rows(bc->c->op) && !r->verdicts.on) rf_runner_host_note(bc, RF_HOST_NO_RECORDS);
    if (bc->host_reason == RF_HOST_ROW_HOST_DOUBLE)
      bc->host_reason = m1.upgraded > m0.upgraded ? RF_HOST_ROW_MARGIN
                      : m1.mpfr > m0.mpfr ? RF_HOST_ROW_MPFR : RF_HOST_ROW_HOST_DOUBLE;
    if (bc->host_reason != RF_HOST_NONE) total += (double)bc->elems + 1;
  }
  for (size_t i = 0; i < nc; i++) {
    if (bcs[i].host_reason == RF_HOST_NONE) continue;
    r->stats.host_cases[bcs[i].host_reason]++;
    r->stats.host_ms[bcs[i].host_reason] += (m1.ms - m0.ms) * ((double)bcs[i].elems + 1) / total;
  }
}

/* ---- entry points ----------------------------------------------------------------------- */
/* bc's input where its route makes it (the host's now; the device's with the batch), then its
 * exact answer likewise (judge.c on the host; dev_answers.c, dev_verdicts.c on the
 * device). Returns the time the input took. */
static double solve_case(rf_runner *r, batch_case *bc) {
  const double t0 = rf_now_ms();
  if (!bc->dev_gen) rf_generate(bc->c, (float *)bc->x);
  else if (bc->sparse && bc->x) rf_generate_row(bc->c, 0, (float *)bc->x);   /* host_elems */
  if (bc->x_in && !bc->dev_gen) rf_dtype_store(bc->c->dtype, bc->x, bc->elems, (void *)bc->x_in);
  const double t1 = rf_now_ms();
  memset(bc->o, 0, sizeof *bc->o);
  if (bc->route.answer == RF_ANSWER_DEVICE_ROWS) bc->o->sm_device = 1;
  else if (bc->route.answer == RF_ANSWER_DEVICE) bc->o->on_device = 1;
  else rf_compute_oracle(&r->oracle, bc->c, bc->x, bc->elems, bc->o);
  return t1 - t0;
}

static int check_case(const rf_runner *r, const rf_case *c, char *err, size_t errlen) {
  rf_limits lim = rf_runner_limits(r);
  if (rf_case_validate(c, &lim, err, errlen) || check_memory(r, c, err, errlen)) return -1;
  if (c->variant[0] && !rf_variant_find(c->variant)) {
    snprintf(err, errlen, "variant: '%s' is not a known variant (see 'redfuzz list')",
             c->variant);
    return -1;
  }
  const rf_variant *v = c->variant[0] ? rf_variant_find(c->variant) : NULL;
  if (v && v->in_dtype != c->dtype) {
    snprintf(err, errlen, "dtype: '%s' is not the input type of variant '%s' (allowed: %s)",
             rf_dtype_name(c->dtype), c->variant, rf_dtype_name(v->in_dtype));
    return -1;
  }
  return 0;
}

static int selected(const rf_runner *r, const rf_case *c, const rf_variant *v) {
  if (v->op != c->op) return 0;
  if (v->in_dtype != c->dtype) return 0;   /* a variant reads one element type */
  if (c->variant[0] && strcmp(c->variant, v->name) != 0) return 0;
  return !r->keep || r->keep(v, r->keep_ctx);
}

/* A caller's result array too small for the variants the case selects is an error, never a
 * silent cut (a failing variant past the cut would go unreported). Callers size their arrays
 * from rf_variant_count(), which bounds every case. */
static int check_room(const rf_runner *r, const rf_case *c, size_t max, char *err,
                      size_t errlen) {
  size_t want = 0;
  for (size_t i = 0; i < rf_variant_count(); i++) want += selected(r, c, rf_variant_at(i));
  if (want <= max) return 0;
  snprintf(err, errlen, "%zu variants of %s are selected, but the caller has room for %zu "
           "results (a redfuzz bug: size result arrays from rf_variant_count())", want,
           rf_op_name(c->op), max);
  return -1;
}

/* Prepares every matching variant of bc's case into out[0..max) and ps; returns the number
 * of results, and in *np the number of pending launches added. check_room has made sure
 * they fit. */
static size_t prepare_case(rf_runner *r, batch_case *bc, rf_result *out, size_t max,
                           pending *ps, size_t *np) {
  const rf_case *c = bc->c;
  size_t k = 0;
  for (size_t i = 0; i < rf_variant_count() && k < max; i++) {
    const rf_variant *v = rf_variant_at(i);
    if (!selected(r, c, v)) continue;
    if (prepare(r, bc, v, &out[k++], &ps[*np]) == 0) (*np)++;
  }
  return k;
}

int rf_runner_run(rf_runner *r, const rf_case *c, rf_result *out, size_t max, char *err,
                  size_t errlen) {
  if (check_case(r, c, err, errlen) || check_room(r, c, max, err, errlen)) return -1;
  uint64_t elems = rf_case_elems(c);
  const host_mark m0 = host_mark_now(r);
  batch_case bc = {.c = c, .elems = elems, .o = &r->answer, .route = rf_route_decide(&r->route, c)};
  bc.dev_gen = bc.route.input != RF_INPUT_HOST;
  bc.sparse = bc.route.input == RF_INPUT_SPARSE;
  bc.host_reason = bc.route.host_reason;
  /* The last case's input and answer serve again, unless a row op's answer was left on the
   * device (dev_verdicts.c) and this case's route does not judge it there. */
  if (!r->have_last || !rf_case_same_input(c, &r->last) ||
      (r->answer.sm_device && bc.route.answer != RF_ANSWER_DEVICE_ROWS)) {
    /* A sparse input has no host copy but the one row of a row case (host_elems). */
    const uint64_t held = host_elems(c, bc.sparse);
    float *x = bc.sparse && !held ? NULL : rf_host_buf_get(&r->x, held * sizeof(float));
    r->have_last = 0;
    if (!x && held) { snprintf(err, errlen, "out of host memory for %llu inputs",
                               (unsigned long long)held); return -1; }
    /* 16-bit inputs in their device layout; made on the device: nothing to upload */
    void *xin = NULL;
    if (c->dtype != RF_DTYPE_F32 && !bc.dev_gen) {
      xin = rf_host_buf_get(&r->x_in, elems * rf_dtype_bytes(c->dtype) + 1);
      if (!xin) { snprintf(err, errlen, "out of host memory for %llu inputs",
                           (unsigned long long)elems); return -1; }
    }
    bc.x = x;
    bc.x_in = xin;
    const double t0 = rf_now_ms(), gen = solve_case(r, &bc);
    r->stats.ms_generate += gen;
    r->stats.ms_oracle += rf_now_ms() - t0 - gen;
    r->last = *c;
    r->have_last = 1;
  }
  r->stats.cases++;
  bc.x = bc.sparse && !host_elems(c, bc.sparse) ? NULL : r->x.p;
  bc.x_in = c->dtype != RF_DTYPE_F32 && !bc.sparse ? r->x_in.p : NULL;
  /* A row op whose host answer serves again (the same input) is judged on the host. */
  if (rf_op_has_rows(c->op) && !r->answer.sm_device) {
    rf_runner_host_note(&bc, RF_HOST_REUSED);
    bc.route.answer = RF_ANSWER_HOST;
    bc.route.verdict = RF_VERDICT_HOST;
  }
  pending *ps = rf_host_buf_get(&r->pending, max * sizeof *ps);
  if (!ps && max) { snprintf(err, errlen, "out of host memory"); return -1; }
  size_t np = 0, k = prepare_case(r, &bc, out, max, ps, &np);
  if (np) run_batch(r, &bc, 1, ps, np);
  if (np) host_tally(r, &bc, 1, m0);
  else r->stats.cases_unlaunched++;
  return (int)k;
}

/* ---- several cases per batch ------------------------------------------------------------ */
typedef struct {
  rf_runner *r;
  batch_case *bcs;
  double *ms;   /* per worker: generate, oracle */
} solve_job;

static void solve_one(void *arg, size_t i, unsigned worker) {
  solve_job *j = arg;
  const double t0 = rf_now_ms(), gen = solve_case(j->r, &j->bcs[i]);
  j->ms[2 * worker] += gen;
  j->ms[2 * worker + 1] += rf_now_ms() - t0 - gen;
}

/* Inputs and exact answers of every case, on the pool's threads; the wall time is split
 * between generation and oracle in proportion to their summed times. */
static void solve_all(rf_runner *r, batch_case *bcs, size_t nc) {
  double ms[2 * RF_MAX_JUDGE_THREADS] = {0};
  solve_job job = {r, bcs, ms};
  double t0 = rf_now_ms();
  if (nc > 1 && workers(r)) rf_workers_run(r->workers, solve_one, &job, nc);
  else for (size_t i = 0; i < nc; i++) solve_one(&job, i, 0);
  double wall = rf_now_ms() - t0, gen = 0, orc = 0;
  for (unsigned t = 0; t < RF_MAX_JUDGE_THREADS; t++) { gen += ms[2 * t]; orc += ms[2 * t + 1]; }
  double share = gen + orc > 0 ? gen / (gen + orc) : 0.5;
  r->stats.ms_generate += wall * share;
  r->stats.ms_oracle += wall * (1 - share);
}

int rf_runner_batchable(const rf_runner *r, const rf_case *c) {
  return rf_route_decide(&r->route, c).batchable;
}

int rf_runner_run_many(rf_runner *r, const rf_case *cs, size_t nc, rf_result *out, size_t max,
                       int *counts, char *err, size_t errlen) {
  int failed = 0;
  /* One case at a time where the route says so (serial mode, row ops: route.c). The simulator
   * batches too: it gains nothing there (each launch runs to its end inside the call) but
   * runs the same code as the GPUs. */
  size_t total = 0, batched = 0;
  for (size_t i = 0; i < nc; i++) {
    if (nc < 2 || !rf_route_decide(&r->route, &cs[i]).batchable) {
      counts[i] = rf_runner_run(r, &cs[i], out + i * max, max, err, errlen);
    } else {
      counts[i] = check_case(r, &cs[i], err, errlen) || check_room(r, &cs[i], max, err, errlen)
                      ? -1 : 0;   /* 0: batched below */
      if (counts[i] == 0) total += rf_case_elems(&cs[i]);
      batched++;
    }
    failed |= counts[i] < 0;
  }
  if (!batched) return failed ? -1 : 0;
  const host_mark m0 = host_mark_now(r);
  batch_case *bcs = rf_host_buf_get(&r->many_case, nc * sizeof *bcs);
  oracle_answer *os = rf_host_buf_get(&r->many_answer, nc * sizeof *os);
  float *xs = rf_host_buf_get(&r->many_x, (total + 1) * sizeof(float));
  /* 16-bit inputs' device layout: at most 2 bytes an element, at the same element offsets */
  uint16_t *xs_in = rf_host_buf_get(&r->many_x_in, (total + 1) * sizeof(uint16_t));
  pending *ps = rf_host_buf_get(&r->pending, nc * max * sizeof *ps);
  if (!bcs || !os || !xs || !xs_in || (!ps && max)) {
    snprintf(err, errlen, "out of host memory for a batch of %zu cases", nc);
    for (size_t i = 0; i < nc; i++)
      if (rf_route_decide(&r->route, &cs[i]).batchable) counts[i] = -1;
    return -1;
  }
  size_t m = 0, off = 0;
  for (size_t i = 0; i < nc; i++) {
    const rf_route route = rf_route_decide(&r->route, &cs[i]);
    if (!route.batchable || counts[i] < 0) continue;
    bcs[m] = (batch_case){.c = &cs[i], .x = xs + off, .elems = rf_case_elems(&cs[i]), .o = &os[m],
                          .x_in = cs[i].dtype != RF_DTYPE_F32 ? xs_in + off : NULL,
                          .route = route, .dev_gen = route.input != RF_INPUT_HOST,
                          .sparse = route.input == RF_INPUT_SPARSE,
                          .host_reason = route.host_reason};
    off += bcs[m++].elems;
  }
  solve_all(r, bcs, m);
  size_t np = 0;
  for (size_t b = 0; b < m; b++) {
    size_t i = (size_t)(bcs[b].c - cs), np0 = np;
    counts[i] = (int)prepare_case(r, &bcs[b], out + i * max, max, ps, &np);
    r->stats.cases_unlaunched += np == np0;
  }
  r->stats.cases += m;
  if (np) run_batch(r, bcs, m, ps, np);
  if (np) host_tally(r, bcs, m, m0);
  return failed ? -1 : 0;
}
