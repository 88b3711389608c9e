/* sum/mut-f16-narrow-acc: sum/f16-two-stage with the accumulator in the narrow type, the
 * classic `half acc` (issue 17): every addition of the chain, of both LDS trees and of the
 * second stage is rounded to f16 (u = 2^-11 instead of 2^-24), so partial sums lose their low
 * bits long before the one final rounding the correct variant has. Exposed by uniform, wide,
 * sorted and spike data (sums whose partials need more than 11 bits). */
#include "../half/half_common.h"

/* BUG: a + b rounded to f16, as `half acc; acc += x` computes it. */
static __device__ __forceinline__ float rf_mut_narrow_add(float a, float b) {
  return rf_f16_to_f32(rf_f32_to_f16(a + b));
}
static __device__ __forceinline__ float rf_mut_narrow_tree(float *sd) {
  const unsigned t = threadIdx.x;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] = rf_mut_narrow_add(sd[t], sd[t + s]);
    __syncthreads();
  }
  return sd[0];
}

__global__ void rf_mut_narrow_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                              float *partials) {
  RF_SHARED(float, sd, RF_H_MAX_BLOCK);
  float acc = -0.0f;
  for (rf_h_u64 i = rf_h_gid(); i < n; i += rf_h_stride())
    acc = rf_mut_narrow_add(acc, rf_h_load(x, i, 1u));
  sd[threadIdx.x] = acc;
  const float s = rf_mut_narrow_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}
__global__ void rf_mut_narrow_final_kernel(const float *__restrict__ partials, rf_h_u64 count,
                                           void *out) {
  RF_SHARED(float, sd, RF_H_MAX_BLOCK);
  float v = -0.0f;
  for (rf_h_u64 i = threadIdx.x; i < count; i += blockDim.x) v = rf_mut_narrow_add(v, partials[i]);
  sd[threadIdx.x] = v;
  const float s = rf_mut_narrow_tree(sd);
  if (threadIdx.x == 0) rf_h_store(out, 0, count == 0 ? 0.0f : s, 1u);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static size_t rf_mut_narrow_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(float);
}
/* The correct variant's plan (float32 accumulation): what the mutant claims to be. */
static void rf_mut_narrow_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}
static int rf_mut_narrow_launch(const rf_launch_args *a) {
  hipStream_t s = (hipStream_t)a->stream;
  float *partials = (float *)a->scratch;
  rf_h_u64 count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_narrow_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_narrow_final_kernel, dim3(1), dim3(a->cfg.block), 0, s,
                     (const float *)partials, count, a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_f16_narrow_acc = {
    .name = "sum/mut-f16-narrow-acc",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/f16-two-stage accumulating in f16: every addition rounded to the "
        "narrow type",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); no items",
    .configure = rf_h_configure_lds,
    .scratch_bytes = rf_mut_narrow_scratch,
    .plan = rf_mut_narrow_plan,
    .launch = rf_mut_narrow_launch,
    .in_dtype = RF_DTYPE_F16,
    .out_dtype = RF_DTYPE_F16,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
