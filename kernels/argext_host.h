/* Host side of the float32 argmax and argmin families (argmax.hip, argmin.hip): the configure
 * rules, scratch, plans and launchers of kernels/argext.h's kernels, the launchers templated on
 * the direction D. Included in their host sections only. Indices are 64-bit (index_bits 64):
 * n is bounded by the plan's rule alone (RF_PLAN_MAX_ADDS, redfuzz/plan.h), as for max. */
#ifndef RF_ARGEXT_HOST_H
#define RF_ARGEXT_HOST_H
#include "launch_common.h"
#include "argext.h"

#define RF_ARGX_MAX_GRID 65535u
#define RF_ARGX_DEFAULT_BLOCK 256u

/* A requested grid wins; the default is min(CUs x 8, ceil(n/block)) (seed 000 §9.4.3). No
 * items knob. */
static const char *rf_argx_pick_grid(rf_launch_cfg *cfg) {
  cfg->items = 0;
  if (cfg->grid == 0) {
    const uint64_t cap = (uint64_t)(cfg->num_cus ? cfg->num_cus : 1) * 8;
    uint64_t g = rf_div_ceil(cfg->n, cfg->block);
    if (g > cap) g = cap;
    if (g > RF_ARGX_MAX_GRID) g = RF_ARGX_MAX_GRID;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > RF_ARGX_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_ARGX_MAX_GRID);
  }
  return NULL;
}

static const char *rf_argx_configure_lds(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_ARGX_DEFAULT_BLOCK, 1, RF_ARGX_MAX_BLOCK, 0);
  return why ? why : rf_argx_pick_grid(cfg);
}

static const char *rf_argx_configure_wave(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why =
      rf_pick_block_pow2(cfg, RF_ARGX_DEFAULT_BLOCK, cfg->wave, RF_ARGX_MAX_BLOCK, 1);
  return why ? why : rf_argx_pick_grid(cfg);
}

static size_t rf_argx_partials_scratch(const rf_launch_cfg *cfg) {
  return cfg->n ? (size_t)cfg->grid * sizeof(rf_argmax_out64) : 0;
}

/* The key, then a partial a block (rf_argx_keyed_partials); the key alone for n = 0. */
static size_t rf_argx_key_scratch(const rf_launch_cfg *cfg) {
  return RF_ARGX_KEYED_PARTIALS + (cfg->n ? (size_t)cfg->grid * sizeof(rf_argmax_out64) : 0);
}

/* ---- plans (comparisons on the longest path; informative: argmax and argmin are exact) ---- */

static uint64_t rf_argx_chain(uint64_t count, uint32_t grid, uint32_t block) {
  return rf_div_ceil(count, (uint64_t)grid * block);
}

static void rf_argx_plan_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_argx_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_argx_chain(cfg->grid, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

static void rf_argx_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_argx_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* ---- launch (kernels/argext.h, direction D) ------------------------------------------------ */

/* Partials into scratch, then one block over them; n = 0 runs only the second (0 partials). */
template <class D>
static int rf_argx_launch_lds(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_argmax_out64 *partials = (rf_argmax_out64 *)a->scratch;
  unsigned count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argx_lds_partials_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, (rf_argx_u64)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_argx_lds_final_kernel<D>, dim3(1), dim3(a->cfg.block), 0, st,
                     (const rf_argmax_out64 *)partials, count, (rf_argx_u64)a->cfg.n,
                     (rf_argmax_out64 *)a->out);
  return (int)hipGetLastError();
}

/* Key zeroed ("none"), blocks write their partials and merge into it, one thread decodes it
 * into the output (the partial of the block it names). */
template <class D>
static int rf_argx_launch_wave(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_argx_u64 *key = (rf_argx_u64 *)a->scratch;
  rf_argmax_out64 *partials = rf_argx_keyed_partials(a->scratch);
  int err = (int)hipMemsetAsync(key, 0, sizeof(rf_argx_u64), st);
  if (err) return err;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argx_wave_atomic_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, (rf_argx_u64)a->cfg.n, key, partials);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_argx_decode_kernel<D>, dim3(1), dim3(1), 0, st,
                     (const rf_argmax_out64 *)partials, (const rf_argx_u64 *)key,
                     (rf_argx_u64)a->cfg.n, (rf_argmax_out64 *)a->out);
  return (int)hipGetLastError();
}

#endif
