/* The correct two-pass sum the launch-contract mutants share (sum/two-pass's design: a
 * grid-stride chain and an LDS tree into one partial per block, then one block strides over
 * the partials). Each mutant keeps these kernels and breaks the contract of its launch
 * function in one place (include/redfuzz/plugin.h, `launch`): a launch on the default stream,
 * a synchronisation, an allocation. */
#ifndef RF_MUT_TWO_PASS_H
#define RF_MUT_TWO_PASS_H
#include "mut_common.h"

__global__ static __attribute__((unused)) void rf_mut_tp_partials_kernel(
    const float *__restrict__ x, rf_mut_u64 n, float *partials) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 i = rf_mut_gid(); i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = sd[0];
}

/* One block over count partials; count = 0 (the empty input) writes +0. */
__global__ static __attribute__((unused)) void rf_mut_tp_final_kernel(
    const float *__restrict__ partials, rf_mut_u64 count, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  float s = -0.0f;
  for (rf_mut_u64 k = threadIdx.x; k < count; k += blockDim.x) s += partials[k];
  sd[threadIdx.x] = s;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) out[0] = count ? sd[0] : 0.0f;
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* The correct launch of both kernels on a->stream, the partials in `partials`. 0 or the first
 * launch error. */
static inline int rf_mut_tp_enqueue(const rf_launch_args *a, float *partials) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_mut_u64 count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_tp_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st,
                       a->x, (rf_mut_u64)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_tp_final_kernel, dim3(1), dim3(a->cfg.block), 0, st, partials, count,
                     (float *)a->out);
  return (int)hipGetLastError();
}
#endif
#endif
