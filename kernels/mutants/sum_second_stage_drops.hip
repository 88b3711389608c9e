/* sum/mut-second-stage-drops: sum/two-pass (grid-stride chain + LDS tree into per-block
 * partials, then one block over the partials) whose second stage loads one partial per thread
 * instead of striding over all of them: partials at index >= block are dropped. Exposed when
 * the first stage has more blocks than the block size (default grid min(ceil(n/block), 1024)). */
#include "mut_common.h"

/* First stage: correct. out[blockIdx.x] = this block's sum. */
__global__ void rf_mut_drops_partials_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                             float *partials) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 i = rf_mut_gid(); i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = sd[0];
}

/* Second stage, one block. count = 0 (empty input) writes 0. */
__global__ void rf_mut_drops_final_kernel(const float *__restrict__ partials, rf_mut_u64 count,
                                          float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  sd[t] = t < count ? partials[t] : -0.0f;   /* BUG: needs a loop t, t+block, ... < count */
  rf_prim_lds_sum_tree(sd);
  if (t == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_drops_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const float *in = a->x;
  rf_mut_u64 count = a->cfg.n;
  if (count) {
    float *partials = (float *)a->scratch;
    hipLaunchKernelGGL(rf_mut_drops_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, count, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    in = partials;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_drops_final_kernel, dim3(1), dim3(a->cfg.block), 0, st, in, count,
                     (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_second_stage_drops = {
    .name = "sum/mut-second-stage-drops",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/two-pass whose one-block second stage reads only the first `block` "
        "partials",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_plan_two_pass,
    .launch = rf_mut_drops_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
