/* Greedy semantic shrinking (shrink.h). Each pass tries candidates from the most to the least
 * simplifying and keeps the first that still fails the same way; passes repeat until none
 * applies. Only the failing variant runs while shrinking, so each step costs one launch. */
#include <stdlib.h>
#include <string.h>
#include "shrink.h"
#include "report.h"
#include "model/file_out.h"

static int still_fails(rf_runner *r, const rf_case *c, const rf_signature *sig) {
  rf_case t = *c;
  snprintf(t.variant, sizeof t.variant, "%s", sig->variant);
  rf_result res[2];
  char err[256];
  int n = rf_runner_run(r, &t, res, 2, err, sizeof err);
  /* A run cut short by a stop (rf_dev_interrupt) tells nothing: not a smaller failing case. */
  return n == 1 && !rf_dev_interrupted() && res[0].verdict == sig->verdict &&
         res[0].rule == sig->rule;
}

/* Room for every variant of the registry (plugins included): a case never runs more. */
static rf_result *results_for_registry(size_t *max) {
  *max = rf_variant_count();
  return calloc(*max ? *max : 1, sizeof(rf_result));
}

int rf_first_failure(rf_runner *r, const rf_case *c, rf_signature *sig) {
  size_t max;
  rf_result *res = results_for_registry(&max);
  char err[256];
  int n = res ? rf_runner_run(r, c, res, max, err, sizeof err) : -1;
  int found = -1;
  if (rf_dev_interrupted()) n = 0;   /* cut short by a stop: no failure found */
  for (int i = 0; i < n && found; i++) {
    if (!rf_verdict_is_failure(res[i].verdict)) continue;
    snprintf(sig->variant, sizeof sig->variant, "%s", res[i].variant->name);
    sig->verdict = res[i].verdict;
    sig->rule = res[i].rule;
    found = 0;
  }
  free(res);
  return found;
}

/* Smaller sizes to try for v, most aggressive first: 0, 1, the seed boundaries, halves, -1. */
static size_t size_candidates(uint64_t v, uint64_t *out) {
  static const uint64_t fixed[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1027};
  size_t k = 0;
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (fixed[i] < v) out[k++] = fixed[i];
  for (uint64_t h = v / 2; h > 0 && k < 40; h /= 2) out[k++] = v - h;   /* v/2, 3v/4, ... */
  if (v > 0) out[k++] = v - 1;
  return k;
}

typedef int (*mutator)(rf_case *c, unsigned k);   /* returns 0 when k is past the last try */

/* The k-th smaller size to try for v into *out; 0 when the list is exhausted. */
static int smaller_size(uint64_t v, unsigned k, uint64_t *out) {
  uint64_t cand[64];
  if (k >= size_candidates(v, cand)) return 0;
  *out = cand[k];
  return 1;
}

static int try_n(rf_case *c, unsigned k) {
  return !rf_op_has_rows(c->op) && smaller_size(c->n, k, &c->n);
}
static int try_rows(rf_case *c, unsigned k) {
  uint64_t v;
  if (!rf_op_has_rows(c->op) || !smaller_size(c->rows, k, &v)) return 0;
  c->rows = (uint32_t)v;
  return 1;
}
static int try_cols(rf_case *c, unsigned k) {
  uint64_t v;
  if (!rf_op_has_rows(c->op) || !smaller_size(c->cols, k, &v)) return 0;
  c->cols = (uint32_t)v;
  return 1;
}
/* Plainer inputs first: ones, alternating, uniform, then everything else. A candidate is
 * tried only when it is plainer than the current distribution, so uniform still moves
 * towards ones and alternating. */
static unsigned plainness(rf_dist d) {
  return d == RF_DIST_ONES ? 0 : d == RF_DIST_ALTERNATING ? 1 : d == RF_DIST_UNIFORM ? 2 : 3;
}
static int try_dist(rf_case *c, unsigned k) {
  static const rf_dist order[] = {RF_DIST_ONES, RF_DIST_ALTERNATING, RF_DIST_UNIFORM};
  if (k >= 3) return 0;
  if (plainness(order[k]) >= plainness(c->dist)) return -1;
  c->dist = order[k];
  return 1;
}
/* A special-value input moves to the simplest input with the same special value, when that
 * keeps the failure: a NaN among finite values to a row of NaNs, infinities to a row of
 * -inf, ties at block boundaries to the planted maxima of equal-max (minima of equal-min). */
static int try_special(rf_case *c, unsigned k) {
  if (k >= 1) return 0;
  switch (c->dist) {
  case RF_DIST_NAN_SPRINKLED: c->dist = RF_DIST_ALL_NAN; return 1;
  case RF_DIST_INF_MIXED: c->dist = RF_DIST_ALL_NEG_INF; return 1;
  case RF_DIST_TIES: c->dist = RF_DIST_EQUAL_MAX; return 1;
  case RF_DIST_TIES_MIN: c->dist = RF_DIST_EQUAL_MIN; return 1;
  default: return -1;
  }
}
static int try_launch(rf_case *c, unsigned k) {
  switch (k) {
  case 0: if (!c->block) return -1; c->block = 0; return 1;
  case 1: if (!c->grid) return -1; c->grid = 0; return 1;
  case 2: if (!c->items) return -1; c->items = 0; return 1;
  case 3: if (c->sched == RF_SCHED_IN_ORDER) return -1; c->sched = RF_SCHED_IN_ORDER; return 1;
  case 4: if (c->wave == 32) return -1; c->wave = 32; return 1;
  case 5: if (!c->misalign) return -1; c->misalign = 0; return 1;   /* an aligned input */
  default: return 0;
  }
}
static int try_seed(rf_case *c, unsigned k) {
  static const uint64_t seeds[] = {0, 1, 2, 3};
  if (k >= 4) return 0;
  if (c->seed <= seeds[k]) return -1;
  c->seed = seeds[k];
  return 1;
}

int rf_shrink(rf_runner *r, rf_case *c, const rf_signature *sig, FILE *log) {
  static const mutator passes[] = {try_n,      try_rows,   try_cols, try_dist,
                                   try_special, try_launch, try_seed};
  static const char *const names[] = {"n", "rows", "cols", "dist", "dist", "launch", "seed"};
  rf_limits lim = rf_runner_limits(r);
  int steps = 0, changed = 1;
  while (changed && steps < 200 && !rf_dev_interrupted()) {
    changed = 0;
    for (size_t p = 0; p < sizeof passes / sizeof *passes; p++) {
      for (unsigned k = 0;; k++) {
        rf_case t = *c;
        int m = passes[p](&t, k);
        if (m == 0) break;
        if (m < 0 || rf_case_equal(&t, c)) continue;
        char why[128];
        if (rf_case_validate(&t, &lim, why, sizeof why) || !still_fails(r, &t, sig)) continue;
        *c = t;
        steps++;
        changed = 1;
        if (log) { fprintf(log, "shrink: %s -> ", names[p]); rf_report_case_line(log, c); }
        break;   /* restart this pass's candidates from the most aggressive */
      }
    }
  }
  return steps;
}

static uint64_t fnv1a(const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a 64 (Fowler, Noll, Vo) */
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 0x100000001b3ull; }
  return h;
}

int rf_write_regression(rf_runner *r, const rf_case *c, const rf_signature *sig, const char *dir,
                        char *path, size_t pathlen, char *err, size_t errlen) {
  rf_case all = *c;
  all.variant[0] = 0;
  size_t max;
  rf_result *res = results_for_registry(&max);
  if (!res) { snprintf(err, errlen, "out of host memory for %zu results", max); return -1; }
  int n = rf_runner_run(r, &all, res, max, err, errlen);
  if (n >= 0 && rf_dev_interrupted()) {   /* cut short by a stop: its verdicts mean nothing */
    snprintf(err, errlen, "interrupted before the regression file's verdicts were all made: "
             "nothing written");
    n = -1;
  }
  if (n < 0) { free(res); return -1; }
  uint8_t bytes[RF_CASE_ENCODED_MAX];
  size_t len = rf_case_encode(&all, bytes);
  char vname[RF_VARIANT_NAME_MAX];
  snprintf(vname, sizeof vname, "%s", sig->variant);
  for (char *q = vname; *q; q++) if (*q == '/') *q = '-';
  char want[4096];
  if (snprintf(want, sizeof want, "%s/%s-%s%s%s-%08llx.case", dir, vname,
               rf_verdict_name(sig->verdict), sig->rule ? "-" : "", rf_rule_name(sig->rule),
               (unsigned long long)(fnv1a(bytes, len) & 0xffffffffu)) >= (int)sizeof want) {
    snprintf(err, errlen, "%.80s...: the regression file's path is longer than %zu bytes", dir,
             sizeof want - 1);
    free(res);
    return -1;
  }
  rf_file *out = rf_file_open(want, err, errlen);
  if (!out) { free(res); return -1; }
  FILE *f = rf_file_stream(out);
  fprintf(f, "# redfuzz regression: %s gives '%s' on this case%s%s.\n", sig->variant,
          rf_verdict_name(sig->verdict), sig->rule ? ", contract rule " : "",
          rf_rule_name(sig->rule));
  for (int i = 0; i < n; i++)
    if (strcmp(res[i].variant->name, sig->variant) == 0 && res[i].detail[0])
      fprintf(f, "# detail: %s\n", res[i].detail);
  fprintf(f, "# Replayed by 'redfuzz replay'; the expect lines are every variant's verdict.\n");
  rf_case_write_text(&all, f);
  for (int i = 0; i < n; i++)
    fprintf(f, "expect %s %s\n", res[i].variant->name, rf_verdict_name(res[i].verdict));
  int rc = rf_file_commit(out, RF_FILE_NEW_NAME, path, pathlen, err, errlen);
  free(res);
  if (rc < 0) return -1;
  return rc == 1 ? 1 : strcmp(path, want) != 0 ? 2 : 0;
}
