/* redfuzz sweep: the cross product of sizes, distributions, launch parameters and simulator
 * schedules, every variant on each, in one process; one line per failure and a per-variant
 * summary. The boundary check the seeds ask for, done exhaustively. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "model/dtype.h"
#include "run/report.h"
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
  "Exit status: 0 no correct variant failed, 1 one did (mutants are reported, not counted),\n"
  "2 bad usage.\n";

typedef struct { const rf_variant *v; long runs, pass, unsup, fail; } tally;

/* Which variants run: mutants only with --mutants, none named by --skip. */
typedef struct { int mutants; const rf_flag_val *skip; } sweep_filter;
static int sweep_keeps(const rf_variant *v, void *ctx) {
  const sweep_filter *f = ctx;
  if (v->is_mutant && !f->mutants) return 0;
  for (size_t i = 0; i < f->skip->count; i++)
    if (strcmp(f->skip->items[i], v->name) == 0) return 0;
  return 1;
}

/* Cases go to the runner in batches (rf_runner_run_many: on a GPU one launch sequence for all
 * of them), at most this many, or this many input elements. */
#define SWEEP_BATCH 32
#define SWEEP_BATCH_ELEMS ((uint64_t)1 << 22)
#define SWEEP_MAX_RESULTS 64

typedef struct {
  rf_runner *r;
  tally *t;
  size_t nt;
  int mutants, quiet, json;
  long cases, errors;   /* errors: cases the runner could not run */
  rf_case batch[SWEEP_BATCH];
  size_t nb;
  uint64_t elems;
  rf_result *res;   /* SWEEP_BATCH x SWEEP_MAX_RESULTS */
  int counts[SWEEP_BATCH];
} sweep_state;

static void tally_case(sweep_state *s, const rf_case *c, const rf_result *res, int n) {
  for (int i = 0; i < n; i++) {
    size_t k = 0;
    while (k < s->nt && s->t[k].v != res[i].variant) k++;
    if (k == s->nt || (res[i].variant->is_mutant && !s->mutants)) continue;
    tally *t = &s->t[k];
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

/* Runs the batched cases and tallies their results in order. */
static void flush(sweep_state *s) {
  if (!s->nb) return;
  char err[512] = "";
  rf_runner_run_many(s->r, s->batch, s->nb, s->res, SWEEP_MAX_RESULTS, s->counts, err, sizeof err);
  for (size_t i = 0; i < s->nb; i++) {
    if (s->counts[i] < 0) { fprintf(stderr, "redfuzz sweep: %s\n", err); s->errors++; continue; }
    const rf_result *res = s->res + i * SWEEP_MAX_RESULTS;
    if (s->json) rf_report_json(stdout, &s->batch[i], res, (size_t)s->counts[i]);
    tally_case(s, &s->batch[i], res, s->counts[i]);
    if (++s->cases % 200 == 0) fprintf(stderr, "sweep: %ld cases\n", s->cases);
  }
  s->nb = 0;
  s->elems = 0;
}

static void add_case(sweep_state *s, const rf_case *c) {
  uint64_t e = rf_case_elems(c);
  if (s->nb == SWEEP_BATCH || (s->nb && s->elems + e > SWEEP_BATCH_ELEMS)) flush(s);
  s->batch[s->nb++] = *c;
  s->elems += e;
}

/* Every value of a list within the backend's limits (a case with that one field set). */
static int check_limits(const rf_flag_val *v, const rf_limits *lim, const int want[RF_OP_COUNT]) {
  char err[512];
  int one_d = want[RF_OP_SUM] || want[RF_OP_MAX] || want[RF_OP_ARGMAX];
  if (v[F_N].given && !one_d)
    return rf_flag_error("sweep", &rf_flags[F_N], v[F_N].text, "would never run (allowed: with "
                         "--op sum, max or argmax; softmax takes --shape)");
  if (v[F_SHAPE].given && !want[RF_OP_SOFTMAX])
    return rf_flag_error("sweep", &rf_flags[F_SHAPE], v[F_SHAPE].text, "would never run "
                         "(allowed: with --op softmax; sum, max and argmax take --n)");
  for (size_t i = 0; one_d && i < v[F_N].count; i++) {
    rf_case c;
    rf_case_default(&c);
    c.n = v[F_N].list[i];
    if (rf_case_validate(&c, lim, err, sizeof err))
      return rf_flag_error("sweep", &rf_flags[F_N], v[F_N].text, "has a value beyond this "
                           "backend's limits: %s", err);
  }
  for (size_t i = 0; want[RF_OP_SOFTMAX] && i < v[F_SHAPE].count; i++) {
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
  return 0;
}

int rf_cmd_sweep(int argc, char **argv) {
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("sweep", rf_flags, RF_FLAG_COUNT, argc, argv, v, NULL, 0, NULL, help,
                         help_tail);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  int rc = RF_EXIT_USAGE;
  rf_runner *r = NULL;
  sweep_state *s = NULL;
  rf_result *results = NULL;
  const char *variant = v[F_VARIANT].given ? v[F_VARIANT].text : "";
  int mutants = v[F_MUTANTS].given != 0, quiet = v[F_QUIET].given != 0;
  int json = v[F_JSON].given != 0;
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

  r = rf_cli_runner("sweep");
  if (!r) { rc = RF_EXIT_FAIL; goto out; }
  rf_limits lim = rf_runner_limits(r);
  if (check_limits(v, &lim, want)) goto out;
  for (size_t i = 0; i < v[F_SKIP].count; i++)
    if (!rf_variant_find(v[F_SKIP].items[i])) {
      rf_cli_check_variant("sweep", &rf_flags[F_SKIP], v[F_SKIP].items[i], -1);
      goto out;
    }
  sweep_filter filter = {mutants, &v[F_SKIP]};
  if (!variant[0]) rf_runner_set_filter(r, sweep_keeps, &filter);
  tally t[256] = {{0}};
  size_t nt = rf_variant_count() < 256 ? rf_variant_count() : 256;
  for (size_t i = 0; i < nt; i++) t[i].v = rf_variant_at(i);
  s = calloc(1, sizeof *s);
  results = calloc((size_t)SWEEP_BATCH * SWEEP_MAX_RESULTS, sizeof *results);
  if (!s || !results) {
    fprintf(stderr, "redfuzz sweep: out of host memory\n");
    rc = RF_EXIT_FAIL;
    goto out;
  }
  *s = (sweep_state){.r = r, .t = t, .nt = nt, .mutants = mutants, .quiet = quiet, .json = json,
                     .res = results};
  rf_cli_catch_signals();
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  const rf_flag_val *ns = &v[F_N], *shapes = &v[F_SHAPE], *dists = &v[F_DIST],
                    *seeds = &v[F_SEED], *blocks = &v[F_BLOCK], *grids = &v[F_GRID],
                    *items = &v[F_ITEMS], *scheds = &v[F_SCHEDULE], *waves = &v[F_WAVE];
  for (size_t oi = 0; oi < v[F_OP].count; oi++) {
    rf_op op = (rf_op)v[F_OP].list[oi];
    if (!want[op]) continue;
    size_t nsizes = op == RF_OP_SOFTMAX ? shapes->count : ns->count;
    for (size_t ti = 0; ti < v[F_DTYPE].count; ti++)
    for (size_t si = 0; si < nsizes; si++)
    for (size_t di = 0; di < dists->count; di++)
    for (size_t ki = 0; ki < seeds->count; ki++)
    for (size_t bi = 0; bi < blocks->count; bi++)
    for (size_t gi = 0; gi < grids->count; gi++)
    for (size_t ii = 0; ii < items->count; ii++)
    for (size_t ci = 0; ci < scheds->count; ci++)
    for (size_t wi = 0; wi < waves->count; wi++) {
      if (rf_cli_interrupted) goto stop;
      rf_case c;
      rf_case_default(&c);
      c.op = op;
      if (op == RF_OP_SOFTMAX) {
        c.n = 0;
        c.rows = (uint32_t)shapes->list[2 * si];
        c.cols = (uint32_t)shapes->list[2 * si + 1];
      } else {
        c.n = ns->list[si];
      }
      c.dist = (rf_dist)dists->list[di];
      c.dtype = (rf_dtype)v[F_DTYPE].list[ti];
      c.sched = (rf_sched)scheds->list[ci];
      c.seed = seeds->list[ki];
      c.block = (uint32_t)blocks->list[bi];
      c.grid = (uint32_t)grids->list[gi];
      c.items = (uint32_t)items->list[ii];
      c.wave = (uint32_t)waves->list[wi];
      snprintf(c.variant, sizeof c.variant, "%s", variant);
      char err[512];
      /* Every field was checked above; a failure here is a bug, not a case to skip. */
      if (rf_case_validate(&c, &lim, err, sizeof err)) {
        fprintf(stderr, "redfuzz sweep: internal error, a checked case does not validate: %s\n",
                err);
        rc = RF_EXIT_FAIL;
        goto out;
      }
      add_case(s, &c);
    }
  }
stop:
  if (!rf_cli_interrupted) flush(s);   /* interrupted: the batch not yet run is dropped */
  long cases = s->cases, errors = s->errors;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  long bad = 0, good = 0, runs = 0;
  printf("\n%-30s %8s %8s %8s %8s\n", "variant", "runs", "pass", "unsupp.", "failed");
  for (size_t k = 0; k < nt; k++) {
    if (!t[k].runs) continue;
    printf("%-30s %8ld %8ld %8ld %8ld%s\n", t[k].v->name, t[k].runs, t[k].pass, t[k].unsup,
           t[k].fail, t[k].v->is_mutant ? (t[k].fail ? "  (mutant: caught)" : "  (mutant: NOT caught)") : "");
    if (!t[k].v->is_mutant) { bad += t[k].fail; good += t[k].pass + t[k].unsup; }
    runs += t[k].pass + t[k].fail;
  }
  if (rf_cli_interrupted)
    printf("sweep: interrupted (signal %d): the summary covers the %ld cases run so far\n",
           (int)rf_cli_interrupted, cases);
  printf("sweep: %ld cases in %.2f s: %.0f verified runs/s\n", cases, secs,
         secs > 0 ? runs / secs : 0.0);
  rf_runner_stats st = rf_runner_get_stats(r);
  if (st.kernel_runs && secs > 0)
    printf("%.0f kernel runs/s, determinism repeats included (%llu runs; %llu cases in %llu "
           "batches; %llu batches launched from %llu recorded launch graphs)\n",
           st.kernel_runs / secs, st.kernel_runs, st.cases, st.batches, st.batches_replayed,
           st.graphs_recorded);
  double total = st.ms_generate + st.ms_oracle + st.ms_upload + st.ms_launch + st.ms_sync +
                 st.ms_download + st.ms_judge;
  if (st.cases && total > 0) {
    double k = 1e3 / (double)st.cases;   /* ms summed over cases -> us per case */
    printf("time per case (us): generate %.1f, oracle %.1f, upload %.1f, launch %.1f, sync %.1f, "
           "download %.1f, judge %.1f; other (sweep itself) %.1f\n",
           k * st.ms_generate, k * st.ms_oracle, k * st.ms_upload, k * st.ms_launch,
           k * st.ms_sync, k * st.ms_download, k * st.ms_judge, k * (secs * 1e3 - total));
  }
  if (st.oracle_device_cases)
    printf("exact answers made on the device: %llu cases, %llu of them also on the host "
           "(the same); inputs made on the device: %llu\n", st.oracle_device_cases,
           st.oracle_rechecks, st.inputs_device);
  if (st.softmax_rows_double + st.softmax_rows_mpfr)
    printf("softmax oracle: %llu rows in double, %llu in MPFR (NaN or infinity in the row, or "
           "REDFUZZ_SOFTMAX_ORACLE=mpfr), %llu upgraded to MPFR (an element within the double oracle's margin of its bound)\n",
           st.softmax_rows_double, st.softmax_rows_mpfr, st.softmax_rows_upgraded);
  if (errors) printf("sweep: %ld cases could not run (errors above)\n", errors);
  printf("%ld passed, %ld failed\n", good, bad + errors);
  fflush(stdout);
  rc = rf_cli_interrupted ? 128 + (int)rf_cli_interrupted : bad || errors ? RF_EXIT_FAIL : RF_EXIT_OK;
out:
  free(results);
  free(s);
  if (r) rf_runner_destroy(r);
  rf_flags_free(v, RF_FLAG_COUNT);
  return rc;
}
