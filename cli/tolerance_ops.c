/* redfuzz tolerance for max, argmax and the row ops (cli/tolerance.h).
 * Exact ops: every run must be `pass` (bound 0: assert_close with rtol = atol = 0, i.e.
 * torch.equal; NaN and ties as the variant's contract says).
 * Row ops: every output's allowed error B (run/tol_rows.h, the judge's bound) against the
 * exact value w; the printed pairs satisfy atol + rtol*|w| >= B for EVERY output of the
 * sweep, so a test of inputs like the swept ones cannot fail where the judge passes:
 *   pair:      rtol = the largest relative part of the bounds over outputs that stay normal
 *              (|w| >= 2^-126; below, the bound is an absolute floor), atol = max(B - rtol*|w|);
 *   atol only: max B;   rtol only: max B/|w| (none when some w = 0 has B > 0).
 * The runs' own errors are checked against the pair too: each run's worst element (the one
 * of largest err/bound, which the runner reports) must lie within it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tolerance.h"
#include "progress.h"
#include "cli.h"
#include "model/dtype.h"
#include "model/gen.h"
#include "run/backend.h"
#include "run/study.h"
#include "run/tol_rows.h"

#define MAX_SIZES 160

typedef struct {
  const rf_variant *v;
  size_t runs, failures, unsupported;
  char first_failure[200], first_unsupported[240];
  rf_tol_rows_info info;
  rf_tol_out *outs;          /* every output's (w, B, rel) */
  size_t nout, cap;
  int oom;
  double *got_err, *got_w;   /* per run: the worst element's |err| and |want| */
  double obs_abs, obs_ratio;
} tol_ops_variant;

static int is_row_op(rf_op op) {
  return op == RF_OP_SOFTMAX || op == RF_OP_LOGSUMEXP || op == RF_OP_LOGSOFTMAX;
}

static void keep_out(void *ctx, const rf_tol_out *o) {
  tol_ops_variant *t = ctx;
  if (t->nout == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 4096;
    rf_tol_out *n = realloc(t->outs, cap * sizeof *n);
    if (!n) { t->oom = 1; return; }
    t->outs = n;
    t->cap = cap;
  }
  t->outs[t->nout++] = *o;
}

static int keep_run(tol_ops_variant *t, const rf_result *r) {
  double *e = realloc(t->got_err, (t->runs + 1) * sizeof *e);
  if (e) t->got_err = e;
  double *w = e ? realloc(t->got_w, (t->runs + 1) * sizeof *w) : NULL;
  if (!w) return -1;
  t->got_w = w;
  t->got_err[t->runs] = r->err > 0 ? fabs((double)r->got - r->want) : 0;
  t->got_w[t->runs] = fabs(r->want);
  return 0;
}

static void note_failure(tol_ops_variant *t, const rf_case *c, const rf_result *r) {
  if (t->failures++) return;
  if (is_row_op(c->op))
    snprintf(t->first_failure, sizeof t->first_failure, "%s at rows=%u cols=%u dist=%s seed=%llu",
             rf_verdict_name(r->verdict), c->rows, c->cols, rf_dist_name(c->dist),
             (unsigned long long)c->seed);
  else
    snprintf(t->first_failure, sizeof t->first_failure, "%s at n=%llu dist=%s seed=%llu",
             rf_verdict_name(r->verdict), (unsigned long long)c->n, rf_dist_name(c->dist),
             (unsigned long long)c->seed);
}

/* One case of one variant: run it, and for a row op that passed, every output's bound. */
static int one(rf_runner *r, tol_ops_variant *t, rf_case *c, float **x, size_t *xcap) {
  char err[512];
  rf_result res;
  c->dtype = t->v->in_dtype;
  snprintf(c->variant, sizeof c->variant, "%s", t->v->name);
  if (rf_runner_run(r, c, &res, 1, err, sizeof err) != 1) {
    fprintf(stderr, "redfuzz tolerance: %s: %s\n", t->v->name, err);
    return RF_EXIT_FAIL;
  }
  if (rf_cli_interrupted) return 0;   /* cut short by a stop: not a run */
  if (rf_verdict_is_failure(res.verdict)) { note_failure(t, c, &res); return 0; }
  if (res.verdict == RF_V_UNSUPPORTED) {
    if (!t->unsupported++)
      snprintf(t->first_unsupported, sizeof t->first_unsupported, "%.200s", res.detail);
    return 0;
  }
  if (keep_run(t, &res)) { t->oom = 1; return 0; }
  t->runs++;
  t->obs_abs = fmax(t->obs_abs, res.err);
  t->obs_ratio = fmax(t->obs_ratio, res.ratio);
  if (!is_row_op(c->op)) return 0;
  const size_t n = (size_t)rf_case_elems(c);
  if (n > *xcap) {
    float *nx = realloc(*x, n * sizeof *nx);
    if (!nx) { fprintf(stderr, "redfuzz tolerance: out of memory\n"); return RF_EXIT_FAIL; }
    *x = nx;
    *xcap = n;
  }
  rf_generate(c, *x);
  const rf_device_info *dev = rf_runner_device(r);
  const unsigned wave = rf_backend.is_sim ? c->wave : dev->wave;
  if (rf_tol_rows_bounds(t->v, c, *x, wave, dev->num_cus, keep_out, t, &t->info, err, sizeof err)) {
    fprintf(stderr, "redfuzz tolerance: %s\n", err);
    return RF_EXIT_FAIL;
  }
  return 0;
}

static int print_exact(const tol_ops_variant *t) {
  char contract[96];
  const rf_variant *v = t->v;
  rf_contract_describe(v->op, v->contract, contract, sizeof contract);
  if (t->failures) {
    printf("%s: FAILS (%zu run(s), first: %s): no tolerance; the kernel is wrong, not "
           "imprecise (redfuzz sweep --variant %s shows the cases)\n", v->name, t->failures,
           t->first_failure, v->name);
    return 1;
  }
  printf("%s: exact runs=%zu%s\n", v->name, t->runs, t->runs ? "" : " (none ran: no tolerance)");
  printf("  bound:    abs=0 (an exact op: the result is one of the inputs)\n");
  printf("  observed: mismatches=0\n");
  printf("  assert_close: rtol=0 atol=0 (torch.equal%s); contract %s decides NaN%s\n",
         v->op == RF_OP_ARGMAX ? " on the value and the index" : "", contract,
         v->op == RF_OP_ARGMAX ? " and ties" : "");
  return 0;
}

static int print_rows(tol_ops_variant *t) {
  char a[32], b[32], c[32], d[32];
  const rf_variant *v = t->v;
  if (t->failures) {
    printf("%s: FAILS (%zu run(s), first: %s): no tolerance; the kernel is wrong, not "
           "imprecise (redfuzz sweep --variant %s shows the cases)\n", v->name, t->failures,
           t->first_failure, v->name);
    return 1;
  }
  if (t->oom) {
    printf("%s: out of memory keeping the bounds: no tolerance\n", v->name);
    return 1;
  }
  if (!t->nout) {
    printf("%s: no output had a finite exact value and bound (%zu special, %zu unbounded): "
           "no tolerance\n", v->name, t->info.special, t->info.unbounded);
    return 0;
  }
  double rtol = 0, atol = 0, babs = 0, brel = 0;
  for (size_t i = 0; i < t->nout; i++) {
    const rf_tol_out *o = &t->outs[i];
    if (fabs(o->w) >= 0x1p-126) rtol = fmax(rtol, o->rel);
    babs = fmax(babs, o->b);
    brel = fmax(brel, o->w != 0 ? o->b / fabs(o->w) : o->b > 0 ? INFINITY : 0);
  }
  for (size_t i = 0; i < t->nout; i++) atol = fmax(atol, t->outs[i].b - rtol * fabs(t->outs[i].w));
  /* Printed figures are rounded up: what a test uses. The self-check uses those. */
  const double rtol_p = strtod(rf_tol_up3(rtol, a, sizeof a), NULL);
  const double atol_p = strtod(rf_tol_up3(atol, b, sizeof b), NULL);
  size_t outside = 0;
  for (size_t i = 0; i < t->runs; i++)
    outside += !(t->got_err[i] <= atol_p + rtol_p * t->got_w[i]);
  for (size_t i = 0; i < t->nout; i++)
    outside += !(t->outs[i].b <= atol_p + rtol_p * fabs(t->outs[i].w));
  printf("%s: h=%u runs=%zu outputs=%zu out=%s", v->name, t->info.h, t->runs, t->nout,
         rf_dtype_name(v->out_dtype));
  if (t->info.special) printf(" (%zu outputs of NaN/inf rows: exact IEEE classes)", t->info.special);
  if (t->info.unbounded) printf(" (%zu outputs beyond the analysis left out)", t->info.unbounded);
  if (t->unsupported) printf(" (%zu runs unsupported: %s)", t->unsupported, t->first_unsupported);
  printf("\n  bound:    abs=%s rel=%s\n", rf_tol_up3(babs, c, sizeof c), rf_tol_up3(brel, d, sizeof d));
  printf("  observed: abs=%s err/bound=%s\n", rf_tol_up3(t->obs_abs, c, sizeof c),
         rf_tol_up3(t->obs_ratio, d, sizeof d));
  printf("  assert_close: rtol=%s atol=%s", a, b);
  printf(" | atol only: rtol=0 atol=%s", rf_tol_up3(babs, c, sizeof c));
  printf(" | rtol only: rtol=%s atol=0%s\n", rf_tol_up3(brel, d, sizeof d),
         isfinite(brel) ? "" : " (none: an exact 0 with a non-zero bound)");
  if (outside) {   /* the derivation above is wrong: never hand out such a figure */
    printf("%s: INTERNAL: %zu bound(s) or observed error(s) outside the pair printed\n",
           v->name, outside);
    return 1;
  }
  return 0;
}

static void print_assumptions(const rf_tol_sweep *s, size_t na, size_t nb) {
  if (is_row_op(s->op))
    printf("assumptions: %s; rows %llu..%llu (%zu sizes), cols %llu..%llu (%zu sizes: the powers "
           "of two, an odd size between each, the ends)", rf_op_name(s->op),
           (unsigned long long)s->rows_lo, (unsigned long long)s->rows_hi, na,
           (unsigned long long)s->cols_lo, (unsigned long long)s->cols_hi, nb);
  else
    printf("assumptions: %s; sizes %llu..%llu (%zu sizes)", rf_op_name(s->op),
           (unsigned long long)s->n_lo, (unsigned long long)s->n_hi, na);
  printf("; dists");
  for (size_t i = 0; i < s->nd; i++) printf("%s%s", i ? "," : " ", rf_dist_name(s->dists[i]));
  printf("; seeds 1..%u; each variant's default launch and input type. ", s->seeds);
  if (!is_row_op(s->op)) {
    printf("An exact op: a correct kernel returns one of the inputs, so compare exactly "
           "(rtol=0, atol=0; equal_nan=True where the contract propagates NaN).\n");
    return;
  }
  printf("bound: the judge's allowed error of every output against the exact value w, from the "
         "variant's plan and this backend's exp/log (docs/TOLERANCES.md: softmax "
         "rel_j*y_j + floor; logsumexp absolute; log-softmax y_abs + y_rel*|y_j|), widened by a "
         "16-bit output's rounding. assert_close(a, b) with a the kernel's output as float and b "
         "the exact value (a float64 reference): |a - b| <= atol + rtol*|b| holds for every "
         "output of this sweep (rtol from the outputs >= 2^-126, atol the rest). Rows with a NaN "
         "or +-inf output are IEEE classes (equal_nan=True), not tolerances. Outside these "
         "sizes and dists the figures do not hold: sweep what your test draws.\n");
}

int rf_tolerance_ops(rf_runner *r, const rf_tol_sweep *s) {
  uint64_t a[MAX_SIZES], b[MAX_SIZES];
  size_t na, nb = 0;
  rf_limits lim = rf_runner_limits(r);
  uint64_t rows_hi = s->rows_hi, cols_hi = s->cols_hi, n_hi = s->n_hi;
  if (is_row_op(s->op)) {
    if (s->cols_lo > lim.max_cols) {
      fprintf(stderr, "redfuzz tolerance: --cols-range: starts at %llu, above %u, this backend's "
              "longest row\n", (unsigned long long)s->cols_lo, lim.max_cols);
      return RF_EXIT_USAGE;
    }
    if (s->rows_lo > lim.max_elems / s->cols_lo) {
      fprintf(stderr, "redfuzz tolerance: --rows-range: %llu rows of %llu columns is above this "
              "backend's largest case (rows*cols <= %llu)\n", (unsigned long long)s->rows_lo,
              (unsigned long long)s->cols_lo, (unsigned long long)lim.max_elems);
      return RF_EXIT_USAGE;
    }
    /* Nothing is dropped: a range that reaches past the backend is refused, not cut. */
    if (cols_hi > lim.max_cols) {
      fprintf(stderr, "redfuzz tolerance: --cols-range: HI %llu is above %u, this backend's "
              "longest row (allowed: 1 <= LO <= HI <= %u)\n", (unsigned long long)cols_hi,
              lim.max_cols, lim.max_cols);
      return RF_EXIT_USAGE;
    }
    if (rows_hi * cols_hi > lim.max_elems) {
      fprintf(stderr, "redfuzz tolerance: --rows-range and --cols-range: %llu rows of %llu "
              "columns is above this backend's largest case (allowed: rows*cols <= %llu)\n",
              (unsigned long long)rows_hi, (unsigned long long)cols_hi,
              (unsigned long long)lim.max_elems);
      return RF_EXIT_USAGE;
    }
    /* No shape of more rows than this fits at the shortest row: the rest would be left out. */
    if (rows_hi > lim.max_elems / s->cols_lo) {
      fprintf(stderr, "redfuzz tolerance: note: rows-range clamped from %llu to %llu, this "
              "backend's largest case at %llu columns\n", (unsigned long long)rows_hi,
              (unsigned long long)(lim.max_elems / s->cols_lo), (unsigned long long)s->cols_lo);
      rows_hi = lim.max_elems / s->cols_lo;
    }
    na = rf_study_sizes(s->rows_lo, rows_hi, a, MAX_SIZES);
    nb = rf_study_sizes(s->cols_lo, cols_hi, b, MAX_SIZES);
  } else {
    if (s->n_lo > lim.max_n) {
      fprintf(stderr, "redfuzz tolerance: --n-range: starts above %llu, this backend's largest "
              "n\n", (unsigned long long)lim.max_n);
      return RF_EXIT_USAGE;
    }
    if (n_hi > lim.max_n) {
      fprintf(stderr, "redfuzz tolerance: --n-range: HI %llu is above %llu, this backend's "
              "largest n (REDFUZZ_MAX_N sets it; allowed: 1 <= LO <= HI <= %llu)\n",
              (unsigned long long)n_hi, (unsigned long long)lim.max_n,
              (unsigned long long)lim.max_n);
      return RF_EXIT_USAGE;
    }
    na = rf_study_sizes(s->n_lo, n_hi, a, MAX_SIZES);
  }
  tol_ops_variant *V = calloc(s->nv, sizeof *V);
  if (!V) { fprintf(stderr, "redfuzz tolerance: out of memory\n"); return RF_EXIT_FAIL; }
  for (size_t i = 0; i < s->nv; i++) V[i].v = s->vars[i];
  float *x = NULL;
  size_t xcap = 0;
  int rc = 0;
  rf_cli_catch_signals();
  uint64_t runs = 0;
  rf_progress *P = rf_progress_start(
      "tolerance", "runs", (uint64_t)s->nd * na * (is_row_op(s->op) ? nb : 1) * s->seeds * s->nv, r);
  for (size_t di = 0; di < s->nd && !rc && !rf_cli_interrupted; di++)
    for (size_t ai = 0; ai < na && !rc && !rf_cli_interrupted; ai++)
      for (size_t bi = 0; bi < (is_row_op(s->op) ? nb : 1) && !rc && !rf_cli_interrupted; bi++) {
        for (unsigned seed = 1; seed <= s->seeds && !rc && !rf_cli_interrupted; seed++)
          for (size_t vi = 0; vi < s->nv && !rc; vi++) {
            rf_case c;
            rf_case_default(&c);
            c.op = s->op;
            if (is_row_op(s->op)) { c.n = 0; c.rows = (uint32_t)a[ai]; c.cols = (uint32_t)b[bi]; }
            else c.n = a[ai];
            c.dist = s->dists[di];
            c.seed = seed;
            if (P) {
              char on[160], what[96];
              rf_progress_case_text(&c, what, sizeof what);
              snprintf(on, sizeof on, "%s on %s seed %u", V[vi].v->name, what, seed);
              rf_progress_set(P, runs, on);
            }
            runs++;
            rc = one(r, &V[vi], &c, &x, &xcap);
          }
      }
  rf_progress_stop(P);
  free(x);
  if (!rc && rf_cli_interrupted) {
    fprintf(stderr, "redfuzz tolerance: interrupted (signal %d): no figures from a partial "
            "sweep\n", (int)rf_cli_interrupted);
    rc = 128 + (int)rf_cli_interrupted;
  }
  if (!rc) {
    rf_tol_sweep shown = *s;
    shown.rows_hi = rows_hi;
    shown.cols_hi = cols_hi;
    shown.n_hi = n_hi;
    print_assumptions(&shown, na, nb);
    int failed = 0;
    for (size_t i = 0; i < s->nv; i++)
      failed |= is_row_op(s->op) ? print_rows(&V[i]) : print_exact(&V[i]);
    rc = failed ? RF_EXIT_FAIL : RF_EXIT_OK;
  }
  for (size_t i = 0; i < s->nv; i++) {
    free(V[i].outs);
    free(V[i].got_err);
    free(V[i].got_w);
  }
  free(V);
  return rc;
}
