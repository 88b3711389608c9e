/* Every output's allowed error for `redfuzz tolerance` (run/tol_rows.h): the host judge's
 * bounds (judge.c judge_row for softmax, judge_log.c judge_exact for the log ops) against
 * the MPFR oracle's values, the rows the judge takes as exact. */
#include "tol_rows.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "runner_internal.h"
#include "oracle/log_row_math.h"

static int softmax_case(const rf_plan *plan, const rf_case *c, const float *x, rf_dtype ot,
                        void (*visit)(void *, const rf_tol_out *), void *ctx,
                        rf_tol_rows_info *info) {
  double *y = malloc((size_t)c->cols * sizeof *y), *rel = malloc((size_t)c->cols * sizeof *rel);
  if (!y || !rel) { free(y); free(rel); return -1; }
  for (uint32_t i = 0; i < c->rows; i++) {
    const float *xr = x + (size_t)i * c->cols;
    rf_oracle_softmax_row(xr, c->cols, y, NULL, NULL);
    rf_softmax_bound b = {.rel = rel};
    rf_bound_softmax_row(plan, rf_judge_exp_model(plan), xr, c->cols, y, &b);
    rf_bound_softmax_output(&b, c->cols, ot);
    for (uint32_t j = 0; j < c->cols; j++) {
      if (isnan(y[j])) { info->special++; continue; }   /* a NaN row: the class, exactly */
      /* rf_softmax_within: |ŷ - y| <= rel_j y_j + abs_floor (rounded up there). */
      const rf_tol_out o = {y[j], rel[j] * y[j] + b.abs_floor, rel[j]};
      if (!isfinite(o.b)) { info->unbounded++; continue; }
      visit(ctx, &o);
    }
  }
  free(y);
  free(rel);
  return 0;
}

static int log_case(const rf_plan *plan, const rf_case *c, const float *x, rf_dtype ot,
                    void (*visit)(void *, const rf_tol_out *), void *ctx, rf_tol_rows_info *info) {
  const int is_lse = c->op == RF_OP_LOGSUMEXP;
  double *y = is_lse ? NULL : malloc((size_t)c->cols * sizeof *y);
  if (!is_lse && !y) return -1;
  /* The relative part of each output's bound (log_row_math.h, rf_lsr_bound_row): logsumexp's
   * lse_bound = eps_L (1 + u) + u |lse|, log-softmax's y_rel |y_j|, each + 2^-52 |w| for the
   * oracle's rounding, and a 16-bit output's rounding u_t |w| (rf_lsr_out_range). The rest of
   * B (eps_L, y_abs) is what atol must cover. */
  double ut, eta;
  rf_softmax_output_rounding(ot, &ut, &eta);
  for (uint32_t i = 0; i < c->rows; i++) {
    const float *xr = x + (size_t)i * c->cols;
    rf_lse_row row;
    rf_oracle_lse_row(xr, c->cols, &row, y);
    rf_lse_bound b;
    rf_bound_lse_row(plan, rf_judge_exp_model(plan), rf_judge_log_model(), xr, c->cols, &row, &b);
    const uint32_t n = is_lse ? 1 : c->cols;
    const double rel = is_lse ? RF_U * (1 + 0x1p-52) : b.y_rel * (1 + 0x1p-50);
    for (uint32_t j = 0; j < n; j++) {
      const double w = is_lse ? row.lse : y[j];
      if (!isfinite(w)) { info->special++; continue; }   /* NaN, ±inf: the class, exactly */
      /* rf_lsr_judge_exact: within `allowed` of w, for a 16-bit output the reach of the
       * range [RN_t(w - allowed), RN_t(w + allowed)] it accepts. */
      double allowed = rf_lsr_allowed_output(&b, is_lse, w), lo, hi, reach = allowed;
      if (ot != RF_DTYPE_F32) rf_lsr_out_range(w, allowed, (uint32_t)ot, &lo, &hi, &reach);
      const rf_tol_out o = {w, reach, (rel + 0x1p-52) * (1 + ut) + ut};
      if (!isfinite(o.b)) { info->unbounded++; continue; }
      visit(ctx, &o);
    }
  }
  free(y);
  return 0;
}

int rf_tol_rows_bounds(const rf_variant *v, const rf_case *c, const float *x, unsigned wave,
                       unsigned num_cus, void (*visit)(void *ctx, const rf_tol_out *o),
                       void *ctx, rf_tol_rows_info *info, char *err, size_t errlen) {
  /* The launch the runner makes of this case (runner.c), so the plan is the judge's. */
  rf_launch_cfg cfg = {.n = c->n, .rows = c->rows, .cols = c->cols, .block = c->block,
                       .grid = c->grid, .items = c->items, .num_cus = num_cus, .wave = wave};
  const char *why = v->configure(&cfg);
  if (why) {
    snprintf(err, errlen, "%s refuses rows=%u cols=%u: %.200s", v->name, c->rows, c->cols, why);
    return -1;
  }
  /* Zeroed, as the runner hands it (launch_prep.c): a plugin may build its plan with
   * rf_plan_add alone, on the plan it is given (include/redfuzz/plugin.h); stack garbage there
   * gave it levels it never added, and no tolerance. */
  rf_plan plan = {0};
  v->plan(&cfg, &plan);
  const uint64_t h = rf_plan_depth(&plan);
  if (h > info->h) info->h = h > UINT32_MAX ? UINT32_MAX : (unsigned)h;
  const int rc = v->op == RF_OP_SOFTMAX ? softmax_case(&plan, c, x, v->out_dtype, visit, ctx, info)
                                        : log_case(&plan, c, x, v->out_dtype, visit, ctx, info);
  if (rc) snprintf(err, errlen, "out of memory");
  return rc;
}
