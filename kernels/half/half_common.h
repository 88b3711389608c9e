/* Shared pieces of the 16-bit variants (the files of kernels/half/) and their mutants: loads of f16 /
 * bf16 encodings as float32 (exact), the one rounding of a result to the output type, the
 * float32 combining blocks they all use, and the host helpers for launch parameters. The
 * conversions are model/dtype_bits.h's bit-level ones: exact to float32, round to nearest
 * even from it, the same bits on every backend (port.h has no portable half type). The input
 * and output types arrive as kernel arguments (rf_dtype numbers: 0 f32, 1 f16, 2 bf16); the
 * branch on them is uniform across the grid. */
#ifndef RF_HALF_COMMON_H
#define RF_HALF_COMMON_H
#include "../port.h"
#include "redfuzz/variant.h"
#include "../launch_common.h"
#include "../reduce_prims.h"
#include "model/dtype_bits.h"

#define RF_H_MAX_BLOCK 1024u
#define RF_H_MAX_WAVES 32u          /* 1024 threads / wave 32 */
#define RF_H_MAX_GRID 65535u
#define RF_H_DEFAULT_BLOCK 256u

typedef unsigned long long rf_h_u64;

static __device__ __forceinline__ rf_h_u64 rf_h_gid() {
  return (rf_h_u64)blockIdx.x * blockDim.x + threadIdx.x;
}
static __device__ __forceinline__ rf_h_u64 rf_h_stride() {
  return (rf_h_u64)gridDim.x * blockDim.x;
}

/* Element i of a 16-bit input of type dt, as float32: exact. */
static __device__ __forceinline__ float rf_h_load(const uint16_t *__restrict__ x, rf_h_u64 i,
                                                  unsigned dt) {
  return rf_half_to_f32(dt, x[i]);
}

/* Writes v as element i of an output of type ot: float32 as is, a 16-bit type rounded once to
 * nearest even (overflow to infinity, NaN kept quiet). */
static __device__ __forceinline__ void rf_h_store(void *out, rf_h_u64 i, float v, unsigned ot) {
  if (ot == 0) ((float *)out)[i] = v;
  else ((uint16_t *)out)[i] = rf_f32_to_half(ot, v);
}

/* ---- host helpers ------------------------------------------------------------------------ */
#if !defined(__HIP_DEVICE_COMPILE__)
/* A requested grid wins (1..RF_H_MAX_GRID); the default is min(CUs x 8, ceil(n/block)). */
static inline const char *rf_h_pick_grid(rf_launch_cfg *cfg) {
  cfg->items = 0;
  if (cfg->grid == 0) {
    const uint64_t cap = (uint64_t)(cfg->num_cus ? cfg->num_cus : 1) * 8;
    uint64_t g = rf_div_ceil(cfg->n, cfg->block);
    if (g > cap) g = cap;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > RF_H_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_H_MAX_GRID);
  }
  return NULL;
}
static inline const char *rf_h_configure_lds(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_H_DEFAULT_BLOCK, 1, RF_H_MAX_BLOCK, 0);
  return why ? why : rf_h_pick_grid(cfg);
}
static inline const char *rf_h_configure_waves(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, RF_H_DEFAULT_BLOCK, cfg->wave, RF_H_MAX_BLOCK, 1);
  return why ? why : rf_h_pick_grid(cfg);
}
static inline size_t rf_h_no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
/* Elements per thread of the first kernel's grid-stride loop. */
static inline uint64_t rf_h_chain(uint64_t count, const rf_launch_cfg *cfg) {
  return rf_div_ceil(count, (uint64_t)cfg->grid * cfg->block);
}
static inline size_t rf_h_partials_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(float);
}

/* The plans the sum, max and argmax (and min, argmin) families share: a grid-stride chain, an
 * LDS tree, one atomic per block; and the two-stage LDS tree (the second kernel's chain is
 * over the partials). */
static inline void rf_h_plan_lds_atomic(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}
static inline void rf_h_plan_two_stage_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

/* The two-kernel launch of the float32-partials families (sum, max, min): per-block partials
 * into scratch (wave shuffles when `waves`, else an LDS tree), then one block over them into
 * the output of type ot; n = 0 runs only the second (0 partials: the op's empty result). */
typedef void (*rf_h_partials_fn)(const uint16_t *__restrict__, rf_h_u64, unsigned, int, float *);
typedef void (*rf_h_final_fn)(const float *__restrict__, rf_h_u64, int, void *, unsigned);
static inline int rf_h_launch_two(const rf_launch_args *a, rf_h_partials_fn partials_k,
                                  rf_h_final_fn final_k, unsigned dt, unsigned ot, int waves) {
  hipStream_t s = (hipStream_t)a->stream;
  float *partials = (float *)a->scratch;
  rf_h_u64 count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(partials_k, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, waves, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(final_k, dim3(1), dim3(a->cfg.block), 0, s, (const float *)partials, count,
                     waves, a->out, ot);
  return (int)hipGetLastError();
}
#endif
#endif
