/* min/mut-pad-zero: a two-kernel min (one element per thread, LDS fminf tree, per-block
 * partials; then one block strides over the partials) whose out-of-range threads pad with 0
 * instead of +inf: max/mut-pad-zero mirrored. Exposed by inputs whose minimum is positive when
 * n is not a multiple of the block (dist ones, n = 33): the result becomes 0. */
#include "mut_common.h"

/* Sequential-addressing fminf tree over blockDim.x values; the minimum is in sd[0]. */
static __device__ __forceinline__ void rf_mut_min_pad_zero_tree(float *sd) {
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sd[threadIdx.x] = fminf(sd[threadIdx.x], sd[threadIdx.x + s]);
    __syncthreads();
  }
}

/* First stage: one element per thread. */
__global__ void rf_mut_min_pad_zero_partials_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                                    float *partials) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : 0.0f;   /* BUG: the padding must be +INFINITY (or NaN) */
  rf_mut_min_pad_zero_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = sd[0];
}

/* Second stage, one block: correct grid-stride over the partials; count = 0 writes +inf. */
__global__ void rf_mut_min_pad_zero_final_kernel(const float *__restrict__ partials,
                                                 rf_mut_u64 count, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  float m = INFINITY;
  for (rf_mut_u64 i = threadIdx.x; i < count; i += blockDim.x) m = fminf(m, partials[i]);
  sd[threadIdx.x] = m;
  rf_mut_min_pad_zero_tree(sd);
  if (threadIdx.x == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Comparisons on the longest path (informative: a min is exact). */
static void rf_mut_min_pad_zero_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_mut_chain(cfg->grid, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

static int rf_mut_min_pad_zero_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const float *in = a->x;
  rf_mut_u64 count = a->cfg.n;
  if (count) {
    float *partials = (float *)a->scratch;
    hipLaunchKernelGGL(rf_mut_min_pad_zero_partials_kernel, dim3(a->cfg.grid),
                       dim3(a->cfg.block), 0, st, a->x, count, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    in = partials;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_min_pad_zero_final_kernel, dim3(1), dim3(a->cfg.block), 0, st, in,
                     count, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_min_pad_zero = {
    "min/mut-pad-zero", RF_OP_MIN, 1, 1,
    "MUTANT two-kernel min (LDS tree, per-block partials) whose out-of-range threads pad with 0 "
    "instead of +inf",
    "block power of two 1..1024; grid = ceil(n/block), a requested grid is ignored; no items",
    rf_mut_configure_one_per_thread, rf_mut_float_partials, rf_mut_min_pad_zero_plan,
    rf_mut_min_pad_zero_launch, 0};
#endif
