/* max/mut-f16-int-compare: max/f16-two-stage taken in the wrong type (issue 17): the f16
 * encodings are compared as signed 16-bit integers instead of being converted to float32
 * first. For values of one sign >= 0 the integer order is the float order, which is why the
 * shortcut looks right; among negatives it is reversed (-2 > -0.5 as int16 encodings), and a
 * NaN encoding outranks every number. Exposed by negative, nan-sprinkled and all-neg-inf
 * mixes with NaN. */
#include "../half/half_common.h"

static __device__ __forceinline__ int rf_mut_imax(int a, int b) { return a > b ? a : b; }

__global__ void rf_mut_imax_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                            int *partials) {
  RF_SHARED(int, sd, RF_H_MAX_BLOCK);
  int m = -0x8000 - 1;   /* below every int16: "nothing seen" */
  for (rf_h_u64 i = rf_h_gid(); i < n; i += rf_h_stride())
    m = rf_mut_imax(m, (int)(int16_t)x[i]);   /* BUG: the encoding's integer order */
  const unsigned t = threadIdx.x;
  sd[t] = m;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] = rf_mut_imax(sd[t], sd[t + s]);
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = sd[0];
}
__global__ void rf_mut_imax_final_kernel(const int *__restrict__ partials, rf_h_u64 count,
                                         rf_h_u64 n, void *out) {
  RF_SHARED(int, sd, RF_H_MAX_BLOCK);
  int m = -0x8000 - 1;
  for (rf_h_u64 i = threadIdx.x; i < count; i += blockDim.x) m = rf_mut_imax(m, partials[i]);
  const unsigned t = threadIdx.x;
  sd[t] = m;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] = rf_mut_imax(sd[t], sd[t + s]);
    __syncthreads();
  }
  if (t == 0) {
    const uint16_t bits = n == 0 ? (uint16_t)0xFC00u : (uint16_t)(int16_t)sd[0];
    ((uint16_t *)out)[0] = bits;
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
static size_t rf_mut_imax_scratch(const rf_launch_cfg *cfg) { return (size_t)cfg->grid * sizeof(int); }
static void rf_mut_imax_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}
static int rf_mut_imax_launch(const rf_launch_args *a) {
  hipStream_t s = (hipStream_t)a->stream;
  int *partials = (int *)a->scratch;
  rf_h_u64 count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_imax_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_imax_final_kernel, dim3(1), dim3(a->cfg.block), 0, s,
                     (const int *)partials, count, (rf_h_u64)a->cfg.n, a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_max_f16_int_compare = {
    .name = "max/mut-f16-int-compare",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT max/f16-two-stage comparing the f16 encodings as int16 (the max in the "
        "wrong type)",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); no items",
    .configure = rf_h_configure_lds,
    .scratch_bytes = rf_mut_imax_scratch,
    .plan = rf_mut_imax_plan,
    .launch = rf_mut_imax_launch,
    .in_dtype = RF_DTYPE_F16,
    .out_dtype = RF_DTYPE_F16};
#endif
