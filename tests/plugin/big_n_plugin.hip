/* A planted bug that shows only past 32,768 elements, for the fuzz size budget's benchmark
 * (scripts/bench-fuzz-reach.sh): sum/plugin-test-drops-past-32k sums with a grid-stride loop
 * and a block tree like any correct sum, but never reads the last element when n > 32768.
 * Cases of at most 32,768 elements, all the cheap size classes hold on the simulator, pass. */
#include "kernels/port.h"
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

#define BIG_N_BLOCK 256u
#define BIG_N_GRID 64u
#define BIG_N_THRESHOLD 32768u

__global__ void big_n_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, s, BIG_N_BLOCK);
  const size_t end = n > BIG_N_THRESHOLD ? n - 1 : n;   /* the planted bug */
  float local = -0.0f;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < end;
       i += (size_t)gridDim.x * blockDim.x)
    local += x[i];
  s[threadIdx.x] = local;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

__global__ void big_n_init_kernel(float *out) { out[0] = -0.0f; }

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *big_n_configure(rf_launch_cfg *cfg) {
  cfg->block = BIG_N_BLOCK;   /* requested launch parameters are ignored */
  cfg->grid = BIG_N_GRID;
  cfg->items = 0;
  return NULL;
}
static size_t big_n_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
/* Per thread a chain over its stride of the input, the LDS tree, the grid's atomics. */
static void big_n_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, (uint64_t)BIG_N_BLOCK * BIG_N_GRID));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(BIG_N_BLOCK));
  rf_plan_add(p, RF_LEVEL_ATOMIC, BIG_N_GRID);
}
static int big_n_launch(const rf_launch_args *a) {
  hipStream_t stream = (hipStream_t)a->stream;
  if (a->cfg.n == 0) return (int)hipMemsetAsync(a->out, 0, sizeof(float), stream);
  hipLaunchKernelGGL(big_n_init_kernel, dim3(1), dim3(1), 0, stream, (float *)a->out);
  hipLaunchKernelGGL(big_n_kernel, dim3(BIG_N_GRID), dim3(BIG_N_BLOCK), 0, stream, a->x,
                     (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant big_n_variant = {
    "sum/plugin-test-drops-past-32k", RF_OP_SUM, 0, 1,
    "plugin, planted bug: a grid-stride sum that never reads the last element when n > 32768",
    "block 256, grid 64 (requested ones are ignored)", big_n_configure, big_n_scratch,
    big_n_plan, big_n_launch, 0};
static const rf_variant *const big_n_variants[] = {&big_n_variant};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 1;
  return big_n_variants;
}
#endif
