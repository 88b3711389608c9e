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
#include "gen.h"
#include "study.h"
#include "study_report.h"

static const char help[] =
  "usage: redfuzz study [--op sum|softmax] [--variants A,B,...] [--dists D,E,...]\n"
  "                     [--n-range LO..HI] [--seeds K] [--rows R] [--fit-min N] [--fit-max N]\n"
  "                     [--out DIR]\n"
  "\n"
  "Runs each variant on each distribution, size and seed, measures the error against the\n"
  "exact oracle (absolute, relative to |s|, relative to sum |x_i|, in ulps) and the derived\n"
  "bound, and writes DIR/runs.csv (one row per run), DIR/summary.csv (median, 90th\n"
  "percentile and max of error/bound per variant, distribution and size), DIR/fit.csv (the\n"
  "growth of err/(u sum|x_i|) with n on log-log axes against sqrt(h)), DIR/ratio_dist.csv\n"
  "and DIR/meta.txt. scripts/study.sh draws the plots. A progress line goes to stderr; the\n"
  "fit table to stdout.\n"
  "\n"
  "  --op OP           sum (default) or softmax (sizes are then row lengths)\n"
  "  --variants LIST   comma-separated names; default: every non-mutant variant of the op,\n"
  "                    for sum also the host references cpu/sequential and cpu/pairwise\n"
  "                    (a mutant runs only when named)\n"
  "  --dists LIST      default uniform,wide,negative\n"
  "  --n-range LO..HI  each an integer or 2^k (default 2^4..2^26, clamped to the backend's\n"
  "                    largest case); sweeps the powers of two and an odd size between each\n"
  "  --seeds K         seeds 1..K per size (default 10)\n"
  "  --rows R          softmax rows per case (default 16, fewer where R*cols exceeds the\n"
  "                    backend's limit)\n"
  "  --fit-min N       the slope fits use sizes >= N only (default 256)\n"
  "  --fit-max N       ... and <= N only (default: no limit)\n"
  "  --out DIR         output folder, created if missing (default out/study)\n"
  "\n"
  "Exit status: 0 every run passed, 1 a failure verdict (listed in runs.csv), 2 bad usage.\n";

#define MAX_VARIANTS 64
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
  char clamp_note[160];
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

static int parse_uint(const char *s, uint64_t max, uint64_t *out) {
  if (!*s || *s == '-') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end || v > max) return -1;
  *out = v;
  return 0;
}

/* Splits a comma list into a caller buffer; returns the item count or -1 when too many. */
static int split(const char *s, char *buf, size_t buflen, char **items, int max) {
  snprintf(buf, buflen, "%s", s);
  int k = 0;
  for (char *p = strtok(buf, ","); p; p = strtok(NULL, ",")) {
    if (k == max) return -1;
    items[k++] = p;
  }
  return k;
}

static int add_variant(study_cfg *S, const char *name) {
  rf_study_cpu cpu;
  for (size_t i = 0; i < S->n_var; i++)
    if (strcmp(S->names[i], name) == 0) return 0;
  if (S->n_var == MAX_VARIANTS) return usage_error("--variants: more than %d names", MAX_VARIANTS);
  if (rf_study_cpu_parse(name, &cpu) == 0) {
    if (S->op != RF_OP_SUM)
      return usage_error("--variants: %s is a sum reference; it does not apply to %s", name,
                         rf_op_name(S->op));
    S->var[S->n_var] = NULL;
    S->cpu[S->n_var] = cpu;
    S->names[S->n_var++] = rf_study_cpu_name(cpu);
    return 0;
  }
  const rf_variant *v = rf_variant_find(name);
  if (!v || v->op != S->op)
    return usage_error("--variants: '%s' is not a %s variant (see 'redfuzz list', or "
                       "cpu/sequential, cpu/pairwise)", name, rf_op_name(S->op));
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
    if (v->op == S->op && !v->is_mutant) add_variant(S, v->name);
  }
}

static int parse_args(int argc, char **argv, study_cfg *S, const char **variants_arg,
                      const char **dists_arg) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(help, stdout); return 1; }
    static const char *const flags[] = {"--op", "--variants", "--dists", "--n-range", "--seeds",
                                        "--rows", "--fit-min", "--fit-max", "--out"};
    int known = 0;
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++) known |= strcmp(a, flags[k]) == 0;
    if (!known) return usage_error("unknown option '%s' (see redfuzz study --help)", a);
    if (i + 1 >= argc) return usage_error("%s needs a value", a);
    const char *v = argv[++i];
    uint64_t u;
    if (strcmp(a, "--op") == 0) {
      if (rf_op_parse(v, &S->op) || (S->op != RF_OP_SUM && S->op != RF_OP_SOFTMAX))
        return usage_error("--op: '%s' is not valid (allowed: sum, softmax; max and argmax "
                           "are exact, there is no error to study)", v);
    } else if (strcmp(a, "--variants") == 0) {
      *variants_arg = v;
    } else if (strcmp(a, "--dists") == 0) {
      *dists_arg = v;
    } else if (strcmp(a, "--n-range") == 0) {
      if (rf_study_parse_range(v, &S->lo, &S->hi) || S->lo == 0)
        return usage_error("--n-range: '%s' is not valid (allowed: LO..HI with 1 <= LO <= HI, "
                           "each an integer or 2^k, e.g. 2^4..2^18)", v);
    } else if (strcmp(a, "--seeds") == 0) {
      if (parse_uint(v, 1000, &u) || u == 0)
        return usage_error("--seeds: '%s' is not valid (allowed: 1..1000)", v);
      S->seeds = (unsigned)u;
    } else if (strcmp(a, "--rows") == 0) {
      if (parse_uint(v, UINT32_MAX, &u) || u == 0)
        return usage_error("--rows: '%s' is not valid (allowed: 1..4294967295)", v);
      S->rows = (uint32_t)u;
    } else if (strcmp(a, "--fit-min") == 0 || strcmp(a, "--fit-max") == 0) {
      if (parse_uint(v, UINT64_MAX, &u))
        return usage_error("%s: '%s' is not valid (allowed: a non-negative integer)", a, v);
      *(strcmp(a, "--fit-min") == 0 ? &S->fit_min : &S->fit_max) = u;
    } else {
      S->out = v;
    }
  }
  return 0;
}

static int resolve_lists(study_cfg *S, const char *variants_arg, const char *dists_arg) {
  char buf[2048];
  char *items[MAX_VARIANTS + 1];
  if (!variants_arg) {
    default_variants(S);
  } else {
    int k = split(variants_arg, buf, sizeof buf, items, MAX_VARIANTS);
    if (k <= 0) return usage_error("--variants: '%s' names no variant", variants_arg);
    for (int i = 0; i < k; i++)
      if (add_variant(S, items[i])) return RF_EXIT_USAGE;
  }
  if (S->n_var == 0) return usage_error("no %s variant is built", rf_op_name(S->op));
  int k = split(dists_arg, buf, sizeof buf, items, RF_DIST_COUNT);
  if (k <= 0) return usage_error("--dists: '%s' names no distribution", dists_arg);
  for (int i = 0; i < k; i++) {
    rf_dist d;
    if (rf_dist_parse(items[i], &d))
      return usage_error("--dists: '%s' is not valid (allowed: alternating, ones, wide, negative, "
                         "equal-max, shifted-rows, uniform, index-weighted, spike, subnormal, "
                         "near-overflow, sorted, overflow, nan-sprinkled, inf-mixed, signed-zero, "
                         "all-nan, all-neg-inf, ties)", items[i]);
    S->dists[S->n_dists++] = d;
  }
  return 0;
}

/* Clamps the range to the backend's largest case, with a note (stderr and meta.txt). */
static int clamp_range(study_cfg *S, const rf_limits *lim, const char *backend) {
  uint64_t cap = S->op == RF_OP_SUM ? lim->max_n : lim->max_cols;
  if (S->lo > cap)
    return usage_error("--n-range: starts above %llu, the %s backend's largest %s",
                       (unsigned long long)cap, backend, S->op == RF_OP_SUM ? "n" : "row length");
  if (S->hi > cap) {
    snprintf(S->clamp_note, sizeof S->clamp_note,
             "note: n-range clamped from %llu to %llu, the %s backend's largest %s",
             (unsigned long long)S->hi, (unsigned long long)cap, backend,
             S->op == RF_OP_SUM ? "n" : "row length");
    fprintf(stderr, "redfuzz study: %s\n", S->clamp_note);
    S->hi = cap;
  }
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

static FILE *open_out(const study_cfg *S, const char *name) {
  char path[1100];
  snprintf(path, sizeof path, "%s/%s", S->out, name);
  FILE *f = fopen(path, "w");
  if (!f) fprintf(stderr, "redfuzz study: %s: %s\n", path, strerror(errno));
  return f;
}

/* ---- the sweep -------------------------------------------------------------------------- */
typedef struct {
  size_t done, total;
  int tty;
  unsigned last_tenth;
} progress;

static void progress_show(progress *p, const char *variant, uint64_t n) {
  p->done++;
  if (p->tty) {
    fprintf(stderr, "\rstudy: %zu/%zu runs, %s n=%llu\033[K", p->done, p->total, variant,
            (unsigned long long)n);
    if (p->done == p->total) fputc('\n', stderr);
    return;
  }
  /* Not a terminal (a log file): one line per tenth of the work. */
  unsigned tenth = (unsigned)(p->done * 10 / p->total);
  if (tenth != p->last_tenth || p->done == 1) {
    p->last_tenth = tenth;
    fprintf(stderr, "study: %zu/%zu runs, %s n=%llu\n", p->done, p->total, variant,
            (unsigned long long)n);
  }
}

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

static void write_meta(const study_cfg *S, const rf_device_info *d, int argc, char **argv,
                       size_t runs, size_t failures) {
  FILE *f = open_out(S, "meta.txt");
  if (!f) return;
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
          strcmp(d->backend, "sim") == 0 ? "; simulator schedule in-order, wave 32" : "",
          (unsigned long long)S->fit_min);
  if (S->fit_max != UINT64_MAX) fprintf(f, ", n <= %llu", (unsigned long long)S->fit_max);
  fputc('\n', f);
  if (S->clamp_note[0]) fprintf(f, "%s\n", S->clamp_note);
  fprintf(f, "runs: %zu, failure verdicts: %zu\n", runs, failures);
  fclose(f);
}

static void write_tables(const study_cfg *S, const rf_study_layout *L, const rf_study_run *runs,
                         size_t n) {
  FILE *f;
  if ((f = open_out(S, "summary.csv"))) { rf_study_write_summary(f, L, runs, n); fclose(f); }
  if ((f = open_out(S, "fit.csv"))) { rf_study_write_fit(f, L, runs, n); fclose(f); }
  if ((f = open_out(S, "ratio_dist.csv"))) { rf_study_write_ratio_dist(f, L, runs, n); fclose(f); }
}

int rf_cmd_study(int argc, char **argv) {
  study_cfg S = {.op = RF_OP_SUM, .lo = 16, .hi = 1ull << 26, .seeds = 10, .rows = 16,
                 .fit_min = 256, .fit_max = UINT64_MAX, .out = "out/study"};
  const char *variants_arg = NULL, *dists_arg = "uniform,wide,negative";
  int rc = parse_args(argc, argv, &S, &variants_arg, &dists_arg);
  if (rc) return rc == 1 ? RF_EXIT_OK : rc;
  if ((rc = resolve_lists(&S, variants_arg, dists_arg))) return rc;
  if (make_dirs(S.out)) {
    fprintf(stderr, "redfuzz study: --out '%s': %s\n", S.out, strerror(errno));
    return RF_EXIT_USAGE;
  }
  rf_runner *r = rf_cli_runner("study");
  if (!r) return RF_EXIT_FAIL;
  rf_limits lim = rf_runner_limits(r);
  const rf_device_info *dev = rf_runner_device(r);
  if ((rc = clamp_range(&S, &lim, dev->backend))) { rf_runner_destroy(r); return rc; }

  progress P = {.total = S.n_var * S.n_dists * S.n_sizes * S.seeds, .tty = isatty(2)};
  rf_study_run *runs = calloc(P.total ? P.total : 1, sizeof *runs);
  FILE *csv = open_out(&S, "runs.csv");
  host_input H = {0};
  rf_study_layout L = {S.op,    S.names, S.n_var,     S.dists,    S.n_dists,
                       S.sizes, S.n_sizes, S.fit_min, S.fit_max};
  size_t n_runs = 0, failures = 0;
  rc = RF_EXIT_OK;
  if (!runs || !csv) rc = RF_EXIT_FAIL;
  if (csv) rf_study_runs_header(csv);
  /* Variants innermost: the runner keeps the last input and its exact answer, so each case
   * is generated and solved once for all variants. */
  for (size_t di = 0; di < S.n_dists && !rc; di++)
    for (size_t si = 0; si < S.n_sizes && !rc; si++)
      for (unsigned seed = 1; seed <= S.seeds && !rc; seed++) {
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
        for (size_t vi = 0; vi < S.n_var && !rc; vi++) {
          rf_result res;
          if (!S.var[vi]) {
            rf_study_cpu_run(S.cpu[vi], H.x, (size_t)n, &H.exact, &H.facts, &res);
          } else {
            char err[512];
            snprintf(c.variant, sizeof c.variant, "%s", S.names[vi]);
            if (rf_runner_run(r, &c, &res, 1, err, sizeof err) != 1) {
              fprintf(stderr, "\nredfuzz study: %s n=%llu: %s\n", S.names[vi],
                      (unsigned long long)n, err);
              rc = RF_EXIT_FAIL;
              break;
            }
          }
          rf_study_run *run = &runs[n_runs++];
          *run = (rf_study_run){.variant = (unsigned)vi, .dist = (unsigned)di, .n = n,
                                .rows = c.rows, .seed = seed, .verdict = res.verdict,
                                .depth = res.depth, .suspicious = res.suspicious};
          rf_study_measure_of(S.op, &res, &run->m);
          failures += rf_verdict_is_failure(res.verdict);
          rf_study_runs_row(csv, &L, run, &res);
          progress_show(&P, S.names[vi], n);
        }
      }
  if (csv) fclose(csv);
  if (runs) {
    write_tables(&S, &L, runs, n_runs);
    write_meta(&S, dev, argc, argv, n_runs, failures);
    if (!rc) rf_study_print_fit(stdout, &L, runs, n_runs);
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
