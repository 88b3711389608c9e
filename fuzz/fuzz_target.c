/* The libFuzzer target: fuzz bytes → case → every selected variant → verdicts. Any verdict
 * other than pass/unsupported prints the case and the table, then aborts so libFuzzer keeps
 * the input. Extra counters, one per (variant, verdict, log2(error/bound) bucket), are set
 * (not incremented) so inputs that push a variant's error toward its bound count as new
 * coverage and the search climbs toward worst cases.
 *
 * Environment:
 *   REDFUZZ_ONLY=a,b,...  run only these variants (names, or an op name for all of its correct
 *                         variants); mutants run only when named. Default: every correct
 *                         variant. When every selected variant has one op, cases are mapped
 *                         onto that op (sizes carried over) so no execution is wasted.
 *   Grids above RF_FUZZ_MAX_GRID (2^22 blocks) fold below it (fuzz_select.h).
 *   Size classes (run/fuzz_select.h): most inputs decode under the cheap caps below; one
 *                         in 16, 128 and 2048 under larger ones (x8, x64 elements; the last
 *                         with short rows past the row variants' grid cap), drawn from a
 *                         hash of the input. At start one line per class gives its caps; at
 *                         exit (and before a failure's abort) one line per class says how
 *                         it was spent ("size class K spent: ..."; scripts/fuzz.sh sums them).
 *   REDFUZZ_SIZE_CLASSES=N draw only the first N classes (1: the cheap caps only).
 *   REDFUZZ_MAX_ELEMS=N   cap on elements per case (default: 2^12 on the simulator, 2^22
 *                         on GPUs: big enough for grid > block, small enough for tens of
 *                         executions a second; `redfuzz sweep` covers 2^24 and 2^26); when
 *                         set, a hard cap for every class.
 *   REDFUZZ_MAX_THREADS=N cap on GPU threads (blocks x block size) per case: larger grids,
 *                         and rows of row ops, fold below it (default: 2^14 on the simulator,
 *                         where a launch costs its threads times their barriers; 2^20 on GPUs);
 *                         when set, a hard cap for every class.
 *   REDFUZZ_PLUGINS=a.so:b.so  load these plugins' variants first (include/redfuzz/plugin.h);
 *                         their non-mutant variants are fuzzed by default like built-in ones.
 *   REDFUZZ_KNOWN=FILE    known failure signatures (run/known.h: variant verdict [dist]
 *                         [rule=NAME]): an input whose every failure is known is not a crash;
 *                         the target goes on fuzzing (the same variant too) for other
 *                         signatures. Failing lines name the signature: "ERROR: redfuzz:
 *                         VARIANT VERDICT dist=D[ rule=R]" (R: the contract rule that
 *                         decided it, run/rules.def).
 *
 *   REDFUZZ_DEVICE_ORACLE, REDFUZZ_DEVICE_GEN, REDFUZZ_DEVICE_MIN_ELEMS,
 *   REDFUZZ_ORACLE_RECHECK  where 1-D inputs and exact answers are made (dev_inputs.c, dev_answers.c;
 *                         default on GPUs: on the device at every size here (sweeps: from
 *                         16384 elements), 1 answer in 64 and every failing case's answer
 *                         re-checked on the host).
 *   REDFUZZ_RECHECK_BACKGROUND=0  re-check in the execution, not on the background thread
 *                         (run/recheck_queue.h): by default a disagreement found there fails
 *                         a later execution (its message names the case that disagreed), or
 *                         the exit (drain_rechecks below)
 *   REDFUZZ_PROFILE=1     at exit, print the runner's time per execution by stage
 *                         (scripts/fuzz-rate.sh).
 *
 * Cost caps: a variant that declares fuzz_max_n (kernels/variant.h; sum/atomic: 2^16) runs
 * only on cases of at most that many elements here, so one slow kernel does not set the
 * campaign's pace; the target prints each cap at start ("redfuzz fuzz: size cap: ...", in
 * the campaign summary of scripts/fuzz.sh); `redfuzz sweep` runs it at every size. GPU
 * threads are kept to 2^14 on the simulator, 2^20 on GPUs (run/backend.c says why). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run/runner.h"
#include "run/report.h"
#include "run/stats_print.h"
#include "run/fuzz_select.h"
#include "run/known.h"
#include "run/contain.h"
#include "run/stack_limit.h"
#include "run/clock.h"
#include "run/boundaries.h"
#include "kernels/plugin_loader.h"
#include "kernels/harness/device.h"

#define RF_FUZZ_MAX_VARIANTS RF_VARIANT_CAPACITY
#define RF_BUCKETS 16
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t rf_counters[RF_FUZZ_MAX_VARIANTS][RF_V_COUNT][RF_BUCKETS];

static rf_runner *runner;
static rf_fuzz_budget budget;
/* How each size class was spent (printed by print_budget). */
static struct {
  unsigned long long execs, past_2p16, past_grid_cap;
  double ms;
  uint64_t max_elems, max_n, max_rows;
} spent[RF_FUZZ_CLASSES];
/* Class 4 (derived boundaries): executions by the kinds of the boundary drawn (a boundary of
 * several kinds counts for each). */
static unsigned long long boundary_kinds[RF_BK_COUNT];
static char only[1024];
static rf_known *known;   /* NULL: none given */
static unsigned long long known_skipped;

/* ctx: the case about to run (its size against the variant's cost cap). */
static int keep_variant(const rf_variant *v, void *ctx) {
  const rf_case *c = ctx;
  if (c && !rf_fuzz_within_cost(v, c)) return 0;
  return rf_only_keeps(only, v);
}

/* At exit: the background re-checks still pending (at most RF_RECHECK_QUEUE) are finished;
 * a disagreement found then belongs to an input libFuzzer no longer has, so it is printed
 * with its case (the message names op, n, dist and seed; `redfuzz run` with those and
 * REDFUZZ_ORACLE_RECHECK=1 reproduces it) and the process aborts, a crash as any failure.
 * libFuzzer's own exits by _Exit (its interrupt and timeout handlers) skip every atexit
 * handler: the at most RF_RECHECK_QUEUE sampled re-checks still pending are then not done
 * (an interrupted campaign has no profile either). */
static void drain_rechecks(void) {
  const char *why = rf_runner_recheck_drain(runner);
  if (!why) return;
  fprintf(stderr, "\n==== redfuzz: failing case (a background re-check, found at exit) ====\n"
          "ERROR: redfuzz: %s\n", why);
  fflush(stderr);
  abort();
}

/* REDFUZZ_PROFILE: where an execution's time went (rf_runner_stats), at exit. */
static void print_profile(void) {
  rf_runner_stats st = rf_runner_get_stats(runner);
  fprintf(stderr, "redfuzz fuzz: profile: %llu executions (%llu kernel runs, %llu batches from "
          "launch graphs)\n", st.cases, st.kernel_runs, st.batches_replayed);
  rf_stats_style style = {.out = stderr, .prefix = "redfuzz fuzz: ", .unit = "execution",
                          .scope = "", .every_line = 1, .times = 1};
  rf_stats_print(&st, &style);
  if (st.cases_unlaunched)
    fprintf(stderr, "redfuzz fuzz: no variant to launch (all unsupported or over a cost cap): "
            "%llu executions\n", st.cases_unlaunched);
}

static void print_budget(void) {
  for (unsigned k = 0; k < budget.classes; k++)
    fprintf(stderr, "redfuzz fuzz: size class %u spent: %llu executions, %.1f s, largest n %llu, "
            "largest rows %llu, largest case %llu elements, %llu past 2^16 elements, %llu past "
            "%u rows\n", k, spent[k].execs, spent[k].ms / 1000, (unsigned long long)spent[k].max_n,
            (unsigned long long)spent[k].max_rows, (unsigned long long)spent[k].max_elems,
            spent[k].past_2p16, spent[k].past_grid_cap, RF_FUZZ_ROW_GRID_CAP);
  /* the derived boundaries reached, by kind (scripts/fuzz.sh sums them over its workers) */
  if (budget.classes > RF_FUZZ_BOUNDARY_CLASS) {
    fprintf(stderr, "redfuzz fuzz: boundary kinds reached:");
    for (int k = 0; k < RF_BK_COUNT; k++)
      fprintf(stderr, " %s=%llu", rf_boundary_kind_name((rf_boundary_kind)k), boundary_kinds[k]);
    fputc('\n', stderr);
  }
}

/* Before main: a stack limit too small for redfuzz is raised where the hard limit allows, or
 * is an error naming it (run/stack_limit.h). */
__attribute__((constructor)) static void stack_first(void) {
  /* snprintf and write: fprintf to unbuffered stderr takes an 8 KiB buffer on the stack */
  char err[400], line[440];
  if (rf_stack_ensure(err, sizeof err)) {
    const int n = snprintf(line, sizeof line, "redfuzz fuzz: %s\n", err);
    ssize_t w = write(2, line, n > 0 && (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
    _exit(2);
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  char err[512];
  /* Every REDFUZZ_* variable is read here, once, and validated like a flag. */
  static rf_settings set;
  if (rf_settings_from_env(&set, err, sizeof err)) {
    fprintf(stderr, "redfuzz fuzz: %s\n", err);
    exit(2);
  }
  /* The selection rule of every command (run/fuzz_select.h): plugins, then the names. */
  /* Plugin code that ends the process is named (run/contain.h): while loading, exit 3; after
   * that, by abort() after its line, so that libFuzzer keeps the input as a crash. An exit or
   * a fault in an entry point is the variant's `crash`, a failure like any other. */
  rf_contain_loading(1);
  const int load_failed = rf_select_load_env_plugins(&set, err, sizeof err);
  rf_contain_loading(0);
  rf_contain_fatal_abort(1);
  if (load_failed) {
    fprintf(stderr, "redfuzz fuzz: %s\n", err);
    exit(2);
  }
  char why[512];
  if (rf_select_check_list(set.only_text, 1, why, sizeof why)) {
    fprintf(stderr, "redfuzz fuzz: REDFUZZ_ONLY: %s\n", why);
    exit(2);
  }
  if (set.known_set && set.known_text[0]) {
    known = rf_known_load(set.known_text, err, sizeof err);
    if (!known) { fprintf(stderr, "redfuzz fuzz: REDFUZZ_KNOWN: %s\n", err); exit(2); }
    fprintf(stderr, "redfuzz fuzz: %zu known signature(s) from %s: going on past them\n",
            rf_known_count(known), set.known_text);
  }
  if (rf_dev_require(err, sizeof err)) { fprintf(stderr, "redfuzz fuzz: %s\n", err); exit(2); }
  /* One input at a time: below REDFUZZ_DEVICE_MIN_ELEMS (16384, the sweep's default, where
   * many small host-made inputs share one upload) each execution pays host generate + oracle
   * + its own upload + the host judge; the device path costs three small launches and a
   * record read back instead. Measured on the H200 at REDFUZZ_MAX_ELEMS=4096
   * (docs/RESULTS.md, second GPU session): 785 executions/s with the threshold, 914 with
   * every case on the device (upload 167 -> 18 us, judge 59 -> 35 us). So the fuzz target
   * puts every size on the device path unless told otherwise; the simulator's default
   * (device path off) is untouched, as only the auto mode reads the threshold. */
  if (!set.device_min_elems_set) set.device_min_elems = 0;
  runner = rf_runner_create(&set, err, sizeof err);
  if (!runner) { fprintf(stderr, "redfuzz fuzz: %s\n", err); exit(2); }
  budget = rf_fuzz_budget_of(&set);
  rf_runner_set_repeat(runner, set.repeat_every);
  if (set.repeat_every != 1)
    fprintf(stderr, "redfuzz fuzz: each variant's repeat (determinism, state across launches) "
            "runs on 1 case in %llu (REDFUZZ_REPEAT_EVERY); sweeps and replays repeat every "
            "case\n", (unsigned long long)set.repeat_every);
  snprintf(only, sizeof only, "%s", set.only_text);
  rf_runner_set_filter(runner, keep_variant, NULL);
  if (rf_only_single_op(only) == -2) {
    fprintf(stderr, "redfuzz fuzz: REDFUZZ_ONLY='%s' selects no variant (see redfuzz list)\n", only);
    exit(2);
  }
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (v->fuzz_max_n && rf_only_keeps(only, v))
      fprintf(stderr, "redfuzz fuzz: size cap: %s runs only on cases of at most %llu elements "
              "(slow beyond; sweeps run it at every size)\n", v->name,
              (unsigned long long)v->fuzz_max_n);
  }
  if (budget.lim[0].max_threads)
    fprintf(stderr, "redfuzz fuzz: size cap: cases ask for at most %llu GPU threads (larger "
            "grids, and rows of row ops, fold below it; REDFUZZ_MAX_THREADS)\n",
            (unsigned long long)budget.lim[0].max_threads);
  for (unsigned k = 0; k < budget.classes; k++) {
    const rf_limits *l = &budget.lim[k];
    char share[48];
    if (k == 0) snprintf(share, sizeof share, "the other inputs");
    else if (!budget.one_in[k])
      snprintf(share, sizeof share, k == 3 && !set.short_rows ? "no input (REDFUZZ_SHORT_ROWS=0)"
                                                              : "no input on this backend");
    else snprintf(share, sizeof share, "1 input in %u", (unsigned)budget.one_in[k]);
    fprintf(stderr, "redfuzz fuzz: size class %u: at most %llu elements (rows of at most %u "
            "columns), %llu GPU threads; drawn for %s (REDFUZZ_SIZE_CLASSES=%u)%s\n", k,
            (unsigned long long)l->max_elems, (unsigned)l->max_cols,
            (unsigned long long)l->max_threads, share, budget.classes,
            k == RF_FUZZ_BOUNDARY_CLASS ? "; a derived boundary of a selected variant "
            "(docs/BOUNDARIES.md), inputs of codec version 8 on" : "");
  }
  atexit(print_budget);
  if (set.profile) atexit(print_profile);
  /* Registered after the profile, so it runs first (atexit order) and the profile counts it. */
  if (rf_runner_recheck_background(runner)) atexit(drain_rechecks);
  return 0;
}

static unsigned bucket_of(double ratio) {
  if (ratio == 0) return 0;
  if (!(ratio < INFINITY)) return RF_BUCKETS - 1;
  int b = (int)floor(log2(ratio)) + 13;   /* 2^-12 .. 2^1 map to 1 .. 14 */
  return b < 1 ? 1 : b > RF_BUCKETS - 1 ? RF_BUCKETS - 1 : (unsigned)b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rf_case c;
  uint32_t kinds = 0;
  const unsigned cls = rf_fuzz_decode_budget_kinds(data, size, &budget, only, &c, &kinds);
  for (int k = 0; k < RF_BK_COUNT; k++) boundary_kinds[k] += (kinds >> k) & 1u;
  /* Room for every variant of the registry (plugins included), made once. */
  static rf_result *res;
  static size_t max;
  if (!res) {
    max = rf_variant_count();
    res = calloc(max ? max : 1, sizeof *res);
    if (!res) { fprintf(stderr, "redfuzz fuzz: out of host memory\n"); exit(2); }
  }
  char err[512];
  rf_runner_set_filter(runner, keep_variant, &c);
  const double t0 = rf_now_ms();
  int n = rf_runner_run(runner, &c, res, max, err, sizeof err);
  {
    const uint64_t elems = rf_case_elems(&c), rows = rf_op_has_rows(c.op) ? c.rows : 0;
    spent[cls].execs++;
    spent[cls].ms += rf_now_ms() - t0;
    if (elems > spent[cls].max_elems) spent[cls].max_elems = elems;
    if (!rf_op_has_rows(c.op) && c.n > spent[cls].max_n) spent[cls].max_n = c.n;
    if (rows > spent[cls].max_rows) spent[cls].max_rows = rows;
    spent[cls].past_2p16 += elems > (UINT64_C(1) << 16);
    spent[cls].past_grid_cap += rows > RF_FUZZ_ROW_GRID_CAP;
  }
  if (n < 0) {
    fprintf(stderr, "redfuzz fuzz: decoded an invalid case: %s\n", err);
    rf_case_write_text(&c, stderr);
    abort();   /* the decoder promised a valid case: that is a bug in redfuzz itself */
  }
  int failed = 0, unknown = 0, first = -1;
  for (int i = 0; i < n; i++) {
    size_t vi = 0;
    while (vi < rf_variant_count() && rf_variant_at(vi) != res[i].variant) vi++;
    if (vi < RF_FUZZ_MAX_VARIANTS) rf_counters[vi][res[i].verdict][bucket_of(res[i].ratio)] = 1;
    if (!rf_verdict_is_failure(res[i].verdict)) continue;
    failed = 1;
    if (first < 0) first = i;
    unknown |= !rf_known_has_rule(known, res[i].variant->name, res[i].verdict, c.dist,
                                  res[i].rule);
  }
  /* Every failure known (and no lost device, which is no signature): not a crash. Counted,
   * the first few said, so a campaign log shows the target went on past them. */
  if (failed && !unknown && !rf_dev_lost()) {
    if (known_skipped++ < 3)
      fprintf(stderr, "redfuzz fuzz: known failure signature(s), going on (first %s)\n",
              res[first].variant->name);
    return 0;
  }
  if (failed) {
    fprintf(stderr, "\n==== redfuzz: failing case ====\n");
    rf_case_write_text(&c, stderr);
    rf_report_table(stderr, &c, res, (size_t)n);
    /* One line per failing variant that libFuzzer's fork mode passes on to the campaign's
     * log (it copies a crashed job's lines holding "ERROR:", not the table above). */
    for (int i = 0; i < n; i++)
      if (rf_verdict_is_failure(res[i].verdict) &&
          !rf_known_has_rule(known, res[i].variant->name, res[i].verdict, c.dist, res[i].rule))
        fprintf(stderr, "ERROR: redfuzz: %s %s dist=%s%s%s\n", res[i].variant->name,
                rf_verdict_name(res[i].verdict), rf_dist_name(c.dist),
                res[i].rule ? " rule=" : "", rf_rule_name(res[i].rule));
    /* A GPU fault found at the batch's synchronisation names no variant, and the device is
     * unusable for the rest of this process (kernels/harness/device.h): say how to name it. */
    if (rf_dev_lost() && !rf_runner_lost(runner, NULL))
      fprintf(stderr, "ERROR: redfuzz: a kernel faulted (%s) and the device is lost to this "
              "process; `REDFUZZ_SERIAL=1 redfuzz run --case FILE --mutants` (or `redfuzz sweep`) "
              "names the variant as `crash`\n", rf_dev_error_string(rf_dev_lost()));
    print_budget();   /* atexit handlers do not run on abort */
    fflush(stderr);
    abort();
  }
  return 0;
}
