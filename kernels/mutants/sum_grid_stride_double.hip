/* sum/mut-grid-stride-double: a grid-stride sum (chain, LDS tree, one atomic per block) whose
 * stride is blockDim.x instead of blockDim.x * gridDim.x: block b walks from b*block to the end,
 * so every element past the first block is added by several blocks. Exposed whenever grid > 1. */
#include "mut_common.h"

__global__ void rf_mut_stride_double_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                            float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = blockDim.x;   /* BUG: must be (rf_mut_u64)gridDim.x * blockDim.x */
  float local = -0.0f;
  for (rf_mut_u64 i = rf_mut_gid(); i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *rf_mut_stride_double_configure(rf_launch_cfg *cfg) {
  return rf_mut_configure_grid_stride(cfg, 1);
}

static int rf_mut_stride_double_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_stride_double_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_grid_stride_double = {
    .name = "sum/mut-grid-stride-double",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT grid-stride sum whose stride is blockDim.x, not blockDim.x*gridDim.x: "
        "elements are added by several blocks",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default ceil(n/(block*items))); "
        "items 1..65536 (default 4; only sets the default grid)",
    .configure = rf_mut_stride_double_configure,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_chain_lds_atomic,
    .launch = rf_mut_stride_double_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
