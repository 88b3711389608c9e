/* sum/mut-second-stage-256: sum/two-pass (grid-stride chain + LDS tree into per-block partials,
 * then one block over the partials) whose second stage is a block of 256 threads, one partial
 * each: written when the first kernel's grid was 256 blocks at most. The correct design's
 * second stage strides over every partial; this one drops the partials from the 257th on. The
 * default grid is min(ceil(n/block), 1024): 257 blocks from n = 65,537 at block 256, past
 * every size of the default sweep's cross product; the derived plan-level cases
 * (run/boundaries.c: the second stage's chain, ceil(grid/256), takes a second partial at grid
 * 257) reach it. */
#include "mut_common.h"

#define RF_MUT_STAGE2_BLOCK 256u

__global__ void rf_mut_stage256_partials_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                                float *partials) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 i = rf_mut_gid(); i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = sd[0];
}

/* One block of RF_MUT_STAGE2_BLOCK threads over count partials. */
__global__ void rf_mut_stage256_final_kernel(const float *__restrict__ partials, rf_mut_u64 count,
                                             float *out) {
  RF_SHARED(float, sd, RF_MUT_STAGE2_BLOCK);
  const unsigned t = threadIdx.x;
  sd[t] = t < count ? partials[t] : -0.0f;   /* BUG: needs the loop t, t + 256, ... < count */
  rf_prim_lds_sum_tree(sd);
  if (t == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_stage256_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  if (a->cfg.n == 0) return rf_mut_zero_output(a);
  float *partials = (float *)a->scratch;
  hipLaunchKernelGGL(rf_mut_stage256_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     st, a->x, (rf_mut_u64)a->cfg.n, partials);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(rf_mut_stage256_final_kernel, dim3(1), dim3(RF_MUT_STAGE2_BLOCK), 0, st,
                     (const float *)partials, (rf_mut_u64)a->cfg.grid, (float *)a->out);
  return (int)hipGetLastError();
}

/* The correct design's plan: chain and tree of the first kernel; the second kernel's chain over
 * the partials, ceil(grid / 256) of them a thread, and its tree over 256 threads. */
static void rf_mut_stage256_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_mut_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_mut_chain(cfg->grid, 1, RF_MUT_STAGE2_BLOCK));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(RF_MUT_STAGE2_BLOCK));
}

extern "C" const rf_variant rf_mut_sum_second_stage_256 = {
    .name = "sum/mut-second-stage-256",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/two-pass whose second stage, a block of 256 threads, reads one "
        "partial a thread (partials past 256 dropped)",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_stage256_plan,
    .launch = rf_mut_stage256_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
