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
  const float *xr = x + (size_t)blockIdx.x * cols;
  /* BUG: the max's identity is -inf, not 0 */
  const float lse = rf_mut_lse_block_row(xr, cols, sd, 0.0f);
  if (threadIdx.x == 0) out[blockIdx.x] = lse;
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
