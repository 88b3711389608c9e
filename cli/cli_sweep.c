/* redfuzz sweep: the cross product of sizes, distributions, launch parameters and simulator
 * schedules, every variant on each, in one process; one line per failure and a per-variant
 * summary. The boundary check the seeds ask for, done exhaustively. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "kernels/device.h"
#include "run/backend.h"
#include "cli.h"
#include "model/dtype.h"
#include "run/report.h"
#include "run/fuzz_select.h"
#include "model/number.h"

#define RF_FLAGS_DEF "flags_sweep.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz sweep [options]\n"
  "\n"
  "Runs every variant on every combination of the lists below and prints one line per\n"
  "failing result, then per variant: runs, passed, unsupported, failed. Every value is\n"
  "checked before anything runs: a value outside the backend's limits, or a list that no op\n"
  "of --op uses, is an error (exit 2), never skipped.\n"
  "\n";
static const char help_tail[] =
  "\n"
  "The summary ends with the verified runs per second (one kernel run checked against the\n"
  "oracle; deterministic variants are launched twice to check their bits) and where the time\n"
  "went. Cases run up to 32 at a time (one upload, launch sequence and synchronisation for\n"
  "all of them; softmax cases one at a time); REDFUZZ_SERIAL=1 runs one case and one launch\n"
  "per synchronisation, REDFUZZ_GRAPHS=0 and REDFUZZ_STREAMS=1 turn off launch graphs and\n"
  "streams on GPUs (README, 'How a case runs'). Ctrl-C stops after the current batch and\n"
  "prints the summary so far (exit 130).\n"
  "On a GPU the sweep runs in a worker process: a kernel that faults (an illegal address...)\n"
  "leaves the device unusable for the rest of that process, so a new worker re-runs the\n"
  "batch one launch at a time, reports the faulting variant as `crash`, leaves it out of the\n"
  "remaining cases and goes on (REDFUZZ_SIM_FAULT_LOSES_DEVICE=1 makes the simulator do the\n"
  "same, for testing).\n"
  "Exit status: 0 no correct variant failed, 1 one did (mutants are reported, not counted),\n"
  "2 bad usage.\n";

typedef struct { const rf_variant *v; long runs, pass, unsup, fail; } tally;

/* Progress, kept in memory shared with the worker processes (cli_worker.c) so that a worker
 * lost to a GPU fault loses nothing that was tallied: cases are numbered in the order the
 * loops below make them, and a new worker skips those before `next`. */
#define SWEEP_MAX_VARIANTS RF_VARIANT_CAPACITY   /* the registry's: every variant has a tally */
typedef struct {
  tally t[SWEEP_MAX_VARIANTS];
  size_t nt;
  long cases, errors;    /* errors: cases the runner could not run */
  long next;             /* the first case not yet tallied */
  long serial_until;     /* cases before it run one launch per synchronisation (attribution) */
  unsigned char left_out[SWEEP_MAX_VARIANTS];   /* faulted on a GPU: not run again */
  int faults, restarts, supervised;
  struct timespec t0;
} sweep_shared;

static long variant_index(const sweep_shared *sh, const rf_variant *v) {
  for (size_t k = 0; k < sh->nt; k++)
    if (sh->t[k].v == v) return (long)k;
  return -1;
}

/* Which variants run: mutants only with --mutants (or named by --variant), none named by
 * --skip, none that faulted on the device earlier in this sweep. */
typedef struct { int mutants, named; const rf_flag_val *skip; const sweep_shared *sh; } sweep_filter;
static int sweep_keeps(const rf_variant *v, void *ctx) {
  const sweep_filter *f = ctx;
  long k = variant_index(f->sh, v);
  if (k >= 0 && f->sh->left_out[k]) return 0;
  if (f->named) return 1;
  if (v->is_mutant && !f->mutants) return 0;
  for (size_t i = 0; i < f->skip->count; i++)
    if (strcmp(f->skip->items[i], v->name) == 0) return 0;
  return 1;
}

/* Cases go to the runner in batches (rf_runner_run_many: on a GPU one launch sequence for all
 * of them), at most this many, or this many input elements. */
#define SWEEP_BATCH 32
#define SWEEP_BATCH_ELEMS ((uint64_t)1 << 22)

typedef struct {
  rf_runner *r;
  sweep_shared *sh;
  int mutants, quiet, json, serial;
  rf_case batch[SWEEP_BATCH];
  size_t nb;
  long first;       /* the number of batch[0] */
  uint64_t elems;
  rf_result *res;   /* SWEEP_BATCH x max_results */
  size_t max_results;   /* rf_variant_count(): room for every variant a case can run */
  int counts[SWEEP_BATCH];
} sweep_state;

static void tally_case(sweep_state *s, const rf_case *c, const rf_result *res, int n) {
  sweep_shared *sh = s->sh;
  for (int i = 0; i < n; i++) {
    long k = variant_index(sh, res[i].variant);
    if (k < 0 || (res[i].variant->is_mutant && !s->mutants)) continue;
    tally *t = &sh->t[k];
    t->runs++;
    if (res[i].verdict == RF_V_PASS) t->pass++;
    else if (res[i].verdict == RF_V_UNSUPPORTED) t->unsup++;
    else {
      t->fail++;
      if (!s->quiet) {
        printf("%s %-28s %-17s ", res[i].variant->is_mutant ? "caught" : "FAIL  ",
               res[i].variant->name, rf_verdict_name(res[i].verdict));
        rf_report_case_line(stdout, c);
        if (!res[i].variant->is_mutant && res[i].detail[0]) printf("       %s\n", res[i].detail);
      }
    }
  }
}

static void tally_results(sweep_state *s, const rf_case *c, const rf_result *res, int n) {
  if (s->json) rf_report_json(stdout, c, res, (size_t)n);
  tally_case(s, c, res, n);
  if (++s->sh->cases % 200 == 0) fprintf(stderr, "sweep: %ld cases\n", s->sh->cases);
}

/* The device was lost to a fault during the batch (kernels/device.h): tally what finished,
 * record what is known, and end this worker so that a fresh one goes on (RF_EXIT_RESTART).
 * A batched fault names no variant: the new worker re-runs the batch one launch per
 * synchronisation. A serial one does: its `crash` is tallied and the variant left out. */
static void lost(sweep_state *s) {
  sweep_shared *sh = s->sh;
  const rf_case *lc = NULL;
  const rf_variant *lv = rf_runner_lost(s->r, &lc);
  size_t at = lv && lc >= s->batch && lc < s->batch + s->nb ? (size_t)(lc - s->batch) : 0;
  for (size_t i = 0; i < at; i++)
    tally_results(s, &s->batch[i], s->res + i * s->max_results, s->counts[i]);
  sh->next = s->first + (long)at;
  sh->faults++;
  if (lv) {
    const rf_result *res = s->res + at * s->max_results;
    for (int j = 0; j < s->counts[at]; j++)
      if (res[j].variant == lv) tally_results(s, &s->batch[at], &res[j], 1);
    sh->cases--;   /* the case itself is counted when the next worker runs its other variants */
    long k = variant_index(sh, lv);
    if (k >= 0) sh->left_out[k] = 1;
    fprintf(stderr, "sweep: %s faulted on the device; it is left out of the remaining cases, "
            "and a new worker process goes on from this case\n", lv->name);
  } else if (s->serial) {
    /* Lost with no variant to name (a copy or an allocation failed): the case is an error. */
    fprintf(stderr, "redfuzz sweep: the device was lost outside any kernel on a case; it is "
            "counted as an error and a new worker process goes on\n");
    sh->errors++;
    sh->next++;
  } else {
    sh->serial_until = s->first + (long)s->nb;
    fprintf(stderr, "sweep: a kernel faulted in a batch of %zu cases; a new worker process "
            "re-runs them one launch at a time to name it\n", s->nb);
  }
  fflush(stdout);
  fflush(stderr);
  _exit(RF_EXIT_RESTART);
}

/* Runs the batched cases and tallies their results in order. */
static void flush(sweep_state *s) {
  if (!s->nb) return;
  char err[512] = "";
  rf_runner_run_many(s->r, s->batch, s->nb, s->res, s->max_results, s->counts, err, sizeof err);
  if (rf_dev_lost() && s->sh->supervised) lost(s);
  for (size_t i = 0; i < s->nb; i++) {
    if (s->counts[i] < 0) {
      fprintf(stderr, "redfuzz sweep: %s\n", err);
      s->sh->errors++;
      continue;
    }
    tally_results(s, &s->batch[i], s->res + i * s->max_results, s->counts[i]);
  }
  s->sh->next = s->first + (long)s->nb;
  s->nb = 0;
  s->elems = 0;
  rf_cli_out_check("sweep");   /* a closed pipe or a full disk: no further cases */
}

/* Adds case number idx; cases a worker lost to a fault re-run one launch at a time. */
static void add_case(sweep_state *s, const rf_case *c, long idx) {
  uint64_t e = rf_case_elems(c);
  int serial = idx < s->sh->serial_until || rf_cli_settings.serial;
  if (s->nb && (s->nb == SWEEP_BATCH || s->elems + e > SWEEP_BATCH_ELEMS || serial != s->serial))
    flush(s);
  if (!s->nb) {
    s->first = idx;
    if (serial != s->serial) rf_runner_set_serial(s->r, s->serial = serial);
  }
  s->batch[s->nb++] = *c;
  s->elems += e;
}

/* Every value of a list within the backend's limits (a case with that one field set). */
static int check_limits(const rf_flag_val *v, const rf_limits *lim, const int want[RF_OP_COUNT]) {
  char err[512];
  int one_d = 0, rows = 0;   /* some 1-D op (they take --n), some row op (--shape) */
  for (int op = 0; op < RF_OP_COUNT; op++) {
    one_d |= want[op] && !rf_op_has_rows((rf_op)op);
    rows |= want[op] && rf_op_has_rows((rf_op)op);
  }
  char ops1_or[128], ops1_and[128];   /* the 1-D ops, from the op table */
  rf_op_list_of(0, " or ", ops1_or, sizeof ops1_or);
  rf_op_list_of(0, " and ", ops1_and, sizeof ops1_and);
  if (v[F_N].given && !one_d)
    return rf_flag_error("sweep", &rf_flags[F_N], v[F_N].text, "would never run (allowed: with "
                         "--op %s; softmax takes --shape)", ops1_or);
  if (v[F_SHAPE].given && !rows)
    return rf_flag_error("sweep", &rf_flags[F_SHAPE], v[F_SHAPE].text, "would never run "
                         "(allowed: with --op softmax; %s take --n)", ops1_and);
  for (size_t i = 0; one_d && i < v[F_N].count; i++) {
    rf_case c;
    rf_case_default(&c);
    c.n = v[F_N].list[i];
    if (rf_case_validate(&c, lim, err, sizeof err))
      return rf_flag_error("sweep", &rf_flags[F_N], v[F_N].text, "has a value beyond this "
                           "backend's limits: %s", err);
  }
  for (size_t i = 0; rows && i < v[F_SHAPE].count; i++) {
    rf_case c;
    rf_case_default(&c);
    c.op = RF_OP_SOFTMAX;
    c.n = 0;
    c.rows = (uint32_t)v[F_SHAPE].list[2 * i];
    c.cols = (uint32_t)v[F_SHAPE].list[2 * i + 1];
    if (rf_case_validate(&c, lim, err, sizeof err))
      return rf_flag_error("sweep", &rf_flags[F_SHAPE], v[F_SHAPE].text, "has a shape beyond "
                           "this backend's limits: %s", err);
  }
  /* A misalignment no listed type can take would never run. */
  for (size_t i = 0; i < v[F_MISALIGN].count; i++) {
    int fits = 0;
    uint32_t most = 0;
    for (size_t t = 0; t < v[F_DTYPE].count; t++) {
      uint32_t m = rf_case_misalign_max((rf_dtype)v[F_DTYPE].list[t]);
      fits |= v[F_MISALIGN].list[i] <= m;
      if (m > most) most = m;
    }
    if (!fits)
      return rf_flag_error("sweep", &rf_flags[F_MISALIGN], v[F_MISALIGN].text, "has %llu, which "
                           "no type of --dtype '%s' takes (allowed: 0..%u elements, offsets "
                           "within 16 bytes)", (unsigned long long)v[F_MISALIGN].list[i],
                           v[F_DTYPE].text, most);
  }
  return 0;
}

/* Everything a worker needs to make the cases (read-only after the checks). */
typedef struct {
  const rf_flag_val *v;
  const int *want;
  const char *variant;
  rf_limits lim;
  int mutants, quiet, json;
  sweep_shared *sh;
} sweep_job;

static void print_summary(const sweep_shared *sh, const rf_runner *r, int interrupted) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = !sh->t0.tv_sec && !sh->t0.tv_nsec ? 0   /* no worker got a device */
              : (t1.tv_sec - sh->t0.tv_sec) + (t1.tv_nsec - sh->t0.tv_nsec) / 1e9;
  long bad = 0, good = 0, runs = 0;
  printf("\n%-30s %8s %8s %8s %8s\n", "variant", "runs", "pass", "unsupp.", "failed");
  for (size_t k = 0; k < sh->nt; k++) {
    const tally *t = &sh->t[k];
    if (!t->runs) continue;
    printf("%-30s %8ld %8ld %8ld %8ld%s%s\n", t->v->name, t->runs, t->pass, t->unsup, t->fail,
           t->v->is_mutant ? (t->fail ? "  (mutant: caught)" : "  (mutant: NOT caught)") : "",
           sh->left_out[k] ? "  (faulted: left out after it)" : "");
    if (!t->v->is_mutant) { bad += t->fail; good += t->pass + t->unsup; }
    runs += t->pass + t->fail;
  }
  if (interrupted)
    printf("sweep: interrupted (signal %d): the summary covers the %ld cases run so far\n",
           interrupted, sh->cases);
  if (sh->faults)
    printf("sweep: %d device faults; %d worker processes (a fault leaves the device unusable "
           "for the rest of its process)\n", sh->faults, sh->restarts + 1);
  printf("sweep: %ld cases in %.2f s: %.0f verified runs/s\n", sh->cases, secs,
         secs > 0 ? runs / secs : 0.0);
  if (r) {
    rf_runner_stats st = rf_runner_get_stats(r);
    const char *scope = sh->restarts ? " (the last worker process only)" : "";
    if (st.kernel_runs && secs > 0)
      printf("%.0f kernel runs/s, determinism repeats included (%llu runs; %llu cases in %llu "
             "batches; %llu batches launched from %llu recorded launch graphs)%s\n",
             st.kernel_runs / secs, st.kernel_runs, st.cases, st.batches, st.batches_replayed,
             st.graphs_recorded, scope);
    /* The harness's kernels are counted exactly; a variant's launch call may enqueue several
     * kernels, which only its launch function knows (rf_runner_stats). */
    if (st.cases)
      printf("launches per case: the harness's %.2f kernels (generator, guards, fill, oracles, "
             "verdicts, judges), the variants' %.2f launch calls%s\n",
             (double)st.harness_launches / (double)st.cases,
             (double)st.kernel_runs / (double)st.cases, scope);
    double total = st.ms_generate + st.ms_oracle + st.ms_upload + st.ms_launch + st.ms_sync +
                   st.ms_download + st.ms_judge + st.ms_recheck;
    if (st.cases && total > 0 && !sh->restarts) {
      double k = 1e3 / (double)st.cases;   /* ms summed over cases -> us per case */
      printf("time per case (us): generate %.1f, oracle %.1f, upload %.1f, launch %.1f, sync "
             "%.1f, download %.1f, judge %.1f, host re-checks %.1f; other (sweep itself) %.1f\n",
             k * st.ms_generate, k * st.ms_oracle, k * st.ms_upload, k * st.ms_launch,
             k * st.ms_sync, k * st.ms_download, k * st.ms_judge, k * st.ms_recheck,
             k * (secs * 1e3 - total));
      if (st.ms_recheck_thread > 0)
        printf("background re-check thread (us per case, off the critical path): %.1f; waits "
               "for it (in host re-checks above) %.1f\n", k * st.ms_recheck_thread,
               k * st.ms_recheck_wait);
    }
    if (st.oracle_device_cases)
      printf("exact answers made on the device: %llu cases, %llu of them also on the host "
             "(the same); inputs made on the device: %llu%s\n", st.oracle_device_cases,
             st.oracle_rechecks, st.inputs_device, scope);
    if (st.verdict_batches)
      printf("verdicts made on the device: %llu batches, %llu results from their records, %llu "
             "judged on the host (a failure, or not decidable from a record), %llu also judged "
             "on the host (the same)%s\n", st.verdict_batches, st.verdict_device_runs,
             st.verdict_host_runs, st.verdict_rechecks, scope);
    if (st.softmax_device_cases)
      printf("softmax cases judged on the device: %llu (%llu of them made again and judged on "
             "the host: a failure or an undecided row)%s\n", st.softmax_device_cases,
             st.softmax_device_to_host, scope);
    if (st.log_device_cases)
      printf("log-op cases judged on the device: %llu (%llu of them made again and judged on "
             "the host: a failure or an undecided row)%s\n", st.log_device_cases,
             st.log_device_to_host, scope);
    if (!sh->restarts) rf_host_reasons_print(stdout, "", st.host_cases, st.host_ms);
    if (st.softmax_rows_double + st.softmax_rows_mpfr)
      printf("softmax oracle: %llu rows in double, %llu in MPFR (NaN rows: a NaN or +inf, or "
             "only -inf; or REDFUZZ_SOFTMAX_ORACLE=mpfr), %llu upgraded to MPFR (an element within the double "
             "oracle's margin of its bound)%s\n", st.softmax_rows_double, st.softmax_rows_mpfr,
             st.softmax_rows_upgraded, scope);
    if (st.lse_rows_double + st.lse_rows_mpfr)
      printf("log-op oracle: %llu rows in double, %llu in MPFR (NaN, +inf or no finite entry in "
             "the row, or REDFUZZ_SOFTMAX_ORACLE=mpfr), %llu upgraded to MPFR (an output within "
             "the double oracle's margin of its bound)%s\n", st.lse_rows_double,
             st.lse_rows_mpfr, st.lse_rows_upgraded, scope);
  }
  unsigned long long par = 0, reruns = 0;
  unsigned sim_threads = rf_dev_sim_parallel_stats(&par, &reruns);
  if (sim_threads > 1)  /* REDFUZZ_SIM_THREADS: how much ran in parallel (docs/SIMULATOR.md) */
    printf("simulator: %llu launches ran their blocks on %u threads, %llu of them re-run "
           "sequentially (a problem in a block)\n", par, sim_threads, reruns);
  if (sh->errors) printf("sweep: %ld cases could not run (errors above)\n", sh->errors);
  printf("%ld passed, %ld failed\n", good, bad + sh->errors);
  fflush(stdout);
}

static int sweep_failed(const sweep_shared *sh) {
  for (size_t k = 0; k < sh->nt; k++)
    if (!sh->t[k].v->is_mutant && sh->t[k].fail) return 1;
  return sh->errors != 0;
}

/* The sweep itself: in this process, or in a worker process (rf_cli_supervise). */
static int sweep_work(void *ctx) {
  const sweep_job *j = ctx;
  sweep_shared *sh = j->sh;
  const rf_flag_val *v = j->v;
  rf_runner *r = rf_cli_runner("sweep");
  if (!r) return RF_EXIT_FAIL;
  rf_runner_recheck_background(r);   /* a sweep is long: re-checks off the critical path */
  /* The clock starts once the first worker has its device (a CUDA context takes ~0.2 s);
   * later workers' start-up is part of the sweep's time. */
  if (!sh->t0.tv_sec && !sh->t0.tv_nsec) clock_gettime(CLOCK_MONOTONIC, &sh->t0);
  sweep_filter filter = {j->mutants, j->variant[0] != 0, &v[F_SKIP], sh};
  rf_runner_set_filter(r, sweep_keeps, &filter);
  sweep_state *s = calloc(1, sizeof *s);
  const size_t max_results = rf_variant_count();
  rf_result *results =
      calloc((size_t)SWEEP_BATCH * (max_results ? max_results : 1), sizeof *results);
  if (!s || !results) {
    fprintf(stderr, "redfuzz sweep: out of host memory\n");
    free(s);
    free(results);
    rf_runner_destroy(r);
    return RF_EXIT_FAIL;
  }
  *s = (sweep_state){.r = r, .sh = sh, .mutants = j->mutants, .quiet = j->quiet,
                     .json = j->json, .res = results, .max_results = max_results,
                     .serial = rf_cli_settings.serial};
  rf_cli_catch_signals();
  const rf_flag_val *ns = &v[F_N], *shapes = &v[F_SHAPE], *dists = &v[F_DIST],
                    *seeds = &v[F_SEED], *blocks = &v[F_BLOCK], *grids = &v[F_GRID],
                    *items = &v[F_ITEMS], *scheds = &v[F_SCHEDULE], *waves = &v[F_WAVE];
  long idx = 0;   /* the number of the case being made, in loop order */
  int rc = RF_EXIT_OK;
  for (size_t oi = 0; oi < v[F_OP].count; oi++) {
    rf_op op = (rf_op)v[F_OP].list[oi];
    if (!j->want[op]) continue;
    size_t nsizes = rf_op_has_rows(op) ? shapes->count : ns->count;
    for (size_t ti = 0; ti < v[F_DTYPE].count; ti++)
    for (size_t mi = 0; mi < (v[F_MISALIGN].given ? v[F_MISALIGN].count : 1); mi++)
    for (size_t si = 0; si < nsizes; si++)
    for (size_t di = 0; di < dists->count; di++)
    for (size_t ki = 0; ki < seeds->count; ki++)
    for (size_t bi = 0; bi < blocks->count; bi++)
    for (size_t gi = 0; gi < grids->count; gi++)
    for (size_t ii = 0; ii < items->count; ii++)
    for (size_t ci = 0; ci < scheds->count; ci++)
    for (size_t wi = 0; wi < waves->count; wi++, idx++) {
      if (rf_cli_interrupted || rf_cli_out_failed) goto stop;
      if (idx < sh->next) continue;   /* tallied by an earlier worker */
      /* --misalign: a misalignment the type cannot take (past 16 bytes) is not a case of that
       * type. Without it every misalignment of the type comes in turn, moving by one along
       * each list, so that any one list (the sizes, the distributions...) meets them all at no
       * extra cases (docs/CASE_FORMAT.md, "Misaligned views"). */
      const uint32_t max_mis = rf_case_misalign_max((rf_dtype)v[F_DTYPE].list[ti]);
      uint32_t mis = (uint32_t)((si + di + ki + bi + gi + ii + ci + wi) % (max_mis + 1));
      if (v[F_MISALIGN].given) {
        if (v[F_MISALIGN].list[mi] > max_mis) continue;
        mis = (uint32_t)v[F_MISALIGN].list[mi];
      }
      rf_case c;
      rf_case_default(&c);
      c.op = op;
      if (rf_op_has_rows(op)) {
        c.n = 0;
        c.rows = (uint32_t)shapes->list[2 * si];
        c.cols = (uint32_t)shapes->list[2 * si + 1];
      } else {
        c.n = ns->list[si];
      }
      c.dist = (rf_dist)dists->list[di];
      c.dtype = (rf_dtype)v[F_DTYPE].list[ti];
      c.misalign = mis;
      c.sched = (rf_sched)scheds->list[ci];
      c.seed = seeds->list[ki];
      c.block = (uint32_t)blocks->list[bi];
      c.grid = (uint32_t)grids->list[gi];
      c.items = (uint32_t)items->list[ii];
      c.wave = (uint32_t)waves->list[wi];
      snprintf(c.variant, sizeof c.variant, "%s", j->variant);
      char err[512];
      /* Every field was checked above; a failure here is a bug, not a case to skip. */
      if (rf_case_validate(&c, &j->lim, err, sizeof err)) {
        fprintf(stderr, "redfuzz sweep: internal error, a checked case does not validate: %s\n",
                err);
        rc = RF_EXIT_FAIL;
        goto out;
      }
      add_case(s, &c, idx);
    }
  }
stop:
  /* interrupted, or stdout failed: the batch not yet run is dropped */
  if (!rf_cli_interrupted && !rf_cli_out_failed) flush(s);
  /* The background re-checks still pending (at most RF_RECHECK_QUEUE) are finished, also
   * after an interrupt; a disagreement fails the sweep (printed on stderr with its case). */
  if (rf_runner_recheck_drain(r)) sh->errors++;
  if (rf_cli_out_failed) {   /* the summary cannot go to stdout: the count of work done can */
    fprintf(stderr, "sweep: stopped after %ld cases\n", sh->cases);
    rc = RF_EXIT_USAGE;
    goto out;
  }
  print_summary(sh, r, (int)rf_cli_interrupted);
  rc = rf_cli_interrupted ? 128 + (int)rf_cli_interrupted
     : sweep_failed(sh) ? RF_EXIT_FAIL : RF_EXIT_OK;
out:
  free(results);
  free(s);
  rf_runner_destroy(r);
  return rc;
}

int rf_cmd_sweep(int argc, char **argv) {
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("sweep", rf_flags, RF_FLAG_COUNT, argc, argv, v, NULL, 0, NULL, help,
                         help_tail);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  int rc = RF_EXIT_USAGE;
  sweep_shared *sh = NULL;
  const char *variant = v[F_VARIANT].given ? v[F_VARIANT].text : "";
  int want[RF_OP_COUNT] = {0};
  for (size_t i = 0; i < v[F_OP].count; i++) want[v[F_OP].list[i]] = 1;
  if (variant[0]) {
    const rf_variant *named = rf_variant_find(variant);
    if (!named) { rf_cli_check_variant("sweep", &rf_flags[F_VARIANT], variant, -1); goto out; }
    if (!v[F_OP].given) {   /* --variant alone: its op only */
      memset(want, 0, sizeof want);
      want[named->op] = 1;
    } else if (!want[named->op]) {
      rf_flag_error("sweep", &rf_flags[F_VARIANT], variant, "is a %s variant, but --op '%s' "
                    "leaves %s out (allowed: a variant of a listed op)", rf_op_name(named->op),
                    v[F_OP].text, rf_op_name(named->op));
      goto out;
    }
    if (!v[F_DTYPE].given) {   /* --variant: its input type */
      v[F_DTYPE].list[0] = (uint64_t)named->in_dtype;
      v[F_DTYPE].count = 1;
    }
    int has = 0;
    for (size_t i = 0; i < v[F_DTYPE].count; i++) has |= v[F_DTYPE].list[i] == named->in_dtype;
    if (!has) {
      rf_flag_error("sweep", &rf_flags[F_VARIANT], variant, "reads %s inputs, but --dtype '%s' "
                    "leaves %s out (allowed: a list with %s)", rf_dtype_name(named->in_dtype),
                    v[F_DTYPE].text, rf_dtype_name(named->in_dtype), rf_dtype_name(named->in_dtype));
      goto out;
    }
  }
  /* The backend's limits are known without a device, so every check comes before any
   * worker process starts. */
  sweep_job job = {.v = v, .want = want, .variant = variant, .lim = rf_backend.limits,
                   .mutants = v[F_MUTANTS].given != 0, .quiet = v[F_QUIET].given != 0,
                   .json = v[F_JSON].given != 0};
  if (check_limits(v, &job.lim, want)) goto out;
  for (size_t i = 0; i < v[F_SKIP].count; i++) {
    char why[256];
    if (!rf_variant_find(v[F_SKIP].items[i])) {
      rf_cli_check_variant("sweep", &rf_flags[F_SKIP], v[F_SKIP].items[i], -1);
      goto out;
    }
    /* --variant X --skip X selects nothing: refused, rather than running X (fuzz_select.h) */
    if (rf_select_check_variant_skip(variant, v[F_SKIP].items[i], why, sizeof why)) {
      fprintf(stderr, "redfuzz sweep: --skip: %s\n", why);
      goto out;
    }
  }
  sh = rf_cli_shared_alloc(sizeof *sh);
  if (!sh) {
    fprintf(stderr, "redfuzz sweep: out of host memory\n");
    rc = RF_EXIT_FAIL;
    goto out;
  }
  sh->nt = rf_variant_count() < SWEEP_MAX_VARIANTS ? rf_variant_count() : SWEEP_MAX_VARIANTS;
  for (size_t i = 0; i < sh->nt; i++) sh->t[i].v = rf_variant_at(i);
  job.sh = sh;
  /* GPUs: a worker process, since a kernel's fault ends the process's use of the device. */
  sh->supervised = !rf_backend.is_sim || rf_cli_settings.sim_fault_loses_device;
  if (!sh->supervised) {
    rc = sweep_work(&job);
    goto out;
  }
  rc = rf_cli_supervise("sweep", sweep_work, &job, &sh->restarts);
  if (rc < 0) {   /* the worker died of a signal (or none started): the summary still comes */
    if (rc != -1)
      fprintf(stderr, "redfuzz sweep: the worker process died of signal %d\n", -rc);
    print_summary(sh, NULL, -rc == SIGINT || -rc == SIGTERM ? -rc : 0);
    rc = -rc == SIGINT || -rc == SIGTERM ? 128 - rc : RF_EXIT_FAIL;
  }
out:
  rf_cli_shared_free(sh, sizeof *sh);
  rf_flags_free(v, RF_FLAG_COUNT);
  return rc;
}
