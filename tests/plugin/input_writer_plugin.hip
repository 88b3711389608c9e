/* Variants that write their read-only input (issue 47, cause 1), for the input check
 * (run/input_check.h). In the registry's order, which is the order they run in a case:
 *   sum/plugin-test-zero-input  one thread adds the input in order, writes the right sum, then
 *                               zeroes the input (the audit's plugin);
 *   sum/plugin-test-write-past  the right sum, then writes the element just past the input
 *                               (its guard bytes): `oob`, not `input-written`;
 *   sum/plugin-test-after       the same correct sum, with nothing written: it runs after both
 *                               and must pass. Before the input check it was `wrong`
 *                               ("got 0 want ...") on every case, blamed for the first one's
 *                               write.
 * Simulator and GPUs alike. */
#include "kernels/port.h"
#include "redfuzz/plugin.h"

enum { WRITE_NONE, WRITE_ZERO, WRITE_PAST };

__global__ void writer_kernel(const float *x, size_t n, int write, float *out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  float s = -0.0f; /* the identity: a sum of only -0 stays -0 */
  for (size_t i = 0; i < n; i++) s += x[i];
  out[0] = n ? s : 0.0f;
  float *w = (float *)x; /* the planted bug: the input is read-only */
  if (write == WRITE_ZERO)
    for (size_t i = 0; i < n; i++) w[i] = 0.0f;
  if (write == WRITE_PAST) w[n] = 0.0f;
}

#if !defined(__HIP_DEVICE_COMPILE__)

static const char *configure(rf_launch_cfg *cfg) {
  if (cfg->block > 1 || cfg->grid > 1 || cfg->items > 1) return "block, grid, items 1 only";
  cfg->block = cfg->grid = 1;
  cfg->items = 0;
  return NULL;
}
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (cfg->n) rf_plan_add(p, RF_LEVEL_CHAIN, cfg->n);
}
static int launch(const rf_launch_args *a, int write) {
  hipLaunchKernelGGL(writer_kernel, dim3(1), dim3(1), 0, (hipStream_t)a->stream, a->x,
                     (size_t)a->cfg.n, write, (float *)a->out);
  return (int)hipGetLastError();
}
static int launch_zero(const rf_launch_args *a) { return launch(a, WRITE_ZERO); }
static int launch_past(const rf_launch_args *a) { return launch(a, WRITE_PAST); }
static int launch_none(const rf_launch_args *a) { return launch(a, WRITE_NONE); }

static const rf_variant zero_input = {
    "sum/plugin-test-zero-input", RF_OP_SUM, 1, 0, "test: the right sum, then zeroes its input",
    "block, grid 1", configure, no_scratch, plan, launch_zero, 0};
static const rf_variant write_past = {
    "sum/plugin-test-write-past", RF_OP_SUM, 1, 0,
    "test: the right sum, then writes just past its input", "block, grid 1", configure,
    no_scratch, plan, launch_past, 0};
static const rf_variant after = {
    "sum/plugin-test-after", RF_OP_SUM, 1, 0, "test: the right sum, after the writers",
    "block, grid 1", configure, no_scratch, plan, launch_none, 0};
static const rf_variant *const variants[] = {&zero_input, &write_past, &after};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 3;
  return variants;
}

#endif
