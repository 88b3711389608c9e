/* redfuzz sweep: the cross product of sizes, distributions, launch parameters and simulator
 * schedules, every variant on each, in one process; one line per failure and a per-variant
 * summary. The boundary check the seeds ask for, done exhaustively. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "report.h"
#include "parse_count.h"

static const char help[] =
  "usage: redfuzz sweep [options]\n"
  "\n"
  "Runs every variant on every combination of the lists below (comma-separated) and prints\n"
  "one line per failing result, then per variant: runs, passed, unsupported, failed.\n"
  "Exit status 1 when a correct variant fails (mutants are reported, not counted).\n"
  "\n"
  "  --op LIST          ops (default: sum,max,argmax,softmax)\n"
  "  --n LIST           lengths, integers or 2^k (default: 0,1,31,32,33,255,256,257,1027)\n"
  "  --shape LIST       softmax shapes RxC (default: 1x1,2x31,3x32,4x33,2x255,3x257,1x0)\n"
  "  --dist LIST        distributions or 'all' (default: all)\n"
  "  --block LIST       block sizes, 0 = variant default (default: 0)\n"
  "  --grid LIST        first-kernel grids, 0 = default (default: 0)\n"
  "  --schedule LIST    simulator schedules or 'all' (default: in-order)\n"
  "  --wave LIST        simulator wave sizes (default: 32)\n"
  "  --seed LIST        seeds, integers or ranges a..b (at most 64 values; default: 1)\n"
  "  --variant NAME     only this variant\n"
  "  --skip LIST        leave these variants out (e.g. sum/atomic, to time the others)\n"
  "  --mutants          also run the mutants (their failures are listed as 'caught')\n"
  "  --quiet            no per-failure lines\n"
  "  --json             also print every result as a JSON line (for comparing backends)\n"
  "\n"
  "The summary ends with the verified runs per second (one kernel run checked against the\n"
  "oracle; deterministic variants are launched twice to check their bits) and where the time\n"
  "went. Cases run up to 32 at a time (one upload, launch sequence and synchronisation for\n"
  "all of them; softmax cases one at a time); REDFUZZ_SERIAL=1 runs one case and one launch\n"
  "per synchronisation, REDFUZZ_GRAPHS=0 and REDFUZZ_STREAMS=1 turn off launch graphs and\n"
  "streams on GPUs (README, 'How a case runs').\n";

#define MAXL 64
typedef struct { unsigned long long v[MAXL]; char s[MAXL][32]; int n; } list;

static int parse_list(const char *arg, list *l, int numeric) {
  l->n = 0;
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *tok = strtok(buf, ","); tok && l->n < MAXL; tok = strtok(NULL, ",")) {
    snprintf(l->s[l->n], sizeof l->s[0], "%s", tok);
    if (numeric && strstr(tok, "..")) {           /* a..b: every integer in between */
      char *end;
      unsigned long long a = strtoull(tok, &end, 0), b;
      if (strncmp(end, "..", 2) != 0) return -1;
      b = strtoull(end + 2, &end, 0);
      if (*end || b < a || b - a >= MAXL) return -1;
      for (unsigned long long v = a; v <= b && l->n < MAXL; v++) {
        snprintf(l->s[l->n], sizeof l->s[0], "%llu", v);
        l->v[l->n++] = v;
      }
      continue;
    }
    if (numeric) {
      uint64_t v;
      if (rf_parse_count(tok, &v)) return -1;
      l->v[l->n] = v;
    }
    l->n++;
  }
  return l->n ? 0 : -1;
}

typedef struct { const rf_variant *v; long runs, pass, unsup, fail; } tally;

/* Which variants run: mutants only with --mutants, none named by --skip (a comma list). */
typedef struct { int mutants; const char *skip; } sweep_filter;
static int in_comma_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == 0)) return 1;
  return 0;
}
static int sweep_keeps(const rf_variant *v, void *ctx) {
  const sweep_filter *f = ctx;
  return (f->mutants || !v->is_mutant) && !in_comma_list(f->skip, v->name);
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
  long cases, skipped;
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
    if (s->counts[i] < 0) { fprintf(stderr, "redfuzz sweep: %s\n", err); s->skipped++; continue; }
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

int rf_cmd_sweep(int argc, char **argv) {
  list ops, ns, shapes, dists, blocks, grids, scheds, waves, seeds;
  parse_list("sum,max,argmax,softmax", &ops, 0);
  parse_list("0,1,31,32,33,255,256,257,1027", &ns, 1);
  parse_list("1x1,2x31,3x32,4x33,2x255,3x257,1x0", &shapes, 0);
  parse_list("all", &dists, 0);
  parse_list("0", &blocks, 1);
  parse_list("0", &grids, 1);
  parse_list("in-order", &scheds, 0);
  parse_list("32", &waves, 1);
  parse_list("1", &seeds, 1);
  const char *variant = "", *skip = "";
  int mutants = 0, quiet = 0, json = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(help, stdout); return 0; }
    if (strcmp(a, "--mutants") == 0) { mutants = 1; continue; }
    if (strcmp(a, "--quiet") == 0) { quiet = 1; continue; }
    if (strcmp(a, "--json") == 0) { json = 1; continue; }
    if (i + 1 >= argc) { fprintf(stderr, "redfuzz sweep: unknown option or missing value: '%s'\n", a); return RF_EXIT_USAGE; }
    const char *v = argv[++i];
    list *l = NULL;
    int numeric = 0;
    if (strcmp(a, "--op") == 0) l = &ops;
    else if (strcmp(a, "--n") == 0) { l = &ns; numeric = 1; }
    else if (strcmp(a, "--shape") == 0) l = &shapes;
    else if (strcmp(a, "--dist") == 0) l = &dists;
    else if (strcmp(a, "--block") == 0) { l = &blocks; numeric = 1; }
    else if (strcmp(a, "--grid") == 0) { l = &grids; numeric = 1; }
    else if (strcmp(a, "--schedule") == 0) l = &scheds;
    else if (strcmp(a, "--wave") == 0) { l = &waves; numeric = 1; }
    else if (strcmp(a, "--seed") == 0) { l = &seeds; numeric = 1; }
    else if (strcmp(a, "--variant") == 0) { variant = v; continue; }
    else if (strcmp(a, "--skip") == 0) { skip = v; continue; }
    else { fprintf(stderr, "redfuzz sweep: unknown option '%s' (see redfuzz sweep --help)\n", a); return RF_EXIT_USAGE; }
    if (parse_list(v, l, numeric)) {
      fprintf(stderr, "redfuzz sweep: %s: '%s' is not valid (allowed: a comma-separated list%s)\n",
              a, v, numeric ? " of integers or 2^k" : "");
      return RF_EXIT_USAGE;
    }
  }
  if (strcmp(dists.s[0], "all") == 0) {
    dists.n = 0;
    for (int d = 0; d < RF_DIST_COUNT; d++) snprintf(dists.s[dists.n++], 32, "%s", rf_dist_name(d));
  }
  if (strcmp(scheds.s[0], "all") == 0) {
    scheds.n = 0;
    for (int d = 0; d < RF_SCHED_COUNT; d++) snprintf(scheds.s[scheds.n++], 32, "%s", rf_sched_name(d));
  }
  /* Validate names before starting. */
  for (int i = 0; i < ops.n; i++) { rf_op o; if (rf_op_parse(ops.s[i], &o)) { fprintf(stderr, "redfuzz sweep: --op: '%s' is not valid (allowed: sum, max, argmax, softmax)\n", ops.s[i]); return RF_EXIT_USAGE; } }
  for (int i = 0; i < dists.n; i++) { rf_dist d; if (rf_dist_parse(dists.s[i], &d)) { fprintf(stderr, "redfuzz sweep: --dist: '%s' is not a distribution (see redfuzz run --help)\n", dists.s[i]); return RF_EXIT_USAGE; } }
  for (int i = 0; i < scheds.n; i++) { rf_sched s; if (rf_sched_parse(scheds.s[i], &s)) { fprintf(stderr, "redfuzz sweep: --schedule: '%s' is not valid (allowed: in-order, reverse, random, wave-skew, all)\n", scheds.s[i]); return RF_EXIT_USAGE; } }
  for (int i = 0; i < shapes.n; i++) { unsigned r, c; char x; if (sscanf(shapes.s[i], "%u%c%u", &r, &x, &c) != 3 || x != 'x') { fprintf(stderr, "redfuzz sweep: --shape: '%s' is not RxC\n", shapes.s[i]); return RF_EXIT_USAGE; } }

  rf_runner *r = rf_cli_runner("sweep");
  if (!r) return RF_EXIT_FAIL;
  rf_limits lim = rf_runner_limits(r);
  for (const char *p = skip; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
    char name[RF_VARIANT_NAME_MAX];
    size_t len = strcspn(p, ",");
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
    if (!rf_variant_find(name)) {
      fprintf(stderr, "redfuzz sweep: --skip: '%s' is not a known variant (see redfuzz list)\n", name);
      rf_runner_destroy(r);
      return RF_EXIT_USAGE;
    }
  }
  sweep_filter filter = {mutants, skip};
  if (!variant[0]) rf_runner_set_filter(r, sweep_keeps, &filter);
  tally t[256] = {{0}};
  size_t nt = rf_variant_count() < 256 ? rf_variant_count() : 256;
  for (size_t i = 0; i < nt; i++) t[i].v = rf_variant_at(i);
  sweep_state *s = calloc(1, sizeof *s);
  rf_result *results = calloc((size_t)SWEEP_BATCH * SWEEP_MAX_RESULTS, sizeof *results);
  if (!s || !results) {
    fprintf(stderr, "redfuzz sweep: out of host memory\n");
    free(s);
    free(results);
    rf_runner_destroy(r);
    return RF_EXIT_FAIL;
  }
  *s = (sweep_state){.r = r, .t = t, .nt = nt, .mutants = mutants, .quiet = quiet, .json = json,
                     .res = results};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int oi = 0; oi < ops.n; oi++) {
    rf_op op;
    rf_op_parse(ops.s[oi], &op);
    int nsizes = op == RF_OP_SOFTMAX ? shapes.n : ns.n;
    for (int si = 0; si < nsizes; si++)
    for (int di = 0; di < dists.n; di++)
    for (int ki = 0; ki < seeds.n; ki++)
    for (int bi = 0; bi < blocks.n; bi++)
    for (int gi = 0; gi < grids.n; gi++)
    for (int ci = 0; ci < scheds.n; ci++)
    for (int wi = 0; wi < waves.n; wi++) {
      rf_case c;
      rf_case_default(&c);
      c.op = op;
      if (op == RF_OP_SOFTMAX) {
        unsigned rr, cc; char x;
        sscanf(shapes.s[si], "%u%c%u", &rr, &x, &cc);
        c.n = 0; c.rows = rr; c.cols = cc;
      } else {
        c.n = ns.v[si];
      }
      rf_dist_parse(dists.s[di], &c.dist);
      rf_sched_parse(scheds.s[ci], &c.sched);
      c.seed = seeds.v[ki];
      c.block = (uint32_t)blocks.v[bi];
      c.grid = (uint32_t)grids.v[gi];
      c.wave = (uint32_t)waves.v[wi];
      snprintf(c.variant, sizeof c.variant, "%s", variant);
      char err[512];
      if (rf_case_validate(&c, &lim, err, sizeof err)) { s->skipped++; continue; }
      add_case(s, &c);
    }
  }
  flush(s);
  long cases = s->cases, skipped = s->skipped;
  free(results);
  free(s);
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
  printf("sweep: %ld cases (%ld outside this backend's limits skipped) in %.2f s: %.0f verified "
         "runs/s\n", cases, skipped, secs, secs > 0 ? runs / secs : 0.0);
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
  printf("%ld passed, %ld failed\n", good, bad);
  rf_runner_destroy(r);
  return bad ? RF_EXIT_FAIL : RF_EXIT_OK;
}
