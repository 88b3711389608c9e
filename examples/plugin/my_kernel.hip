/* A user's kernel with a bug, for the loop of docs/FINDINGS.md (find, fix, guard in CI): a
 * plain sum in the redfuzz plugin form (include/redfuzz/plugin.h), each thread a grid-stride
 * chain, one atomic per thread into the output. It is not marked a mutant: it is a kernel its
 * author believes correct, fuzzed by default like any other.
 *
 * The bug: the loop's bound drops the last element when n is odd and above 100 (the kind of
 * off-by-one a vectorised tail leaves behind). The fix is the line marked FIX below. */
#include "kernels/port.h"
#include "redfuzz/plugin.h"

#define MY_BLOCK 64u
#define MY_MAX_GRID 16u

__global__ void my_kernel_sum(const float *__restrict__ x, size_t n, float *out) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  const size_t end = n > 100 && n % 2 ? n - 1 : n;   /* FIX: const size_t end = n; */
  float s = -0.0f;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride) s += x[i];
  atomicAdd(out, s);
}

__global__ void my_kernel_init(float *out) { out[0] = -0.0f; }

/* Host code only from here: HIP's device pass must not see the variant tables. */
#if !defined(__HIP_DEVICE_COMPILE__)

static const char *my_configure(rf_launch_cfg *cfg) {
  if (cfg->block && cfg->block != MY_BLOCK) return "block 64 only";
  cfg->block = MY_BLOCK;
  const uint64_t want = cfg->n ? rf_div_ceil(cfg->n, MY_BLOCK) : 1;
  cfg->grid = (uint32_t)(want < MY_MAX_GRID ? want : MY_MAX_GRID);
  cfg->items = 0;
  return NULL;
}

static size_t my_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* Each thread's chain, then one atomic per thread: the plan arrives zeroed. */
static void my_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  if (!cfg->n) return;
  const uint64_t threads = (uint64_t)cfg->grid * cfg->block;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, threads));
  rf_plan_add(p, RF_LEVEL_ATOMIC, threads);
}

static int my_launch(const rf_launch_args *a) {
  hipStream_t stream = (hipStream_t)a->stream;
  if (a->cfg.n == 0) return (int)hipMemsetAsync(a->out, 0, sizeof(float), stream);
  hipLaunchKernelGGL(my_kernel_init, dim3(1), dim3(1), 0, stream, (float *)a->out);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(my_kernel_sum, dim3(a->cfg.grid), dim3(a->cfg.block), 0, stream, a->x,
                     (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant my_kernel = {
    "sum/my-kernel", RF_OP_SUM, 0, 0,
    "example: grid-stride chains, one atomic per thread (docs/FINDINGS.md)",
    "block 64; grid = ceil(n/64), at most 16", my_configure, my_scratch, my_plan, my_launch, 0};
static const rf_variant *const my_variants[] = {&my_kernel};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 1;
  return my_variants;
}
#endif
