/* redfuzz tolerance: the test tolerance a kernel can be held to. The sum is here; the exact ops
 * and the row ops are tolerance_ops.c's (cli/tolerance.h). Sweeps each sum variant over
 * sizes x distributions x seeds (the study's sweep: run/study.h) and prints, per variant, the
 * derived bound (docs/TOLERANCES.md: |ŝ - s| <= γ_h·Σ|x_i|), the largest error observed,
 * and the tightest rtol/atol for torch.testing.assert_close (|a - b| <= atol + rtol·|b|, b
 * the exact sum) that no input of the swept range can fail: every pair printed covers the
 * bound of every run, so it holds for the kernel's worst rounding, not only for the errors
 * seen. Figures are rounded up (3 digits), never down. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "tolerance.h"
#include "progress.h"
#include "model/dtype.h"
#include "model/gen.h"
#include "run/study.h"

#define RF_FLAGS_DEF "flags_tolerance.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz tolerance [--op OP] [options]\n"
  "\n"
  "For each variant of the op, runs every distribution, size and seed, and prints the\n"
  "derived bound, the largest error observed, and the tightest rtol/atol a unit test\n"
  "(torch.testing.assert_close: |a - b| <= atol + rtol*|b|, b the exact value) can use\n"
  "without false failures on inputs like the swept ones: a pair, atol alone, and rtol\n"
  "alone. They come from the bound, not from the errors seen, and are rounded up.\n"
  "  sum       bound gamma_h*sum|x_i| (absolute, relative to sum|x_i| and to |s|); the pair\n"
  "            is rtol = gamma_h with the atol the cancelling inputs need.\n"
  "  max, argmax, min, argmin  exact ops: bound 0, so rtol = atol = 0 (the variant's\n"
  "            contract decides NaN and ties; redfuzz list shows it).\n"
  "  softmax, logsumexp, logsoftmax  (--rows-range, --cols-range) every output's allowed\n"
  "            error B from the variant's plan (absolute and relative to the output); the\n"
  "            pair's rtol is the bound's relative part over outputs >= 2^-126 and atol\n"
  "            covers the rest; f16/bf16 outputs include their rounding.\n"
  "\n";
static const char help_tail[] =
  "\nExit status: 0 every run within its bound, 1 a failure verdict (no tolerance is printed\n"
  "for that variant: the kernel is wrong, not imprecise), 2 bad usage.\n";

#define MAX_VARIANTS 64
#define MAX_SIZES 160

typedef struct {
  const rf_variant *var;   /* NULL: a host reference */
  rf_study_cpu cpu;
  const char *name;
  /* Over the usable runs: */
  size_t runs, unusable, failures;
  unsigned h;              /* the deepest plan seen */
  double bound_abs, bound_rel_abs, bound_rel_s;   /* max B, max B/Σ|x|, max B/|s| */
  double obs_abs, obs_rel_abs, obs_rel_s, obs_ratio;
  /* The pair rtol = gamma (max B/Σ|x|), atol = max(B - gamma·|s|): the runs' B and |s|. */
  double *b, *s;
  size_t cap;
  char first_failure[160];
} tol_variant;

static int add_variant(tol_variant *V, size_t *n, const char *name, rf_op op,
                       const rf_variant **others, size_t *nothers) {
  for (size_t i = 0; i < *n; i++)
    if (strcmp(V[i].name, name) == 0) return 0;
  if (*n == MAX_VARIANTS) {
    fprintf(stderr, "redfuzz tolerance: --variant: more than %d names\n", MAX_VARIANTS);
    return RF_EXIT_USAGE;
  }
  tol_variant *t = &V[*n];
  memset(t, 0, sizeof *t);
  if (op == RF_OP_SUM && rf_study_cpu_parse(name, &t->cpu) == 0) {
    t->name = rf_study_cpu_name(t->cpu);
    (*n)++;
    return 0;
  }
  const rf_variant *v = rf_variant_find(name);
  if (op == RF_OP_SUM && (!v || v->op != RF_OP_SUM || v->in_dtype != RF_DTYPE_F32)) {
    fprintf(stderr, "redfuzz tolerance: --variant: '%.63s' is not an f32 sum variant of this "
            "build (allowed: a sum name from 'redfuzz list', or cpu/sequential, "
            "cpu/pairwise; --op %s for a %s variant)\n", name, v ? rf_op_name(v->op) : "OP",
            v ? rf_op_name(v->op) : "another op's");
    return RF_EXIT_USAGE;
  }
  if (op != RF_OP_SUM) {
    if (!v || v->op != op) {
      fprintf(stderr, "redfuzz tolerance: --variant: '%.63s' is not a %s variant of this build "
              "(allowed: a %s name from 'redfuzz list'%s%s)\n", name, rf_op_name(op),
              rf_op_name(op), v ? "; --op " : "", v ? rf_op_name(v->op) : "");
      return RF_EXIT_USAGE;
    }
    for (size_t i = 0; i < *nothers; i++)
      if (others[i] == v) return 0;
    others[(*nothers)++] = v;
    return 0;
  }
  t->var = v;
  t->name = v->name;
  (*n)++;
  return 0;
}

static int keep_run(tol_variant *t, const rf_result *r) {
  if (t->runs == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 256;
    double *b = realloc(t->b, cap * sizeof *b), *s = b ? realloc(t->s, cap * sizeof *s) : NULL;
    if (b) t->b = b;
    if (!b || !s) return -1;
    t->s = s;
    t->cap = cap;
  }
  t->b[t->runs] = r->bound;
  t->s[t->runs] = fabs(r->want);
  t->runs++;
  return 0;
}

static double over(double a, double b) { return b > 0 ? a / b : a > 0 ? INFINITY : 0; }

static void measure(tol_variant *t, const rf_case *c, const rf_result *r) {
  if (rf_verdict_is_failure(r->verdict)) {
    if (!t->failures++)
      snprintf(t->first_failure, sizeof t->first_failure, "%s at n=%llu dist=%s seed=%llu",
               rf_verdict_name(r->verdict), (unsigned long long)c->n, rf_dist_name(c->dist),
               (unsigned long long)c->seed);
    return;
  }
  rf_study_measure m;
  rf_study_measure_of(RF_OP_SUM, r, &m);
  if (!m.usable || !isfinite(r->bound)) { t->unusable++; return; }
  if (r->depth > t->h) t->h = r->depth;
  double s = fabs(r->want);
  t->bound_abs = fmax(t->bound_abs, r->bound);
  t->bound_rel_abs = fmax(t->bound_rel_abs, over(r->bound, r->abs_sum));
  t->bound_rel_s = fmax(t->bound_rel_s, over(r->bound, s));
  t->obs_abs = fmax(t->obs_abs, m.err);
  t->obs_rel_abs = fmax(t->obs_rel_abs, over(m.err, r->abs_sum));
  t->obs_rel_s = fmax(t->obs_rel_s, over(m.err, s));
  t->obs_ratio = fmax(t->obs_ratio, over(m.err, r->bound));
  if (keep_run(t, r)) t->unusable++;
}

/* v rounded up to 3 significant digits, as text ("0" for 0, "inf" for no finite value). */
const char *rf_tol_up3(double v, char *buf, size_t len) {
  if (v == 0) return snprintf(buf, len, "0"), buf;
  if (!isfinite(v)) return snprintf(buf, len, "inf"), buf;
  snprintf(buf, len, "%.2e", v);
  double got = strtod(buf, NULL);
  if (got < v) {
    double step = pow(10, floor(log10(got)) - 2);
    snprintf(buf, len, "%.2e", got + step);
    if (strtod(buf, NULL) < v) snprintf(buf, len, "%.2e", got + 2 * step);
  }
  return buf;
}
#define up3 rf_tol_up3

static void print_variant(const tol_variant *t) {
  char a[32], b[32], c[32], d[32];
  if (t->failures) {
    printf("%s: FAILS (%zu run(s), first: %s): no tolerance; the kernel is wrong, not "
           "imprecise (redfuzz sweep --variant %s shows the cases)\n", t->name, t->failures,
           t->first_failure, t->name);
    return;
  }
  if (!t->runs) {
    printf("%s: no run gave a finite result and bound (%zu unusable): no tolerance\n", t->name,
           t->unusable);
    return;
  }
  /* rtol = gamma; the atol the runs with cancellation (|s| < Σ|x_i|) still need. */
  double rtol = t->bound_rel_abs, atol = 0;
  for (size_t i = 0; i < t->runs; i++) atol = fmax(atol, t->b[i] - rtol * t->s[i]);
  printf("%s: h=%u runs=%zu%s\n", t->name, t->h, t->runs,
         t->unusable ? " (some runs without a finite result or bound are left out)" : "");
  printf("  bound:    abs=%s rel_sum_abs=%s rel_s=%s\n", up3(t->bound_abs, a, sizeof a),
         up3(t->bound_rel_abs, b, sizeof b), up3(t->bound_rel_s, c, sizeof c));
  printf("  observed: abs=%s rel_sum_abs=%s rel_s=%s err/bound=%s\n",
         up3(t->obs_abs, a, sizeof a), up3(t->obs_rel_abs, b, sizeof b),
         up3(t->obs_rel_s, c, sizeof c), up3(t->obs_ratio, d, sizeof d));
  printf("  assert_close: rtol=%s atol=%s", up3(rtol, a, sizeof a), up3(atol, b, sizeof b));
  printf(" | atol only: rtol=0 atol=%s", up3(t->bound_abs, c, sizeof c));
  printf(" | rtol only: rtol=%s atol=0%s\n", up3(t->bound_rel_s, d, sizeof d),
         isfinite(t->bound_rel_s) ? "" : " (none: an exact sum of 0 with a non-zero bound)");
}

int rf_cmd_tolerance(int argc, char **argv) {
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("tolerance", rf_flags, RF_FLAG_COUNT, argc, argv, v, NULL, 0, NULL,
                         help, help_tail);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  static tol_variant V[MAX_VARIANTS];
  static const rf_variant *others[MAX_VARIANTS];
  size_t nv = 0, nothers = 0;
  const rf_op op = (rf_op)v[F_OP].num;
  int rc = 0;
  uint64_t lo, hi, sizes[MAX_SIZES];
  rf_dist dists[RF_DIST_COUNT];
  size_t nd = 0, ns;
  unsigned seeds = (unsigned)v[F_SEEDS].num;
  /* Each range: LO..HI (or one size) with 1 <= LO <= HI; a HI past the backend's largest
   * case is refused (tolerance_ops.c, and below for sum): nothing is dropped. A refusal says
   * which end is wrong, and why. */
  uint64_t rlo, rhi, clo, chi;
  const int row_op = rf_op_has_rows(op);
  const struct { int f; const char *flag; uint64_t *lo, *hi; int rows; const char *what; } ranges[] = {
    {F_N_RANGE, "--n-range", &lo, &hi, 0, "largest n"},
    {F_ROWS_RANGE, "--rows-range", &rlo, &rhi, 1, "largest case"},
    {F_COLS_RANGE, "--cols-range", &clo, &chi, 1, "longest row"}};
  for (size_t i = 0; i < 3; i++) {
    char why[256];
    /* a range of the other kind of op would change nothing: refused, not ignored */
    if (v[ranges[i].f].given && ranges[i].rows != row_op) {
      char ops[128];
      fprintf(stderr, "redfuzz tolerance: %s: '%.60s' applies to %s only (allowed for %s: %s)\n",
              ranges[i].flag, v[ranges[i].f].text,
              rf_op_list_of(ranges[i].rows, " and ", ops, sizeof ops), rf_op_name(op),
              row_op ? "--rows-range, --cols-range" : "--n-range");
      rf_flags_free(v, RF_FLAG_COUNT);
      return RF_EXIT_USAGE;
    }
    if (rf_study_parse_range(v[ranges[i].f].text, ranges[i].lo, ranges[i].hi, why, sizeof why)) {
      fprintf(stderr, "redfuzz tolerance: %s: '%.60s': %s (allowed: LO..HI or one size, 1 <= LO "
              "<= HI <= this backend's %s, e.g. 1..2^10)\n",
              ranges[i].flag, v[ranges[i].f].text, why, ranges[i].what);
      rf_flags_free(v, RF_FLAG_COUNT);
      return RF_EXIT_USAGE;
    }
  }
  if (v[F_VARIANT].given) {
    for (size_t i = 0; i < v[F_VARIANT].count && !rc; i++)
      rc = add_variant(V, &nv, v[F_VARIANT].items[i], op, others, &nothers);
  } else {
    for (size_t i = 0; i < rf_variant_count() && !rc; i++) {
      const rf_variant *x = rf_variant_at(i);
      if (x->op == op && !x->is_mutant && (op != RF_OP_SUM || x->in_dtype == RF_DTYPE_F32))
        rc = add_variant(V, &nv, x->name, op, others, &nothers);
    }
  }
  for (size_t i = 0; i < v[F_DIST].count && nd < RF_DIST_COUNT; i++)
    dists[nd++] = (rf_dist)v[F_DIST].list[i];
  rf_flags_free(v, RF_FLAG_COUNT);
  if (rc) return rc;
  if (op != RF_OP_SUM) {
    if (!nothers) {
      fprintf(stderr, "redfuzz tolerance: no %s variant is built\n", rf_op_name(op));
      return RF_EXIT_USAGE;
    }
    rf_runner *r = rf_cli_runner("tolerance");
    if (!r) return RF_EXIT_FAIL;
    const rf_tol_sweep s = {op, others, nothers, dists, nd, seeds, lo, hi, rlo, rhi, clo, chi};
    rc = rf_tolerance_ops(r, &s);
    rf_runner_destroy(r);
    return rc;
  }
  if (!nv) { fprintf(stderr, "redfuzz tolerance: no f32 sum variant is built\n"); return RF_EXIT_USAGE; }

  rf_runner *r = rf_cli_runner("tolerance");
  if (!r) return RF_EXIT_FAIL;
  rf_limits lim = rf_runner_limits(r);
  if (lo > lim.max_n) {
    fprintf(stderr, "redfuzz tolerance: --n-range: starts above %llu, this backend's largest "
            "n\n", (unsigned long long)lim.max_n);
    rf_runner_destroy(r);
    return RF_EXIT_USAGE;
  }
  if (hi > lim.max_n) {   /* nothing is dropped: a range past the backend is refused */
    fprintf(stderr, "redfuzz tolerance: --n-range: HI %llu is above %llu, this backend's largest "
            "n (REDFUZZ_MAX_N sets it; allowed: 1 <= LO <= HI <= %llu)\n", (unsigned long long)hi,
            (unsigned long long)lim.max_n, (unsigned long long)lim.max_n);
    rf_runner_destroy(r);
    return RF_EXIT_USAGE;
  }
  ns = rf_study_sizes(lo, hi, sizes, MAX_SIZES);
  float *x = NULL;
  rf_xsum exact;
  rf_sum_facts facts;
  rc = RF_EXIT_OK;
  rf_cli_catch_signals();
  uint64_t runs = 0;
  rf_progress *P = rf_progress_start("tolerance", "runs", (uint64_t)nd * ns * seeds * nv, r);
  for (size_t di = 0; di < nd && !rc && !rf_cli_interrupted; di++)
    for (size_t si = 0; si < ns && !rc && !rf_cli_interrupted; si++)
      for (unsigned seed = 1; seed <= seeds && !rc && !rf_cli_interrupted; seed++) {
        rf_case c;
        rf_case_default(&c);
        c.op = RF_OP_SUM;
        c.n = sizes[si];
        c.dist = dists[di];
        c.seed = seed;
        int host_inputs = 0;
        for (size_t vi = 0; vi < nv && !rc; vi++, runs++) {
          rf_result res;
          if (P) {
            char on[160];
            snprintf(on, sizeof on, "%s n=%llu %s seed %u", V[vi].name,
                     (unsigned long long)c.n, rf_dist_name(c.dist), seed);
            rf_progress_set(P, runs, on);
          }
          if (!V[vi].var) {   /* a host reference: the input again, on the host */
            if (!host_inputs) {
              float *nx = realloc(x, (size_t)c.n * sizeof *nx);
              if (!nx) { fprintf(stderr, "redfuzz tolerance: out of memory\n"); rc = RF_EXIT_FAIL; break; }
              x = nx;
              rf_generate(&c, x);
              rf_xsum_init(&exact);
              rf_xsum_add(&exact, x, (size_t)c.n);
              rf_sum_facts_compute(x, (size_t)c.n, &facts);
              host_inputs = 1;
            }
            rf_study_cpu_run(V[vi].cpu, x, (size_t)c.n, &exact, &facts, &res);
          } else {
            char err[512];
            snprintf(c.variant, sizeof c.variant, "%s", V[vi].name);
            if (rf_runner_run(r, &c, &res, 1, err, sizeof err) != 1) {
              fprintf(stderr, "redfuzz tolerance: %s n=%llu: %s\n", V[vi].name,
                      (unsigned long long)c.n, err);
              rc = RF_EXIT_FAIL;
              break;
            }
            if (rf_cli_interrupted) break;   /* cut short by a stop: not a run */
          }
          measure(&V[vi], &c, &res);
        }
      }
  rf_progress_stop(P);
  free(x);
  rf_runner_destroy(r);
  if (rc) return rc;
  if (rf_cli_interrupted) {
    fprintf(stderr, "redfuzz tolerance: interrupted (signal %d): no figures from a partial "
            "sweep\n", (int)rf_cli_interrupted);
    return 128 + (int)rf_cli_interrupted;
  }
  printf("assumptions: float32 sums; sizes %llu..%llu (%zu sizes: the powers of two, an odd size "
         "between each, the ends); dists", (unsigned long long)lo, (unsigned long long)hi, ns);
  for (size_t i = 0; i < nd; i++) printf("%s%s", i ? "," : " ", rf_dist_name(dists[i]));
  printf("; seeds 1..%u; each variant's default launch. bound: |s^ - s| <= gamma_h * sum|x_i|, "
         "gamma_h = h*u/(1-h*u), u = 2^-24, h from the variant's plan (0 where every partial sum "
         "is exact; docs/TOLERANCES.md). assert_close(a, b) with b the exact sum (a float64 or "
         "exact reference): |a - b| <= atol + rtol*|b|. Outside these sizes and dists the "
         "figures do not hold: sweep what your test draws.\n", seeds);
  int failed = 0;
  for (size_t i = 0; i < nv; i++) {
    print_variant(&V[i]);
    failed |= V[i].failures > 0;
    free(V[i].b);
    free(V[i].s);
  }
  return failed ? RF_EXIT_FAIL : RF_EXIT_OK;
}
