/* argmax/mut-u16-index: a two-kernel argmax (grid-stride (value, index) per thread, LDS tree of
 * pairs, per-block partials; then one block over the partials), the first maximum's index as
 * the ties rule wants, whose first kernel keeps each thread's best position in a 16-bit
 * register (an unsigned short and a flag for "none yet"), written for inputs of at most 65,536
 * elements. The correct design keeps it in an int. Past 2^16 elements a position wraps: on an
 * ascending input (dist sorted) the maximum at n - 1 = 65,536 is reported at index 0. Every
 * size of the default sweep's cross product is below; the derived index-width sizes
 * 2^16 + 1 (run/boundaries.c) are past it. */
#include "mut_common.h"

/* One pass: grid-stride over `count` pairs (indices from `in_idx`, or the position itself when
 * in_idx is NULL), tree, out[blockIdx.x] = the block's winner. */
__global__ void rf_mut_u16_index_kernel(const float *__restrict__ in_val,
                                        const int *__restrict__ in_idx, rf_mut_u64 count,
                                        float *out_val, int *out_idx) {
  RF_SHARED(float, vals, RF_MUT_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float bv = -INFINITY;
  unsigned short bpos = 0;   /* BUG: a position needs an int (inputs past 2^16 elements) */
  int seen = 0;
  for (rf_mut_u64 j = rf_mut_gid(); j < count; j += stride) {
    const float v = in_val[j];
    const int i = in_idx ? in_idx[j] : (int)j;
    if (v == v && rf_dir_max::beats(v, i, bv, seen ? (int)bpos : RF_MUT_ARGMAX_NONE)) {
      bv = v;
      bpos = (unsigned short)i;
      seen = 1;
    }
  }
  rf_prim_block_argmax_lds<rf_dir_max>(vals, idxs, bv, seen ? (int)bpos : RF_MUT_ARGMAX_NONE);
  if (threadIdx.x == 0) {
    out_val[blockIdx.x] = vals[0];
    out_idx[blockIdx.x] = idxs[0];
  }
}

/* Output: {-inf, -1} for an empty input, {NaN, -1} for an input of only NaN (the contract's
 * nan-ignored: NaN only when every element is), else the winner. */
__global__ void rf_mut_u16_index_store_kernel(const float *val, const int *idx, rf_mut_u64 n,
                                              rf_argmax_out *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    const bool none = n == 0 || idx[0] == RF_MUT_ARGMAX_NONE;
    out->value = n == 0 ? -INFINITY : none ? rf_prim_max_identity() : val[0];
    out->index = none ? -1 : idx[0];
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Partials (grid values, grid indices), then the final pair. */
static size_t rf_mut_u16_index_scratch(const rf_launch_cfg *cfg) {
  return ((size_t)cfg->grid + 1) * (sizeof(float) + sizeof(int));
}

static int rf_mut_u16_index_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const size_t g = a->cfg.grid;
  float *pv = (float *)a->scratch;
  float *fv = pv + g;
  int *pi = (int *)(fv + 1), *fi = pi + g;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_u16_index_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st,
                       a->x, (const int *)NULL, (rf_mut_u64)a->cfg.n, pv, pi);
    int err = (int)hipGetLastError();
    if (err) return err;
    hipLaunchKernelGGL(rf_mut_u16_index_kernel, dim3(1), dim3(a->cfg.block), 0, st,
                       (const float *)pv, (const int *)pi, (rf_mut_u64)g, fv, fi);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_mut_u16_index_store_kernel, dim3(1), dim3(1), 0, st, (const float *)fv,
                     (const int *)fi, (rf_mut_u64)a->cfg.n, (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_argmax_u16_index = {
    .name = "argmax/mut-u16-index",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT two-kernel argmax (grid-stride pairs, LDS tree, partials) whose threads "
        "keep their best position in 16 bits",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_u16_index_scratch,
    .plan = rf_mut_plan_two_pass,
    /* comparisons, informative only */
    .launch = rf_mut_u16_index_launch};
#endif
