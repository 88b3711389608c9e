/* The exact answer and the verdicts of logsumexp and log-softmax cases (oracle/logsumexp.h):
 * every row from the double oracle with its margins (oracle/logsumexp_double.h), MPFR for the
 * rows it refuses (special values) and for rows where some variant's output is too close to
 * its bound for the margins to decide (then that row is MPFR for every later variant too, as
 * softmax does in judge.c). Each output is judged against its bound from the variant's plan
 * as an absolute error: both outputs cancel near 0 (lse = m + L with m near -L,
 * y_j = (x_j - m) - L with x_j the maximum and L near 0), where a relative error means
 * nothing. A double row's verdict is the MPFR row's: it is decided only when every MPFR row
 * the margins allow gives it (docs/ORACLE.md, "The double log oracle"). Each output's
 * decision, float32 or 16-bit (its range check), is oracle/log_row_math.h's
 * (rf_lsr_judge_exact, rf_lsr_judge_double), the very one the device judge makes
 * (kernels/harness/log_device.h; docs/ORACLE.md, "Log ops judged on the device"). */
#include <math.h>
#include <stdio.h>
#include "runner_internal.h"
#include "backend.h"
#include "model/dtype.h"
#include "oracle/log_row_math.h"

/* The logf the variants call, as this backend computes it (bounds_log.c has the sources);
 * the simulator runs the host's. */
const rf_log_model *rf_judge_log_model(void) {
#if defined(RF_BACKEND_CUDA)
  return &RF_LOG_CUDA_LOGF;
#elif defined(RF_BACKEND_HIP)
  return &RF_LOG_OCML_LOGF;
#else
  return &RF_LOG_HOST_LIBM;
#endif
}

static const rf_exp_model *exp_model_for(const rf_plan *plan) {
  return plan->exp == RF_EXP_FAST ? rf_backend_fast_exp() : rf_backend.exp_model;
}

/* The rows the host holds and answers: every row, or the one row a sparse case repeats (a
 * logsumexp case of the markers distribution: runner.c, host_elems); its answer then serves
 * every row. */
static uint32_t held_rows(const rf_case *c) { return rf_case_is_sparse(c) && c->rows ? 1 : c->rows; }

static const float *row_x(const batch_case *bc, uint32_t i) {
  return bc->x + (size_t)(held_rows(bc->c) == bc->c->rows ? i : 0) * bc->c->cols;
}

/* Row `from`'s answer to every row, when a sparse case's rows are one row. */
static void share_row(const rf_case *c, oracle_answer *o, uint32_t from) {
  if (held_rows(c) == c->rows) return;
  for (uint32_t i = 0; i < c->rows; i++) {
    o->lse[i] = o->lse[from];
    o->lse_margin[i] = o->lse_margin[from];
    o->row_mpfr[i] = o->row_mpfr[from];
  }
}

void rf_oracle_lse_case(rf_oracle_ctx *oc, const rf_case *c, const float *x, oracle_answer *o) {
  o->lse = rf_host_buf_get(&oc->lse_rows, (size_t)c->rows * sizeof *o->lse);
  o->lse_margin = rf_host_buf_get(&oc->lse_margin, (size_t)c->rows * sizeof *o->lse_margin);
  o->row_mpfr = rf_host_buf_get(&oc->row_mpfr, c->rows);
  o->y = c->op == RF_OP_LOGSOFTMAX
             ? rf_host_buf_get(&oc->y_exact, (size_t)c->rows * c->cols * sizeof(double))
             : NULL;
  if (!o->lse || !o->lse_margin || !o->row_mpfr) {
    o->lse = NULL;
    return;
  }
  const uint32_t rows = held_rows(c);
  if (oc->mpfr_only) {
    /* MPFR costs about 1 us an element: big cases use the judge's threads (the same bits). */
    const int threads = (uint64_t)rows * c->cols >= 4096 ? (int)oc->threads : 1;
    rf_oracle_lse(x, rows, c->cols, o->lse, o->y, threads);
    for (uint32_t i = 0; i < rows; i++) o->row_mpfr[i] = 1;
    oc->counts.lse_rows_mpfr += rows;
    share_row(c, o, 0);
    return;
  }
  for (uint32_t i = 0; i < rows; i++) {
    const float *xr = x + (size_t)i * c->cols;
    double *yr = o->y ? o->y + (size_t)i * c->cols : NULL;
    const int k = rf_oracle_lse_row_double(xr, c->cols, &o->lse[i], &o->lse_margin[i], yr);
    o->row_mpfr[i] = k != 0;   /* 1: exact, the MPFR row itself (one finite entry) */
    if (k < 0) {
      rf_oracle_lse_row(xr, c->cols, &o->lse[i], yr);   /* special rows: no precision loop */
      oc->counts.lse_rows_mpfr++;
    } else {
      oc->counts.lse_rows_double++;
    }
  }
  share_row(c, o, 0);
}

/* Keeps the worst output (largest err / allowed) and the first failure's verdict. */
static void note(rf_result *res, rf_verdict v, double err, double allowed, float got,
                 double want, long long index) {
  if (v != RF_V_PASS && (res->verdict == RF_V_PASS || v == RF_V_NONFINITE)) res->verdict = v;
  double q = err == 0 ? 0 : allowed == 0 ? INFINITY : err / allowed;
  if (q > res->ratio) {
    res->ratio = q;
    res->err = err;
    res->bound = allowed;
    res->got = got;
    res->want = want;
    res->got_index = res->want_index = index;
  }
}

static rf_verdict verdict_from(int k) {
  return k == RF_LSR_PASS ? RF_V_PASS : k == RF_LSR_NONFINITE ? RF_V_NONFINITE : RF_V_WRONG;
}

/* One output of type ot against an MPFR want: the decision shared with the device judge
 * (log_row_math.h, rf_lsr_judge_exact); a 16-bit output's range allows its one more rounding
 * (rf_lse_check_out, docs/TOLERANCES.md). */
static void judge_exact(rf_result *res, int logsumexp, const rf_lse_bound *b, rf_dtype ot,
                        float got, double want, long long index) {
  double err, reach;
  const int k = rf_lsr_judge_exact(logsumexp, (uint32_t)ot, b, got, want, &err, &reach);
  note(res, verdict_from(k), err, reach, got, want, index);
}

/* One output against a double oracle's value v: the verdict every MPFR want within the
 * margin gives, bounds taken from the lowest and highest rows (rf_lse_double_rows). 0 when
 * the margins cannot decide it. rf_lsr_judge_double, the device judge's decision too
 * (log_row_math.h), for every output type. */
static int judge_double(rf_result *res, int logsumexp, const rf_lse_margin *mg,
                        const rf_lse_bound *b_lo, const rf_lse_bound *b_hi, rf_dtype ot,
                        float got, double v, long long index) {
  double err, reach;
  const int k = rf_lsr_judge_double(logsumexp, (uint32_t)ot, mg, b_lo, b_hi, got, v, &err, &reach);
  if (k == RF_LSR_UNSURE) return 0;
  note(res, verdict_from(k), err, reach, got, v, index);
  return 1;
}

/* Row i's bounds: b alone for an exact (MPFR) row, else b and b_hi from its lowest and
 * highest MPFR rows (rf_lse_double_rows). */
typedef struct { int have; rf_lse_bound b, b_hi; } row_bounds;

static void bounds_of(const batch_case *bc, const rf_plan *plan, uint32_t i, row_bounds *rb) {
  const rf_lse_row *row = &bc->o->lse[i];
  const float *xr = row_x(bc, i);
  const uint32_t cols = bc->c->cols;
  rb->have = 1;
  if (bc->o->row_mpfr[i]) {
    rf_bound_lse_row(plan, exp_model_for(plan), rf_judge_log_model(), xr, cols, row, &rb->b);
    return;
  }
  rf_lse_row lo, hi;
  rf_lse_double_rows(row, &bc->o->lse_margin[i], &lo, &hi);
  rf_bound_lse_row(plan, exp_model_for(plan), rf_judge_log_model(), xr, cols, &lo, &rb->b);
  rf_bound_lse_row(plan, exp_model_for(plan), rf_judge_log_model(), xr, cols, &hi, &rb->b_hi);
}

/* Row i; 0 when a double row could not be decided (nothing noted for it then). shared: the
 * bounds every row shares (a sparse case's rows are one row: one pass over it, not one a
 * row), made at its first use; NULL when each row has its own. */
static int judge_row(const rf_oracle_ctx *oc, const batch_case *bc, const rf_plan *plan, rf_dtype ot,
                     const float *got, uint32_t i, row_bounds *shared, rf_result *res) {
  const rf_case *c = bc->c;
  const int logsumexp = c->op == RF_OP_LOGSUMEXP;
  const rf_lse_row *row = &bc->o->lse[i];
  const double *yr = logsumexp ? NULL : bc->o->y + (size_t)i * c->cols;
  const float *gr = logsumexp ? got + i : got + (size_t)i * c->cols;
  const uint32_t n = logsumexp ? 1 : c->cols;
  const long long base = logsumexp ? i : (long long)i * c->cols;
  if (!bc->o->row_mpfr[i] && oc->upgrade_all) return 0;
  row_bounds own = {0}, *rb = shared ? shared : &own;
  if (!rb->have) bounds_of(bc, plan, i, rb);
  if (bc->o->row_mpfr[i]) {
    for (uint32_t j = 0; j < n; j++)
      judge_exact(res, logsumexp, &rb->b, ot, gr[j], logsumexp ? row->lse : yr[j], base + j);
    return 1;
  }
  const rf_lse_margin *mg = &bc->o->lse_margin[i];
  rf_result row_res = *res;   /* applied only when every output is decided */
  for (uint32_t j = 0; j < n; j++)
    if (!judge_double(&row_res, logsumexp, mg, &rb->b, &rb->b_hi, ot, gr[j],
                      logsumexp ? row->lse : yr[j], base + j))
      return 0;
  *res = row_res;
  return 1;
}

/* got: the outputs as floats (a 16-bit output converted exactly); ot: the type the variant
 * wrote, whose one more rounding the checks allow (rf_lse_check_out). */
void rf_judge_lse(judge_ctx *jc, const batch_case *bc, const rf_plan *plan, rf_dtype ot,
                  const float *got, rf_result *res) {
  rf_oracle_ctx *oc = jc->oc;
  const rf_case *c = bc->c;
  oracle_answer *o = bc->o;
  res->verdict = RF_V_PASS;
  res->ratio = -1;
  row_bounds one = {0}, *shared = held_rows(c) == c->rows ? NULL : &one;
  for (uint32_t i = 0; i < c->rows; i++) {
    if (judge_row(oc, bc, plan, ot, got, i, shared, res)) continue;
    if (!jc->may_upgrade) {   /* a parallel judge: the serial pass redoes this variant */
      jc->needs_upgrade = 1;
      return;
    }
    /* Too close to the bound for the double oracle: this row in MPFR, for every variant. */
    const size_t off = (size_t)i * c->cols;
    rf_oracle_lse_row(row_x(bc, i), c->cols, &o->lse[i], o->y ? o->y + off : NULL);
    o->row_mpfr[i] = 1;
    oc->counts.lse_rows_upgraded++;
    share_row(c, o, i);
    one.have = 0;   /* the shared row is MPFR now: its bounds change */
    judge_row(oc, bc, plan, ot, got, i, shared, res);
  }
  if (res->ratio < 0) res->ratio = 0;
  if (res->verdict == RF_V_PASS) return;
  /* A 16-bit output names its type: its allowed error includes that one rounding. */
  const char *tn = ot == RF_DTYPE_F32 ? "" : rf_dtype_name(ot);
  const char *sp = ot == RF_DTYPE_F32 ? "" : " ";
  if (c->op == RF_OP_LOGSUMEXP)
    snprintf(res->detail, sizeof res->detail, "row %lld: got %.9g%s%s want %.17g",
             res->got_index, (double)res->got, sp, tn, res->want);
  else
    snprintf(res->detail, sizeof res->detail, "row %lld col %lld: got %.9g%s%s want %.17g",
             res->got_index / c->cols, res->got_index % c->cols, (double)res->got, sp, tn,
             res->want);
}
