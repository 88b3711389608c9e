/* The exact answer and the verdicts of logsumexp and log-softmax cases (oracle/logsumexp.h):
 * every row from the MPFR oracle (no double fast path yet: the ops are judged at simulator
 * and sweep sizes), each output against its bound from the variant's plan, as an absolute
 * error: both outputs cancel near 0 (lse = m + L with m near -L, y_j = (x_j - m) - L with
 * x_j the maximum and L near 0), where a relative error means nothing. */
#include <math.h>
#include <stdio.h>
#include "runner_internal.h"
#include "backend.h"
#include "model/dtype.h"

/* The logf the variants call, as this backend computes it (bounds_log.c has the sources);
 * the simulator runs the host's. */
static const rf_log_model *log_model(void) {
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

void rf_oracle_lse_case(rf_runner *r, const rf_case *c, const float *x, oracle_answer *o) {
  o->lse = rf_host_buf_get(&r->lse_rows, (size_t)c->rows * sizeof *o->lse);
  o->y = c->op == RF_OP_LOGSOFTMAX
             ? rf_host_buf_get(&r->y_exact, (size_t)c->rows * c->cols * sizeof(double))
             : NULL;
  if (!o->lse) return;
  /* MPFR costs about 1 us an element: big cases use the judge's threads (the same bits). */
  const int threads = rf_case_elems(c) >= 4096 ? (int)r->judge_threads : 1;
  rf_oracle_lse(x, c->rows, c->cols, o->lse, o->y, threads);
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

/* A finite want and a NaN, or an infinity the bound does not reach: nonfinite; a special
 * want (NaN, ±inf) and anything else: wrong. */
static rf_verdict verdict_of(int ok, float got, double want) {
  if (ok) return RF_V_PASS;
  return isfinite(want) && !isfinite(got) ? RF_V_NONFINITE : RF_V_WRONG;
}

/* got: the outputs as floats (a 16-bit output converted exactly); ot: the type the variant
 * wrote, whose one more rounding the check allows (rf_lse_check_out). */
void rf_judge_lse(const batch_case *bc, const rf_plan *plan, rf_dtype ot, const float *got,
                  rf_result *res) {
  const rf_case *c = bc->c;
  res->verdict = RF_V_PASS;
  res->ratio = -1;
  for (uint32_t i = 0; i < c->rows; i++) {
    const rf_lse_row *row = &bc->o->lse[i];
    const float *xr = bc->x + (size_t)i * c->cols;
    rf_lse_bound b;
    rf_bound_lse_row(plan, exp_model_for(plan), log_model(), xr, c->cols, row, &b);
    if (c->op == RF_OP_LOGSUMEXP) {
      double allowed = rf_lse_allowed(b.lse_bound, row->lse), err, reach;
      int ok = rf_lse_check_out(got[i], row->lse, allowed, ot, &err, &reach);
      note(res, verdict_of(ok, got[i], row->lse), err, reach, got[i], row->lse, i);
      continue;
    }
    const double *yr = bc->o->y + (size_t)i * c->cols;
    const float *gr = got + (size_t)i * c->cols;
    for (uint32_t j = 0; j < c->cols; j++) {
      /* |ŷ_j - y_j| <= y_rel |y_j| + y_abs, |y_j| <= |want| (1 + 2^-52) */
      double kb = isfinite(yr[j]) ? b.y_abs + b.y_rel * fabs(yr[j]) * (1 + 0x1p-50) : 0;
      double allowed = rf_lse_allowed(kb, yr[j]), err, reach;
      int ok = rf_lse_check_out(gr[j], yr[j], allowed, ot, &err, &reach);
      note(res, verdict_of(ok, gr[j], yr[j]), err, reach, gr[j], yr[j],
           (long long)i * c->cols + j);
    }
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
