/* sum/mut-npot-waves: a grid-stride sum over blocks of whole waves (any multiple of the wave
 * size up to 1024, powers of two or not): a shuffle tree per wave, the wave sums through LDS,
 * then the first wave shuffles them. The correct design shuffles the wave sums over the next
 * power of two of the wave count (lanes past the last wave bring -0); this one shuffles over
 * the wave count itself, which is right only when that count is a power of two: at 3 waves
 * (block 96 at wave 32) the offsets are 1 only, and the third wave's sum is dropped. Blocks
 * that are powers of two (every block of the default sweep's cross product) hide it; the
 * derived non-power-of-two blocks (run/boundaries.c) expose it. */
#include "mut_common.h"

/* The sum of lane 0 .. lanes-1 ends in lane 0; lanes: the count of values to reduce. */
static __device__ __forceinline__ float rf_mut_npot_shfl_sum(float v, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
  return v;
}

__global__ void rf_mut_npot_waves_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, wave_sums, RF_MUT_MAX_BLOCK / 32u);
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 i = rf_mut_gid(); i < n; i += stride) local += x[i];
  local = rf_mut_npot_shfl_sum(local, warpSize);
  if (lane == 0) wave_sums[wave] = local;
  __syncthreads();
  if (wave == 0) {   /* the whole first wave shuffles; lanes past the last wave bring -0 */
    const float s = rf_mut_npot_shfl_sum(lane < waves ? wave_sums[lane] : -0.0f,
                                         waves);   /* BUG: needs the next power of two >= waves */
    if (lane == 0) atomicAdd(out, s);
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Whole waves, 1 to 1024 / wave of them, any count; items as sum/unrolled's. */
static const char *rf_mut_npot_waves_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  if (cfg->block == 0) cfg->block = RF_MUT_DEFAULT_BLOCK;
  if (cfg->block > RF_MUT_MAX_BLOCK || cfg->block % cfg->wave)
    return rf_reason("block %u is not supported (allowed: a multiple of the wave size %u up to "
                     "%u)", cfg->block, cfg->wave, RF_MUT_MAX_BLOCK);
  const char *why = rf_mut_pick_items(cfg);
  return why ? why : rf_mut_grid_stride(cfg, cfg->items, RF_MUT_MAX_GRID, 1);
}

/* Chain, the tree in a wave, the tree over the waves (its depth: the next power of two of the
 * wave count), one atomic per block. */
static void rf_mut_npot_waves_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_mut_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

static int rf_mut_npot_waves_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_npot_waves_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_npot_waves = {
    .name = "sum/mut-npot-waves",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT grid-stride sum over whole waves whose shuffle over the wave sums covers "
        "a power-of-two count of waves only (a block of 3 waves drops one)",
    .constraints = "block a multiple of the wave size up to 1024; grid 1..2^31-1 (default "
        "ceil(n/(block*items))); items 1..65536 (default 4; only sets the default grid)",
    .configure = rf_mut_npot_waves_configure,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_npot_waves_plan,
    .launch = rf_mut_npot_waves_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif
