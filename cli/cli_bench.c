/* redfuzz bench: times every variant (median of per-launch device-event times) beside the
 * device's copy bandwidth and, on cuda, CUB; every row carries an oracle verdict so a fast
 * but wrong kernel never tops the table. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run/backend.h"
#include "model/number.h"
#include "run/bench.h"
#include "run/launch_prep.h"
#include "run/contain.h"
#include "run/case_outputs.h"
#include "model/gen.h"
#include "run/report.h"
#include "kernels/reference/cub_ref.h"
#include "progress.h"

#define RF_FLAGS_DEF "flags_bench.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz bench [options]\n"
  "\n"
  "Times every variant that is not a mutant (or only --variant, mutants included) on uniform\n"
  "random input (seed 1): W untimed launches, then R launches each timed alone with device\n"
  "events; prints the median. Beside each size: the device-to-device copy of the input (the\n"
  "bandwidth ceiling) and, on the cuda backend, cub::DeviceReduce. Each variant's verdict\n"
  "comes from the runner (the same case against the exact oracle, with poison, guard and\n"
  "determinism checks) and, for the 1-D ops, from the output of the last timed launch.\n"
  "\n";
static const char help_tail[] =
  "\n"
  "Columns: GB/s = logical bytes / median time, where the 1-D ops move 4n+4 bytes and\n"
  "softmax and logsoftmax 2*rows*cols*4, logsumexp (rows*cols+rows)*4; the copy row moves 2x\n"
  "the input (read + write). %copy = GB/s as a\n"
  "percentage of the copy's. x_ref = median_ms / the reference's (CUB for the 1-D ops,\n"
  "torch for softmax): below 1 is faster than the reference.\n"
  "Ctrl-C stops after the current row and prints the notes (exit 130).\n"
  "Exit status: 0 every verdict passed, 1 a failure verdict or device error, 2 bad usage.\n";

#define MAX_SIZES 16
#define BENCH "redfuzz bench"

typedef struct {
  int want_op[RF_OP_COUNT];
  uint64_t n[MAX_SIZES];
  uint32_t rows[MAX_SIZES], cols[MAX_SIZES];
  uint64_t block[MAX_SIZES];
  size_t n_count, shape_count, block_count;
  unsigned warmup, repeat;
  const rf_variant *only;
  double torch_ms;   /* NAN when not given */
  int json;
} bench_opts;

/* ---- flags ------------------------------------------------------------------------------ */
static int parse_flags(int argc, char **argv, bench_opts *o) {
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("bench", rf_flags, RF_FLAG_COUNT, argc, argv, v, NULL, 0, NULL, help,
                         help_tail);
  if (p) return p;
  int rc = -1;
  int op_given = v[F_OP].num != RF_OP_COUNT;   /* "all" is the name after the ops */
  rf_op op = op_given ? (rf_op)v[F_OP].num : RF_OP_SUM;
  o->n_count = v[F_N].count;
  for (size_t k = 0; k < v[F_N].count; k++) o->n[k] = v[F_N].list[k];
  o->shape_count = v[F_SHAPE].count;
  for (size_t k = 0; k < v[F_SHAPE].count; k++) {
    o->rows[k] = (uint32_t)v[F_SHAPE].list[2 * k];
    o->cols[k] = (uint32_t)v[F_SHAPE].list[2 * k + 1];
  }
  o->block_count = v[F_BLOCK].count;
  for (size_t k = 0; k < v[F_BLOCK].count; k++) o->block[k] = v[F_BLOCK].list[k];
  o->warmup = (unsigned)v[F_WARMUP].num;
  o->repeat = (unsigned)v[F_REPEAT].num;
  o->json = v[F_JSON].given != 0;
  if (v[F_TORCH_MS].given) o->torch_ms = v[F_TORCH_MS].real;
  if (v[F_VARIANT].given) {
    o->only = rf_variant_find(v[F_VARIANT].text);
    if (!o->only) {
      rf_cli_check_variant("bench", &rf_flags[F_VARIANT], v[F_VARIANT].text, -1);
      goto out;
    }
  }
  if (o->only && op_given && o->only->op != op) {
    fprintf(stderr, BENCH ": --variant %s is a %s variant, but --op is %s\n", o->only->name,
            rf_op_name(o->only->op), rf_op_name(op));
    goto out;
  }
  if (o->only) { op_given = 1; op = o->only->op; }
  for (int k = 0; k < RF_OP_COUNT; k++) o->want_op[k] = !op_given || (rf_op)k == op;
  int one_d = 0, rows = 0;   /* some 1-D op (they take --n), some row op (--shape) */
  for (int k = 0; k < RF_OP_COUNT; k++) {
    one_d |= o->want_op[k] && !rf_op_has_rows((rf_op)k);
    rows |= o->want_op[k] && rf_op_has_rows((rf_op)k);
  }
  char ops1[128], ops1_and[128];   /* the 1-D ops, from the op table */
  rf_op_list_of(0, ", ", ops1, sizeof ops1);
  rf_op_list_of(0, " and ", ops1_and, sizeof ops1_and);
  if (v[F_N].given && !one_d) {
    rf_flag_error("bench", &rf_flags[F_N], v[F_N].text, "would never run (allowed: with --op "
                  "%s or all; softmax takes --shape)", ops1);
    goto out;
  }
  if (v[F_SHAPE].given && !rows) {
    rf_flag_error("bench", &rf_flags[F_SHAPE], v[F_SHAPE].text, "would never run (allowed: "
                  "with --op softmax, logsumexp, logsoftmax or all; %s take --n)", ops1_and);
    goto out;
  }
  /* torch's time is a softmax row's reference: with an --op that runs no softmax it would
   * fill nothing (the message asked for a softmax --shape, which that --op refuses too). */
  if (!isnan(o->torch_ms) && !o->want_op[RF_OP_SOFTMAX]) {
    rf_flag_error("bench", &rf_flags[F_TORCH_MS], v[F_TORCH_MS].text, "applies to softmax only "
                  "(allowed: with --op softmax or all and one softmax --shape)");
    goto out;
  }
  if (!isnan(o->torch_ms) && o->shape_count != 1) {
    fprintf(stderr, BENCH ": --torch-ms needs exactly one softmax --shape (got %zu)\n",
            o->want_op[RF_OP_SOFTMAX] ? o->shape_count : (size_t)0);
    goto out;
  }
  rc = 0;
out:
  rf_flags_free(v, RF_FLAG_COUNT);
  return rc;
}

/* ---- rows ------------------------------------------------------------------------------- */
typedef struct {
  const rf_case *c;
  const char *name;
  const char *verdict;   /* "pass", "wrong", ... "-" (copy), "unverified" */
  int timed_only;        /* verdict from the timed output alone (beyond the runner's limits) */
  double ms, gbps, pct_copy, x_ref;   /* NAN: not applicable */
  char detail[512];
} bench_row;

static void size_text(const rf_case *c, char *buf, size_t len) {
  if (rf_op_has_rows(c->op)) snprintf(buf, len, "%ux%u", c->rows, c->cols);
  else snprintf(buf, len, "%llu", (unsigned long long)c->n);
}

static void cell(double v, int width, int prec) {
  if (isnan(v)) printf(" %*s", width, "-");
  else printf(" %*.*f", width, prec, v);
}


static void print_header(void) {
  printf("%-8s %-12s %-30s %-17s %10s %9s %7s %8s  %s\n", "op", "size", "variant", "verdict",
         "median_ms", "GB/s", "%copy", "x_ref", "detail (failures, unsupported)");
}

static void print_row(const bench_opts *o, const bench_row *r) {
  char size[48], verdict[40];
  size_text(r->c, size, sizeof size);
  snprintf(verdict, sizeof verdict, "%s%s", r->verdict, r->timed_only ? "*" : "");
  if (o->json) {
    printf("{\"op\":\"%s\"", rf_op_name(r->c->op));
    if (rf_op_has_rows(r->c->op)) printf(",\"rows\":%u,\"cols\":%u", r->c->rows, r->c->cols);
    else printf(",\"n\":%llu", (unsigned long long)r->c->n);
    printf(",\"variant\":");
    rf_json_string(stdout, r->name);
    printf(",\"verdict\":");
    rf_json_string(stdout, r->verdict);
    printf(",\"timed_output_only\":%s", r->timed_only ? "true" : "false");
    rf_json_number(stdout, "median_ms", r->ms);
    rf_json_number(stdout, "gbps", r->gbps);
    rf_json_number(stdout, "pct_copy", r->pct_copy);
    rf_json_number(stdout, "x_ref", r->x_ref);
    printf(",\"detail\":");
    rf_json_string(stdout, r->detail);
    printf("}\n");
  } else {
    printf("%-8s %-12s %-30s %-17s", rf_op_name(r->c->op), size, r->name, verdict);
    cell(r->ms, 10, 4);
    cell(r->gbps, 9, 1);
    cell(r->pct_copy, 7, 1);
    cell(r->x_ref, 8, 2);
    printf("%s%s\n", r->detail[0] ? "  " : "", r->detail);
  }
  rf_cli_out_check("bench");   /* a failed row stops the bench (checked in the loops) */
}

/* ---- one size: input, ceiling, reference, variants --------------------------------------- */
typedef struct {
  const bench_opts *o;
  rf_runner *runner;
  rf_limits limits;       /* the runner's: larger cases are checked from the timed output */
  int is_sim, failed, any_timed_only;
  double *samples;
  rf_progress *progress;  /* stderr lines while it runs (progress.h), or NULL */
  uint64_t sizes_done;
} bench_run;

typedef struct {
  rf_case c;
  float *x;               /* host input */
  void *in, *out;         /* device input and output (plain buffers: speed, not checks) */
  size_t in_bytes, out_bytes;
  double bytes;           /* logical bytes per launch */
  double copy_gbps;       /* the ceiling */
  double ref_ms;          /* CUB or torch; NAN when none */
} bench_size;

typedef struct { void *dst; const void *src; size_t bytes; } copy_ctx;
static int launch_copy(void *p) {
  copy_ctx *k = p;
  return rf_dev_copy(k->dst, k->src, k->bytes);
}

typedef struct {
  rf_op op;
  void *tmp;
  size_t tmp_bytes;
  const float *x;
  void *out;
  uint64_t n;
} cub_ctx;
static int launch_cub(void *p) {
  cub_ctx *k = p;
  return rf_cub_reduce(k->op, k->tmp, &k->tmp_bytes, k->x, k->out, k->n);
}

/* ended: what the variant's code did when a launch did not return (run/contain.h), its crash. */
typedef struct { const rf_variant *v; rf_launch_args a; char ended[256]; } variant_ctx;
static int launch_variant(void *p) {
  variant_ctx *k = p;
  int e = 0;
  if (rf_contained_launch(k->v, &k->a, &e, k->ended, sizeof k->ended)) return -2;
  return e;
}

static const char *error_text(int e) {
  return e == -1 ? "device timer failed" : rf_dev_error_string(e);
}

/* Times fn; fills r->ms, r->gbps, r->pct_copy, r->x_ref. 0, or -1 with r->detail set. */
static int time_row(bench_run *b, const bench_size *s, rf_bench_launch_fn fn, void *ctx,
                    double bytes, bench_row *r) {
  int e = rf_bench_time(fn, ctx, b->o->warmup, b->o->repeat, b->samples);
  if (e) {
    /* The simulator names what went wrong (a divergent barrier, a timeout) and where: the
     * runner's verdict for that status (run/launch_prep.h). */
    int st = rf_dev_sim_take_status(r->detail, sizeof r->detail);
    rf_verdict v = rf_launch_status_verdict(st);
    if (!st) snprintf(r->detail, sizeof r->detail, "%s", error_text(e));
    r->verdict = rf_verdict_name(v);
    b->failed = 1;
    return -1;
  }
  r->ms = rf_bench_median(b->samples, b->o->repeat);
  r->gbps = rf_bench_gbps(bytes, r->ms);
  r->pct_copy = 100.0 * r->gbps / s->copy_gbps;
  r->x_ref = r->ms / s->ref_ms;
  return 0;
}

static void row_init(bench_row *r, const bench_size *s, const char *name) {
  memset(r, 0, sizeof *r);
  r->c = &s->c;
  r->name = name;
  r->verdict = "-";
  r->ms = r->gbps = r->pct_copy = r->x_ref = NAN;
}

static int within_limits(const rf_case *c, const rf_limits *lim) {
  char err[256];
  return rf_case_validate(c, lim, err, sizeof err) == 0;
}

static void bench_copy(bench_run *b, bench_size *s) {
  bench_row r;
  row_init(&r, s, "copy (ceiling)");
  void *dst = NULL;
  int e = rf_dev_alloc(&dst, s->in_bytes);
  copy_ctx k = {dst, s->in, s->in_bytes};
  if (e) {
    snprintf(r.detail, sizeof r.detail, "cannot allocate the copy's destination: %s",
             rf_dev_error_string(e));
    b->failed = 1;
  } else if (time_row(b, s, launch_copy, &k, 2.0 * (double)s->in_bytes, &r) == 0) {
    s->copy_gbps = r.gbps;
    r.pct_copy = 100;
  }
  rf_dev_free(dst);
  print_row(b->o, &r);
}

/* CUB has no error bound we could derive (its tree is private): max and argmax are checked
 * exactly, sum against the bound of any summation order, γ_(n−1)·Σ|x_i| (Higham §4.2). */
static void bench_cub(bench_run *b, bench_size *s) {
  const rf_case *c = &s->c;
  bench_row r;
  row_init(&r, s, rf_cub_name(c->op));
  cub_ctx k = {c->op, NULL, 0, s->in, s->out, c->n};
  int e = rf_cub_reduce(c->op, NULL, &k.tmp_bytes, s->in, s->out, c->n);
  if (!e) e = rf_dev_alloc(&k.tmp, k.tmp_bytes);
  if (e) {
    snprintf(r.detail, sizeof r.detail, "%s", error_text(e));
    r.verdict = rf_verdict_name(RF_V_LAUNCH_ERROR);
    b->failed = 1;
  } else if (time_row(b, s, launch_cub, &k, s->bytes, &r) == 0) {
    s->ref_ms = r.ms;
    r.x_ref = 1;
    unsigned char got[sizeof(rf_argmax_out64)];
    rf_plan any_order = {0};
    rf_plan_add(&any_order, RF_LEVEL_CHAIN, c->n - 1);
    snprintf(r.detail, sizeof r.detail, "cannot read the output back");
    /* CUB's argmax writes the 8-byte pair (kernels/reference/cub_ref.h): index_bits 0 */
    rf_verdict v = rf_dev_download(got, s->out, rf_runner_output_bytes(c, RF_DTYPE_F32, 0))
                       ? RF_V_LAUNCH_ERROR
                       : rf_bench_check_1d(c->op, 0, &any_order, s->x, c->n, got, r.detail,
                                           sizeof r.detail);
    r.verdict = rf_verdict_name(v);
    b->failed |= rf_verdict_is_failure(v);
  }
  rf_dev_free(k.tmp);
  print_row(b->o, &r);
}

/* The runner's verdict (when the case is within its limits) and, for 1-D ops, the check of
 * the last timed output; the first failure wins. */
static void verify(bench_run *b, const bench_size *s, const rf_case *cb, const rf_variant *v,
                   const rf_plan *plan, bench_row *r) {
  rf_case c = *cb;
  snprintf(c.variant, sizeof c.variant, "%s", v->name);
  rf_verdict verdict = RF_V_PASS;
  int checked = 0;
  if (within_limits(&c, &b->limits)) {
    rf_result res;
    char err[256];
    int n = rf_runner_run(b->runner, &c, &res, 1, err, sizeof err);
    if (n == 1) {
      verdict = res.verdict;
      if (res.detail[0] || !rf_verdict_is_failure(verdict))
        snprintf(r->detail, sizeof r->detail, "%s", res.detail);
      else
        snprintf(r->detail, sizeof r->detail, "got %.9g want %.17g: error %.3g, bound %.3g",
                 (double)res.got, res.want, res.err, res.bound);
      checked = 1;
    } else {
      verdict = RF_V_LAUNCH_ERROR;
      snprintf(r->detail, sizeof r->detail, "runner: %s", n < 0 ? err : "variant filtered out");
    }
  }
  if (!rf_op_has_rows(c.op) && !rf_verdict_is_failure(verdict)) {
    unsigned char got[sizeof(rf_argmax_out64)];
    char detail[256] = "cannot read the output back";
    rf_verdict t = rf_dev_download(got, s->out, rf_runner_output_bytes(&c, RF_DTYPE_F32,
                                                                      v->index_bits))
                       ? RF_V_LAUNCH_ERROR
                       : rf_bench_check_1d(c.op, v->index_bits, plan, s->x, c.n, got, detail,
                                           sizeof detail);
    if (rf_verdict_is_failure(t) || !checked) {
      verdict = t;
      snprintf(r->detail, sizeof r->detail, "%s%s", detail[0] ? "timed output: " : "", detail);
    }
    r->timed_only = !checked;
    checked = 1;
  }
  r->verdict = checked ? rf_verdict_name(verdict) : "unverified";
  b->any_timed_only |= r->timed_only;
  b->failed |= checked && rf_verdict_is_failure(verdict);
}

static void bench_variant(bench_run *b, bench_size *s, const rf_variant *v, uint32_t block) {
  rf_case cb = s->c;   /* the case as the runner verifies it: with the block asked for */
  cb.block = block;
  if (b->progress) {
    char on[160], what[96];
    rf_progress_case_text(&cb, what, sizeof what);
    snprintf(on, sizeof on, "%s on %s, block %u", v->name, what, block);
    rf_progress_set(b->progress, b->sizes_done, on);
  }
  const rf_case *c = &cb;
  const rf_device_info *d = rf_runner_device(b->runner);
  bench_row r;
  char name[96];
  if (block) snprintf(name, sizeof name, "%s@b%u", v->name, block);
  else snprintf(name, sizeof name, "%s", v->name);
  row_init(&r, s, name);
  char size[48];
  size_text(c, size, sizeof size);
  fprintf(stderr, BENCH ": %s %s: %s\n", rf_op_name(c->op), size, name);
  variant_ctx k = {.v = v, .a = {.x = s->in, .out = s->out}};
  /* Configured, refused and bounded as the runner does (run/launch_prep.h). */
  rf_plan plan = {0};
  size_t sb = 0;
  rf_result prep = {.variant = v};
  if (rf_launch_prepare(v, c, d, &k.a.cfg, &plan, &sb, &prep)) {
    r.verdict = rf_verdict_name(prep.verdict);
    snprintf(r.detail, sizeof r.detail, "%s", prep.detail);
    b->failed |= rf_verdict_is_failure(prep.verdict);
    print_row(b->o, &r);
    return;
  }
  void *scratch = NULL;
  int e = sb ? rf_dev_alloc(&scratch, sb) : 0;
  k.a.scratch = scratch;
  if (e) {
    r.verdict = rf_verdict_name(RF_V_LAUNCH_ERROR);
    snprintf(r.detail, sizeof r.detail, "cannot allocate %zu scratch bytes: %s", sb,
             rf_dev_error_string(e));
    b->failed = 1;
  } else {
    rf_dev_sim_configure(c->sched, c->seed, c->wave);
    if (time_row(b, s, launch_variant, &k, s->bytes, &r) == 0) {
      verify(b, s, c, v, &plan, &r);
    } else if (k.ended[0]) {
      r.verdict = rf_verdict_name(RF_V_CRASH);
      snprintf(r.detail, sizeof r.detail, "%s", k.ended);
    }
  }
  rf_dev_free(scratch);
  if (!rf_cli_interrupted) print_row(b->o, &r);   /* a row cut short by a stop is no row */
}

static int keep_variant(const bench_opts *o, const rf_variant *v, rf_op op) {
  /* float32 inputs only: the bench's buffers and its judge are float32 (16-bit variants are
   * checked by run, sweep and fuzzing, not timed yet) */
  if (v->op != op || v->in_dtype != RF_DTYPE_F32) return 0;
  return o->only ? v == o->only : !v->is_mutant;
}

static void bench_one_size(bench_run *b, const rf_case *c) {
  bench_size s = {.c = *c, .ref_ms = NAN, .copy_gbps = NAN};
  uint64_t elems = rf_case_elems(c);
  s.in_bytes = (size_t)elems * sizeof(float);
  /* the bench's variants: float32, an argmax pair of either index width (the larger) */
  s.out_bytes = rf_runner_output_bytes(c, RF_DTYPE_F32, 64);
  s.bytes = rf_bench_bytes(c->op, c->n, c->rows, c->cols);
  s.x = malloc(s.in_bytes);
  int e = -1;
  if (s.x) {
    rf_generate(c, s.x);
    e = rf_dev_alloc(&s.in, s.in_bytes);
    if (!e) e = rf_dev_alloc(&s.out, s.out_bytes);
    if (!e) e = rf_dev_upload(s.in, s.x, s.in_bytes);
  }
  if (e) {
    char size[48];
    size_text(c, size, sizeof size);
    fprintf(stderr, BENCH ": %s %s: cannot prepare the input: %s\n", rf_op_name(c->op), size,
            s.x ? rf_dev_error_string(e) : "out of host memory");
    b->failed = 1;
  } else {
    bench_copy(b, &s);
    if (c->op == RF_OP_SOFTMAX) s.ref_ms = b->o->torch_ms;
    else if (!rf_op_has_rows(c->op) && rf_cub_available()) bench_cub(b, &s);
    for (size_t i = 0; i < rf_variant_count(); i++)
      if (keep_variant(b->o, rf_variant_at(i), c->op) && !rf_cli_interrupted &&
          !rf_cli_out_failed)
        for (size_t k = 0; k < b->o->block_count && !rf_cli_interrupted && !rf_cli_out_failed;
             k++)
          bench_variant(b, &s, rf_variant_at(i), (uint32_t)b->o->block[k]);
  }
  rf_dev_free(s.in);
  rf_dev_free(s.out);
  free(s.x);
}

/* The cases to time, in table order; on the simulator, sizes beyond the runner's limits are
 * refused (it runs one fiber per GPU thread: such a size would take hours). */
static int collect_cases(const bench_opts *o, const rf_limits *lim, int is_sim, rf_case *out,
                         size_t *count) {
  *count = 0;
  for (int op = 0; op < RF_OP_COUNT; op++) {
    if (!o->want_op[op]) continue;
    size_t sizes = rf_op_has_rows((rf_op)op) ? o->shape_count : o->n_count;
    for (size_t k = 0; k < sizes; k++) {
      rf_case c;
      rf_case_default(&c);
      c.op = (rf_op)op;
      c.dist = RF_DIST_UNIFORM;
      c.seed = 1;
      const int row_op = rf_op_has_rows((rf_op)op);
      c.n = row_op ? 0 : o->n[k];
      c.rows = row_op ? o->rows[k] : 0;
      c.cols = row_op ? o->cols[k] : 0;
      char err[256];
      if (rf_case_validate(&c, is_sim ? lim : NULL, err, sizeof err)) {
        fprintf(stderr, BENCH ": %s%s\n", err,
                is_sim ? " on the sim backend (pass smaller --n / --shape)" : "");
        return -1;
      }
      out[(*count)++] = c;
    }
  }
  return 0;
}

int rf_cmd_bench(int argc, char **argv) {
  bench_opts o = {.torch_ms = NAN};
  int p = parse_flags(argc, argv, &o);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;

  rf_runner *runner = rf_cli_runner("bench");
  if (!runner) return RF_EXIT_FAIL;
  const rf_device_info *d = rf_runner_device(runner);
  bench_run b = {.o = &o, .runner = runner, .limits = rf_runner_limits(runner),
                 .is_sim = rf_backend.is_sim};
  rf_case cases[RF_OP_COUNT * MAX_SIZES];
  size_t n_cases;
  if (collect_cases(&o, &b.limits, b.is_sim, cases, &n_cases)) {
    rf_runner_destroy(runner);
    return RF_EXIT_USAGE;
  }
  b.samples = malloc(o.repeat * sizeof *b.samples);
  if (!b.samples) { rf_runner_destroy(runner); return RF_EXIT_FAIL; }
  if (!o.json) {
    printf("device: %s (%s backend, wave %u, %u CUs)\n", d->name, d->backend, d->wave,
           d->num_cus);
    printf("input: uniform [-1, 1), seed 1; %u warmup, median of %u launches timed with device "
           "events\n", o.warmup, o.repeat);
    print_header();
  }
  rf_cli_catch_signals();
  b.progress = rf_progress_start("bench", "sizes", n_cases, runner);
  for (size_t i = 0; i < n_cases && !rf_cli_interrupted && !rf_cli_out_failed; i++) {
    b.sizes_done = i;
    bench_one_size(&b, &cases[i]);
  }
  rf_progress_stop(b.progress);
  if (rf_cli_interrupted)
    printf("bench: interrupted (signal %d): the table covers the rows timed so far\n",
           (int)rf_cli_interrupted);
  if (!o.json) {
    printf("\nGB/s: logical bytes / median time (the 1-D ops 4n+4, softmax and logsoftmax "
           "2*rows*cols*4, logsumexp (rows*cols+rows)*4; "
           "copy: 2x the input, read + write).\n%%copy: of the copy row's GB/s. x_ref: median_ms"
           " / the reference's (CUB; torch for softmax); below 1 is faster.\n");
    if (!rf_cub_available()) printf("CUB: n/a (cuda backend only)\n");
    if (o.want_op[RF_OP_SOFTMAX] && isnan(o.torch_ms))
      printf("torch: n/a (pass --torch-ms; scripts/bench.sh does)\n");
    if (b.any_timed_only)
      printf("*: the size is beyond the runner's limits: verdict from the last timed output "
             "against the exact oracle only (no poison, guard or determinism checks).\n");
  }
  free(b.samples);
  rf_runner_destroy(runner);
  if (rf_cli_interrupted) return 128 + (int)rf_cli_interrupted;
  return b.failed ? RF_EXIT_FAIL : RF_EXIT_OK;
}
