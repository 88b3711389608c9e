/* sum/mut-drop-tail: sum/lds launched with grid = n / block (floor) instead of ceil, so the
 * last n mod block elements are never read (and n < block launches nothing: the result is 0).
 * The plan is the correct design's, ceil(n / block) blocks. */
#include "mut_common.h"

__global__ void rf_mut_drop_tail_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : -0.0f;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_drop_tail_launch(const rf_launch_args *a) {
  const uint32_t grid = (uint32_t)(a->cfg.n / a->cfg.block);   /* BUG: floor, not ceil */
  return rf_mut_launch_accumulating(a, rf_mut_drop_tail_kernel, grid);
}

extern "C" const rf_variant rf_mut_sum_drop_tail = {
    .name = "sum/mut-drop-tail",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds launched with floor(n/block) blocks: the last n mod block elements "
        "are lost",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_drop_tail_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
