/* sum/mut-no-grid-stride: one element a thread, an LDS tree, one atomic a block, launched with
 * the grid rule of a grid-stride design: min(ceil(n/block), CUs x 8) blocks (seed 000 §9.4.3,
 * the rule sum/two-stage-wave uses). The correct design strides: each thread adds x[i],
 * x[i + grid*block], ...; this one reads x[i] only, so once the grid stops growing (n past
 * CUs x 8 x block: 16,384 elements at 8 CUs and block 256) the elements past the grid's
 * threads are dropped. Every size of the default sweep's cross product is below the cap; the
 * derived saturation cases (run/boundaries.c) are past it. */
#include "mut_common.h"

__global__ void rf_mut_no_stride_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : -0.0f;   /* BUG: needs the loop i, i + grid*block, ... < n */
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Block power of two 1..1024; grid min(ceil(n/block), CUs x 8), a requested grid ignored. */
static const char *rf_mut_no_stride_configure(rf_launch_cfg *cfg) {
  const char *why = rf_mut_pick_block(cfg);
  if (why) return why;
  const uint64_t cap = (uint64_t)(cfg->num_cus ? cfg->num_cus : 1) * 8;
  uint64_t g = rf_div_ceil(cfg->n, cfg->block);
  if (g > cap) g = cap;
  cfg->grid = g ? (uint32_t)g : 1;
  cfg->items = 0;
  return NULL;
}

static int rf_mut_no_stride_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_no_stride_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_no_grid_stride = {
    .name = "sum/mut-no-grid-stride",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT one element a thread, LDS tree, one atomic a block, with a grid capped at "
        "CUs x 8 blocks (past the cap, elements are dropped)",
    .constraints = "block power of two 1..1024; grid min(ceil(n/block), CUs*8), a requested grid "
        "is ignored; no items",
    .configure = rf_mut_no_stride_configure,
    .scratch_bytes = rf_mut_no_scratch,
    /* the grid-stride design's plan: chain ceil(n/(grid*block)), LDS tree, atomics */
    .plan = rf_mut_plan_chain_lds_atomic,
    .launch = rf_mut_no_stride_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
