/* sum/mut-idle-block-return: sum/two-pass (grid-stride chain + LDS tree into per-block partials,
 * then one block over the partials) whose first kernel returns at once in a block that holds no
 * element, "nothing to do here", so that block never writes its partial, which the second
 * stage then adds. The correct design lets such a block run: its threads' sums stay -0 and its
 * partial is -0. The default grid (min(ceil(n/block), 1024)) never has such a block; a
 * requested grid larger than the input needs does (the derived idle-grid cases,
 * run/boundaries.c): the partial left is the runner's poison, a NaN. */
#include "mut_common.h"

__global__ void rf_mut_idle_return_partials_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                                   float *partials) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  if ((rf_mut_u64)blockIdx.x * blockDim.x >= n) return;   /* BUG: the partial stays unwritten */
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 i = rf_mut_gid(); i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = sd[0];
}

/* The second stage: one block strides over the count partials. */
__global__ void rf_mut_idle_return_final_kernel(const float *__restrict__ partials,
                                                rf_mut_u64 count, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  float local = -0.0f;
  for (rf_mut_u64 i = threadIdx.x; i < count; i += blockDim.x) local += partials[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_idle_return_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  if (a->cfg.n == 0) return rf_mut_zero_output(a);
  float *partials = (float *)a->scratch;
  hipLaunchKernelGGL(rf_mut_idle_return_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block),
                     0, st, a->x, (rf_mut_u64)a->cfg.n, partials);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(rf_mut_idle_return_final_kernel, dim3(1), dim3(a->cfg.block), 0, st,
                     (const float *)partials, (rf_mut_u64)a->cfg.grid, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_idle_block_return = {
    .name = "sum/mut-idle-block-return",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/two-pass whose blocks past the input return before writing their "
        "partial",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_plan_two_pass,
    .launch = rf_mut_idle_return_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
