/* max/mut-wave-no-pad: a two-kernel max (one element per thread, a butterfly shuffle per wave,
 * lane 0 writes the wave's maximum as a partial; then one block strides over the partials)
 * whose out-of-range threads return early instead of padding with -inf: the last, partial wave
 * shuffles with lanes that are gone (HIP on AMD reads whatever their registers hold, CUDA's
 * full-mask _sync is undefined; the simulator reports the wave operation not reached by all
 * lanes). Exposed when n is not a multiple of the wave size. */
#include "mut_common.h"

__global__ void rf_mut_wave_no_pad_partials_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                                   float *partials) {
  const rf_mut_u64 i = rf_mut_gid();
  if (i >= n) return;   /* BUG: must stay for the shuffle, holding -INFINITY */
  float v = x[i];
  for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
  /* Lane 0 is in range exactly when its wave holds an element: one partial per such wave. */
  if (threadIdx.x % warpSize == 0) partials[i / warpSize] = v;
}

/* Second stage, one block: correct grid-stride over the partials; count = 0 writes -inf. */
__global__ void rf_mut_wave_no_pad_final_kernel(const float *__restrict__ partials,
                                                rf_mut_u64 count, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  float m = -INFINITY;
  for (rf_mut_u64 i = threadIdx.x; i < count; i += blockDim.x) m = fmaxf(m, partials[i]);
  sd[threadIdx.x] = m;
  rf_prim_lds_max_tree(sd);
  if (threadIdx.x == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Whole waves (the shuffle spans warpSize lanes), one element per thread. */
static const char *rf_mut_wave_no_pad_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why =
      rf_pick_block_pow2(cfg, RF_MUT_DEFAULT_BLOCK, cfg->wave, RF_MUT_MAX_BLOCK, 1);
  return why ? why : rf_mut_grid_one_per_thread(cfg);
}

/* One partial per wave of the covered range. */
static uint64_t rf_mut_wave_no_pad_partials(const rf_launch_cfg *cfg) {
  return rf_div_ceil(cfg->n, cfg->wave);
}

static size_t rf_mut_wave_no_pad_scratch(const rf_launch_cfg *cfg) {
  return (size_t)rf_mut_wave_no_pad_partials(cfg) * sizeof(float);
}

/* Comparisons on the longest path (informative: a max is exact). */
static void rf_mut_wave_no_pad_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL,
              rf_mut_chain(rf_mut_wave_no_pad_partials(cfg), 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}

static int rf_mut_wave_no_pad_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const float *in = a->x;
  rf_mut_u64 count = a->cfg.n;
  if (count) {
    float *partials = (float *)a->scratch;
    hipLaunchKernelGGL(rf_mut_wave_no_pad_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block),
                       0, st, a->x, count, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    in = partials;
    count = rf_mut_wave_no_pad_partials(&a->cfg);
  }
  hipLaunchKernelGGL(rf_mut_wave_no_pad_final_kernel, dim3(1), dim3(a->cfg.block), 0, st, in,
                     count, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_max_wave_no_pad = {
    .name = "max/mut-wave-no-pad",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT two-kernel max (wave shuffle, per-wave partials) whose out-of-range lanes "
        "return before the shuffle instead of padding with -inf",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid = ceil(n/block), a "
        "requested grid is ignored; no items",
    .configure = rf_mut_wave_no_pad_configure,
    .scratch_bytes = rf_mut_wave_no_pad_scratch,
    .plan = rf_mut_wave_no_pad_plan,
    .launch = rf_mut_wave_no_pad_launch};
#endif
