/* The argmax and argmin kernels of f16 and bf16 inputs, written once over the direction D
 * (reduce_prims.h: rf_dir_max, rf_dir_min; issues 17, 34): the first extremum, compared in
 * float32 on the exactly converted values, so exact in any order; the output is rf_argmax_out64
 * (64-bit indices, index_bits 64) with the value as float32 (exact). Policy as float32
 * (kernels/argext.h): NaN ignored, ties to the lowest index, only NaN gives {NaN, -1}, n = 0
 * gives {D::empty(), -1}; an empty slot is {D::empty(), RF_ARGX_NONE}. Shapes: a contiguous
 * chunk a block, LDS tree, the block's winner to a partial + 64-bit atomicMax on (value key,
 * inverted block) (kernels/argext.h says why), wave butterflies into per-block partials + a
 * second kernel, and a two-stage LDS tree. The
 * families (argmax_half.hip, argmin_half.hip) keep their variant tables and name their
 * instances with RF_HARGX_INSTANCES. */
#ifndef RF_ARGEXT_HALF_H
#define RF_ARGEXT_HALF_H
#include "half_common.h"
#include "../argext.h"

/* A 16-bit input as float32, exactly (the loader of kernels/argext.h's scans). */
struct rf_hargx_in {
  const uint16_t *__restrict__ x;
  unsigned dt;
  __device__ __forceinline__ float operator()(rf_argx_u64 j) const { return rf_h_load(x, j, dt); }
};

/* The block's winner in *v, *i of thread 0: wave butterflies (waves = 1) or an LDS tree. */
template <class D>
static __device__ __forceinline__ void rf_hargx_block(float *vals, rf_argx_idx *idxs, int waves,
                                                      float *v, rf_argx_idx *i) {
  if (waves) {
    rf_prim_block_argmax_waves<D>(vals, idxs, v, i, (rf_argx_idx)RF_ARGX_NONE);
  } else {
    rf_prim_block_argmax_lds<D>(vals, idxs, *v, *i);
    *v = vals[0];
    *i = idxs[0];
  }
}

/* The keyed scratch is kernels/argext.h's: the key, then a partial a block. */
template <class D>
__global__ void rf_hargx_lds_atomic_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                           unsigned dt, rf_h_u64 *key,
                                           rf_argmax_out64 *partials) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(rf_argx_idx, idxs, RF_H_MAX_BLOCK);
  float v;
  rf_argx_idx i;
  rf_argx_chunk_scan<D>(rf_hargx_in{x, dt}, n, &v, &i);
  rf_prim_block_argmax_lds<D>(vals, idxs, v, i);
  if (threadIdx.x == 0 && idxs[0] != RF_ARGX_NONE) {
    rf_argx_put(partials, blockIdx.x, vals[0], idxs[0]);
    atomicMax(key, rf_prim_arg_block_key<D>(vals[0], blockIdx.x));
  }
}
/* The winner is the partial of the block the key names: its value is the element's own
 * (-0 included), converted exactly. */
template <class D>
__global__ void rf_hargx_decode_kernel(const rf_argmax_out64 *__restrict__ partials,
                                       const rf_h_u64 *key, rf_h_u64 n, rf_argmax_out64 *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) rf_argx_decode<D>(partials, *key, n, out);
}
template <class D>
__global__ void rf_hargx_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n, unsigned dt,
                                         int waves, rf_argmax_out64 *partials) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(rf_argx_idx, idxs, RF_H_MAX_BLOCK);
  float v;
  rf_argx_idx i;
  rf_argx_grid_scan<D>(rf_hargx_in{x, dt}, n, &v, &i);
  rf_hargx_block<D>(vals, idxs, waves, &v, &i);
  if (threadIdx.x == 0) rf_argx_put(partials, blockIdx.x, v, i);
}
template <class D>
__global__ void rf_hargx_final_kernel(const rf_argmax_out64 *__restrict__ partials,
                                      unsigned count, rf_h_u64 n, int waves,
                                      rf_argmax_out64 *out) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(rf_argx_idx, idxs, RF_H_MAX_BLOCK);
  float v;
  rf_argx_idx i;
  rf_argx_fold_partials<D>(partials, count, &v, &i);
  rf_hargx_block<D>(vals, idxs, waves, &v, &i);
  if (threadIdx.x == 0) rf_argx_write<D>(n, v, i, out);
}

/* Every kernel of direction D, named so that a device-only compile (the gfx1201 check) emits
 * them: the launches that would otherwise instantiate them are host code. */
#define RF_HARGX_INSTANCES(D)                                                                  \
  template __global__ void rf_hargx_lds_atomic_kernel<D>(const uint16_t *__restrict__,         \
                                                         rf_h_u64, unsigned, rf_h_u64 *,       \
                                                         rf_argmax_out64 *);                   \
  template __global__ void rf_hargx_decode_kernel<D>(const rf_argmax_out64 *__restrict__,      \
                                                     const rf_h_u64 *, rf_h_u64,               \
                                                     rf_argmax_out64 *);                       \
  template __global__ void rf_hargx_partials_kernel<D>(const uint16_t *__restrict__, rf_h_u64, \
                                                       unsigned, int, rf_argmax_out64 *);      \
  template __global__ void rf_hargx_final_kernel<D>(const rf_argmax_out64 *__restrict__,       \
                                                    unsigned, rf_h_u64, int,                   \
                                                    rf_argmax_out64 *);

#if !defined(__HIP_DEVICE_COMPILE__)
/* Indices are 64-bit: n is bounded by the plan's rule alone, as for max. */
static const char *rf_hargx_configure_lds(rf_launch_cfg *cfg) { return rf_h_configure_lds(cfg); }
static const char *rf_hargx_configure_waves(rf_launch_cfg *cfg) {
  return rf_h_configure_waves(cfg);
}
/* The key, then a partial a block (kernels/argext.h, rf_argx_keyed_partials). */
static size_t rf_hargx_key_scratch(const rf_launch_cfg *cfg) {
  return RF_ARGX_KEYED_PARTIALS + (cfg->n ? (size_t)cfg->grid * sizeof(rf_argmax_out64) : 0);
}
static size_t rf_hargx_partials_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(rf_argmax_out64);
}
static void rf_hargx_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
}

/* The launchers, one instance per (direction, input type[, form]): the variant tables need
 * plain functions. */
template <class D, unsigned DT>
static int rf_hargx_launch_lds(const rf_launch_args *a) {
  hipStream_t s = (hipStream_t)a->stream;
  rf_h_u64 *key = (rf_h_u64 *)a->scratch;
  rf_argmax_out64 *partials = rf_argx_keyed_partials(a->scratch);
  int e = (int)hipMemsetAsync(key, 0, sizeof(rf_h_u64), s);
  if (e) return e;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hargx_lds_atomic_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       s, (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, DT, key, partials);
    if ((e = (int)hipGetLastError())) return e;
  }
  hipLaunchKernelGGL(rf_hargx_decode_kernel<D>, dim3(1), dim3(1), 0, s,
                     (const rf_argmax_out64 *)partials, (const rf_h_u64 *)key,
                     (rf_h_u64)a->cfg.n, (rf_argmax_out64 *)a->out);
  return (int)hipGetLastError();
}
template <class D, unsigned DT, int WAVES>
static int rf_hargx_launch_two(const rf_launch_args *a) {
  hipStream_t s = (hipStream_t)a->stream;
  rf_argmax_out64 *partials = (rf_argmax_out64 *)a->scratch;
  unsigned count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hargx_partials_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, DT, WAVES, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_hargx_final_kernel<D>, dim3(1), dim3(a->cfg.block), 0, s,
                     (const rf_argmax_out64 *)partials, count, (rf_h_u64)a->cfg.n, WAVES,
                     (rf_argmax_out64 *)a->out);
  return (int)hipGetLastError();
}
#endif
#endif
