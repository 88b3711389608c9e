/* sum/mut-saturate: sum/lds (one element per thread, LDS tree, one atomic per block) that
 * clamps each element to [-FLT_MAX, FLT_MAX] on load "so the sum cannot overflow". +inf and
 * -inf then cancel to a finite number where IEEE gives NaN, a lone +inf gives a finite sum,
 * and a NaN (fmaxf(NaN, -FLT_MAX) = -FLT_MAX) disappears. Finite inputs are unaffected.
 * Exposed by dist inf-mixed (and nan-sprinkled, all-nan). */
#include <float.h>
#include "mut_common.h"

__global__ void rf_mut_saturate_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? fminf(fmaxf(x[i], -FLT_MAX), FLT_MAX) : -0.0f; /* BUG: clamps inf, NaN */
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_saturate_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_saturate_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_saturate = {
    .name = "sum/mut-saturate",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds that clamps every element to [-FLT_MAX, FLT_MAX]: +inf and -inf "
        "cancel instead of giving NaN",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_saturate_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
