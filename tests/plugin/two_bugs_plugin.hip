/* A test plugin with two distinct bugs in one variant, so a campaign must go on past its
 * first finding to report the second (scripts/fuzz.sh, known signatures):
 *   n not a multiple of 64: the last element is never read          -> `wrong`
 *   n a multiple of 64:     thread 0 also writes out[1], past the output -> `oob`
 * No case shows both, and the first shows on almost every input (the empty input libFuzzer
 * runs first included), so a campaign that stops at its first finding never reports the
 * second. Otherwise a plain kernel: each thread sums a block-strided share, one
 * atomic per thread into the zeroed output (one block). */
#include "kernels/port.h"
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

#define TWO_BUGS_BLOCK 64u

__global__ void two_bugs_kernel(const float *__restrict__ x, size_t n, float *out) {
  const size_t read = n % 64 ? n - 1 : n;   /* bug 1 */
  float local = 0.0f;
  for (size_t i = threadIdx.x; i < read; i += blockDim.x) local += x[i];
  atomicAdd(out, local);
  if (threadIdx.x == 0 && n % 64 == 0) out[1] = local;   /* bug 2 (n > 0 here) */
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *two_bugs_configure(rf_launch_cfg *cfg) {
  if (cfg->wave > TWO_BUGS_BLOCK || !rf_is_pow2(cfg->wave))
    return rf_reason("wave size %u is not supported (allowed: power of two up to %u)", cfg->wave,
                     TWO_BUGS_BLOCK);
  cfg->block = TWO_BUGS_BLOCK;
  cfg->grid = 1;
  cfg->items = 1;
  return NULL;
}

static size_t two_bugs_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* Each thread's chain of ceil(n/block) adds, then the block's atomics. */
static void two_bugs_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, (unsigned)rf_div_ceil(cfg->n, TWO_BUGS_BLOCK));
  rf_plan_add(p, RF_LEVEL_ATOMIC, TWO_BUGS_BLOCK);
}

static int two_bugs_launch(const rf_launch_args *a) {
  hipStream_t stream = (hipStream_t)a->stream;
  int err = (int)hipMemsetAsync(a->out, 0, sizeof(float), stream);
  if (err || a->cfg.n == 0) return err;
  hipLaunchKernelGGL(two_bugs_kernel, dim3(1), dim3(TWO_BUGS_BLOCK), 0, stream, a->x,
                     (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant two_bugs = {
    "sum/two-bugs", RF_OP_SUM, 0, 1,
    "test plugin: drops the last element unless 64 divides n, else writes past the output",
    "one block of 64 threads", two_bugs_configure, two_bugs_scratch, two_bugs_plan,
    two_bugs_launch, 0};

static const rf_variant *const two_bugs_variants[] = {&two_bugs};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }

extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 1;
  return two_bugs_variants;
}
#endif
