/* Simulator only: kernels that fault. sum/plugin-test-overread reads x[i] for every thread of
 * a fixed grid of 3 blocks of 1024 (no `i < n` check), as a user kernel might; at n = 31 the
 * read runs thousands of floats past the input, beyond the runner's guard zone. The plain
 * simulator must give `oob` naming the buffer and the offset; sum/plugin-test-segv writes
 * through a wild pointer and sum/plugin-test-fpe divides an integer by zero: both `crash`.
 * In each case the sweep goes on to its summary. */
#include <stdint.h>
#include "kernels/port.h"
#include "redfuzz/plugin.h"

__global__ void overread_kernel(const float *x, float *out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(out, x[i]);  /* the planted bug: no i < n */
}

__global__ void segv_kernel(const float *x, size_t n, float *out) {
  if (threadIdx.x == 5 && blockIdx.x == 0) {
    float *wild = (float *)(uintptr_t)(64 + n);  /* the first page is never mapped */
    *wild = x[0];
  }
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(out, 1.0f);
}

__global__ void fpe_kernel(const float *x, size_t n, float *out) {
  volatile int zero = (int)(n - n);
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(out, x[0] + (float)(7 / zero));
}

static const char *configure(rf_launch_cfg *cfg) {
  cfg->block = 1024;
  cfg->grid = 3;
  cfg->items = 0;
  return cfg->n ? NULL : "n = 0 not run";
}
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (cfg->n) rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->n);
}
static int zero(const rf_launch_args *a) {
  return (int)hipMemsetAsync(a->out, 0, sizeof(float), (hipStream_t)a->stream);
}
static int launch_overread(const rf_launch_args *a) {
  int err = zero(a);
  if (err) return err;
  hipLaunchKernelGGL(overread_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, (float *)a->out);
  return (int)hipGetLastError();
}
static int launch_segv(const rf_launch_args *a) {
  int err = zero(a);
  if (err) return err;
  hipLaunchKernelGGL(segv_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}
static int launch_fpe(const rf_launch_args *a) {
  int err = zero(a);
  if (err) return err;
  hipLaunchKernelGGL(fpe_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant overread = {
    "sum/plugin-test-overread", RF_OP_SUM, 0, 1, "test: reads past n (grid 3 x block 1024)",
    "block 1024, grid 3", configure, no_scratch, plan, launch_overread, 0};
static const rf_variant segv = {
    "sum/plugin-test-segv", RF_OP_SUM, 0, 1, "test: writes through a wild pointer",
    "block 1024, grid 3", configure, no_scratch, plan, launch_segv, 0};
static const rf_variant fpe = {
    "sum/plugin-test-fpe", RF_OP_SUM, 0, 1, "test: integer division by zero",
    "block 1024, grid 3", configure, no_scratch, plan, launch_fpe, 0};
static const rf_variant *const variants[] = {&overread, &segv, &fpe};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 3;
  return variants;
}
