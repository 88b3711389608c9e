/* An example redfuzz plugin (include/redfuzz/plugin.h): a plain HIP sum kernel, plus a copy
 * with a planted bug to show that plugin variants are judged like built-in ones. Plain HIP as
 * written for hipcc (<hip/hip_runtime.h>, __shared__, <<<...>>>): scripts/redfuzz-plugin builds
 * it unmodified for the simulator, cuda and hip.
 *
 * Kernel: each block sums one contiguous chunk of block*items elements (each thread `items`
 * of them, block-strided so loads coalesce), reduces with a wave shuffle tree, passes the
 * wave sums through LDS to the first wave, which shuffles them; thread 0 adds the block's sum
 * into the zeroed output with one atomic. */
#include <hip/hip_runtime.h>
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

#define MY_SUM_MAX_BLOCK 1024u
#define MY_SUM_MAX_WAVES 32u   /* 1024 threads in waves of 32 (wave 64 needs fewer) */
#define MY_SUM_DEFAULT_BLOCK 256u
#define MY_SUM_DEFAULT_ITEMS 4u
#define MY_SUM_MAX_ITEMS 4096u
#define MY_SUM_MAX_GRID 0x7fffffffu

/* Lane 0 ends with the sum over lanes 0..lanes-1; the whole wave must call it. */
static __device__ __forceinline__ float my_wave_sum(float v, unsigned lanes) {
  for (unsigned offset = lanes / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}

__global__ void my_sum_chunk_kernel(const float *__restrict__ x, size_t n, unsigned items,
                                    float *out) {
  __shared__ float wave_sums[MY_SUM_MAX_WAVES];
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  const size_t begin = (size_t)blockIdx.x * blockDim.x * items;
  float local = -0.0f; /* the sum's identity: -0 + x = x, and a sum of only -0 stays -0 */
  for (unsigned k = 0; k < items; k++) {
    const size_t i = begin + (size_t)k * blockDim.x + threadIdx.x;
    if (i < n) local += x[i];
  }
  local = my_wave_sum(local, warpSize);
  if (lane == 0) wave_sums[wave] = local;
  __syncthreads();
  if (wave == 0) {   /* the whole first wave shuffles, lanes past the last wave add -0 */
    const float s = my_wave_sum(lane < waves ? wave_sums[lane] : -0.0f, waves);
    if (lane == 0) atomicAdd(out, s);
  }
}

/* The output's start value: -0, the identity (a memset could only give +0). */
__global__ void my_sum_init_kernel(float *out) { out[0] = -0.0f; }

/* Host code only from here: HIP's device pass must not see the variant tables. */
#if !defined(__HIP_DEVICE_COMPILE__)

/* Block: power of two, whole waves, up to 1024. Grid: one chunk of block*items per block (a
 * requested grid is ignored). */
static const char *my_sum_configure(rf_launch_cfg *cfg) {
  if (!rf_is_pow2(cfg->wave) || cfg->wave > MY_SUM_MAX_BLOCK)
    return rf_reason("wave size %u is not supported (allowed: power of two up to %u)", cfg->wave,
                     MY_SUM_MAX_BLOCK);
  const char *why = rf_pick_block_pow2(cfg, MY_SUM_DEFAULT_BLOCK, cfg->wave, MY_SUM_MAX_BLOCK, 1);
  if (why) return why;
  if (cfg->items == 0) cfg->items = MY_SUM_DEFAULT_ITEMS;
  if (cfg->items > MY_SUM_MAX_ITEMS)
    return rf_reason("items %u is not supported (allowed: 1..%u)", cfg->items, MY_SUM_MAX_ITEMS);
  const uint64_t grid = cfg->n ? rf_div_ceil(cfg->n, (uint64_t)cfg->block * cfg->items) : 1;
  if (grid > MY_SUM_MAX_GRID)
    return rf_reason("n %llu needs %llu blocks (max grid %u)", (unsigned long long)cfg->n,
                     (unsigned long long)grid, MY_SUM_MAX_GRID);
  cfg->grid = (uint32_t)grid;
  return NULL;
}

static size_t my_sum_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* Longest chain: `items` adds in a thread, the in-wave tree, the tree over the wave sums, then
 * the `grid` atomics into the output. */
static void my_sum_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, cfg->items);
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* The output set to +0 for an empty sum, else to -0, then one launch over `n` elements (no
 * synchronisation: the runner waits). */
static int my_sum_launch_over(const rf_launch_args *a, uint64_t n) {
  hipStream_t stream = (hipStream_t)a->stream;
  if (a->cfg.n == 0) return (int)hipMemsetAsync(a->out, 0, sizeof(float), stream);
  my_sum_init_kernel<<<1, 1, 0, stream>>>((float *)a->out);
  int err = (int)hipGetLastError();
  if (err || n == 0) return err;
  my_sum_chunk_kernel<<<a->cfg.grid, a->cfg.block, 0, stream>>>(a->x, (size_t)n,
                                                                 (unsigned)a->cfg.items,
                                                                 (float *)a->out);
  return (int)hipGetLastError();
}

static int my_sum_launch(const rf_launch_args *a) { return my_sum_launch_over(a, a->cfg.n); }

/* The planted bug: the last element is never read. */
static int my_sum_launch_drops_last(const rf_launch_args *a) {
  return my_sum_launch_over(a, a->cfg.n ? a->cfg.n - 1 : 0);
}

#define MY_SUM_CONSTRAINTS                                                                  \
  "block power of two, wave..1024; items 1..4096 (default 4); grid = ceil(n/(block*items)), " \
  "a requested grid is ignored"

static const rf_variant my_sum_example = {
    "sum/plugin-example", RF_OP_SUM, 0, 0,
    "plugin: block per chunk of block*items, wave shuffle, wave sums via LDS, one atomic per "
    "block",
    MY_SUM_CONSTRAINTS, my_sum_configure, my_sum_scratch, my_sum_plan, my_sum_launch, 0};

static const rf_variant my_sum_drops_last = {
    "sum/plugin-drops-last", RF_OP_SUM, 0, 1,
    "plugin, planted bug: sum/plugin-example that never reads the last element",
    MY_SUM_CONSTRAINTS, my_sum_configure, my_sum_scratch, my_sum_plan, my_sum_launch_drops_last, 0};

static const rf_variant *const my_variants[] = {&my_sum_example, &my_sum_drops_last};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }

extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof my_variants / sizeof my_variants[0];
  return my_variants;
}
#endif
