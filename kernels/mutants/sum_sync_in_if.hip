/* sum/mut-sync-in-if: sum/lds with the tree's __syncthreads() moved inside `if (t < s)`, so
 * only the active half of the block reaches it (a divergent barrier: undefined on GPUs, a
 * hang or a silent race; the simulator reports it). Needs a block of 2 or more to diverge. */
#include "mut_common.h"

__global__ void rf_mut_sync_in_if_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const rf_mut_u64 i = rf_mut_gid();
  sd[t] = i < n ? x[i] : -0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) {
      sd[t] += sd[t + s];
      __syncthreads();   /* BUG: threads t >= s never reach this barrier */
    }
  }
  if (t == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_sync_in_if_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_sync_in_if_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_sync_in_if = {
    .name = "sum/mut-sync-in-if",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds with the tree barrier inside if (t < s) (divergent barrier)",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_sync_in_if_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
