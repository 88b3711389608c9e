/* logsumexp/mut-pad-zero-max: a one-block-per-row logsumexp (max by LDS tree, then
 * s = Σ exp(x - m) by LDS tree, out = m + log s) whose idle lanes (t >= cols) put 0 instead of
 * -inf into the max tree. The shift m' = max(m, 0) is still mathematically exact
 * (m' + log Σ exp(x - m') = lse), so the bug shows only through the float exp: a row whose
 * values all lie below about -87 (cols < block) underflows every exp(x - 0) to a subnormal or
 * 0, and log 0 = -inf. Exposed by shifted-rows (its third row is x - 1000) at cols < block. */
#include "mut_common.h"

__global__ void rf_mut_lse_pad_zero_kernel(const float *__restrict__ x, uint32_t cols,
                                           float *__restrict__ out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const float *xr = x + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (uint32_t c = t; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
  sd[t] = t < cols ? m : 0.0f;   /* BUG: the max's identity is -inf, not 0 */
  rf_prim_lds_max_tree(sd);
  const float row_max = sd[0];
  __syncthreads();               /* everyone has read the max before sd holds the sums */
  float s = 0.0f;
  for (uint32_t c = t; c < cols; c += blockDim.x)
    s += xr[c] == row_max ? 1.0f : expf(xr[c] - row_max);
  sd[t] = s;
  rf_prim_lds_sum_tree(sd);
  if (t == 0) out[blockIdx.x] = row_max + logf(sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_lse_pad_zero_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0) return 0;   /* an empty row still has an output: -inf */
  hipLaunchKernelGGL(rf_mut_lse_pad_zero_kernel, dim3(a->cfg.rows), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_logsumexp_pad_zero_max = {
    .name = "logsumexp/mut-pad-zero-max",
    .op = RF_OP_LOGSUMEXP,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-block-per-row logsumexp whose idle lanes pad the max tree with 0 "
        "instead of -inf: all-negative rows shift by 0 and their exps underflow",
    .constraints = "block power of two 1..1024; grid = rows; any cols",
    .configure = rf_mut_configure_row_per_block,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_block,
    .launch = rf_mut_lse_pad_zero_launch};
#endif
