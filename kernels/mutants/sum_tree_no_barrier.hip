/* sum/mut-tree-no-barrier: sum/lds with the __syncthreads() inside the tree loop left out, so
 * a thread reads sd[t + s] before its owner has added into it in the previous step (a race).
 * Only the barrier after the writes and the one after the loop remain. */
#include "mut_common.h"

__global__ void rf_mut_tree_no_barrier_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                              float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const rf_mut_u64 i = rf_mut_gid();
  sd[t] = i < n ? x[i] : -0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] += sd[t + s];
    /* BUG: __syncthreads() missing here: the next step reads slots still being written */
  }
  __syncthreads();
  if (t == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_tree_no_barrier_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_tree_no_barrier_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_tree_no_barrier = {
    .name = "sum/mut-tree-no-barrier",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds without the barrier between the steps of the LDS tree (race)",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_tree_no_barrier_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
