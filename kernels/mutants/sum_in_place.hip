/* sum/mut-in-place: sum/lds's tree built in the input itself instead of in LDS (an in-place
 * pass, or a scratch pointer mixed up with the input): each block adds the upper half of its
 * slice of x onto the lower half, step after step, and thread 0 adds the slice's first
 * element into the output. The same additions in the same order as sum/lds, so its sum is
 * right; what is wrong is that it changes the read-only input every variant after it reads.
 * `input-written` on its first case (issue 47: before, the next variant was blamed). */
#include "mut_common.h"

__global__ void rf_mut_in_place_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  float *w = const_cast<float *>(x);   /* BUG: the input is read-only */
  const unsigned t = threadIdx.x;
  const rf_mut_u64 base = (rf_mut_u64)blockIdx.x * blockDim.x;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s && base + t + s < n) w[base + t] += w[base + t + s];
    __syncthreads();
  }
  if (t == 0 && base < n) atomicAdd(out, w[base]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_in_place_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_in_place_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_in_place = {
    .name = "sum/mut-in-place",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds with its tree built in the input instead of LDS (writes its "
        "read-only input; the sum itself is right)",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_in_place_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
