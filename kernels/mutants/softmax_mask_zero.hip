/* softmax/mut-mask-zero: a one-block-per-row softmax written like the Triton kernel of
 * seed 004 §10.5.4: the row is a logical vector padded to a multiple of the block, loaded with
 * a mask whose fill value should be -inf (exp(-inf - m) = 0 adds nothing to the sum). Here the
 * fill is 0 (seed 004 §10.5.5's warning): padded slots raise the row max to at least 0 and add
 * expf(0 - m) to the sum. Exposed when cols is not a multiple of the block; rows far below 0
 * (shifted-rows x - 1000) make every expf(x - 0) underflow. */
#include "mut_common.h"

/* Column c of the padded logical row. */
static __device__ __forceinline__ float rf_mut_mask_zero_load(const float *xr, uint32_t c,
                                                              uint32_t cols) {
  return c < cols ? xr[c] : 0.0f;   /* BUG: the mask's fill value must be -INFINITY */
}

__global__ void rf_mut_mask_zero_kernel(const float *__restrict__ x, uint32_t cols, float *y) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const uint32_t padded = (uint32_t)(((rf_mut_u64)cols + blockDim.x - 1) / blockDim.x * blockDim.x);
  const float *xr = x + (size_t)blockIdx.x * cols;
  float *yr = y + (size_t)blockIdx.x * cols;

  float local_max = -INFINITY;
  for (uint32_t c = t; c < padded; c += blockDim.x)
    local_max = fmaxf(local_max, rf_mut_mask_zero_load(xr, c, cols));
  sd[t] = local_max;
  rf_prim_lds_max_tree(sd);
  const float m = sd[0];
  __syncthreads();   /* reader barrier: everyone has m before the LDS is reused */

  float local_sum = 0.0f;
  for (uint32_t c = t; c < padded; c += blockDim.x)
    local_sum += expf(rf_mut_mask_zero_load(xr, c, cols) - m);
  sd[t] = local_sum;
  rf_prim_lds_sum_tree(sd);
  const float s = sd[0];
  for (uint32_t c = t; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - m) / s;  /* masked store */
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_mask_zero_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0 || a->cfg.cols == 0) return 0;   /* nothing to write */
  hipLaunchKernelGGL(rf_mut_mask_zero_kernel, dim3(a->cfg.rows), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_softmax_mask_zero = {
    .name = "softmax/mut-mask-zero",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one block per row over the row padded to a multiple of the block, masked "
        "loads filled with 0 instead of -inf (pollutes the max and the sum)",
    .constraints = "block power of two 1..1024; grid = rows; any cols",
    .configure = rf_mut_configure_row_per_block,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_block,
    .launch = rf_mut_mask_zero_launch};
#endif
