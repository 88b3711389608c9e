/* sum/mut-pad-one: sum/lds (one element per thread, LDS tree, one atomic per block) whose
 * out-of-range threads contribute 1 instead of the identity 0. Exposed whenever n is not a
 * multiple of the block: every padded slot adds 1. */
#include "mut_common.h"

__global__ void rf_mut_pad_one_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : 1.0f;   /* BUG: the padding must be 0, the sum's identity */
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_pad_one_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_pad_one_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_pad_one = {
    .name = "sum/mut-pad-one",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds whose out-of-range threads pad with 1 instead of 0",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_pad_one_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
