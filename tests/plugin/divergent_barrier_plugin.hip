/* Simulator only: a plugin kernel whose barrier only the first wave reaches. The host's
 * simulator must report it as divergent-barrier: proof that plugin kernels run on the host
 * program's one simulator instance (its scheduler, barriers and status), not on a copy. */
#include "kernels/port.h"
#include "redfuzz/plugin.h"

__global__ void divergent_sum_kernel(const float *x, size_t n, float *out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < (unsigned)warpSize) __syncthreads();   /* the planted bug */
  if (i < n) atomicAdd(out, x[i]);
}

static const char *configure(rf_launch_cfg *cfg) {
  if (cfg->block == 0) cfg->block = 256;
  if (cfg->block > 1024) return "block above 1024";
  cfg->grid = cfg->n ? (uint32_t)rf_div_ceil(cfg->n, cfg->block) : 1;
  cfg->items = 0;
  return NULL;
}
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (cfg->n) rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->n);
}
static int launch(const rf_launch_args *a) {
  int err = (int)hipMemsetAsync(a->out, 0, sizeof(float), (hipStream_t)a->stream);
  if (err || a->cfg.n == 0) return err;
  hipLaunchKernelGGL(divergent_sum_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant divergent = {
    "sum/plugin-test-divergent", RF_OP_SUM, 0, 1, "test: barrier reached by the first wave only",
    "block 1..1024", configure, no_scratch, plan, launch, 0};
static const rf_variant *const variants[] = {&divergent};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 1;
  return variants;
}
