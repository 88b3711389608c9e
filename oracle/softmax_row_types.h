/* The plain data of the softmax judge's per-row formulas (softmax_row_math.h), apart from
 * them so that bounds.h (and the runner, which fills them for the device judge) can name them
 * without the directed-rounding helpers. */
#ifndef RF_SOFTMAX_ROW_TYPES_H
#define RF_SOFTMAX_ROW_TYPES_H
#include <stdint.h>

/* What the bound needs of the variant: its plan and the exp it declares, as the backend runs
 * it (rf_exp_model, rf_plan). */
typedef struct {
  double exp_ulps, ulps_per_arg;
  int ftz;
  int recip_mul;          /* plan->div == RF_DIV_RECIP_MUL */
  uint64_t depth;         /* rf_plan_depth(plan): H */
  uint64_t rescales;      /* plan->rescales: R */
} rf_smr_params;

/* What it needs of the row and the oracle's y (pass 1 of bounds.c, any order of summation):
 * span = max_j (m - x_j) (used only when ulps_per_arg > 0), D_max and n_deep over D_j =
 * rf_smr_D(m, x_j), yd_s = Σ_j y_j D_j over the non-deep j computed in plain RN. */
typedef struct {
  uint32_t cols, n_deep;
  double span, D_max, yd_s;
} rf_smr_facts;

/* Per-row constants: rel_y,j = κ D_j + β' (κ = kappa, β' = beta1) against the true y,
 * rel_j = κ_f D_j + β_f against the given y, rel_deep for deep elements. */
typedef struct {
  double kappa, beta1, kappa_f, beta_f, rel_deep, abs_kernel, abs_floor, row_sum_bound;
} rf_smr_consts;

#endif
