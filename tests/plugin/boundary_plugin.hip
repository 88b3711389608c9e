/* A plugin whose launch logic is known exactly, for the derived boundaries (run/boundaries.h,
 * docs/BOUNDARIES.md): tests/runner/test_boundaries.c derives its cases and checks every one,
 * and the fuzz target's boundary class is shown to reach each kind on it
 * (tests/cli/test_fuzz_boundary.c, the 60 s campaign of docs/BOUNDARIES.md).
 *
 * sum/plugin-bounds, a correct two-stage sum as users write them:
 *  - block: any whole number of waves from 2 waves to 768 threads (default 128): 64..768 at
 *    wave 32, powers of two or not;
 *  - items: 1..16 a thread (default 2), which only sets the default grid;
 *  - grid: a requested one (1..4096) wins; the default is min(ceil(n / (block * items)),
 *    4 x CUs): it saturates at 32 blocks on the simulator's 8 CUs;
 *  - n: at most 2^24 (its declared width);
 *  - the first kernel: a grid-stride sum per thread, a shuffle tree per wave, the wave sums
 *    through LDS, the first wave shuffles them over the next power of two of the wave count;
 *    one partial a block;
 *  - the second kernel: one block of 256 threads strides over the partials, LDS tree.
 * sum/plugin-bounds-drops-256, its copy with a planted bug: the second stage reads one partial
 * a thread (partials past 256, grid 257 on, are dropped), found by the derived plan-level case
 * at grid 257. */
#include "kernels/port.h"
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

#define PB_MAX_BLOCK 768u
#define PB_MAX_WAVES 32u
#define PB_DEFAULT_BLOCK 128u
#define PB_DEFAULT_ITEMS 2u
#define PB_MAX_ITEMS 16u
#define PB_MAX_GRID 4096u
#define PB_CUS_BLOCKS 4u
#define PB_MAX_N (1u << 24)
#define PB_STAGE2 256u

static __device__ __forceinline__ float pb_wave_sum(float v, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
  return v;
}

__global__ void pb_partials_kernel(const float *__restrict__ x, size_t n, float *partials) {
  RF_SHARED(float, wave_sums, PB_MAX_WAVES);
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  unsigned lanes = 1;   /* the next power of two of the wave count */
  while (lanes < waves) lanes *= 2;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    local += x[i];
  local = pb_wave_sum(local, warpSize);
  if (lane == 0) wave_sums[wave] = local;
  __syncthreads();
  if (wave == 0) {
    const float s = pb_wave_sum(lane < waves ? wave_sums[lane] : -0.0f, lanes);
    if (lane == 0) partials[blockIdx.x] = s;
  }
}

/* One block of PB_STAGE2 threads; strided: every partial (or, planted, one a thread). */
template <bool STRIDED>
__global__ void pb_final_kernel(const float *__restrict__ partials, unsigned count, float *out) {
  RF_SHARED(float, sd, PB_STAGE2);
  const unsigned t = threadIdx.x;
  float local = -0.0f;
  if (STRIDED)
    for (unsigned i = t; i < count; i += PB_STAGE2) local += partials[i];
  else if (t < count)
    local = partials[t];   /* the planted bug: partials past PB_STAGE2 dropped */
  sd[t] = local;
  __syncthreads();
  for (unsigned s = PB_STAGE2 / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] += sd[t + s];
    __syncthreads();
  }
  if (t == 0) out[0] = sd[0];
}
template __global__ void pb_final_kernel<true>(const float *__restrict__, unsigned, float *);
template __global__ void pb_final_kernel<false>(const float *__restrict__, unsigned, float *);

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *pb_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  if (cfg->n > PB_MAX_N)
    return rf_reason("n %llu is not supported (allowed: 0..%u)", (unsigned long long)cfg->n,
                     PB_MAX_N);
  if (cfg->block == 0) cfg->block = PB_DEFAULT_BLOCK;
  if (cfg->block < 2 * cfg->wave || cfg->block > PB_MAX_BLOCK || cfg->block % cfg->wave)
    return rf_reason("block %u is not supported (allowed: whole waves of %u, %u..%u)",
                     cfg->block, cfg->wave, 2 * cfg->wave, PB_MAX_BLOCK);
  if (cfg->items == 0) cfg->items = PB_DEFAULT_ITEMS;
  if (cfg->items > PB_MAX_ITEMS)
    return rf_reason("items %u is not supported (allowed: 1..%u)", cfg->items, PB_MAX_ITEMS);
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n, (uint64_t)cfg->block * cfg->items);
    const uint64_t cap = (uint64_t)PB_CUS_BLOCKS * (cfg->num_cus ? cfg->num_cus : 1);
    if (g > cap) g = cap;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > PB_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, PB_MAX_GRID);
  }
  return NULL;
}

static size_t pb_scratch(const rf_launch_cfg *cfg) { return (size_t)cfg->grid * sizeof(float); }

static void pb_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, PB_STAGE2));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(PB_STAGE2));
}

template <bool STRIDED>
static int pb_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  if (a->cfg.n == 0) return (int)hipMemsetAsync(a->out, 0, sizeof(float), st);
  float *partials = (float *)a->scratch;
  hipLaunchKernelGGL(pb_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                     (size_t)a->cfg.n, partials);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(pb_final_kernel<STRIDED>, dim3(1), dim3(PB_STAGE2), 0, st,
                     (const float *)partials, a->cfg.grid, (float *)a->out);
  return (int)hipGetLastError();
}

#define PB_CONSTRAINTS                                                                        \
  "block whole waves, 2 waves..768; items 1..16 (default 2); grid 1..4096 (default "          \
  "min(ceil(n/(block*items)), 4*CUs)); n up to 2^24"

static const rf_variant pb_sum = {
    .name = "sum/plugin-bounds",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "plugin with known launch logic: grid-stride, wave shuffles over any whole-wave "
        "block, partials, a 256-thread second stage striding over them",
    .constraints = PB_CONSTRAINTS,
    .configure = pb_configure,
    .scratch_bytes = pb_scratch,
    .plan = pb_plan,
    .launch = pb_launch<true>,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant pb_sum_drops = {
    .name = "sum/plugin-bounds-drops-256",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "plugin, planted bug: sum/plugin-bounds whose second stage reads one partial a "
        "thread (partials past 256 dropped)",
    .constraints = PB_CONSTRAINTS,
    .configure = pb_configure,
    .scratch_bytes = pb_scratch,
    .plan = pb_plan,
    .launch = pb_launch<false>,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant *const pb_variants[] = {&pb_sum, &pb_sum_drops};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }

extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof pb_variants / sizeof pb_variants[0];
  return pb_variants;
}
#endif
