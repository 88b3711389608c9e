/* softmax/mut-f16-exp-overflow: softmax/f16-block-lds computing the exponentials in half
 * precision without the max shift (issue 17): e_j = f16(expf(x_j)), which float32 would
 * survive for |x_j| < 88 but f16 overflows from x_j > 11.09 (65520 < e^11.1); the row sum is
 * then +inf and the outputs 0 or NaN. The max is still found (the code reads as if it used
 * it). Exposed by shifted-rows (rows x + 128), spike, wide and near-overflow inputs. */
#include "../half/half_common.h"

__global__ void rf_mut_hexp_kernel(const uint16_t *__restrict__ x, unsigned rows, unsigned cols,
                                   void *out) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  for (rf_h_u64 r = blockIdx.x; r < rows; r += gridDim.x) {
    const rf_h_u64 base = r * cols;
    float sum = 0.0f;
    for (unsigned c = t; c < cols; c += nt)   /* BUG: exp in f16, and no max shift */
      sum += rf_f16_to_f32(rf_f32_to_f16(expf(rf_h_load(x, base + c, 1u))));
    lds[t] = sum;
    __syncthreads();
    for (unsigned s = nt / 2; s > 0; s >>= 1) {
      if (t < s) lds[t] += lds[t + s];
      __syncthreads();
    }
    const float denom = lds[0];
    __syncthreads();
    for (unsigned c = t; c < cols; c += nt)
      rf_h_store(out, base + c,
                 rf_f16_to_f32(rf_f32_to_f16(expf(rf_h_load(x, base + c, 1u)))) / denom, 1u);
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *rf_mut_hexp_configure(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_H_DEFAULT_BLOCK, 1, RF_H_MAX_BLOCK, 0);
  if (why) return why;
  cfg->items = 0;
  if (cfg->grid == 0) cfg->grid = cfg->rows ? (cfg->rows < RF_H_MAX_GRID ? cfg->rows : RF_H_MAX_GRID) : 1;
  else if (cfg->grid > RF_H_MAX_GRID)
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_H_MAX_GRID);
  return NULL;
}
static void rf_mut_hexp_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->cols, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}
static int rf_mut_hexp_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0 || a->cfg.cols == 0) return 0;
  hipLaunchKernelGGL(rf_mut_hexp_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, (const uint16_t *)a->x, a->cfg.rows, a->cfg.cols,
                     a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_softmax_f16_exp_overflow = {
    .name = "softmax/mut-f16-exp-overflow",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT softmax/f16-block-lds computing exp(x) in f16 without the max shift: "
        "overflows from x > 11.09",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(rows, 65535)); no items",
    .configure = rf_mut_hexp_configure,
    .scratch_bytes = rf_h_no_scratch,
    .plan = rf_mut_hexp_plan,
    .launch = rf_mut_hexp_launch,
    .in_dtype = RF_DTYPE_F16,
    .out_dtype = RF_DTYPE_F16};
#endif
