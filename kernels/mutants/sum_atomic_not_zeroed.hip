/* sum/mut-atomic-not-zeroed: sum/lds whose launch forgets to zero the output before the blocks
 * atomicAdd into it. Under the harness the output holds NaN poison (result NaN); on a GPU in
 * a loop the previous launch's sum accumulates. With n = 0 nothing writes the output. */
#include "mut_common.h"

__global__ void rf_mut_not_zeroed_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : -0.0f;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_not_zeroed_launch(const rf_launch_args *a) {
  /* BUG: no hipMemsetAsync(a->out, 0, ...) before the accumulating kernel */
  if (a->cfg.n == 0) return 0;
  hipLaunchKernelGGL(rf_mut_not_zeroed_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, (rf_mut_u64)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_atomic_not_zeroed = {
    .name = "sum/mut-atomic-not-zeroed",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds that atomicAdds into the output without zeroing it inside the "
        "launch",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_not_zeroed_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
