/* A user's kernel for the loop test (tests/plugin/user_loop.sh, docs/FINDINGS.md): two correct-
 * looking sum variants (not mutants: a campaign fuzzes them by default), each thread a
 * grid-stride chain, one atomic per thread into the output. Built twice under one library
 * name (libuserloop.so, tests/plugin/CMakeLists.txt):
 *   RF_USERLOOP_BUG=1  "the buggy build": sum/userloop skips the last element of an odd n
 *                      past 100 (an off-by-one bound), the bug the user fixes;
 *   RF_USERLOOP_BUG=0  "the fixed build": sum/userloop reads every element.
 * sum/userloop-unfixed has a bug in both builds (its first element counted twice for an even n
 * past 100): the finding the fix does not fix, which `redfuzz guard` leaves as it is and says.
 * No input shows both bugs, so a campaign finds each as its own signature.
 * The plans are built with rf_plan_add alone, on the zeroed plan every command hands over. */
#include "kernels/port.h"
#include "redfuzz/plugin.h"

#ifndef RF_USERLOOP_BUG
#error "define RF_USERLOOP_BUG (1: the buggy build, 0: the fixed one)"
#endif

#define UL_BLOCK 64u
#define UL_MAX_GRID 16u

/* kWhich 0: sum/userloop, 1: sum/userloop-unfixed. */
template <int kWhich>
__global__ void ul_sum_kernel(const float *__restrict__ x, size_t n, float *out) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t end = n;
  if (kWhich == 0 && RF_USERLOOP_BUG && n > 100 && n % 2) end = n - 1;   /* the bug fixed */
  float s = -0.0f;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride) s += x[i];
  if (kWhich == 1 && n > 100 && n % 2 == 0 && blockIdx.x == 0 && threadIdx.x == 0)
    s += x[0];   /* the bug not fixed */
  atomicAdd(out, s);
}

__global__ void ul_init_kernel(float *out) { out[0] = -0.0f; }

static const char *ul_configure(rf_launch_cfg *cfg) {
  if (cfg->block && cfg->block != UL_BLOCK) return "block 64 only";
  cfg->block = UL_BLOCK;
  const uint64_t want = cfg->n ? rf_div_ceil(cfg->n, UL_BLOCK) : 1;
  cfg->grid = (uint32_t)(want < UL_MAX_GRID ? want : UL_MAX_GRID);
  cfg->items = 0;
  return NULL;
}

static size_t ul_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* Each thread's chain, then one atomic per thread into the output. */
static void ul_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  if (!cfg->n) return;
  const uint64_t threads = (uint64_t)cfg->grid * cfg->block;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, threads));
  rf_plan_add(p, RF_LEVEL_ATOMIC, threads);
}

template <int kWhich>
static int ul_launch(const rf_launch_args *a) {
  hipStream_t stream = (hipStream_t)a->stream;
  if (a->cfg.n == 0) return (int)hipMemsetAsync(a->out, 0, sizeof(float), stream);
  hipLaunchKernelGGL(ul_init_kernel, dim3(1), dim3(1), 0, stream, (float *)a->out);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(ul_sum_kernel<kWhich>, dim3(a->cfg.grid), dim3(a->cfg.block), 0, stream,
                     a->x, (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

#define UL_SHAPE "block 64; grid = ceil(n/64), at most 16"
static const rf_variant ul_fixed_later = {
    "sum/userloop", RF_OP_SUM, 0, 0,
    "test: grid-stride chains, an atomic per thread (the buggy build skips an odd n's last)",
    UL_SHAPE, ul_configure, ul_scratch, ul_plan, ul_launch<0>, 0};
static const rf_variant ul_unfixed = {
    "sum/userloop-unfixed", RF_OP_SUM, 0, 0,
    "test: as sum/userloop, its first element twice for an even n past 100 (both builds)", UL_SHAPE,
    ul_configure, ul_scratch, ul_plan, ul_launch<1>, 0};
static const rf_variant *const ul_variants[] = {&ul_fixed_later, &ul_unfixed};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 2;
  return ul_variants;
}
