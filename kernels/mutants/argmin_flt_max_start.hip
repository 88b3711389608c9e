/* argmin/mut-flt-max-start: a two-kernel argmin (grid-stride (value, index) per thread, LDS
 * tree of pairs, per-block partials; then one block over the partials) whose empty slot is
 * {FLT_MAX, 1} instead of {+inf, none}: the initial pair CUB's DeviceReduce::ArgMin once
 * used, which returned index 1 and FLT_MAX for an input of only +inf. Every +inf loses to
 * FLT_MAX, so an all-+inf input (dist all-pos-inf) gives {FLT_MAX, 1} where {+inf, 0} is due
 * (and an all-NaN input gives it where {NaN, -1} is). Ties go to the lowest index; NaN inputs
 * are skipped. */
#include <float.h>
#include "mut_common.h"

/* (av, ai) beats (bv, bi): smaller value, or equal value and lower index. */
static __device__ __forceinline__ bool rf_mut_flt_max_beats(float av, int ai, float bv, int bi) {
  return av < bv || (av == bv && ai < bi);
}

/* LDS tree over pairs; the winner is in vals[0], idxs[0] after the last barrier. */
static __device__ __forceinline__ void rf_mut_flt_max_tree(float *vals, int *idxs, float v,
                                                           int i) {
  const unsigned t = threadIdx.x;
  vals[t] = v;
  idxs[t] = i;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s && rf_mut_flt_max_beats(vals[t + s], idxs[t + s], vals[t], idxs[t])) {
      vals[t] = vals[t + s];
      idxs[t] = idxs[t + s];
    }
    __syncthreads();
  }
}

/* One pass: grid-stride over `count` pairs (indices from `in_idx`, or the position itself when
 * in_idx is NULL), tree, out[blockIdx.x] = the block's winner. */
__global__ void rf_mut_flt_max_kernel(const float *__restrict__ in_val,
                                      const int *__restrict__ in_idx, rf_mut_u64 count,
                                      float *out_val, int *out_idx) {
  RF_SHARED(float, vals, RF_MUT_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float bv = FLT_MAX;   /* BUG: the empty slot must be {+INFINITY, none}: +inf never beats it */
  int bi = 1;
  for (rf_mut_u64 j = rf_mut_gid(); j < count; j += stride) {
    const float v = in_val[j];
    const int i = in_idx ? in_idx[j] : (int)j;
    if (v == v && rf_mut_flt_max_beats(v, i, bv, bi)) { bv = v; bi = i; }
  }
  rf_mut_flt_max_tree(vals, idxs, bv, bi);
  if (threadIdx.x == 0) {
    out_val[blockIdx.x] = vals[0];
    out_idx[blockIdx.x] = idxs[0];
  }
}

/* Output: {+inf, -1} for an empty input, else the winner. */
__global__ void rf_mut_flt_max_store_kernel(const float *val, const int *idx, rf_mut_u64 n,
                                            rf_argmax_out *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out->value = n == 0 ? INFINITY : val[0];
    out->index = n == 0 ? -1 : idx[0];
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Partials (grid values, grid indices), then the final pair. */
static size_t rf_mut_flt_max_scratch(const rf_launch_cfg *cfg) {
  return ((size_t)cfg->grid + 1) * (sizeof(float) + sizeof(int));
}

static int rf_mut_flt_max_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const size_t g = a->cfg.grid;
  float *pv = (float *)a->scratch;
  float *fv = pv + g;
  int *pi = (int *)(fv + 1), *fi = pi + g;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_flt_max_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st,
                       a->x, (const int *)NULL, (rf_mut_u64)a->cfg.n, pv, pi);
    int err = (int)hipGetLastError();
    if (err) return err;
    hipLaunchKernelGGL(rf_mut_flt_max_kernel, dim3(1), dim3(a->cfg.block), 0, st,
                       (const float *)pv, (const int *)pi, (rf_mut_u64)g, fv, fi);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_mut_flt_max_store_kernel, dim3(1), dim3(1), 0, st, (const float *)fv,
                     (const int *)fi, (rf_mut_u64)a->cfg.n, (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_argmin_flt_max_start = {
    "argmin/mut-flt-max-start", RF_OP_ARGMIN, 1, 1,
    "MUTANT two-kernel argmin (grid-stride pairs, LDS tree, partials) whose empty slot is "
    "{FLT_MAX, 1} instead of {+inf, none} (CUB ArgMin's old initial pair)",
    "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), 1024)); no items",
    rf_mut_configure_two_pass, rf_mut_flt_max_scratch,
    rf_mut_plan_two_pass,   /* comparisons, informative only */
    rf_mut_flt_max_launch, 0};
#endif
