/* sum/mut-atomic-claims-deterministic: sum/lds (one element per thread, LDS tree, one float
 * atomicAdd per block into the zeroed output) declared deterministic. Float addition is not
 * associative, so the result depends on the order in which the blocks' atomics land: a
 * second run of the same case can give other bits. The correct design either declares 0
 * (sum/lds, sum/atomic) or merges the partials in a fixed order (sum/two-pass). */
#include "mut_common.h"

__global__ void rf_mut_claims_det_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : 0.0f;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_claims_det_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_claims_det_kernel, a->cfg.grid);
}

/* The plan is that of what the kernel computes (LDS tree, then `grid` atomic adds), so the
 * value is always within its bound: only the determinism claim is wrong. */
extern "C" const rf_variant rf_mut_sum_atomic_claims_deterministic = {
    .name = "sum/mut-atomic-claims-deterministic",
    .op = RF_OP_SUM,
    .deterministic = 1,
    /* BUG: the float atomicAdd merge of the block partials depends on block order */
    .is_mutant = 1,
    .summary = "MUTANT sum/lds (float atomicAdd of block partials) declared deterministic",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_claims_det_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
