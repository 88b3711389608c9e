/* The max and min kernels of f16 and bf16 inputs, written once over the direction D
 * (reduce_prims.h: rf_dir_max, rf_dir_min; issues 17, 34). The extremum of values of a type is
 * one of them, so it is exact in any order and in the output type (the input type or
 * float32): the comparisons are float32 ones on the exactly converted values, the result is
 * converted back without rounding. Policy as float32 (kernels/extremum.h): NaN inputs ignored,
 * all-NaN gives NaN, n = 0 gives D::empty(). Shapes: LDS tree + integer atomicMax on D's key,
 * wave shuffles into per-block partials + a second kernel, and a two-stage LDS tree. The
 * families (max_half.hip, min_half.hip) keep their variant tables and name their instances
 * with RF_HEXT_INSTANCES. */
#ifndef RF_EXT_HALF_H
#define RF_EXT_HALF_H
#include "half_common.h"

template <class D>
static __device__ __forceinline__ float rf_hext_thread(const uint16_t *__restrict__ x,
                                                       rf_h_u64 n, unsigned dt) {
  float m = rf_prim_max_identity();
  for (rf_h_u64 i = rf_h_gid(); i < n; i += rf_h_stride()) m = D::fold(m, rf_h_load(x, i, dt));
  return m;
}

template <class D>
__global__ void rf_hext_lds_atomic_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                          unsigned dt, unsigned *key) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const float m = rf_prim_block_ext_lds<D>(lds, rf_hext_thread<D>(x, n, dt));
  if (threadIdx.x == 0 && m == m) atomicMax(key, D::key(m));
}
template <class D>
__global__ void rf_hext_decode_kernel(const unsigned *key, rf_h_u64 n, void *out, unsigned ot) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    rf_h_store(out, 0, n == 0 ? D::empty() : k == 0 ? rf_prim_max_identity() : D::unkey(k), ot);
  }
}
/* Per-block extrema: wave shuffles (waves = 1) or an LDS tree. */
template <class D>
__global__ void rf_hext_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n, unsigned dt,
                                        int waves, float *partials) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const float v = rf_hext_thread<D>(x, n, dt);
  const float m = waves ? rf_prim_block_ext_waves<D>(lds, v) : rf_prim_block_ext_lds<D>(lds, v);
  if (threadIdx.x == 0) partials[blockIdx.x] = m;
}
/* One block over the partials (an empty block's NaN is ignored like a NaN input). */
template <class D>
__global__ void rf_hext_final_kernel(const float *__restrict__ partials, rf_h_u64 count,
                                     int waves, void *out, unsigned ot) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  float v = rf_prim_max_identity();
  for (rf_h_u64 i = threadIdx.x; i < count; i += blockDim.x) v = D::fold(v, partials[i]);
  const float m = waves ? rf_prim_block_ext_waves<D>(lds, v) : rf_prim_block_ext_lds<D>(lds, v);
  if (threadIdx.x == 0) rf_h_store(out, 0, count == 0 ? D::empty() : m, ot);
}

/* Every kernel of direction D, named so that a device-only compile (the gfx1201 check) emits
 * them: the launches that would otherwise instantiate them are host code. */
#define RF_HEXT_INSTANCES(D)                                                                   \
  template __global__ void rf_hext_lds_atomic_kernel<D>(const uint16_t *__restrict__,          \
                                                        rf_h_u64, unsigned, unsigned *);       \
  template __global__ void rf_hext_decode_kernel<D>(const unsigned *, rf_h_u64, void *,        \
                                                    unsigned);                                 \
  template __global__ void rf_hext_partials_kernel<D>(const uint16_t *__restrict__, rf_h_u64,  \
                                                      unsigned, int, float *);                 \
  template __global__ void rf_hext_final_kernel<D>(const float *__restrict__, rf_h_u64, int,   \
                                                   void *, unsigned);

#if !defined(__HIP_DEVICE_COMPILE__)
static size_t rf_hext_key_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(unsigned); }
/* Comparisons, not additions: the plan shows the shape; an extremum is exact whatever it
 * says. */
static void rf_hext_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
}

/* The launchers, one instance per (direction, input type, output type[, form]): the variant
 * tables need plain functions. */
template <class D, unsigned DT, unsigned OT>
static int rf_hext_launch_lds(const rf_launch_args *a) {
  hipStream_t s = (hipStream_t)a->stream;
  unsigned *key = (unsigned *)a->scratch;
  int e = (int)hipMemsetAsync(key, 0, sizeof(unsigned), s);
  if (e) return e;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hext_lds_atomic_kernel<D>, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, DT, key);
    if ((e = (int)hipGetLastError())) return e;
  }
  hipLaunchKernelGGL(rf_hext_decode_kernel<D>, dim3(1), dim3(1), 0, s, (const unsigned *)key,
                     (rf_h_u64)a->cfg.n, a->out, OT);
  return (int)hipGetLastError();
}
template <class D, unsigned DT, unsigned OT, int WAVES>
static int rf_hext_launch_two(const rf_launch_args *a) {
  return rf_h_launch_two(a, rf_hext_partials_kernel<D>, rf_hext_final_kernel<D>, DT, OT, WAVES);
}
#endif
#endif
