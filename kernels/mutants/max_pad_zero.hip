/* max/mut-pad-zero: a two-kernel max (one element per thread, LDS fmaxf tree, per-block
 * partials; then one block strides over the partials) whose out-of-range threads pad with 0
 * instead of -inf. Exposed by inputs whose maximum is negative when n is not a multiple of the
 * block: the result becomes 0. */
#include "mut_common.h"

/* First stage: one element per thread. */
__global__ void rf_mut_pad_zero_partials_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                                float *partials) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : 0.0f;   /* BUG: the padding must be -INFINITY */
  rf_prim_lds_max_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = sd[0];
}

/* Second stage, one block: correct grid-stride over the partials; count = 0 writes -inf. */
__global__ void rf_mut_pad_zero_final_kernel(const float *__restrict__ partials,
                                             rf_mut_u64 count, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  float m = -INFINITY;
  for (rf_mut_u64 i = threadIdx.x; i < count; i += blockDim.x) m = fmaxf(m, partials[i]);
  sd[threadIdx.x] = m;
  rf_prim_lds_max_tree(sd);
  if (threadIdx.x == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Comparisons on the longest path (informative: a max is exact). */
static void rf_mut_pad_zero_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_mut_chain(cfg->grid, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

static int rf_mut_pad_zero_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const float *in = a->x;
  rf_mut_u64 count = a->cfg.n;
  if (count) {
    float *partials = (float *)a->scratch;
    hipLaunchKernelGGL(rf_mut_pad_zero_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block),
                       0, st, a->x, count, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    in = partials;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_pad_zero_final_kernel, dim3(1), dim3(a->cfg.block), 0, st, in, count,
                     (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_max_pad_zero = {
    .name = "max/mut-pad-zero",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT two-kernel max (LDS tree, per-block partials) whose out-of-range threads "
        "pad with 0 instead of -inf",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_pad_zero_plan,
    .launch = rf_mut_pad_zero_launch};
#endif
