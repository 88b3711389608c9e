/* softmax/mut-clamp-inputs: a one-block-per-row softmax (LDS max tree, LDS sum tree, one
 * division per element) that "sanitises" every input into [-FLT_MAX, FLT_MAX] on load so the
 * row never holds an infinity. fmaxf(NaN, -FLT_MAX) is -FLT_MAX, so a NaN becomes a very
 * negative number and +inf becomes FLT_MAX: rows holding NaN or +inf (and rows of only -inf)
 * come out finite, where the contract says NaN in every output (docs/ORACLE.md). Finite rows
 * are unaffected. Exposed by dists nan-sprinkled, inf-mixed, all-nan, all-neg-inf. */
#include <float.h>
#include "mut_common.h"

static __device__ __forceinline__ float rf_mut_clamp_load(const float *xr, uint32_t c) {
  return fminf(fmaxf(xr[c], -FLT_MAX), FLT_MAX);   /* BUG: non-finite inputs must stay */
}

__global__ void rf_mut_clamp_kernel(const float *__restrict__ x, uint32_t cols, float *y) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const float *xr = x + (size_t)blockIdx.x * cols;
  float *yr = y + (size_t)blockIdx.x * cols;

  float local_max = -INFINITY;
  for (uint32_t c = t; c < cols; c += blockDim.x) local_max = fmaxf(local_max, rf_mut_clamp_load(xr, c));
  sd[t] = local_max;
  rf_prim_lds_max_tree(sd);
  const float m = sd[0];
  __syncthreads();   /* reader barrier: everyone has m before the LDS is reused */

  float local_sum = 0.0f;
  for (uint32_t c = t; c < cols; c += blockDim.x) local_sum += expf(rf_mut_clamp_load(xr, c) - m);
  sd[t] = local_sum;
  rf_prim_lds_sum_tree(sd);
  const float s = sd[0];
  for (uint32_t c = t; c < cols; c += blockDim.x) yr[c] = expf(rf_mut_clamp_load(xr, c) - m) / s;
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_clamp_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0 || a->cfg.cols == 0) return 0;   /* nothing to write */
  hipLaunchKernelGGL(rf_mut_clamp_kernel, dim3(a->cfg.rows), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_softmax_clamp_inputs = {
    .name = "softmax/mut-clamp-inputs",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one block per row (LDS max and sum trees) that clamps every input to "
        "[-FLT_MAX, FLT_MAX]: rows with NaN or +inf come out finite instead of NaN",
    .constraints = "block power of two 1..1024; grid = rows; any cols",
    .configure = rf_mut_configure_row_per_block,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_block,
    .launch = rf_mut_clamp_launch};
#endif
