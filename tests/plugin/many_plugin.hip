/* Seventy sum variants (sum/plugin-many-00 .. -69), one thread adding the inputs in order; the
 * seventieth drops the last input, so it is `wrong` on n >= 2 of ones. More variants of one op
 * than the old fixed result arrays held (64; replay 48): run, sweep, shrink, replay and the
 * fuzz target must each find the seventieth (tests/cli/hostile/caps.sh). With
 * RF_TEST_PLUGIN_SPIN=1 it also has sum/plugin-test-spin, a kernel that spins without ever
 * reaching a barrier (the watchdog, REDFUZZ_LAUNCH_TIMEOUT_MS), with =any the same as
 * sum/plugin-test-spin-any, which takes any launch; with =host sum/plugin-test-spin-host, whose
 * launch function never returns (host code). Simulator and
 * GPUs alike; nothing here is timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/port.h"
#include "redfuzz/plugin.h"

#define MANY 70

__global__ void many_seq_kernel(const float *x, size_t n, size_t drop, float *out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  float s = -0.0f; /* the identity: a sum of only -0 stays -0 */
  for (size_t i = 0; i + drop < n; i++) s += x[i];
  out[0] = n ? s : 0.0f;
}

/* Reads its input through a volatile pointer until it changes, which it never does: no
 * barrier, no wave operation, so the simulator's step budget never sees a switch. */
__global__ void spin_kernel(const float *x, float *out) {
  const volatile float *v = x;
  const float first = v[0];
  while (v[0] == first || v[0] != first) {
  }
  out[0] = first;
}

#if !defined(__HIP_DEVICE_COMPILE__)

static const char *configure(rf_launch_cfg *cfg) {
  if (cfg->block > 1 || cfg->grid > 1 || cfg->items > 1) return "block, grid, items 1 only";
  cfg->block = cfg->grid = 1;
  cfg->items = 0;
  return NULL;
}
static const char *spin_configure(rf_launch_cfg *cfg) {
  if (!cfg->n) return "n = 0 not run";
  return configure(cfg);
}
static const char *spin_any_configure(rf_launch_cfg *cfg) {
  if (cfg->n < 100) return "n below 100 not run";   /* small cases finish (stop_signal.sh) */
  if (!cfg->block) cfg->block = 1;
  if (!cfg->grid) cfg->grid = 1;
  cfg->items = 0;
  return NULL;
}
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (cfg->n) rf_plan_add(p, RF_LEVEL_CHAIN, cfg->n);
}
static int launch_over(const rf_launch_args *a, size_t drop) {
  hipLaunchKernelGGL(many_seq_kernel, dim3(1), dim3(1), 0, (hipStream_t)a->stream, a->x,
                     (size_t)a->cfg.n, drop, (float *)a->out);
  return (int)hipGetLastError();
}
static int launch_good(const rf_launch_args *a) { return launch_over(a, 0); }
static int launch_drop(const rf_launch_args *a) { return launch_over(a, 1); }
/* RF_TEST_PLUGIN_SPIN=host: the launch function itself never returns (host work no watchdog
 * sees: tests/cli/stop_signal.sh, a worker that must be ended after a stop). */
static int launch_spin_host(const rf_launch_args *a) {
  (void)a;
  volatile unsigned long long k = 0;
  for (;;) k = k + 1;
  return 0;
}
static int launch_spin(const rf_launch_args *a) {
  hipLaunchKernelGGL(spin_kernel, dim3(1), dim3(1), 0, (hipStream_t)a->stream, a->x,
                     (float *)a->out);
  return (int)hipGetLastError();
}

static char names[MANY][32];
static rf_variant variants[MANY + 1];
static const rf_variant *list[MANY + 1];

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  for (int i = 0; i < MANY; i++) {
    snprintf(names[i], sizeof names[i], "sum/plugin-many-%02d", i);
    const rf_variant v = {names[i], RF_OP_SUM, 1, 0, "test: one thread adds in order",
                          "block, grid 1", configure, no_scratch, plan,
                          i == MANY - 1 ? launch_drop : launch_good, 0};
    variants[i] = v;
    list[i] = &variants[i];
  }
  *count = MANY;
  const char *spin = getenv("RF_TEST_PLUGIN_SPIN");
  if (spin && strcmp(spin, "1") == 0) {
    const rf_variant v = {"sum/plugin-test-spin", RF_OP_SUM, 0, 1,
                          "test: spins without a barrier", "block, grid 1", spin_configure,
                          no_scratch, plan, launch_spin, 0};
    variants[MANY] = v;
    list[MANY] = &variants[MANY];
    *count = MANY + 1;
  }
  /* RF_TEST_PLUGIN_SPIN=any: the same kernel, taking any launch (sweep --huge's grid 1 x
   * block 32 too), as a grid-stride loop whose 32-bit counter never reaches n = 2^32+3 does
   * (issue 47), from n = 100 on: tests/cli/stop_signal.sh. */
  if (spin && strcmp(spin, "host") == 0) {
    const rf_variant v = {"sum/plugin-test-spin-host", RF_OP_SUM, 0, 1,
                          "test: its launch function never returns", "block, grid 1",
                          spin_configure, no_scratch, plan, launch_spin_host, 0};
    variants[MANY] = v;
    list[MANY] = &variants[MANY];
    *count = MANY + 1;
  }
  if (spin && strcmp(spin, "any") == 0) {
    const rf_variant v = {"sum/plugin-test-spin-any", RF_OP_SUM, 0, 1,
                          "test: spins without a barrier, any launch", "any", spin_any_configure,
                          no_scratch, plan, launch_spin, 0};
    variants[MANY] = v;
    list[MANY] = &variants[MANY];
    *count = MANY + 1;
  }
  return list;
}

#endif
