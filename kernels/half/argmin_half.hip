/* Argmin of f16 and bf16 inputs, the 16-bit argmax family mirrored (kernels/half/argmax_half.hip;
 * issue 34): the first minimum, compared in float32 on the
 * exactly converted values, so exact in any order; the output is rf_argmax_out with the value
 * as float32 (exact). Policy as float32 argmin (kernels/argmin.hip): NaN ignored, ties to the
 * lowest index, only NaN gives {NaN, -1}, n = 0 gives {+inf, -1}. An empty slot is
 * {+inf, RF_HARGMIN_NONE}. Shapes: LDS tree + 64-bit atomicMax on a packed key, wave butterflies
 * into per-block partials + a second kernel, and a two-stage LDS tree. */
#include "half_common.h"

#define RF_HARGMIN_NONE 0x7fffffff

static __device__ __forceinline__ bool rf_hargmin_beats(float av, int ai, float bv, int bi) {
  return av < bv || (av == bv && ai < bi);
}
static __device__ __forceinline__ void rf_hargmin_thread(const uint16_t *__restrict__ x, rf_h_u64 n,
                                                      unsigned dt, float *v, int *i) {
  float bv = INFINITY;
  int bi = RF_HARGMIN_NONE;
  for (rf_h_u64 j = rf_h_gid(); j < n; j += rf_h_stride()) {
    const float xv = rf_h_load(x, j, dt);
    if (xv == xv && rf_hargmin_beats(xv, (int)j, bv, bi)) { bv = xv; bi = (int)j; }
  }
  *v = bv;
  *i = bi;
}
/* LDS tree over blockDim.x pairs; the winner is in vals[0], idxs[0]. Every thread calls it. */
static __device__ __forceinline__ void rf_hargmin_tree(float *vals, int *idxs, float v, int i) {
  const unsigned t = threadIdx.x;
  vals[t] = v;
  idxs[t] = i;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s && rf_hargmin_beats(vals[t + s], idxs[t + s], vals[t], idxs[t])) {
      vals[t] = vals[t + s];
      idxs[t] = idxs[t + s];
    }
    __syncthreads();
  }
}
static __device__ __forceinline__ void rf_hargmin_wave(float *v, int *i, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) {
    const float ov = __shfl_xor(*v, (int)o);
    const int oi = __shfl_xor(*i, (int)o);
    if (rf_hargmin_beats(ov, oi, *v, *i)) { *v = ov; *i = oi; }
  }
}
/* Wave winners through LDS, the first wave finishes: lane 0 of wave 0 holds the block's. */
static __device__ __forceinline__ void rf_hargmin_block_waves(float *wv, int *wi, float *v, int *i) {
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  rf_hargmin_wave(v, i, warpSize);
  if (lane == 0) { wv[wave] = *v; wi[wave] = *i; }
  __syncthreads();
  if (wave == 0) {
    *v = lane < waves ? wv[lane] : INFINITY;
    *i = lane < waves ? wi[lane] : RF_HARGMIN_NONE;
    rf_hargmin_wave(v, i, waves);
  }
}
/* 64-bit key: order-reversing value key high (the order-preserving key inverted; zeros keyed
 * as +0, so they tie), inverted index low: the integer maximum is the first minimum; 0 means
 * "none" (the reversed key of +inf is 0x007fffff). */
static __device__ __forceinline__ rf_h_u64 rf_hargmin_pack(float v, int i) {
  const unsigned b = __float_as_uint(v == 0.0f ? 0.0f : v);
  const unsigned vk = ~((b & 0x80000000u) ? ~b : (b | 0x80000000u));
  return ((rf_h_u64)vk << 32) | (rf_h_u64)(0xffffffffu - (unsigned)i);
}

__global__ void rf_hargmin_lds_atomic_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                          unsigned dt, rf_h_u64 *key) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_H_MAX_BLOCK);
  float v;
  int i;
  rf_hargmin_thread(x, n, dt, &v, &i);
  rf_hargmin_tree(vals, idxs, v, i);
  if (threadIdx.x == 0 && idxs[0] != RF_HARGMIN_NONE) atomicMax(key, rf_hargmin_pack(vals[0], idxs[0]));
}
/* The value is read back from the input, so its bits (-0 included) are the element's own. */
__global__ void rf_hargmin_decode_kernel(const uint16_t *__restrict__ x, unsigned dt,
                                      const rf_h_u64 *key, rf_h_u64 n, rf_argmax_out *out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const rf_h_u64 k = *key;
  if (k == 0) {
    out->value = n == 0 ? INFINITY : __int_as_float(0x7fc00000);
    out->index = -1;
  } else {
    const int i = (int)(0xffffffffu - (unsigned)(k & 0xffffffffu));
    out->value = rf_h_load(x, (rf_h_u64)i, dt);
    out->index = i;
  }
}
__global__ void rf_hargmin_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n, unsigned dt,
                                        int waves, rf_argmax_out *partials) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_H_MAX_BLOCK);
  float v;
  int i;
  rf_hargmin_thread(x, n, dt, &v, &i);
  if (waves) rf_hargmin_block_waves(vals, idxs, &v, &i);
  else { rf_hargmin_tree(vals, idxs, v, i); v = vals[0]; i = idxs[0]; }
  if (threadIdx.x == 0) { partials[blockIdx.x].value = v; partials[blockIdx.x].index = i; }
}
__global__ void rf_hargmin_final_kernel(const rf_argmax_out *__restrict__ partials, unsigned count,
                                     rf_h_u64 n, int waves, rf_argmax_out *out) {
  RF_SHARED(float, vals, RF_H_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_H_MAX_BLOCK);
  float v = INFINITY;
  int i = RF_HARGMIN_NONE;
  for (unsigned j = threadIdx.x; j < count; j += blockDim.x)
    if (rf_hargmin_beats(partials[j].value, partials[j].index, v, i)) {
      v = partials[j].value;
      i = partials[j].index;
    }
  if (waves) rf_hargmin_block_waves(vals, idxs, &v, &i);
  else { rf_hargmin_tree(vals, idxs, v, i); v = vals[0]; i = idxs[0]; }
  if (threadIdx.x == 0) {
    const bool none = i == RF_HARGMIN_NONE;
    out->value = n == 0 ? INFINITY : none ? __int_as_float(0x7fc00000) : v;
    out->index = none ? -1 : i;
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Indices are int32 and RF_HARGMIN_NONE must stay above every real one. */
static const char *rf_hargmin_check_n(rf_launch_cfg *cfg, const char *why) {
  if (!why && cfg->n > (uint64_t)RF_HARGMIN_NONE)
    return rf_reason("n %llu is not supported (allowed: 0..%u, int32 indices)",
                     (unsigned long long)cfg->n, (unsigned)RF_HARGMIN_NONE);
  return why;
}
static const char *rf_hargmin_configure_lds(rf_launch_cfg *cfg) {
  return rf_hargmin_check_n(cfg, rf_h_configure_lds(cfg));
}
static const char *rf_hargmin_configure_waves(rf_launch_cfg *cfg) {
  return rf_hargmin_check_n(cfg, rf_h_configure_waves(cfg));
}
static size_t rf_hargmin_key_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(rf_h_u64); }
static size_t rf_hargmin_partials_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(rf_argmax_out);
}
static void rf_hargmin_plan_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}
static void rf_hargmin_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
}
static void rf_hargmin_plan_two(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}

static int rf_hargmin_launch_lds(const rf_launch_args *a, unsigned dt) {
  hipStream_t s = (hipStream_t)a->stream;
  rf_h_u64 *key = (rf_h_u64 *)a->scratch;
  int e = (int)hipMemsetAsync(key, 0, sizeof(rf_h_u64), s);
  if (e) return e;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hargmin_lds_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, key);
    if ((e = (int)hipGetLastError())) return e;
  }
  hipLaunchKernelGGL(rf_hargmin_decode_kernel, dim3(1), dim3(1), 0, s, (const uint16_t *)a->x, dt,
                     (const rf_h_u64 *)key, (rf_h_u64)a->cfg.n, (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}
static int rf_hargmin_launch_two(const rf_launch_args *a, unsigned dt, int waves) {
  hipStream_t s = (hipStream_t)a->stream;
  rf_argmax_out *partials = (rf_argmax_out *)a->scratch;
  unsigned count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hargmin_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, waves, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_hargmin_final_kernel, dim3(1), dim3(a->cfg.block), 0, s,
                     (const rf_argmax_out *)partials, count, (rf_h_u64)a->cfg.n, waves,
                     (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

#define RF_HARGMIN_LAUNCHERS(tag, dt)                                                             \
  static int rf_hargmin_lds_##tag(const rf_launch_args *a) { return rf_hargmin_launch_lds(a, dt); }  \
  static int rf_hargmin_wave_##tag(const rf_launch_args *a) { return rf_hargmin_launch_two(a, dt, 1); } \
  static int rf_hargmin_two_##tag(const rf_launch_args *a) { return rf_hargmin_launch_two(a, dt, 0); }
RF_HARGMIN_LAUNCHERS(f16, 1u)
RF_HARGMIN_LAUNCHERS(bf16, 2u)

#define RF_HARGMIN_GRID "grid 1..65535 (default min(CUs*8, ceil(n/block))); n < 2^31; no items"
#define RF_HARGMIN_VARIANTS(tname, tag, DT)                                                       \
  static const rf_variant rf_hargmin_v_lds_##tag = {                                              \
      "argmin/" tname "-lds", RF_OP_ARGMIN, 1, 0,                                                \
      tname " loaded exactly to float32: grid-stride first minimum, LDS tree of pairs, 64-bit " \
      "atomicMax on a packed key; the value read back from the input",                          \
      "block power of two 1..1024; " RF_HARGMIN_GRID,                                              \
      rf_hargmin_configure_lds, rf_hargmin_key_scratch, rf_hargmin_plan_lds, rf_hargmin_lds_##tag, 0, DT,  \
      RF_DTYPE_F32};                                                                            \
  static const rf_variant rf_hargmin_v_wave_##tag = {                                             \
      "argmin/" tname "-wave", RF_OP_ARGMIN, 1, 0,                                               \
      tname " loaded exactly to float32: grid-stride first minimum, wave butterflies of pairs "  \
      "into per-block partials, one block the same over them",                                  \
      "block power of two, wave..1024; " RF_HARGMIN_GRID,                                          \
      rf_hargmin_configure_waves, rf_hargmin_partials_scratch, rf_hargmin_plan_wave, rf_hargmin_wave_##tag, \
      0, DT, RF_DTYPE_F32};                                                                     \
  static const rf_variant rf_hargmin_v_two_##tag = {                                              \
      "argmin/" tname "-two-stage", RF_OP_ARGMIN, 1, 0,                                          \
      tname " loaded exactly to float32: grid-stride first minimum + LDS tree of pairs into "    \
      "per-block partials, one block the same over them",                                       \
      "block power of two 1..1024; " RF_HARGMIN_GRID,                                              \
      rf_hargmin_configure_lds, rf_hargmin_partials_scratch, rf_hargmin_plan_two, rf_hargmin_two_##tag, 0, \
      DT, RF_DTYPE_F32};
RF_HARGMIN_VARIANTS("f16", f16, RF_DTYPE_F16)
RF_HARGMIN_VARIANTS("bf16", bf16, RF_DTYPE_BF16)

extern "C" const rf_variant *const rf_family_argmin_half[] = {
    &rf_hargmin_v_lds_f16, &rf_hargmin_v_wave_f16, &rf_hargmin_v_two_f16,
    &rf_hargmin_v_lds_bf16, &rf_hargmin_v_wave_bf16, &rf_hargmin_v_two_bf16, NULL};
#endif
