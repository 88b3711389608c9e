/* The correct float4 sum design both vec4 mutants depart from (seed 002 v3, float4 form): the
 * input may start anywhere (the runner passes misaligned pointers), so the elements before the
 * first 16-byte boundary are a scalar head, then aligned float4 quads on a grid-stride loop
 * (each quad summed pairwise), then the n mod 4 elements after the quads as a scalar tail; an
 * LDS tree per block and one atomic per block into the zeroed output. */
#ifndef RF_MUT_VEC4_H
#define RF_MUT_VEC4_H
#include "mut_common.h"

/* Elements before the first 16-byte boundary (at most n). */
static __device__ __forceinline__ rf_mut_u64 rf_mut_vec4_head(const float *x, rf_mut_u64 n) {
  const rf_mut_u64 past = ((uintptr_t)x / sizeof(float)) % 4;
  const rf_mut_u64 head = (4 - past) % 4;
  return head < n ? head : n;
}

static __device__ __forceinline__ float rf_mut_quad_sum(float4 v) {
  return (v.x + v.y) + (v.z + v.w);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static inline const char *rf_mut_vec4_configure(rf_launch_cfg *cfg) {
  return rf_mut_configure_grid_stride(cfg, 4);
}

/* The head length depends on the pointer, which the plan does not see: assume the worst. An
 * element of a thread's first quad passes 2 pairwise adds, the k4 adds of quads into `local`
 * and the tail add; with no quad, a head element passes its own add and the tail add. */
static inline void rf_mut_vec4_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint64_t k4 = rf_mut_chain(cfg->n / 4, cfg->grid, cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, k4 ? k4 + 3 : 2);
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

#define RF_MUT_VEC4_CONSTRAINTS                                                                  \
  "block power of two 1..1024; grid 1..2^31-1 (default ceil(n/(4*block*items))); items "        \
  "1..65536 float4 per thread (default 4; only sets the default grid); any alignment"
#endif
#endif
