/* max/mut-all-nan-neg-inf: a two-kernel max (grid-stride fmaxf per thread, LDS tree, per-block
 * partials; then one block over the partials) whose folds start from -inf, the textbook
 * identity. fmaxf ignores a NaN operand, so a row of only NaN comes out as -inf; the contract
 * says NaN (docs/ORACLE.md; kernels/max.hip starts from NaN for this reason). Any input with a
 * number in it is unaffected. Exposed by dist all-nan. */
#include "mut_common.h"

/* out[blockIdx.x] = the block's maximum over `count` values, grid-stride. */
__global__ void rf_mut_all_nan_kernel(const float *__restrict__ x, rf_mut_u64 count, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float m = -INFINITY;   /* BUG: must be NaN, which fmaxf also ignores, so all-NaN stays NaN */
  for (rf_mut_u64 i = rf_mut_gid(); i < count; i += stride) m = fmaxf(m, x[i]);
  sd[threadIdx.x] = m;
  rf_prim_lds_max_tree(sd);
  if (threadIdx.x == 0) out[blockIdx.x] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_all_nan_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const float *in = a->x;
  rf_mut_u64 count = a->cfg.n;
  if (count) {   /* n = 0: one block over nothing writes -inf, the empty max */
    float *partials = (float *)a->scratch;
    hipLaunchKernelGGL(rf_mut_all_nan_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st,
                       a->x, count, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    in = partials;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_all_nan_kernel, dim3(1), dim3(a->cfg.block), 0, st, in, count,
                     (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_max_all_nan_neg_inf = {
    .name = "max/mut-all-nan-neg-inf",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT two-kernel max (grid-stride fmaxf, LDS tree, partials) whose folds start "
        "from -inf: an all-NaN input gives -inf instead of NaN",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_plan_two_pass,
    .launch = rf_mut_all_nan_launch};
#endif
