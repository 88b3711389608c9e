/* redfuzz study: error against summation order. Every variant x distribution x size x seed
 * is run and measured against the exact oracle and its derived bound; the host references
 * cpu/sequential and cpu/pairwise run beside the sum variants (issue 6, docs/STUDY.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "model/dtype.h"
#include "run/backend.h"
#include "model/gen.h"
#include "run/study.h"
#include "run/study_report.h"
#include "model/file_out.h"
#include "progress.h"

#define RF_FLAGS_DEF "flags_study.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz study [options]\n"
  "\n"
  "Runs each variant on each distribution, size and seed, measures the error against the\n"
  "exact oracle (absolute, relative to |s|, relative to sum |x_i|, in ulps) and the derived\n"
  "bound, and writes DIR/runs.csv (one row per run), DIR/summary.csv (median, 90th\n"
  "percentile and max of error/bound per variant, distribution and size), DIR/fit.csv (the\n"
  "growth of err/(u sum|x_i|) with n on log-log axes against sqrt(h)), DIR/ratio_dist.csv\n"
  "and DIR/meta.txt. scripts/study.sh draws the plots. Progress lines go to stderr\n"
  "(REDFUZZ_PROGRESS_MS); the fit table to stdout.\n"
  "\n";
static const char help_tail[] =
  "\nCtrl-C stops after the current run and writes the tables of the runs so far (exit 130).\n"
  "The tables are written whole or not at all; a different file of the same name in DIR (an\n"
  "earlier study's) is not replaced: choose another --out or remove it (an identical one is\n"
  "left as it is).\n"
  "Exit status: 0 every run passed, 1 a failure verdict (listed in runs.csv), 2 bad usage or\n"
  "a table that cannot be written.\n";

/* Every variant of the registry (plugins included) and the host references: the default list
 * is never cut (a fixed 64 dropped plugin variants past it). */
#define MAX_VARIANTS (RF_VARIANT_CAPACITY + RF_STUDY_CPU_COUNT)
#define MAX_SIZES 160

typedef struct {
  rf_op op;
  const rf_variant *var[MAX_VARIANTS];   /* NULL: a host reference */
  rf_study_cpu cpu[MAX_VARIANTS];
  const char *names[MAX_VARIANTS];
  size_t n_var;
  rf_dist dists[RF_DIST_COUNT];
  size_t n_dists;
  uint64_t lo, hi;
  uint64_t sizes[MAX_SIZES];
  size_t n_sizes;
  unsigned seeds;
  uint32_t rows;
  uint64_t fit_min, fit_max;
  const char *out;
  int range_given;   /* --n-range given: its HI is held to the backend, not lowered */
} study_cfg;

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("redfuzz study: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return RF_EXIT_USAGE;
}

static int add_variant(study_cfg *S, const char *name) {
  rf_study_cpu cpu;
  for (size_t i = 0; i < S->n_var; i++)
    if (strcmp(S->names[i], name) == 0) return 0;
  if (S->n_var == MAX_VARIANTS) return usage_error("--variant: more than %d names", MAX_VARIANTS);
  if (rf_study_cpu_parse(name, &cpu) == 0) {
    if (S->op != RF_OP_SUM)
      return usage_error("--variant: '%s' is a sum reference (allowed for %s: a %s variant)", name,
                         rf_op_name(S->op), rf_op_name(S->op));
    S->var[S->n_var] = NULL;
    S->cpu[S->n_var] = cpu;
    S->names[S->n_var++] = rf_study_cpu_name(cpu);
    return 0;
  }
  const rf_variant *v = rf_variant_find(name);
  if (!v || v->op != S->op)
    return usage_error("--variant: '%s' is not a %s variant of this build (allowed: a name "
                       "from 'redfuzz list', or cpu/sequential, cpu/pairwise)", name,
                       rf_op_name(S->op));
  if (v->in_dtype != RF_DTYPE_F32)   /* the study's inputs are float32 */
    return usage_error("--variant: '%s' reads %s inputs (allowed: a variant that reads f32)",
                       name, rf_dtype_name(v->in_dtype));
  S->var[S->n_var] = v;
  S->names[S->n_var++] = v->name;
  return 0;
}

/* Default variants: the host references first (the yardsticks), then the registry's. */
static void default_variants(study_cfg *S) {
  if (S->op == RF_OP_SUM)
    for (int c = 0; c < RF_STUDY_CPU_COUNT; c++) add_variant(S, rf_study_cpu_name((rf_study_cpu)c));
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (v->op == S->op && !v->is_mutant && v->in_dtype == RF_DTYPE_F32) add_variant(S, v->name);
  }
}

/* The parsed flags into S; the variant and distribution lists resolved. 1 after --help. */
static int parse_args(int argc, char **argv, study_cfg *S) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--variants") == 0 || strcmp(argv[i], "--dists") == 0)
      return usage_error("%s: renamed (allowed: %.*s LIST, as in sweep)", argv[i],
                         (int)strlen(argv[i]) - 1, argv[i]);
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("study", rf_flags, RF_FLAG_COUNT, argc, argv, v, NULL, 0, NULL, help,
                         help_tail);
  if (p) return p > 0 ? 1 : RF_EXIT_USAGE;
  int rc = 0;
  S->op = v[F_OP].num == 0 ? RF_OP_SUM : RF_OP_SOFTMAX;
  /* Not given: the default range, whose top is the backend's where that is lower
   * (range_to_backend); a given HI past the backend is an error there, never cut. */
  S->range_given = v[F_N_RANGE].given;
  char why[256];
  if (!S->range_given) {
    S->lo = 16;
    S->hi = UINT64_C(1) << 26;
  } else if (rf_study_parse_range(v[F_N_RANGE].text, &S->lo, &S->hi, why, sizeof why)) {
    rc = usage_error("--n-range: '%.60s': %s (allowed: LO..HI or one size, 1 <= LO <= HI <= the "
                     "backend's largest %s, e.g. 2^4..2^18)",
                     v[F_N_RANGE].text, why, S->op == RF_OP_SUM ? "n" : "row length");
    goto out;
  }
  /* --rows is the softmax study's: given for sum it would change nothing. */
  if (S->op == RF_OP_SUM && v[F_ROWS].given) {
    rc = usage_error("--rows: '%s' applies to --op softmax only (allowed for sum: leave it out)",
                     v[F_ROWS].text);
    goto out;
  }
  S->seeds = (unsigned)v[F_SEEDS].num;
  S->rows = (uint32_t)v[F_ROWS].num;
  S->fit_min = v[F_FIT_MIN].num;
  S->fit_max = v[F_FIT_MAX].given ? v[F_FIT_MAX].num : UINT64_MAX;
  /* A window with no size in it fits nothing: refused, not an empty fit. */
  if (S->fit_max < S->fit_min) {
    rc = usage_error("--fit-max: '%s' is below --fit-min %llu: the fits would use no size "
                     "(allowed: --fit-min <= --fit-max)", v[F_FIT_MAX].text,
                     (unsigned long long)S->fit_min);
    goto out;
  }
  S->out = v[F_OUT].text;
  if (!v[F_VARIANT].given) {
    default_variants(S);
  } else {
    for (size_t i = 0; i < v[F_VARIANT].count && !rc; i++)
      rc = add_variant(S, v[F_VARIANT].items[i]);
    if (rc) goto out;
  }
  if (S->n_var == 0) { rc = usage_error("no %s variant is built", rf_op_name(S->op)); goto out; }
  for (size_t i = 0; i < v[F_DIST].count && S->n_dists < RF_DIST_COUNT; i++)
    S->dists[S->n_dists++] = (rf_dist)v[F_DIST].list[i];
out:
  rf_flags_free(v, RF_FLAG_COUNT);
  return rc;
}

/* The range against the backend's largest case: a given range past it is an error (nothing
 * is dropped); the default range ends at the backend's largest case where that is lower. */
static int range_to_backend(study_cfg *S, const rf_limits *lim, const char *backend) {
  uint64_t cap = S->op == RF_OP_SUM ? lim->max_n : lim->max_cols;
  const char *what = S->op == RF_OP_SUM ? "n (REDFUZZ_MAX_N sets it)" : "row length";
  if (S->range_given && S->hi > cap)
    return usage_error("--n-range: HI %llu is above %llu, the %s backend's largest %s (allowed: "
                       "1 <= LO <= HI <= %llu)", (unsigned long long)S->hi,
                       (unsigned long long)cap, backend, what, (unsigned long long)cap);
  if (S->hi > cap) {
    S->hi = cap;
    fprintf(stderr, "redfuzz study: sizes %llu..%llu: the default range 2^4..2^26 ends at the %s "
            "backend's largest %s\n", (unsigned long long)S->lo, (unsigned long long)cap, backend,
            what);
  }
  if (S->lo > S->hi)
    return usage_error("--n-range: starts above %llu, the %s backend's largest %s",
                       (unsigned long long)cap, backend, what);
  S->n_sizes = rf_study_sizes(S->lo, S->hi, S->sizes, MAX_SIZES);
  return 0;
}

/* mkdir -p */
static int make_dirs(const char *path) {
  char p[1024];
  if (!*path || snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) {
    errno = EINVAL;
    return -1;
  }
  for (char *s = p + 1; ; s++) {
    if (*s != '/' && *s) continue;
    char keep = *s;
    *s = 0;
    if (mkdir(p, 0777) && errno != EEXIST) return -1;
    *s = keep;
    if (!keep) return 0;
  }
}

/* The tables are written safely (model/file_out.h): whole or not at all, and a different
 * file of the same name in --out (an earlier study's) is not replaced. */
static rf_file *open_out(const study_cfg *S, const char *name) {
  char path[4096], err[1024];
  if (snprintf(path, sizeof path, "%s/%s", S->out, name) >= (int)sizeof path) {
    fprintf(stderr, "redfuzz study: --out: '%.60s...' is too long for %s\n", S->out, name);
    return NULL;
  }
  rf_file *f = rf_file_open(path, err, sizeof err);
  if (!f) fprintf(stderr, "redfuzz study: %s\n", err);
  return f;
}

/* Tables of an earlier study in --out are kept (close_out refuses different bytes): said
 * before the runs, not only after them. */
static void warn_existing(const study_cfg *S) {
  static const char *const names[] = {"runs.csv", "summary.csv", "fit.csv", "ratio_dist.csv",
                                      "meta.txt"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", S->out, names[i]);
    if (lstat(path, &st) == 0) {
      fprintf(stderr, "redfuzz study: note: %s exists: it is kept, and this study fails at the "
              "end unless it writes the same bytes (use another --out for a new study)\n", path);
      return;
    }
  }
}

/* 0, or -1 after a message. */
static int close_out(rf_file *f) {
  char err[1024];
  if (!f) return -1;
  if (rf_file_commit(f, RF_FILE_REFUSE, NULL, 0, err, sizeof err) < 0) {
    fprintf(stderr, "redfuzz study: %s\n", err);
    return -1;
  }
  return 0;
}

/* ---- the sweep -------------------------------------------------------------------------- */
typedef struct {
  float *x;
  size_t cap;
  rf_xsum exact;
  rf_sum_facts facts;
} host_input;

/* The input again on the host, for the host references (the runner keeps its own copy). */
static int host_prepare(host_input *h, const rf_case *c) {
  size_t n = (size_t)c->n;
  if (n > h->cap) {
    float *nx = realloc(h->x, (n ? n : 1) * sizeof *nx);
    if (!nx) return -1;
    h->x = nx;
    h->cap = n;
  }
  rf_generate(c, h->x);
  rf_xsum_init(&h->exact);
  rf_xsum_add(&h->exact, h->x, n);
  rf_sum_facts_compute(h->x, n, &h->facts);
  return 0;
}

static int any_host_reference(const study_cfg *S) {
  for (size_t i = 0; i < S->n_var; i++)
    if (!S->var[i]) return 1;
  return 0;
}

static int write_meta(const study_cfg *S, const rf_device_info *d, int argc, char **argv,
                      size_t runs, size_t failures) {
  rf_file *out = open_out(S, "meta.txt");
  if (!out) return -1;
  FILE *f = rf_file_stream(out);
  fprintf(f, "command: redfuzz");
  for (int i = 0; i < argc; i++) fprintf(f, " %s", argv[i]);
  fprintf(f, "\ndevice: %s (%s backend, wave %u, %u CUs)\n", d->name, d->backend, d->wave,
          d->num_cus);
  fprintf(f, "op: %s\nvariants:", rf_op_name(S->op));
  for (size_t i = 0; i < S->n_var; i++) fprintf(f, " %s", S->names[i]);
  fprintf(f, "\ndists:");
  for (size_t i = 0; i < S->n_dists; i++) fprintf(f, " %s", rf_dist_name(S->dists[i]));
  fprintf(f, "\nsizes:");
  for (size_t i = 0; i < S->n_sizes; i++) fprintf(f, " %llu", (unsigned long long)S->sizes[i]);
  fprintf(f, "\nseeds: 1..%u\n", S->seeds);
  if (S->op == RF_OP_SOFTMAX) fprintf(f, "rows: %u (fewer where rows*cols > the limit)\n", S->rows);
  fprintf(f, "launch: each variant's default block/grid/items%s\nfit window: n >= %llu",
          rf_backend.is_sim ? "; simulator schedule in-order, wave 32" : "",
          (unsigned long long)S->fit_min);
  if (S->fit_max != UINT64_MAX) fprintf(f, ", n <= %llu", (unsigned long long)S->fit_max);
  fputc('\n', f);
  fprintf(f, "n-range: %llu..%llu%s\n", (unsigned long long)S->lo, (unsigned long long)S->hi,
          S->range_given ? "" : " (the default, within the backend's largest size)");
  fprintf(f, "runs: %zu, failure verdicts: %zu\n", runs, failures);
  return close_out(out);
}

static int write_tables(const study_cfg *S, const rf_study_layout *L, const rf_study_run *runs,
                        size_t n) {
  rf_file *f;
  int bad = 0;
  if ((f = open_out(S, "summary.csv"))) rf_study_write_summary(rf_file_stream(f), L, runs, n);
  bad |= close_out(f);
  if ((f = open_out(S, "fit.csv"))) rf_study_write_fit(rf_file_stream(f), L, runs, n);
  bad |= close_out(f);
  if ((f = open_out(S, "ratio_dist.csv")))
    rf_study_write_ratio_dist(rf_file_stream(f), L, runs, n);
  bad |= close_out(f);
  return bad;
}

int rf_cmd_study(int argc, char **argv) {
  study_cfg S = {.op = RF_OP_SUM};
  int rc = parse_args(argc, argv, &S);
  if (rc) return rc == 1 ? RF_EXIT_OK : rc;
  if (make_dirs(S.out)) {
    fprintf(stderr, "redfuzz study: --out '%s': %s\n", S.out, strerror(errno));
    return RF_EXIT_USAGE;
  }
  warn_existing(&S);
  rf_runner *r = rf_cli_runner("study");
  if (!r) return RF_EXIT_FAIL;
  rf_limits lim = rf_runner_limits(r);
  const rf_device_info *dev = rf_runner_device(r);
  if ((rc = range_to_backend(&S, &lim, dev->backend))) { rf_runner_destroy(r); return rc; }

  const size_t total = S.n_var * S.n_dists * S.n_sizes * S.seeds;
  rf_study_run *runs = calloc(total ? total : 1, sizeof *runs);
  rf_file *csv_out = open_out(&S, "runs.csv");
  FILE *csv = csv_out ? rf_file_stream(csv_out) : NULL;
  host_input H = {0};
  rf_study_layout L = {S.op,    S.names, S.n_var,     S.dists,    S.n_dists,
                       S.sizes, S.n_sizes, S.fit_min, S.fit_max};
  size_t n_runs = 0, failures = 0;
  rc = RF_EXIT_OK;
  if (!runs) rc = RF_EXIT_FAIL;
  if (!csv) rc = RF_EXIT_USAGE;
  if (csv) rf_study_runs_header(csv);
  /* Variants innermost: the runner keeps the last input and its exact answer, so each case
   * is generated and solved once for all variants. */
  rf_cli_catch_signals();
  rf_progress *P = rf_progress_start("study", "runs", total, r);
  for (size_t di = 0; di < S.n_dists && !rc && !rf_cli_interrupted; di++)
    for (size_t si = 0; si < S.n_sizes && !rc && !rf_cli_interrupted; si++)
      for (unsigned seed = 1; seed <= S.seeds && !rc && !rf_cli_interrupted; seed++) {
        uint64_t n = S.sizes[si];
        rf_case c;
        rf_case_default(&c);
        c.op = S.op;
        c.dist = S.dists[di];
        c.seed = seed;
        if (S.op == RF_OP_SOFTMAX) {
          c.n = 0;
          c.cols = (uint32_t)n;
          uint64_t fit = lim.max_elems / n;
          c.rows = S.rows < fit ? S.rows : (uint32_t)(fit ? fit : 1);
        } else {
          c.n = n;
          c.rows = c.cols = 0;
        }
        if (any_host_reference(&S) && host_prepare(&H, &c)) {
          fprintf(stderr, "redfuzz study: out of host memory for n = %llu\n", (unsigned long long)n);
          rc = RF_EXIT_FAIL;
          break;
        }
        for (size_t vi = 0; vi < S.n_var && !rc && !rf_cli_interrupted; vi++) {
          rf_result res;
          char on[160];
          snprintf(on, sizeof on, "%s n=%llu %s seed %u", S.names[vi], (unsigned long long)n,
                   rf_dist_name(c.dist), seed);
          rf_progress_set(P, n_runs, on);
          if (!S.var[vi]) {
            rf_study_cpu_run(S.cpu[vi], H.x, (size_t)n, &H.exact, &H.facts, &res);
          } else {
            char err[512];
            snprintf(c.variant, sizeof c.variant, "%s", S.names[vi]);
            if (rf_runner_run(r, &c, &res, 1, err, sizeof err) != 1) {
              fprintf(stderr, "redfuzz study: %s n=%llu: %s\n", S.names[vi],
                      (unsigned long long)n, err);
              rc = RF_EXIT_FAIL;
              break;
            }
            if (rf_cli_interrupted) break;   /* cut short by a stop: not a run */
          }
          rf_study_run *run = &runs[n_runs++];
          *run = (rf_study_run){.variant = (unsigned)vi, .dist = (unsigned)di, .n = n,
                                .rows = c.rows, .seed = seed, .verdict = res.verdict,
                                .depth = res.depth, .suspicious = res.suspicious};
          rf_study_measure_of(S.op, &res, &run->m);
          failures += rf_verdict_is_failure(res.verdict);
          rf_study_runs_row(csv, &L, run, &res);
        }
      }
  rf_progress_stop(P);
  /* A table that cannot be written is an error (exit 2) even after an interruption. */
  int write_bad = 0;
  if (csv && runs) write_bad |= close_out(csv_out);
  else rf_file_abort(csv_out);
  if (runs && csv) {
    write_bad |= write_tables(&S, &L, runs, n_runs);
    write_bad |= write_meta(&S, dev, argc, argv, n_runs, failures);
    if (!rc && !write_bad) rf_study_print_fit(stdout, &L, runs, n_runs);
  }
  if (write_bad) rc = RF_EXIT_USAGE;
  if (!rc && rf_cli_interrupted) {
    fprintf(stderr, "redfuzz study: interrupted (signal %d) after %zu of %zu runs; the tables "
            "cover those\n", (int)rf_cli_interrupted, n_runs, total);
    rc = 128 + (int)rf_cli_interrupted;
  }
  if (!rc && failures) {
    fprintf(stderr, "redfuzz study: %zu runs with a failure verdict (see %s/runs.csv)\n",
            failures, S.out);
    rc = RF_EXIT_FAIL;
  }
  if (!rc) fprintf(stderr, "redfuzz study: %zu runs; wrote %s/runs.csv, summary.csv, fit.csv, "
                           "ratio_dist.csv, meta.txt\n", n_runs, S.out);
  free(runs);
  free(H.x);
  rf_runner_destroy(r);
  return rc;
}
