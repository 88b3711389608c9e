/* A plain HIP sum, written as engineers write one: a grid-stride loop, a shuffle tree in each
 * wave, the waves' sums through a __shared__ array to the first wave, one atomicAdd a block.
 *   sum/plain-shfl-sum            correct: the array holds one partial per wave of the
 *                                 largest block (1024 threads in waves of 32)
 *   sum/plain-shfl-sum-small-lds  planted bounds bug: the array sized for 256 threads
 *                                 (8 waves) while configure accepts blocks up to 1024; caught
 *                                 as `oob` (plain and ASan builds) at the declaration's line.
 * shfl_sum_twin.hip is the same file in kernels/port.h's dialect (RF_SHARED), line for line. */
#include <hip/hip_runtime.h>
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

#define MAX_WAVES 32
#define SMALL_WAVES 8

__device__ float wave_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}

__global__ void shfl_sum_kernel(const float *__restrict__ x, size_t n, float *out) {
  __shared__ float partials[MAX_WAVES];
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  float v = 0.0f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    v += x[i];
  v = wave_sum(v);
  if (lane == 0) partials[wave] = v;
  __syncthreads();
  if (wave == 0) {
    v = wave_sum(lane < waves ? partials[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, v);
  }
}

__global__ void shfl_sum_small_lds_kernel(const float *__restrict__ x, size_t n, float *out) {
  __shared__ float partials[SMALL_WAVES];
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  float v = 0.0f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    v += x[i];
  v = wave_sum(v);
  if (lane == 0) partials[wave] = v;
  __syncthreads();
  if (wave == 0) {
    v = wave_sum(lane < waves ? partials[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, v);
  }
}

/* Host code only from here (plugin.h, HOST-CODE GUARD). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* Block: a power of two of whole waves up to 1024; grid: enough for n, at most 8 a CU. */
static const char *shfl_sum_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, 256, cfg->wave, 1024, 1);
  if (why) return why;
  cfg->items = 0;
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n, cfg->block), cap = 8ull * (cfg->num_cus ? cfg->num_cus : 1);
    cfg->grid = (uint32_t)(g == 0 ? 1 : g < cap ? g : cap);
  } else if (cfg->grid > 65535) {
    return rf_reason("grid %u is not supported (allowed: 1..65535)", cfg->grid);
  }
  return NULL;
}

static size_t shfl_sum_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* Longest chain: a thread's grid-stride elements, the wave's tree, the tree over the waves'
 * sums, then one atomic a block. */
static void shfl_sum_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* The output starts at +0 (an empty sum is +0), then the blocks add into it. */
template <bool kSmall>
static int shfl_sum_launch(const rf_launch_args *a) {
  hipStream_t stream = (hipStream_t)a->stream;
  int err = (int)hipMemsetAsync(a->out, 0, sizeof(float), stream);
  if (err || a->cfg.n == 0) return err;
  if (kSmall)
    shfl_sum_small_lds_kernel<<<a->cfg.grid, a->cfg.block, 0, stream>>>(a->x, a->cfg.n,
                                                                        (float *)a->out);
  else
    shfl_sum_kernel<<<a->cfg.grid, a->cfg.block, 0, stream>>>(a->x, a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

#define SHFL_SUM_CONSTRAINTS "wave 32 or 64; block power of two, wave..1024; grid <= 65535"
static const rf_variant shfl_sum = {
    "sum/plain-shfl-sum", RF_OP_SUM, 0, 0,
    "plain HIP: grid-stride loop, wave shuffles, __shared__ partials, one atomicAdd a block",
    SHFL_SUM_CONSTRAINTS, shfl_sum_configure, shfl_sum_scratch, shfl_sum_plan,
    shfl_sum_launch<false>, 0};
static const rf_variant shfl_sum_small_lds = {
    "sum/plain-shfl-sum-small-lds", RF_OP_SUM, 0, 1,
    "plain HIP, planted bug: __shared__ partials sized for 8 waves, blocks of 32 waves accepted",
    SHFL_SUM_CONSTRAINTS, shfl_sum_configure, shfl_sum_scratch, shfl_sum_plan,
    shfl_sum_launch<true>, 0};
static const rf_variant *const variants[] = {&shfl_sum, &shfl_sum_small_lds};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof variants / sizeof variants[0];
  return variants;
}
#endif
