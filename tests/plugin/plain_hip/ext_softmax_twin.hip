/* The RF_DYN_SHARED twin of ext_softmax.hip: the same kernel line for line in kernels/port.h's
 * dialect, so that the planted missing barrier is caught here with the same verdict at the
 * same lines (tests/plugin/plain_hip/CMakeLists.txt):
 *   softmax/twin-ext-softmax       correct
 *   softmax/twin-ext-softmax-race  planted barrier bug
 * port.h's subset has no <<<...>>> launch: hipLaunchKernelGGL launches it (the host part,
 * below the kernel, may differ).
 *
 */
#include "kernels/port.h"
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

__device__ float wave_max(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor(v, offset));
  return v;
}
__device__ float wave_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  return v;
}

template <bool kRace>
__global__ void ext_softmax_kernel(const float *__restrict__ x, unsigned rows, unsigned cols,
                                   float *__restrict__ y) {
  RF_DYN_SHARED(float, red);      /* red[w]: wave w's value; red[waves]: the row's */
  const unsigned t = threadIdx.x, lane = t % warpSize, wave = t / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  for (unsigned r = blockIdx.x; r < rows; r += gridDim.x) {
    const float *xr = x + (size_t)r * cols;
    float *yr = y + (size_t)r * cols;
    float m = -INFINITY;
    for (unsigned c = t; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
    m = wave_max(m);
    if (lane == 0) red[wave] = m;
    __syncthreads();
    if (t == 0) {
      float all = red[0];
      for (unsigned w = 1; w < waves; w++) all = fmaxf(all, red[w]);
      red[waves] = all;
    }
    if (!kRace) __syncthreads();
    const float row_max = red[waves];
    float s = 0.0f;
    for (unsigned c = t; c < cols; c += blockDim.x) s += expf(xr[c] - row_max);
    s = wave_sum(s);
    if (lane == 0) red[wave] = s;
    __syncthreads();
    if (t == 0) {
      float all = red[0];
      for (unsigned w = 1; w < waves; w++) all += red[w];
      red[waves] = all;
    }
    __syncthreads();
    const float sum = red[waves];
    for (unsigned c = t; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - row_max) / sum;
    __syncthreads();   /* everyone has read red[waves] before the next row writes red */
  }
}

/* Host code only from here (plugin.h, HOST-CODE GUARD). */
#if !defined(__HIP_DEVICE_COMPILE__)

static const char *ext_softmax_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, 256, cfg->wave, 1024, 1);
  if (why) return why;
  cfg->items = 0;
  if (cfg->grid == 0) cfg->grid = cfg->rows == 0 ? 1 : cfg->rows < 65535 ? cfg->rows : 65535;
  else if (cfg->grid > 65535)
    return rf_reason("grid %u is not supported (allowed: 1..65535)", cfg->grid);
  return NULL;
}

static size_t ext_softmax_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* The exp sum: a thread's columns, the wave's tree, then thread 0's loop over the waves'
 * sums (waves - 1 adds on the longest path); y = e / s, one IEEE division. */
static void ext_softmax_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  p->exp = RF_EXP_ACCURATE;
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->cols, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_LDS, cfg->block / cfg->wave - 1);
}

template <bool kRace>
static int ext_softmax_launch(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || c->cols == 0) return 0;   /* nothing to write */
  const size_t shmem = (c->block / c->wave + 1) * sizeof(float);
  hipLaunchKernelGGL(ext_softmax_kernel<kRace>, dim3(c->grid), dim3(c->block), shmem,
                     (hipStream_t)a->stream, a->x, c->rows, c->cols, (float *)a->out);
  return (int)hipGetLastError();
}

#define EXT_SOFTMAX_CONSTRAINTS "wave 32 or 64; block power of two, wave..1024; grid <= 65535"
static const rf_variant ext_softmax = {
    "softmax/twin-ext-softmax", RF_OP_SOFTMAX, 1, 0,
    "RF_DYN_SHARED twin: block per row, wave shuffles for max and sum, extern __shared__ between waves",
    EXT_SOFTMAX_CONSTRAINTS, ext_softmax_configure, ext_softmax_scratch, ext_softmax_plan,
    ext_softmax_launch<false>, 0};
static const rf_variant ext_softmax_race = {
    "softmax/twin-ext-softmax-race", RF_OP_SOFTMAX, 1, 1,
    "RF_DYN_SHARED twin, planted bug: no barrier between the row max's write and its reads",
    EXT_SOFTMAX_CONSTRAINTS, ext_softmax_configure, ext_softmax_scratch, ext_softmax_plan,
    ext_softmax_launch<true>, 0};
static const rf_variant *const variants[] = {&ext_softmax, &ext_softmax_race};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof variants / sizeof variants[0];
  return variants;
}
#endif
