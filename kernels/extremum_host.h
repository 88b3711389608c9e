/* Host side of the float32 max and min families (max.hip, min.hip): the configure rules,
 * scratch, plans and launchers of kernels/extremum.h's kernels, the launchers templated on the
 * direction D. Included in their host sections only. */
#ifndef RF_EXTREMUM_HOST_H
#define RF_EXTREMUM_HOST_H
#include "launch_common.h"
#include "extremum.h"

#define RF_EXT_MAX_GRID 65535u
#define RF_EXT_DEFAULT_BLOCK 256u

/* Grid-stride variants: a requested grid wins; the default is min(CUs x 8, ceil(n/block))
 * (seed 000 §9.4.3). Items are not a knob here. */
static const char *rf_ext_pick_grid(rf_launch_cfg *cfg) {
  cfg->items = 0;
  if (cfg->grid == 0) {
    const uint64_t cap = (uint64_t)(cfg->num_cus ? cfg->num_cus : 1) * 8;
    uint64_t g = rf_div_ceil(cfg->n, cfg->block);
    if (g > cap) g = cap;
    if (g > RF_EXT_MAX_GRID) g = RF_EXT_MAX_GRID;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > RF_EXT_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_EXT_MAX_GRID);
  }
  return NULL;
}

/* LDS trees work for any power of two block, 1 included. */
static const char *rf_ext_configure_lds(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_EXT_DEFAULT_BLOCK, 1, RF_EXT_MAX_BLOCK, 0);
  return why ? why : rf_ext_pick_grid(cfg);
}

/* Shuffle variants: whole waves of 32 or 64 lanes (the LDS holds up to 32 wave extrema). */
static const char *rf_ext_configure_waves(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, RF_EXT_DEFAULT_BLOCK, cfg->wave, RF_EXT_MAX_BLOCK, 1);
  return why ? why : rf_ext_pick_grid(cfg);
}

static size_t rf_ext_key_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(unsigned); }

static size_t rf_ext_partials_scratch(const rf_launch_cfg *cfg) {
  return cfg->n ? (size_t)cfg->grid * sizeof(float) : 0;
}

/* ---- plans (comparisons on the longest path; informative: max and min are exact) ----------- */

/* Elements the busiest thread of a grid-stride loop folds in: ceil(count / threads). */
static uint64_t rf_ext_chain(uint64_t count, uint32_t grid, uint32_t block) {
  return rf_div_ceil(count, (uint64_t)grid * block);
}

static void rf_ext_plan_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_ext_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

static void rf_ext_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_ext_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* The second kernel's level carries its own grid-stride chain over the partials. */
static void rf_ext_plan_two_stage(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t in_wave = rf_ceil_log2(cfg->wave), across = rf_ceil_log2(cfg->block / cfg->wave);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_ext_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_ext_chain(cfg->grid, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
}

/* ---- launch (kernels/extremum.h, direction D) ------------------------------------------- */

/* Key zeroed ("nothing seen"), blocks merge into it (LDS tree or wave shuffles in a block), one
 * thread decodes it into the output. */
template <class D, bool WAVES>
static int rf_ext_launch_keyed(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  unsigned *key = (unsigned *)a->scratch;
  int err = (int)hipMemsetAsync(key, 0, sizeof(unsigned), st);
  if (err) return err;
  if (a->cfg.n) {
    if (WAVES)
      hipLaunchKernelGGL(rf_ext_wave_atomic_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                         st, a->x, (rf_ext_u64)a->cfg.n, key);
    else
      hipLaunchKernelGGL(rf_ext_lds_atomic_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                         st, a->x, (rf_ext_u64)a->cfg.n, key);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_ext_decode_kernel<D>, dim3(1), dim3(1), 0, st, (const unsigned *)key,
                     (rf_ext_u64)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}
template <class D>
static int rf_ext_launch_lds(const rf_launch_args *a) { return rf_ext_launch_keyed<D, false>(a); }
template <class D>
static int rf_ext_launch_wave(const rf_launch_args *a) { return rf_ext_launch_keyed<D, true>(a); }

/* Partials into scratch, then one block over them; n = 0 runs only the second (it writes
 * D::empty()). */
template <class D>
static int rf_ext_launch_two_stage(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const float *in = a->x;
  rf_ext_u64 count = a->cfg.n;
  if (count) {
    float *partials = (float *)a->scratch;
    hipLaunchKernelGGL(rf_ext_partials_wave_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, count, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    in = partials;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_ext_partials_wave_kernel<D>, dim3(1), dim3(a->cfg.block), 0, st, in,
                     count, (float *)a->out);
  return (int)hipGetLastError();
}

#endif
