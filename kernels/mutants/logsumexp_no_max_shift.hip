/* logsumexp/mut-no-max-shift: a one-block-per-row logsumexp (max by LDS tree, then
 * s = Σ exp(x - m) by LDS tree, out = m + log s) that drops the max shift and takes the log of
 * the rounded sum of exp(x): exp overflows to +inf for x > 88.7 and underflows to 0 (or a
 * subnormal that has lost its digits) for x < -87.3, so rows of large or very negative values
 * give +inf, -inf or a wrong finite value. Exposed by near-overflow, shifted-rows (x + 1000,
 * x - 1000), wide. */
#include "mut_common.h"

__global__ void rf_mut_lse_no_shift_kernel(const float *__restrict__ x, uint32_t cols,
                                           float *__restrict__ out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const float *xr = x + (size_t)blockIdx.x * cols;
  float s = 0.0f;
  for (uint32_t c = t; c < cols; c += blockDim.x) s += expf(xr[c]);   /* BUG: exp(x - m) */
  sd[t] = s;
  rf_prim_lds_sum_tree(sd);
  if (t == 0) out[blockIdx.x] = logf(sd[0]);                         /* BUG: m + log s */
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_lse_no_shift_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0) return 0;   /* an empty row still has an output: -inf */
  hipLaunchKernelGGL(rf_mut_lse_no_shift_kernel, dim3(a->cfg.rows), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_logsumexp_no_max_shift = {
    .name = "logsumexp/mut-no-max-shift",
    .op = RF_OP_LOGSUMEXP,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-block-per-row logsumexp that takes log(sum exp(x)) without subtracting "
        "the row max: exp overflows and underflows",
    .constraints = "block power of two 1..1024; grid = rows; any cols",
    .configure = rf_mut_configure_row_per_block,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_block,
    .launch = rf_mut_lse_no_shift_launch};
#endif
