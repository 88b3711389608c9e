/* softmax/mut-lds-reuse-race: the fused one-block-per-row softmax of seed 004 §10.5.2
 * (hip-fused-block-lds: strided local max, LDS max tree, strided sum of expf(x - m), LDS sum
 * tree over the same LDS, then y = expf(x - m) / s) without the reader barrier after
 * `m = sd[0]`: a thread that has read the maximum overwrites sd[t] (thread 0: sd[0]) with its
 * partial sum while slower threads have not read sd[0] yet (seed 004 §10.5, "LDS reuse race",
 * the defect fixed on 2026-09-11). */
#include "mut_common.h"

__global__ void rf_mut_reuse_race_kernel(const float *__restrict__ x, uint32_t cols, float *y) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const float *xr = x + (size_t)blockIdx.x * cols;
  float *yr = y + (size_t)blockIdx.x * cols;

  float local_max = -INFINITY;
  for (uint32_t c = t; c < cols; c += blockDim.x) local_max = fmaxf(local_max, xr[c]);
  sd[t] = local_max;
  rf_prim_lds_max_tree(sd);
  const float m = sd[0];
  /* BUG: __syncthreads() missing here: every thread must have read sd[0] before any thread
   * writes its partial sum into the same LDS below. */

  float local_sum = 0.0f;
  for (uint32_t c = t; c < cols; c += blockDim.x) local_sum += expf(xr[c] - m);
  sd[t] = local_sum;
  rf_prim_lds_sum_tree(sd);
  const float s = sd[0];
  for (uint32_t c = t; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - m) / s;
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_reuse_race_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0 || a->cfg.cols == 0) return 0;   /* nothing to write */
  hipLaunchKernelGGL(rf_mut_reuse_race_kernel, dim3(a->cfg.rows), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_softmax_lds_reuse_race = {
    .name = "softmax/mut-lds-reuse-race",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one block per row, LDS max tree then LDS sum tree in the same LDS, without "
        "the reader barrier after reading the maximum from sd[0] (race)",
    .constraints = "block power of two 1..1024; grid = rows; any cols",
    .configure = rf_mut_configure_row_per_block,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_block,
    .launch = rf_mut_reuse_race_launch};
#endif
