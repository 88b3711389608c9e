/* The runner (runner.h): generate → oracle → for each variant: poison, launch, check guards
 * and poison, compare against the oracle within the variant's derived bound. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "runner.h"
#include "gen.h"
#include "../oracle/exact.h"
#include "../oracle/bounds.h"
#include "buffers.h"

/* ---- the exact answer for one case ------------------------------------------------------ */
typedef struct {
  rf_xsum xs;              /* sum */
  rf_sum_facts facts;
  float max_value;         /* max, argmax */
  int64_t argmax_index;
  const double *y;         /* softmax: exact, rows*cols */
} oracle_answer;

#define RF_SIM_MAX_THREADS (1u << 20)

struct rf_runner {
  rf_device_info dev;
  rf_guarded in, out, scratch;   /* device buffers with guard zones */
  rf_host_buf x, y_exact, got, rel;
  rf_variant_filter keep;
  void *keep_ctx;
  /* The last case's input and exact answer: launch-parameter sweeps over one input (and the
   * shrinker) reuse them instead of generating, uploading and solving again. */
  int have_last;
  rf_case last;
  oracle_answer answer;
};

static int same_input(const rf_case *a, const rf_case *b) {
  return a->op == b->op && a->n == b->n && a->rows == b->rows && a->cols == b->cols &&
         a->seed == b->seed && a->dist == b->dist;
}

void rf_runner_set_filter(rf_runner *r, rf_variant_filter keep, void *ctx) {
  r->keep = keep;
  r->keep_ctx = ctx;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

rf_runner *rf_runner_create(char *err, size_t errlen) {
  rf_runner *r = calloc(1, sizeof *r);
  if (!r) { snprintf(err, errlen, "out of host memory"); return NULL; }
  int e = rf_dev_info(&r->dev);
  if (e) {
    snprintf(err, errlen, "no usable device: %s", rf_dev_error_string(e));
    free(r);
    return NULL;
  }
  return r;
}

void rf_runner_destroy(rf_runner *r) {
  if (!r) return;
  rf_guarded_free(&r->in);
  rf_guarded_free(&r->out);
  rf_guarded_free(&r->scratch);
  rf_host_buf_free(&r->x);
  rf_host_buf_free(&r->y_exact);
  rf_host_buf_free(&r->got);
  rf_host_buf_free(&r->rel);
  free(r);
}

const rf_device_info *rf_runner_device(const rf_runner *r) { return &r->dev; }

rf_limits rf_runner_limits(const rf_runner *r) {
  /* The simulator runs one fiber per GPU thread: keep its cases small enough for seconds. */
  if (strcmp(r->dev.backend, "sim") == 0) return (rf_limits){1u << 18, 1u << 18, 8192};
  /* GPUs: 1-D up to 2^26 (the study's range), softmax up to 2^24 elements. */
  return (rf_limits){1u << 26, 1u << 24, 65536};
}

static void compute_oracle(rf_runner *r, const rf_case *c, const float *x, uint64_t elems,
                           oracle_answer *o) {
  switch (c->op) {
  case RF_OP_SUM:
    rf_xsum_init(&o->xs);
    rf_xsum_add(&o->xs, x, elems);
    rf_sum_facts_compute(x, elems, &o->facts);
    break;
  case RF_OP_MAX: o->max_value = rf_oracle_max(x, elems); break;
  case RF_OP_ARGMAX: o->argmax_index = rf_oracle_argmax(x, elems, &o->max_value); break;
  case RF_OP_SOFTMAX: {
    double *y = rf_host_buf_get(&r->y_exact, elems * sizeof(double));
    if (elems) rf_oracle_softmax(x, c->rows, c->cols, y, NULL, NULL, 0);
    o->y = y;
    break;
  }
  default: break;
  }
}

/* ---- comparisons ------------------------------------------------------------------------ */
static double ratio_of(double err, double bound) {
  if (err == 0) return 0;
  if (bound == 0) return INFINITY;
  return err / bound;
}

static int same_float(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* The simulator's atomics are exact IEEE additions; GPU float atomics may flush subnormals
 * (NVIDIA's do: PTX ISA, atom.add.f32; AMD's are not documented here, so assumed to). */
static const rf_sum_model *sum_model_for(const rf_device_info *d) {
  return strcmp(d->backend, "sim") == 0 ? &RF_SUM_IEEE : &RF_SUM_ATOMIC_FTZ;
}

static void judge_sum(const rf_runner *r, const oracle_answer *o, const rf_plan *plan,
                      float got, rf_result *res) {
  rf_sum_bound b;
  rf_bound_sum_model(plan, &o->facts, sum_model_for(&r->dev), &b);
  res->got = got;
  res->want = rf_xsum_round_f64(&o->xs);
  res->bound = b.bound;
  res->abs_sum = o->facts.abs_sum_up;
  res->probabilistic = b.probabilistic;
  if (!o->facts.all_finite) {
    /* Non-finite inputs: the IEEE result (inf, -inf or NaN) is the only right answer. */
    float want = rf_xsum_round_f32(&o->xs);
    int ok = same_float(got, want);
    res->err = ok ? 0 : INFINITY;
    res->ratio = ok ? 0 : INFINITY;
    res->verdict = ok ? RF_V_PASS : isfinite(got) ? RF_V_WRONG : RF_V_NONFINITE;
    return;
  }
  if (!isfinite(got)) {
    /* Partial sums may overflow in some orders: ±inf, or NaN from opposite infinities in
     * two subtrees, is then a legitimate result (docs/TOLERANCES.md). */
    if (b.overflow_possible) {
      res->verdict = RF_V_PASS;
      snprintf(res->detail, sizeof res->detail, "%g accepted: partial sums may overflow", got);
      return;
    }
    res->verdict = RF_V_NONFINITE;
    res->err = INFINITY;
    res->ratio = INFINITY;
    return;
  }
  res->err = rf_xsum_abs_err_up(&o->xs, got);
  res->ratio = ratio_of(res->err, b.bound);
  res->verdict = rf_sum_within(&b, res->err) ? RF_V_PASS : RF_V_WRONG;
  /* Above the probabilistic level but within the bound: worth a look in the study. */
  res->suspicious = res->verdict == RF_V_PASS && res->err > b.probabilistic;
}

static void judge_max(const oracle_answer *o, float got, rf_result *res) {
  res->got = got;
  res->want = o->max_value;
  res->err = same_float(got, o->max_value) ? 0 : 1;
  res->ratio = ratio_of(res->err, 0);
  res->verdict = res->err ? (isfinite(got) || isinf(o->max_value) ? RF_V_WRONG : RF_V_NONFINITE)
                          : RF_V_PASS;
}

static void judge_argmax(const oracle_answer *o, const rf_argmax_out *got, rf_result *res) {
  res->got = got->value;
  res->want = o->max_value;
  res->got_index = got->index;
  res->want_index = o->argmax_index;
  int ok = got->index == o->argmax_index && same_float(got->value, o->max_value);
  res->err = ok ? 0 : 1;
  res->ratio = ratio_of(res->err, 0);
  res->verdict = ok ? RF_V_PASS : RF_V_WRONG;
}

static const rf_exp_model *exp_model_for(const rf_device_info *d) {
  if (strcmp(d->backend, "cuda") == 0) return &RF_EXP_CUDA_EXPF;
  if (strcmp(d->backend, "hip") == 0) return &RF_EXP_OCML_EXPF;
  return &RF_EXP_HOST_LIBM;
}

/* Softmax: every element within its bound (rf_softmax_within), rows whose exact result is
 * NaN compared by IEEE class, and each row's sum within the row-sum bound. */
static void judge_softmax(rf_runner *r, const rf_case *c, const oracle_answer *o,
                          const rf_plan *plan, const float *got, rf_result *res) {
  uint32_t rows = c->rows, cols = c->cols;
  double *rel = rf_host_buf_get(&r->rel, (size_t)cols * sizeof(double));
  const float *x = r->x.p;
  const rf_exp_model *em = exp_model_for(&r->dev);
  res->verdict = RF_V_PASS;
  res->ratio = -1;
  for (uint32_t i = 0; i < rows; i++) {
    const float *xr = x + (size_t)i * cols, *gr = got + (size_t)i * cols;
    const double *yr = o->y + (size_t)i * cols;
    rf_softmax_bound b = {.rel = rel};
    rf_bound_softmax_row(plan, em, xr, cols, yr, &b);
    rf_xsum row_sum;
    rf_xsum_init(&row_sum);
    for (uint32_t j = 0; j < cols; j++) {
      double allowed = rel[j] * yr[j] + b.abs_floor;
      double err, q;
      rf_verdict v = RF_V_PASS;
      if (isnan(yr[j])) {                       /* NaN or +inf in the row: NaN expected */
        err = isnan(gr[j]) ? 0 : INFINITY;
        v = err ? RF_V_WRONG : RF_V_PASS;
      } else if (!isfinite(gr[j])) {
        err = INFINITY;
        v = RF_V_NONFINITE;
      } else {
        err = fabs((double)gr[j] - yr[j]);
        v = rf_softmax_within(&b, j, gr[j], yr[j]) ? RF_V_PASS : RF_V_WRONG;
        rf_xsum_add1(&row_sum, gr[j]);
      }
      q = ratio_of(err, allowed);
      if (v != RF_V_PASS && (res->verdict == RF_V_PASS || v == RF_V_NONFINITE)) res->verdict = v;
      if (q > res->ratio) {
        res->ratio = q;
        res->err = err;
        res->bound = allowed;
        res->got = gr[j];
        res->want = yr[j];
        res->got_index = (long long)i * cols + j;
        res->want_index = res->got_index;
      }
    }
    if (cols && !isnan(yr[0]) && res->verdict == RF_V_PASS) {
      double row_err = rf_xsum_abs_err_up(&row_sum, 1.0f);
      if (row_err > b.row_sum_bound) {
        res->verdict = RF_V_WRONG;
        snprintf(res->detail, sizeof res->detail, "row %u: |sum - 1| = %.3g > row bound %.3g", i,
                 row_err, b.row_sum_bound);
        return;
      }
    }
  }
  if (res->ratio < 0) res->ratio = 0;
  if (res->verdict != RF_V_PASS)
    snprintf(res->detail, sizeof res->detail, "row %lld col %lld: got %.9g want %.9g",
             res->got_index / (cols ? cols : 1), res->got_index % (cols ? cols : 1),
             (double)res->got, res->want);
}

/* ---- one variant ------------------------------------------------------------------------ */
static size_t out_bytes(const rf_case *c) {
  switch (c->op) {
  case RF_OP_ARGMAX: return sizeof(rf_argmax_out);
  case RF_OP_SOFTMAX: return (size_t)c->rows * c->cols * sizeof(float);
  default: return sizeof(float);
  }
}

/* Poison, launch, synchronise; fills verdict for device-side failures. Returns 0 when the
 * output is ready to read back into `host`. */
static int launch_once(rf_runner *r, const rf_case *c, const rf_variant *v, rf_launch_args *a,
                       size_t scratch_bytes, void *host, size_t bytes, rf_result *res) {
  char msg[sizeof res->detail];
  rf_guarded_poison(&r->out);
  if (scratch_bytes) rf_guarded_poison(&r->scratch);
  rf_dev_last_error();
  rf_dev_sim_take_status(msg, sizeof msg);
  rf_dev_sim_configure(c->sched, c->seed, c->wave);
  double t0 = now_ms();
  int e = v->launch(a);
  int se = rf_dev_sync();
  res->ms = now_ms() - t0;
  int le = rf_dev_last_error();
  int st = rf_dev_sim_take_status(msg, sizeof msg);
  if (st) {
    res->verdict = st == RF_DEV_STATUS_DIVERGENT_BARRIER ? RF_V_DIVERGENT_BARRIER
                 : st == RF_DEV_STATUS_RACE ? RF_V_RACE
                 : st == RF_DEV_STATUS_TIMEOUT ? RF_V_TIMEOUT
                 : st == RF_DEV_STATUS_OOB ? RF_V_OOB : RF_V_LAUNCH_ERROR;
    snprintf(res->detail, sizeof res->detail, "%s", msg);
    return -1;
  }
  if (!e) e = se ? se : le;
  if (e) {
    res->verdict = RF_V_LAUNCH_ERROR;
    snprintf(res->detail, sizeof res->detail, "%s", rf_dev_error_string(e));
    return -1;
  }
  const char *where = rf_guarded_check(&r->out);
  if (!where && scratch_bytes) where = rf_guarded_check(&r->scratch) ? "scratch" : NULL;
  if (where) {
    res->verdict = RF_V_OOB;
    snprintf(res->detail, sizeof res->detail, "guard zone overwritten: %s", where);
    return -1;
  }
  rf_guarded_read(&r->out, host, bytes);
  size_t first = rf_find_poison(host, bytes);
  if (first != (size_t)-1) {
    res->verdict = RF_V_UNWRITTEN;
    snprintf(res->detail, sizeof res->detail, "output word %zu still holds the poison", first);
    return -1;
  }
  return 0;
}

static void run_variant(rf_runner *r, const rf_case *c, const rf_variant *v,
                        const oracle_answer *o, rf_result *res) {
  memset(res, 0, sizeof *res);
  res->variant = v;
  rf_launch_cfg cfg = {
    .n = c->n, .rows = c->rows, .cols = c->cols, .block = c->block, .grid = c->grid,
    .items = c->items, .num_cus = r->dev.num_cus,
    .wave = strcmp(r->dev.backend, "sim") == 0 ? c->wave : r->dev.wave,
  };
  const char *why = v->configure(&cfg);
  if (why) {
    res->verdict = RF_V_UNSUPPORTED;
    snprintf(res->detail, sizeof res->detail, "%s", why);
    return;
  }
  /* The simulator runs every GPU thread as a fiber: a launch of millions of (mostly idle)
   * threads would take minutes and end as a timeout that says nothing about the kernel. */
  if (strcmp(r->dev.backend, "sim") == 0 && (uint64_t)cfg.grid * cfg.block > RF_SIM_MAX_THREADS) {
    res->verdict = RF_V_UNSUPPORTED;
    snprintf(res->detail, sizeof res->detail,
             "grid %u x block %u is more than the simulator runs (at most %u threads a launch)",
             cfg.grid, cfg.block, (unsigned)RF_SIM_MAX_THREADS);
    return;
  }
  rf_plan plan = {0};
  v->plan(&cfg, &plan);
  rf_plan_format(&plan, res->plan, sizeof res->plan);
  res->depth = rf_plan_depth(&plan);
  size_t sb = v->scratch_bytes(&cfg);
  size_t ob = out_bytes(c);
  if (rf_guarded_reserve(&r->out, ob) || (sb && rf_guarded_reserve(&r->scratch, sb))) {
    res->verdict = RF_V_LAUNCH_ERROR;
    snprintf(res->detail, sizeof res->detail, "cannot allocate %zu + %zu device bytes", ob, sb);
    return;
  }
  rf_launch_args a = {.x = rf_input_ptr(&r->in, c), .out = r->out.payload,
                      .scratch = sb ? r->scratch.payload : NULL, .stream = NULL, .cfg = cfg};
  void *got = rf_host_buf_get(&r->got, ob);
  if (launch_once(r, c, v, &a, sb, got, ob, res)) return;

  switch (c->op) {
  case RF_OP_SUM: judge_sum(r, o, &plan, *(float *)got, res); break;
  case RF_OP_MAX: judge_max(o, *(float *)got, res); break;
  case RF_OP_ARGMAX: judge_argmax(o, got, res); break;
  case RF_OP_SOFTMAX: judge_softmax(r, c, o, &plan, got, res); break;
  default: break;
  }
  if (res->verdict != RF_V_PASS || !v->deterministic || ob == 0) return;

  /* A deterministic variant must give the same bits when run again. */
  void *again = malloc(ob);
  rf_result second = *res;
  if (again && launch_once(r, c, v, &a, sb, again, ob, &second) == 0 &&
      memcmp(again, got, ob) != 0) {
    res->verdict = RF_V_NONDETERMINISTIC;
    snprintf(res->detail, sizeof res->detail, "a second run gave different bits");
  } else if (second.verdict != res->verdict) {
    *res = second;
  }
  free(again);
}

int rf_runner_run(rf_runner *r, const rf_case *c, rf_result *out, size_t max, char *err,
                  size_t errlen) {
  rf_limits lim = rf_runner_limits(r);
  if (rf_case_validate(c, &lim, err, errlen)) return -1;
  if (c->variant[0] && !rf_variant_find(c->variant)) {
    snprintf(err, errlen, "variant: '%s' is not a known variant (see 'redfuzz list')",
             c->variant);
    return -1;
  }
  if (!r->have_last || !same_input(c, &r->last)) {
    uint64_t elems = rf_case_elems(c);
    float *x = rf_host_buf_get(&r->x, elems * sizeof(float));
    r->have_last = 0;
    if (!x && elems) { snprintf(err, errlen, "out of host memory for %llu inputs",
                                (unsigned long long)elems); return -1; }
    rf_generate(c, x);
    if (rf_input_upload(&r->in, c, x, elems)) {
      snprintf(err, errlen, "device upload of %llu inputs failed", (unsigned long long)elems);
      return -1;
    }
    memset(&r->answer, 0, sizeof r->answer);
    compute_oracle(r, c, x, elems, &r->answer);
    r->last = *c;
    r->have_last = 1;
  }
  const oracle_answer *o = &r->answer;

  size_t k = 0;
  for (size_t i = 0; i < rf_variant_count() && k < max; i++) {
    const rf_variant *v = rf_variant_at(i);
    if (v->op != c->op) continue;
    if (c->variant[0] && strcmp(c->variant, v->name) != 0) continue;
    if (r->keep && !r->keep(v, r->keep_ctx)) continue;
    run_variant(r, c, v, o, &out[k++]);
  }
  return (int)k;
}
