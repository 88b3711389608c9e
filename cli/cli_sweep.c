/* redfuzz sweep: the cross product of sizes, distributions, launch parameters and simulator
 * schedules, every variant on each, in one process; one line per failure and a per-variant
 * summary. The boundary check the seeds ask for, done exhaustively. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "kernels/harness/device.h"
#include "run/backend.h"
#include "cli.h"
#include "kernels/huge_mutants.h"
#include "model/dtype.h"
#include "run/report.h"
#include "run/stats_print.h"
#include "run/fuzz_select.h"
#include "model/number.h"
#include "cli_sweep_derived.h"
#include "progress.h"

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
  "A sweep given none of --n, --shape, --block, --grid and --items (the default sweep among\n"
  "them) also runs each selected variant's derived cases, after the cross product: the blocks\n"
  "it accepts, the size where its default grid saturates, grids with idle blocks, the sizes\n"
  "where its plan changes and the index widths, found by probing its configure and plan on\n"
  "the host (docs/BOUNDARIES.md; --list-cases shows each with the reason it was chosen,\n"
  "--derived-only runs only them, --no-derived leaves them out).\n"
  "The summary ends with the verified runs per second (one kernel run checked against the\n"
  "oracle; deterministic variants are launched twice to check their bits) and where the time\n"
  "went. Cases run up to 32 at a time (one upload, launch sequence and synchronisation for\n"
  "all of them; row-op cases one at a time); REDFUZZ_SERIAL=1 runs one case and one launch\n"
  "per synchronisation, REDFUZZ_GRAPHS=0 and REDFUZZ_STREAMS=1 turn off launch graphs and\n"
  "streams on GPUs (docs/ARCHITECTURE.md, 'How a case runs'). Ctrl-C stops after the current batch and\n"
  "prints the summary so far (exit 130).\n"
  "On a GPU the sweep runs in a worker process: a kernel that faults (an illegal address...)\n"
  "leaves the device unusable for the rest of that process, so a new worker re-runs the\n"
  "batch one launch at a time, reports the faulting variant as `crash` and goes on\n"
  "(REDFUZZ_SIM_FAULT_LOSES_DEVICE=1 makes the simulator do the same, for testing). A variant\n"
  "that has crashed or timed out on --fault-limit cases is left out of the remaining ones\n"
  "(default 1 on GPUs, where each costs a worker process; on the simulator, never).\n"
  "Exit status: 0 no correct variant failed, 1 one did (mutants are reported, not counted),\n"
  "2 bad usage.\n";

typedef struct { const rf_variant *v; long runs, pass, unsup, fail; } tally;

/* Progress, kept in memory shared with the worker processes (cli_worker.c) so that a worker
 * lost to a GPU fault loses nothing that was tallied: cases are numbered in the order the
 * axes below make them, and a new worker skips those before rs.next (cli_resume.c). */
#define SWEEP_MAX_VARIANTS RF_VARIANT_CAPACITY   /* the registry's: every variant has a tally */
typedef struct {
  tally t[SWEEP_MAX_VARIANTS];
  size_t nt;
  long cases, errors;    /* errors: cases the runner could not run */
  rf_cli_resume rs;      /* the fault-and-resume protocol's state (cli_resume.c) */
  long fault_limit;      /* --fault-limit: crashes or timeouts after which a variant is left
                            out; 0 never */
  long crashes[SWEEP_MAX_VARIANTS];   /* `crash` and `timeout` verdicts */
  unsigned char left_out[SWEEP_MAX_VARIANTS];   /* reached the fault limit: not run again */
  struct timespec t0;
} sweep_shared;

static long variant_index(const sweep_shared *sh, const rf_variant *v) {
  for (size_t k = 0; k < sh->nt; k++)
    if (sh->t[k].v == v) return (long)k;
  return -1;
}

/* Which variants run: mutants only with --mutants (or named by --variant), none named by
 * --skip, none that reached --fault-limit earlier in this sweep, none that faulted on the case
 * a new worker process resumes. */
typedef struct { int mutants, named, huge; const rf_flag_val *skip; const sweep_shared *sh; } sweep_filter;
static int sweep_keeps(const rf_variant *v, void *ctx) {
  const sweep_filter *f = ctx;
  long k = variant_index(f->sh, v);
  if (k >= 0 && f->sh->left_out[k]) return 0;
  if (!rf_cli_resume_keeps(&f->sh->rs, v)) return 0;
  if (f->named) return 1;
  if (v->is_mutant && !f->mutants) return 0;
  /* only named, or with --huge: no other sweep size reaches their bug */
  if (rf_variant_huge_only(v) && !f->huge) return 0;
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
  rf_result *kept;      /* max_results: a case's results without the variants left out */
  int counts[SWEEP_BATCH];
  rf_progress *progress;   /* stderr lines while it runs (progress.h), or NULL */
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

/* A case's results, in order. A variant left out by --fault-limit on an earlier case is left
 * out of this one's results too, though a batch ran it: so a batched sweep reports what a
 * serial one does. A `crash` or `timeout` counts toward the limit; the case that reaches it
 * is the variant's last. */
static void tally_results(sweep_state *s, const rf_case *c, const rf_result *all, int n_all) {
  sweep_shared *sh = s->sh;
  rf_result *res = s->kept;
  int n = 0;
  for (int i = 0; i < n_all; i++) {
    long k = variant_index(sh, all[i].variant);
    if (k < 0 || !sh->left_out[k]) res[n++] = all[i];
  }
  if (s->json) rf_report_json(stdout, c, res, (size_t)n);
  tally_case(s, c, res, n);
  for (int i = 0; i < n; i++) {
    long k = variant_index(sh, res[i].variant);
    /* A hang costs what a fault does on a GPU (the device is lost to the worker) plus the
     * limit's wait, every case again: a variant whose loop never ends past 2^31 would hold a
     * --huge sweep for minutes a case. */
    const rf_verdict vd = res[i].verdict;
    if (k < 0 || (vd != RF_V_CRASH && vd != RF_V_TIMEOUT) || ++sh->crashes[k] != sh->fault_limit)
      continue;
    sh->left_out[k] = 1;
    fprintf(stderr, "sweep: %s %s on %ld case(s) (--fault-limit %ld): it is left out of the "
            "remaining cases\n", res[i].variant->name,
            vd == RF_V_CRASH ? "crashed" : "timed out", sh->crashes[k], sh->fault_limit);
  }
  ++sh->cases;
  /* Each case's lines out as soon as it is tallied, whatever stdout is: a stop or a kill
   * loses none of them (a file being written held nothing after a kill). */
  rf_cli_out_check("sweep");
}

/* The device was lost to a fault during the batch (kernels/harness/device.h): tally the cases that
 * finished before the faulting one and hand the rest to a new worker (cli_resume.c). */
static void lost(sweep_state *s) {
  const rf_case *lc = NULL;
  const rf_variant *lv = rf_runner_lost(s->r, &lc);
  size_t at = lv && lc >= s->batch && lc < s->batch + s->nb ? (size_t)(lc - s->batch) : 0;
  for (size_t i = 0; i < at; i++)
    tally_results(s, &s->batch[i], s->res + i * s->max_results, s->counts[i]);
  rf_cli_resume_lost(&s->sh->rs, s->r, "sweep", "case", s->first + (long)at,
                     s->first + (long)s->nb, s->serial, s->res + at * s->max_results,
                     s->counts[at]);
}

/* Runs the batched cases and tallies their results in order. */
static void flush(sweep_state *s) {
  if (!s->nb) return;
  char err[512] = "";
  /* The case a new worker resumes runs alone, without the variants that faulted on it (their
   * results are kept, and added to its own). */
  const int resumed = rf_cli_resume_pending(&s->sh->rs, s->first);
  const size_t room = s->max_results - (resumed ? (size_t)s->sh->rs.n_crashed : 0);
  if (s->progress) {
    char on[160];
    int k = snprintf(on, sizeof on, "case %ld: ", s->first);
    rf_progress_case_text(&s->batch[0], on + k, sizeof on - (size_t)k);
    if (s->nb > 1) {
      size_t used = strlen(on);
      snprintf(on + used, sizeof on - used, " and %zu more", s->nb - 1);
    }
    rf_progress_set(s->progress, (uint64_t)s->sh->cases, on);
  }
  rf_runner_run_many(s->r, s->batch, s->nb, s->res, room, s->counts, err, sizeof err);
  if (rf_cli_interrupted) {   /* cut short by a stop: its results mean nothing (not tallied) */
    s->nb = 0;
    s->elems = 0;
    return;
  }
  if (rf_dev_lost() && s->sh->rs.supervised) lost(s);
  if (resumed && s->counts[0] >= 0) s->counts[0] = rf_cli_resume_take(&s->sh->rs, s->res, s->counts[0]);
  for (size_t i = 0; i < s->nb; i++) {
    if (s->counts[i] < 0) {
      fprintf(stderr, "redfuzz sweep: %s\n", err);
      s->sh->errors++;
      continue;
    }
    tally_results(s, &s->batch[i], s->res + i * s->max_results, s->counts[i]);
  }
  s->sh->rs.next = s->first + (long)s->nb;
  rf_progress_set(s->progress, (uint64_t)s->sh->cases, NULL);
  s->nb = 0;
  s->elems = 0;
  rf_cli_out_check("sweep");   /* a closed pipe or a full disk: no further cases */
}

/* Adds case number idx; cases a worker lost to a fault re-run one launch at a time. */
static void add_case(sweep_state *s, const rf_case *c, long idx) {
  uint64_t e = rf_case_elems(c);
  int serial = rf_cli_resume_serial(&s->sh->rs, idx);
  /* A case the runner runs alone anyway (a huge or row case: minutes, some of them) is a
   * batch of its own: its lines come out when it ends, and a stop loses only the case it
   * cut short. */
  int alone = rf_cli_resume_pending(&s->sh->rs, idx) || !rf_runner_batchable(s->r, c);
  if (alone && s->nb) flush(s);
  if (s->nb && (s->nb == SWEEP_BATCH || s->elems + e > SWEEP_BATCH_ELEMS || serial != s->serial))
    flush(s);
  if (!s->nb) {
    s->first = idx;
    if (serial != s->serial) rf_runner_set_serial(s->r, s->serial = serial);
  }
  s->batch[s->nb++] = *c;
  s->elems += e;
  if (alone) flush(s);
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
  int sparse = -1;   /* a sparse distribution of --dist's, which takes n past the dense limit */
  for (size_t i = 0; i < v[F_DIST].count && sparse < 0; i++)
    if (rf_dist_is_sparse((rf_dist)v[F_DIST].list[i])) sparse = (int)v[F_DIST].list[i];
  for (size_t i = 0; one_d && i < v[F_N].count; i++) {
    rf_case c;
    rf_case_default(&c);
    c.n = v[F_N].list[i];
    if (!rf_case_validate(&c, lim, err, sizeof err)) continue;
    char sparse_err[512];
    c.dist = sparse >= 0 ? (rf_dist)sparse : RF_DIST_MARKERS;
    const int sparse_ok = !rf_case_validate(&c, lim, sparse_err, sizeof sparse_err);
    if (sparse_ok && sparse >= 0) continue;   /* runs on the sparse distributions only */
    return rf_flag_error("sweep", &rf_flags[F_N], v[F_N].text, "has a value beyond this "
                         "backend's limits: %s%s", sparse_ok ? err : sparse_err,
                         sparse_ok ? " (a sparse --dist such as markers takes it)" : "");
  }
  for (size_t i = 0; rows && i < v[F_SHAPE].count; i++) {
    rf_case c;
    rf_case_default(&c);
    c.op = RF_OP_SOFTMAX;
    c.n = 0;
    c.rows = (uint32_t)v[F_SHAPE].list[2 * i];
    c.cols = (uint32_t)v[F_SHAPE].list[2 * i + 1];
    if (!rf_case_validate(&c, lim, err, sizeof err)) continue;
    /* past the dense limit: logsumexp on a sparse distribution takes it, as --n's 1-D ops do */
    c.op = RF_OP_LOGSUMEXP;
    c.dist = sparse >= 0 ? (rf_dist)sparse : RF_DIST_MARKERS;
    char sparse_err[512];
    const int sparse_ok = !rf_case_validate(&c, lim, sparse_err, sizeof sparse_err);
    if (sparse_ok && sparse >= 0 && want[RF_OP_LOGSUMEXP]) continue;
    return rf_flag_error("sweep", &rf_flags[F_SHAPE], v[F_SHAPE].text, "has a shape beyond "
                         "this backend's limits: %s%s", sparse_ok ? err : sparse_err,
                         sparse_ok ? " (logsumexp on a sparse --dist such as markers takes it)" : "");
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
  size_t huge_from;   /* --huge: --n values from this index on are its sizes (else SIZE_MAX) */
  size_t huge_shapes_from;   /* the same for --shape's values */
  sweep_shared *sh;
  int product;       /* the cross product runs (not --derived-only) */
  int derived;       /* the derived cases run (cli_sweep_derived.h) */
  rf_sweep_derived der;
  rf_sweep_derived_dev dev;
} sweep_job;

typedef int (*sweep_case_fn)(void *ctx, const rf_case *c, long idx);

/* The sweep's axes, outermost first: the flag that lists the values and the case fields one
 * value sets (a shape sets rows and cols). The cases are the cartesian product in this
 * order, the last axis moving fastest. A size axis belongs to one kind of op (--n to the
 * 1-D ops, --shape to the row ops); for the other kind it is one step that sets its fields
 * to 0 (a row op has no n, a 1-D op no rows or cols). A new case field that a sweep should
 * cover is a flag in flags_sweep.def and a row here. */
enum { AXIS_ANY_OP, AXIS_1D_OPS, AXIS_ROW_OPS };
typedef struct { int flag; int fields[2]; int ops; } sweep_axis;
static const sweep_axis sweep_axes[] = {
  {F_OP,       {RF_FIELD_op, -1},              AXIS_ANY_OP},
  {F_DTYPE,    {RF_FIELD_dtype, -1},           AXIS_ANY_OP},
  {F_MISALIGN, {RF_FIELD_misalign, -1},        AXIS_ANY_OP},
  {F_N,        {RF_FIELD_n, -1},               AXIS_1D_OPS},
  {F_SHAPE,    {RF_FIELD_rows, RF_FIELD_cols}, AXIS_ROW_OPS},
  {F_DIST,     {RF_FIELD_dist, -1},            AXIS_ANY_OP},
  {F_SEED,     {RF_FIELD_seed, -1},            AXIS_ANY_OP},
  {F_BLOCK,    {RF_FIELD_block, -1},           AXIS_ANY_OP},
  {F_GRID,     {RF_FIELD_grid, -1},            AXIS_ANY_OP},
  {F_ITEMS,    {RF_FIELD_items, -1},           AXIS_ANY_OP},
  {F_SCHEDULE, {RF_FIELD_schedule, -1},        AXIS_ANY_OP},
  {F_WAVE,     {RF_FIELD_wave, -1},            AXIS_ANY_OP},
};
#define SWEEP_AXES (sizeof sweep_axes / sizeof sweep_axes[0])

/* A walk through the product: the case made so far, each axis's position. */
typedef struct {
  const sweep_job *j;
  sweep_case_fn fn;
  void *ctx;
  rf_case c;
  size_t at[SWEEP_AXES];
  long idx;   /* the number of the next case, in walk order */
} sweep_walk;

/* The values axis a takes on the case made so far: its flag's list, or one step (a size
 * axis of the other kind of op; --misalign not given). NULL: that one step, no value. */
static const uint64_t *axis_values(const sweep_walk *w, const sweep_axis *a, size_t *count) {
  const rf_flag_val *fv = &w->j->v[a->flag];
  const int rows = rf_op_has_rows(w->c.op);
  if ((a->ops == AXIS_1D_OPS && rows) || (a->ops == AXIS_ROW_OPS && !rows) ||
      (a->flag == F_MISALIGN && !fv->given)) {
    *count = 1;
    return NULL;
  }
  *count = fv->count;
  return fv->list;
}

/* --huge's sizes: where 32-bit index arithmetic breaks (an int index at 2^31-1 and 2^31, past
 * 2^31 by a few elements, an unsigned offset past 2^32). */
static const uint64_t huge_sizes[] = {
  (UINT64_C(1) << 31) - 1, UINT64_C(1) << 31, (UINT64_C(1) << 31) + 5, (UINT64_C(1) << 32) + 3,
};
#define HUGE_SIZES (sizeof huge_sizes / sizeof huge_sizes[0])
/* --huge's shapes, for logsumexp on a sparse distribution (its rows are one row of 2^20
 * elements repeated: model/gen_markers.h): the row that starts past 2^31 elements (an `int`
 * row offset turns negative) and past 2^32 (an `unsigned` one wraps; identical rows hide a
 * wrap to the start of another row, not one that leaves the input). */
static const uint32_t huge_shapes[][2] = {{2049, UINT32_C(1) << 20}, {4097, UINT32_C(1) << 20}};
#define HUGE_SHAPES (sizeof huge_shapes / sizeof huge_shapes[0])

/* On the simulator a huge case runs grid 1 x block 32: it runs a thread's whole grid-stride
 * loop before the next thread's, so with a stride of 32 elements a page serves 32 loads of a
 * thread, where a wider grid walks the page tables of the whole input once per thread
 * (docs/SIMULATOR.md, "Huge sparse inputs"). One-element-per-thread variants cost their
 * n threads whatever the block. */
#define HUGE_SIM_GRID 1u
#define HUGE_SIM_BLOCK 32u

/* Whether the walk is at the first value of every axis inside --dist's (seeds, block, grid,
 * items, schedule, wave). */
static int inner_axes_first(const sweep_walk *w) {
  size_t kd = 0;
  while (sweep_axes[kd].flag != F_DIST) kd++;
  for (size_t k = kd + 1; k < SWEEP_AXES; k++)
    if (w->at[k]) return 0;
  return 1;
}

/* A case at one of --huge's sizes, or at a given --n past the backend's dense limit (which
 * check_limits let through for the sparse distributions), takes the sparse distributions
 * only, and the first value of every axis inside --dist's: each costs minutes. On the
 * simulator, a row case with more rows than a row variant's grid has blocks (the default
 * --shape has one: blocks that stride over rows) takes the first distribution and the first
 * value of the inner axes, at each variant's default grid and one wave a block, the launch
 * the fuzzer's short rows get (run/fuzz_select.c, lift_rows): 65537 x 2 costs about 10 s for
 * the three row ops, where block 1024 would run 2^26 simulated threads a variant. 0: not a
 * case of the sweep (numbered all the same, so numbers do not depend on it). */
static int huge_keeps(sweep_walk *w) {
  size_t kn = 0, kd = 0, ks = 0;
  while (sweep_axes[kn].flag != F_N) kn++;
  while (sweep_axes[kd].flag != F_DIST) kd++;
  while (sweep_axes[ks].flag != F_SHAPE) ks++;
  const int huge = rf_case_past_dense(&w->c, &w->j->lim);
  if (rf_op_has_rows(w->c.op) && (w->at[ks] >= w->j->huge_shapes_from || huge))
    /* a huge shape: as a huge n, at the default launch */
    return rf_case_is_sparse(&w->c) && inner_axes_first(w);
  if (rf_op_has_rows(w->c.op)) {
    if (!rf_backend.is_sim || w->c.rows <= RF_FUZZ_ROW_GRID_CAP) return 1;
    if (w->at[kd] || !inner_axes_first(w)) return 0;
    w->c.grid = 0;
    w->c.block = w->c.wave;
    return 1;
  }
  if (w->at[kn] < w->j->huge_from && !huge) return 1;
  if (!rf_dist_is_sparse(w->c.dist) || !inner_axes_first(w)) return 0;
  if (rf_backend.is_sim) {
    w->c.grid = HUGE_SIM_GRID;
    w->c.block = HUGE_SIM_BLOCK;
  }
  return 1;
}

/* The case the walk has reached, once every axis has its value. --misalign: a misalignment
 * the type cannot take (past 16 bytes) is numbered but is not a case of that type. Without
 * it every misalignment of the type comes in turn, moving by one along each inner list, so
 * that any one list (the sizes, the distributions...) meets them all at no extra cases
 * (docs/CASE_FORMAT.md, "Misaligned views"). */
static int walk_leaf(sweep_walk *w) {
  const long idx = w->idx++;
  if (!huge_keeps(w)) return 0;
  const uint32_t max_mis = rf_case_misalign_max(w->c.dtype);
  if (w->j->v[F_MISALIGN].given) {
    if (w->c.misalign > max_mis) return 0;
  } else {
    size_t turn = 0, k = 0;
    while (sweep_axes[k].flag != F_MISALIGN) k++;
    while (++k < SWEEP_AXES) turn += w->at[k];   /* the axes inside --misalign's */
    w->c.misalign = (uint32_t)(turn % (max_mis + 1));
  }
  char err[512];
  /* Every field was checked above; a failure here is a bug, not a case to skip. */
  if (rf_case_validate(&w->c, &w->j->lim, err, sizeof err)) {
    fprintf(stderr, "redfuzz sweep: internal error, a checked case does not validate: %s\n", err);
    return -1;
  }
  return w->fn(w->ctx, &w->c, idx);
}

/* Axis k and those inside it, on the case made so far. */
static int walk_axis(sweep_walk *w, size_t k) {
  if (k == SWEEP_AXES) return walk_leaf(w);
  const sweep_axis *a = &sweep_axes[k];
  const size_t width = a->fields[1] >= 0 ? 2 : 1;
  size_t count;
  const uint64_t *vals = axis_values(w, a, &count);
  for (w->at[k] = 0; w->at[k] < count; w->at[k]++) {
    if (a->flag == F_OP && !w->j->want[vals[w->at[k]]]) continue;   /* --variant: its op */
    for (size_t f = 0; f < width; f++)
      rf_field_put(&w->c, &rf_fields[a->fields[f]], vals ? vals[width * w->at[k] + f] : 0);
    int rc = walk_axis(w, k + 1);
    if (rc) return rc;
  }
  return 0;
}

/* Calls fn on every case of the sweep in order, with its number (*count: how many numbers
 * were given). Stops when fn returns nonzero: returns that (1: stop asked), or -1 when a case
 * does not validate. */
typedef struct { sweep_case_fn fn; void *ctx; } derived_adapter;
static int derived_case(void *ctx, const rf_case *c, long idx, const rf_boundary *b) {
  (void)b;
  const derived_adapter *a = ctx;
  return a->fn(a->ctx, c, idx);
}

static int sweep_cases(const sweep_job *j, sweep_case_fn fn, void *ctx, long *count) {
  sweep_walk w = {.j = j, .fn = fn, .ctx = ctx};
  rf_case_default(&w.c);
  snprintf(w.c.variant, sizeof w.c.variant, "%s", j->variant);
  int rc = j->product ? walk_axis(&w, 0) : 0;
  *count = w.idx;
  if (rc || !j->derived) return rc;
  /* then the derived cases, numbered on */
  derived_adapter a = {fn, ctx};
  long more = 0;
  rc = rf_sweep_derived_cases(&j->der, &j->dev, derived_case, NULL, &a, w.idx, &more);
  *count += more;
  return rc;
}

/* --list-cases: the case's number and every field, as a case file writes it. */
/* A listed case: its number, then every field a case file would hold. */
static void print_fields(const rf_case *c, long idx) {
  char val[RF_FIELD_TEXT_MAX];
  printf("%ld", idx);
  for (size_t f = 0; f < RF_FIELD_COUNT; f++) {
    if (!rf_field_shown(c, &rf_fields[f])) continue;
    rf_field_format(c, &rf_fields[f], val, sizeof val);
    printf(" %s=%s", rf_fields[f].key, val);
  }
}

static int print_listed(void *ctx, const rf_case *c, long idx) {
  (void)ctx;
  print_fields(c, idx);
  putchar('\n');
  return rf_cli_out_check("sweep") ? 1 : 0;
}

/* --list-cases, the derived cases: a head line per variant and wave (what the probing cost,
 * what was left out), then each case as above with its kinds and the reason it was chosen. */
static int print_derived_head(void *ctx, const rf_variant *v, uint32_t wave,
                              const rf_boundary_stats *st) {
  const sweep_job *j = ctx;
  printf("# derived: %s (wave %u, %u CUs%s): %zu boundaries from %u probes", v->name, wave,
         j->dev.num_cus, j->dev.assumed ? " assumed: no device" : "", st->count, st->probes);
  if (st->capped) printf(", probe budget spent");
  if (st->over_cost)
    printf(", %u left out (more than %llu threads a launch: the simulator's cost)", st->over_cost,
           (unsigned long long)j->dev.max_threads);
  if (st->dropped) printf(", %u past the %d a variant keeps", st->dropped, RF_BOUNDARY_MAX);
  if (st->note[0]) printf(": %s", st->note);
  putchar('\n');
  return rf_cli_out_check("sweep") ? 1 : 0;
}
static int print_derived(void *ctx, const rf_case *c, long idx, const rf_boundary *b) {
  (void)ctx;
  char kinds[160];
  print_fields(c, idx);
  printf(" # %s: %s%s\n", rf_sweep_derived_kinds(b, kinds, sizeof kinds), b->reason,
         b->refused ? " (expect unsupported)" : "");
  return rf_cli_out_check("sweep") ? 1 : 0;
}
static int list_all(const sweep_job *j) {
  long count = 0;
  sweep_job pj = *j;
  pj.derived = 0;
  rf_sweep_derived_device(&pj.dev, NULL);
  int rc = j->product ? sweep_cases(&pj, print_listed, NULL, &count) : 0;
  if (!rc && j->derived) {
    long more = 0;
    rc = rf_sweep_derived_cases(&pj.der, &pj.dev, print_derived, print_derived_head,
                                &pj, count, &more);
  }
  return rc < 0 ? RF_EXIT_FAIL : RF_EXIT_OK;
}

/* The sweep: cases tallied by an earlier worker are skipped, the others batched. */
typedef struct { sweep_state *s; const sweep_shared *sh; } sweep_add;
static int add_listed(void *ctx, const rf_case *c, long idx) {
  sweep_add *a = ctx;
  if (rf_cli_interrupted || rf_cli_out_failed) return 1;
  if (idx < a->sh->rs.next) return 0;   /* tallied by an earlier worker */
  add_case(a->s, c, idx);
  return 0;
}

/* The number of cases the sweep runs (a walk without the device), for the progress lines. */
static int count_listed(void *ctx, const rf_case *c, long idx) {
  (void)c;
  (void)idx;
  ++*(uint64_t *)ctx;
  return 0;
}

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
           sh->left_out[k] ? "  (faulted or hung: left out after it)" : "");
    if (!t->v->is_mutant) { bad += t->fail; good += t->pass + t->unsup; }
    runs += t->pass + t->fail;
  }
  if (interrupted)
    printf("sweep: interrupted (signal %d): the summary covers the %ld cases run so far\n",
           interrupted, sh->cases);
  if (sh->rs.faults)
    printf("sweep: %d device faults; %d worker processes (a fault leaves the device unusable "
           "for the rest of its process)\n", sh->rs.faults, sh->rs.restarts + 1);
  long left_out = 0;
  for (size_t k = 0; k < sh->nt; k++) left_out += sh->left_out[k];
  if (left_out)
    printf("sweep: %ld variant(s) left out of the remaining cases once they had crashed or timed "
           "out on %ld (--fault-limit)\n", left_out, sh->fault_limit);
  printf("sweep: %ld cases in %.2f s: %.0f verified runs/s\n", sh->cases, secs,
         secs > 0 ? runs / secs : 0.0);
  if (r) {
    rf_runner_stats st = rf_runner_get_stats(r);
    const char *scope = sh->rs.restarts ? " (the last worker process only)" : "";
    if (st.kernel_runs && secs > 0)
      printf("%.0f kernel runs/s, determinism repeats included (%llu runs; %llu cases in %llu "
             "batches; %llu batches launched from %llu recorded launch graphs)%s\n",
             st.kernel_runs / secs, st.kernel_runs, st.cases, st.batches, st.batches_replayed,
             st.graphs_recorded, scope);
    rf_stats_style style = {.out = stdout, .prefix = "", .unit = "case", .scope = scope,
                            .times = !sh->rs.restarts, .other = "sweep itself",
                            .ms_wall = secs * 1e3};
    rf_stats_print(&st, &style);
  }
  unsigned long long par = 0, reruns = 0;
  unsigned sim_threads = rf_dev_sim_parallel_stats(&par, &reruns);
  if (sim_threads > 1)  /* REDFUZZ_SIM_THREADS: how much ran in parallel (docs/SIMULATOR.md) */
    printf("simulator: %llu launches ran their blocks on %u threads, %llu of them re-run "
           "sequentially (a problem in a block)\n", par, sim_threads, reruns);
  const long errors = sh->errors + sh->rs.errors;
  if (errors) printf("sweep: %ld cases could not run (errors above)\n", errors);
  printf("%ld passed, %ld failed\n", good, bad + errors);
  fflush(stdout);
}

/* After a worker died of a signal: the summary of what was tallied. */
static void sweep_summary_only(void *ctx, int interrupted) {
  const sweep_job *j = ctx;
  print_summary(j->sh, NULL, interrupted);
}

static int sweep_failed(const sweep_shared *sh) {
  for (size_t k = 0; k < sh->nt; k++)
    if (!sh->t[k].v->is_mutant && sh->t[k].fail) return 1;
  return sh->errors + sh->rs.errors != 0;
}

/* The sweep itself: in this process, or in a worker process (rf_cli_supervise). */
static int sweep_work(void *ctx) {
  sweep_job job = *(const sweep_job *)ctx;   /* with the runner's device facts */
  const sweep_job *j = &job;
  sweep_shared *sh = j->sh;
  const rf_flag_val *v = j->v;
  rf_runner *r = rf_cli_runner("sweep");
  if (!r) return RF_EXIT_FAIL;
  rf_sweep_derived_device(&job.dev, rf_runner_device(r));
  rf_runner_recheck_background(r);   /* a sweep is long: re-checks off the critical path */
  /* The clock starts once the first worker has its device (a CUDA context takes ~0.2 s);
   * later workers' start-up is part of the sweep's time. */
  if (!sh->t0.tv_sec && !sh->t0.tv_nsec) clock_gettime(CLOCK_MONOTONIC, &sh->t0);
  sweep_filter filter = {j->mutants, j->variant[0] != 0, j->huge_from != SIZE_MAX, &v[F_SKIP], sh};
  rf_runner_set_filter(r, sweep_keeps, &filter);
  sweep_state *s = calloc(1, sizeof *s);
  const size_t max_results = rf_variant_count();
  rf_result *results =
      calloc((size_t)SWEEP_BATCH * (max_results ? max_results : 1), sizeof *results);
  rf_result *kept = calloc(max_results ? max_results : 1, sizeof *kept);
  if (!s || !results || !kept) {
    fprintf(stderr, "redfuzz sweep: out of host memory\n");
    free(s);
    free(results);
    free(kept);
    rf_runner_destroy(r);
    return RF_EXIT_FAIL;
  }
  *s = (sweep_state){.r = r, .sh = sh, .mutants = j->mutants, .quiet = j->quiet,
                     .json = j->json, .res = results, .max_results = max_results, .kept = kept,
                     .serial = rf_cli_settings.serial};
  rf_cli_catch_signals();
  long idx = 0;
  int rc = RF_EXIT_OK;
  sweep_add adder = {s, sh};
  uint64_t total = 0;
  if (rf_cli_settings.progress_ms && sweep_cases(j, count_listed, &total, &idx) < 0) {
    rc = RF_EXIT_FAIL;
    goto out;
  }
  s->progress = rf_progress_start("sweep", "cases", total, r);
  if (sweep_cases(j, add_listed, &adder, &idx) < 0) {
    rc = RF_EXIT_FAIL;
    goto out;
  }
  /* interrupted, or stdout failed: the batch not yet run is dropped */
  if (!rf_cli_interrupted && !rf_cli_out_failed) flush(s);
  rf_progress_stop(s->progress);
  s->progress = NULL;
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
  rf_progress_stop(s->progress);   /* NULL when stopped above */
  free(kept);
  free(results);
  free(s);
  rf_runner_destroy(r);
  return rc;
}

/* --huge: its sizes join the --n list and its shapes the --shape list (after the given ones,
 * without repeats), each that the backend holds on the markers distribution (a size also
 * within REDFUZZ_MAX_N when it is set); one past them is skipped with one message. Needs a 1-D op or
 * logsumexp, and a sparse distribution, in the lists, else it would never run (exit 2). Sets
 * j->huge_from and j->huge_shapes_from. */
static int add_huge_sizes(rf_flag_val *v, sweep_job *j, const int want[RF_OP_COUNT]) {
  j->huge_from = j->huge_shapes_from = SIZE_MAX;
  if (!v[F_HUGE].given) return 0;
  int one_d = 0, sparse = 0;
  for (int op = 0; op < RF_OP_COUNT; op++) one_d |= want[op] && !rf_op_has_rows((rf_op)op);
  for (size_t i = 0; i < v[F_DIST].count; i++) sparse |= rf_dist_is_sparse((rf_dist)v[F_DIST].list[i]);
  char ops1_or[128];
  rf_op_list_of(0, ", ", ops1_or, sizeof ops1_or);
  if (!one_d && !want[RF_OP_LOGSUMEXP]) {
    fprintf(stderr, "redfuzz sweep: --huge would never run (allowed: with --op %s or %s)\n",
            ops1_or, rf_op_name(RF_OP_LOGSUMEXP));
    return -1;
  }
  if (!sparse) {
    fprintf(stderr, "redfuzz sweep: --huge would never run: --dist '%s' has no sparse "
            "distribution (allowed: a list with markers)\n", v[F_DIST].text);
    return -1;
  }
  uint64_t *list = realloc(v[F_N].list, (v[F_N].count + HUGE_SIZES) * sizeof *list);
  uint64_t *shapes = list ? realloc(v[F_SHAPE].list, 2 * (v[F_SHAPE].count + HUGE_SHAPES) *
                                                         sizeof *shapes) : NULL;
  if (list) v[F_N].list = list;
  if (shapes) v[F_SHAPE].list = shapes;
  if (!list || !shapes) {
    fprintf(stderr, "redfuzz sweep: out of host memory\n");
    return -1;
  }
  j->huge_from = v[F_N].count;
  j->huge_shapes_from = v[F_SHAPE].count;
  for (size_t h = 0; h < HUGE_SIZES + HUGE_SHAPES; h++) {
    rf_case c;
    rf_case_default(&c);
    c.dist = RF_DIST_MARKERS;
    const int shape = h >= HUGE_SIZES;
    if (shape) {
      c.op = RF_OP_LOGSUMEXP;
      c.n = 0;
      c.rows = huge_shapes[h - HUGE_SIZES][0];
      c.cols = huge_shapes[h - HUGE_SIZES][1];
    } else {
      c.n = huge_sizes[h];
    }
    const rf_flag_val *fv = &v[shape ? F_SHAPE : F_N];
    int dup = 0;   /* a given value: it runs as given */
    for (size_t i = 0; i < fv->count; i++)
      dup |= shape ? fv->list[2 * i] == c.rows && fv->list[2 * i + 1] == c.cols : fv->list[i] == c.n;
    if (dup) continue;
    char what[64], err[512];
    if (shape) snprintf(what, sizeof what, "shape %ux%u", (unsigned)c.rows, (unsigned)c.cols);
    else snprintf(what, sizeof what, "n = %llu", (unsigned long long)c.n);
    if (!shape && rf_cli_settings.max_n_set && c.n > rf_cli_settings.max_n) {
      fprintf(stderr, "sweep: --huge: %s skipped: past REDFUZZ_MAX_N = %llu\n", what,
              (unsigned long long)rf_cli_settings.max_n);
      continue;
    }
    if (rf_case_validate(&c, &j->lim, err, sizeof err)) {
      fprintf(stderr, "sweep: --huge: %s skipped: beyond this backend's limits: %s\n", what, err);
      continue;
    }
    if (shape) {
      v[F_SHAPE].list[2 * v[F_SHAPE].count] = c.rows;
      v[F_SHAPE].list[2 * v[F_SHAPE].count++ + 1] = c.cols;
    } else {
      v[F_N].list[v[F_N].count++] = c.n;
    }
  }
  return 0;
}

/* The derived cases' selection: what sweep_keeps says before any case ran (mutants, --skip,
 * the huge-only mutants). */
typedef struct { int mutants, huge; const rf_flag_val *skip; } derived_filter;
static int derived_keeps(const rf_variant *v, void *ctx) {
  const derived_filter *f = ctx;
  if (v->is_mutant && !f->mutants) return 0;
  if (rf_variant_huge_only(v) && !f->huge) return 0;
  for (size_t i = 0; i < f->skip->count; i++)
    if (strcmp(f->skip->items[i], v->name) == 0) return 0;
  return 1;
}

/* Whether the sweep runs its cross product, its derived cases or both (sweep --help), and
 * what the derived ones take from the flags. A sweep given a size or a launch list runs what
 * it was given; --derived-only with one of them would drop it: an error (exit 2). */
static int setup_derived(const rf_flag_val *v, sweep_job *j, const int *want) {
  static const int chosen[] = {F_N, F_SHAPE, F_BLOCK, F_GRID, F_ITEMS};
  int given = -1;
  for (size_t i = 0; i < sizeof chosen / sizeof chosen[0] && given < 0; i++)
    if (v[chosen[i]].given) given = chosen[i];
  j->product = !v[F_DERIVED_ONLY].given;
  j->derived = given < 0 && !v[F_NO_DERIVED].given;
  if (v[F_DERIVED_ONLY].given && v[F_NO_DERIVED].given) {
    fprintf(stderr, "redfuzz sweep: --derived-only: it runs only what --no-derived leaves out "
            "(allowed: one of them)\n");
    return -1;
  }
  if (v[F_DERIVED_ONLY].given && given >= 0) {
    rf_flag_error("sweep", &rf_flags[given], v[given].text, "would never run with "
                  "--derived-only: the derived cases choose their own sizes and launches "
                  "(allowed: --derived-only without --n, --shape, --block, --grid, --items)");
    return -1;
  }
  if (!j->derived) return 0;
  static derived_filter filter;
  filter = (derived_filter){j->mutants, v[F_HUGE].given != 0, &v[F_SKIP]};
  rf_sweep_derived *d = &j->der;
  *d = (rf_sweep_derived){.want = want, .dtypes = v[F_DTYPE].list, .n_dtypes = v[F_DTYPE].count,
                          .waves = v[F_WAVE].list, .n_waves = v[F_WAVE].count,
                          .dists = v[F_DIST].list, .n_dists = v[F_DIST].count,
                          .dists_given = v[F_DIST].given != 0,
                          .misaligns = v[F_MISALIGN].given ? v[F_MISALIGN].list : NULL,
                          .n_misaligns = v[F_MISALIGN].given ? v[F_MISALIGN].count : 0,
                          .seed = v[F_SEED].list[0], .sched = (rf_sched)v[F_SCHEDULE].list[0],
                          .variant = j->variant, .huge = v[F_HUGE].given != 0,
                          .keeps = derived_keeps, .keeps_ctx = &filter, .lim = j->lim};
  return 0;
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
  /* A mutant named by --variant runs (sweep_keeps) and is reported as --mutants reports it:
   * its table row says caught or not, and its failures are not the sweep's. */
  const int named_mutant = variant[0] && rf_variant_find(variant)->is_mutant;
  sweep_job job = {.v = v, .want = want, .variant = variant, .lim = rf_backend.limits,
                   .mutants = v[F_MUTANTS].given != 0 || named_mutant,
                   .quiet = v[F_QUIET].given != 0, .json = v[F_JSON].given != 0};
  if (check_limits(v, &job.lim, want) || add_huge_sizes(v, &job, want)) goto out;
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
  /* Flags that would do nothing are refused, never ignored: --list-cases runs no case (the
   * output flags, the fault limit, the mutants and the skipped variants change no case), and
   * --variant runs the one variant it names (--skip of another variant leaves nothing out, of
   * the same one is refused above; --mutants with a correct variant adds no mutant, with a
   * mutant it says what the name says, and is taken). */
  /* --schedule and --wave are the simulator's: on a GPU every value would run the same. */
  const int sim_only[] = {F_SCHEDULE, F_WAVE};
  for (size_t i = 0; i < 2 && !rf_backend.is_sim; i++)
    if (v[sim_only[i]].given) {
      rf_flag_error("sweep", &rf_flags[sim_only[i]], v[sim_only[i]].text, "applies to the "
                    "simulator only (allowed on the %s backend: leave it out)", rf_backend.name);
      goto out;
    }
  static const int run_only[] = {F_JSON, F_QUIET, F_FAULT_LIMIT, F_MUTANTS, F_SKIP};
  for (size_t i = 0; i < sizeof run_only / sizeof *run_only; i++) {
    const int f = run_only[i];
    char why[160] = "";
    if (v[F_LIST_CASES].given)
      snprintf(why, sizeof why, "--list-cases, which runs no case");
    else if ((f == F_SKIP && variant[0]) || (f == F_MUTANTS && variant[0] && !named_mutant))
      snprintf(why, sizeof why, "--variant %s, which runs that one variant%s", variant,
               f == F_MUTANTS ? ", no mutant" : "");
    if (why[0] && v[f].given) {
      fprintf(stderr, "redfuzz sweep: %s does nothing with %s (allowed: one of them)\n",
              rf_flags[f].name, why);
      goto out;
    }
  }
  if (setup_derived(v, &job, want)) goto out;
  if (v[F_LIST_CASES].given) {   /* no device, no runner: the cases only */
    rc = list_all(&job);
    goto out;
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
  rf_cli_resume_init(&sh->rs);
  /* Where a fault loses the device (GPUs), each costs a new worker process: a variant is left
   * out after its first. On the simulator a crash is an ordinary verdict. */
  sh->fault_limit = v[F_FAULT_LIMIT].given ? (long)v[F_FAULT_LIMIT].num : sh->rs.supervised;
  rc = rf_cli_resume_run("sweep", &sh->rs, sweep_work, sweep_summary_only, &job);
out:
  rf_cli_shared_free(sh, sizeof *sh);
  rf_flags_free(v, RF_FLAG_COUNT);
  return rc;
}
