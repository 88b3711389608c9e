/* The argmax and argmin kernels of f16 and bf16 inputs, written once over the direction D
 * (reduce_prims.h: rf_dir_max, rf_dir_min; issues 17, 34): the first extremum, compared in
 * float32 on the exactly converted values, so exact in any order; the output is rf_argmax_out
 * with the value as float32 (exact). Policy as float32 (kernels/argext.h): NaN ignored, ties to
 * the lowest index, only NaN gives {NaN, -1}, n = 0 gives {D::empty(), -1}; an empty slot is
 * {D::empty(), RF_ARGX_NONE}. Shapes: LDS tree + 64-bit atomicMax on a packed key, wave
 * butterflies into per-block partials + a second kernel, and a two-stage LDS tree. The
 * families (argmax_half.hip, argmin_half.hip) keep their variant tables and name their
 * instances with RF_HARGX_INSTANCES. */
#ifndef RF_ARGEXT_HALF_H
#define RF_ARGEXT_HALF_H
#include "half_common.h"
#include "../argext.h"

template <class D>
static __device__ __forceinline__ void rf_hargx_thread(const uint16_t *__restrict__ x, rf_h_u64 n,
                                                       unsigned dt, float *v, int *i) {
  float bv = D::empty();
  int bi = RF_ARGX_NONE;
  for (rf_h_u64 j = rf_h_gid(); j < n; j += rf_h_stride()) {
    const float xv = rf_h_load(x, j, dt);
    if (xv == xv && D::beats(xv, (int)j, bv, bi)) { bv = xv; bi = (int)j; }
  }
  *v = bv;
  *i = bi;
}

/* The block's winner in *v, *i of thread 0: wave butterflies (waves = 1) or an LDS tree. */
template <class D>
static __device__ __forceinline__ void rf_hargx_block(float *vals, int *idxs, int waves, float *v,
                                                      int *i) {
  if (waves) {
    rf_prim_block_argmax_waves<D>(vals, idxs, v, i, RF_ARGX_NONE);
  } else {
    rf_prim_block_argmax_lds<D>(vals, idxs, *v, *i);
    *v = vals[0];
    *i = idxs[0];
  }
}

template <class D>
__global__ void rf_hargx_lds_atomic_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                           unsigned dt, rf_h_u64 *key) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_H_MAX_BLOCK);
  float v;
  int i;
  rf_hargx_thread<D>(x, n, dt, &v, &i);
  rf_prim_block_argmax_lds<D>(vals, idxs, v, i);
  if (threadIdx.x == 0 && idxs[0] != RF_ARGX_NONE)
    atomicMax(key, rf_prim_arg_pack<D>(vals[0], idxs[0]));
}
/* The value is read back from the input, so its bits (-0 included) are the element's own. */
template <class D>
__global__ void rf_hargx_decode_kernel(const uint16_t *__restrict__ x, unsigned dt,
                                       const rf_h_u64 *key, rf_h_u64 n, rf_argmax_out *out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const rf_h_u64 k = *key;
  if (k == 0) {
    rf_argx_write<D>(n, 0.0f, RF_ARGX_NONE, out);
  } else {
    const int i = rf_prim_arg_unpack_index(k);
    rf_argx_write<D>(n, rf_h_load(x, (rf_h_u64)i, dt), i, out);
  }
}
template <class D>
__global__ void rf_hargx_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n, unsigned dt,
                                         int waves, rf_argmax_out *partials) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_H_MAX_BLOCK);
  float v;
  int i;
  rf_hargx_thread<D>(x, n, dt, &v, &i);
  rf_hargx_block<D>(vals, idxs, waves, &v, &i);
  if (threadIdx.x == 0) { partials[blockIdx.x].value = v; partials[blockIdx.x].index = i; }
}
template <class D>
__global__ void rf_hargx_final_kernel(const rf_argmax_out *__restrict__ partials, unsigned count,
                                      rf_h_u64 n, int waves, rf_argmax_out *out) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_H_MAX_BLOCK);
  float v;
  int i;
  rf_argx_fold_partials<D>(partials, count, &v, &i);
  rf_hargx_block<D>(vals, idxs, waves, &v, &i);
  if (threadIdx.x == 0) rf_argx_write<D>(n, v, i, out);
}

/* Every kernel of direction D, named so that a device-only compile (the gfx1201 check) emits
 * them: the launches that would otherwise instantiate them are host code. */
#define RF_HARGX_INSTANCES(D)                                                                  \
  template __global__ void rf_hargx_lds_atomic_kernel<D>(const uint16_t *__restrict__,         \
                                                         rf_h_u64, unsigned, rf_h_u64 *);      \
  template __global__ void rf_hargx_decode_kernel<D>(const uint16_t *__restrict__, unsigned,   \
                                                     const rf_h_u64 *, rf_h_u64,               \
                                                     rf_argmax_out *);                         \
  template __global__ void rf_hargx_partials_kernel<D>(const uint16_t *__restrict__, rf_h_u64, \
                                                       unsigned, int, rf_argmax_out *);        \
  template __global__ void rf_hargx_final_kernel<D>(const rf_argmax_out *__restrict__,         \
                                                    unsigned, rf_h_u64, int, rf_argmax_out *);

#if !defined(__HIP_DEVICE_COMPILE__)
/* Indices are int32 and RF_ARGX_NONE must stay above every real one. */
static const char *rf_hargx_check_n(rf_launch_cfg *cfg, const char *why) {
  if (!why && cfg->n > (uint64_t)RF_ARGX_NONE)
    return rf_reason("n %llu is not supported (allowed: 0..%u, int32 indices)",
                     (unsigned long long)cfg->n, (unsigned)RF_ARGX_NONE);
  return why;
}
static const char *rf_hargx_configure_lds(rf_launch_cfg *cfg) {
  return rf_hargx_check_n(cfg, rf_h_configure_lds(cfg));
}
static const char *rf_hargx_configure_waves(rf_launch_cfg *cfg) {
  return rf_hargx_check_n(cfg, rf_h_configure_waves(cfg));
}
static size_t rf_hargx_key_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(rf_h_u64); }
static size_t rf_hargx_partials_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(rf_argmax_out);
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
  int e = (int)hipMemsetAsync(key, 0, sizeof(rf_h_u64), s);
  if (e) return e;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hargx_lds_atomic_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       s, (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, DT, key);
    if ((e = (int)hipGetLastError())) return e;
  }
  hipLaunchKernelGGL(rf_hargx_decode_kernel<D>, dim3(1), dim3(1), 0, s, (const uint16_t *)a->x,
                     DT, (const rf_h_u64 *)key, (rf_h_u64)a->cfg.n, (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}
template <class D, unsigned DT, int WAVES>
static int rf_hargx_launch_two(const rf_launch_args *a) {
  hipStream_t s = (hipStream_t)a->stream;
  rf_argmax_out *partials = (rf_argmax_out *)a->scratch;
  unsigned count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hargx_partials_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, DT, WAVES, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_hargx_final_kernel<D>, dim3(1), dim3(a->cfg.block), 0, s,
                     (const rf_argmax_out *)partials, count, (rf_h_u64)a->cfg.n, WAVES,
                     (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}
#endif
#endif
