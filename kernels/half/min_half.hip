/* Minima of f16 and bf16 inputs, the 16-bit max family mirrored (kernels/half/max_half.hip;
 * issue 34). The minimum of values of a type is one of them,
 * so it is exact in any order and in the output type (the input type or float32): the
 * comparisons are float32 ones on the exactly converted values, the result is converted back
 * without rounding. Policy as float32 min (kernels/min.hip): NaN inputs ignored, all-NaN gives
 * NaN, n = 0 gives +inf. Shapes: LDS tree + integer atomicMax on an order-reversing key, wave
 * shuffles into per-block partials + a second kernel, and a two-stage LDS tree. */
#include "half_common.h"

/* fminf ignores a NaN operand, so NaN is the fold's identity (see kernels/max.hip). */
static __device__ __forceinline__ float rf_hmin_identity() { return __int_as_float(0x7fc00000); }

static __device__ __forceinline__ float rf_hmin_thread(const uint16_t *__restrict__ x,
                                                       rf_h_u64 n, unsigned dt) {
  float m = rf_hmin_identity();
  for (rf_h_u64 i = rf_h_gid(); i < n; i += rf_h_stride()) m = fminf(m, rf_h_load(x, i, dt));
  return m;
}
static __device__ __forceinline__ float rf_hmin_tree(float *lds, float v) {
  const unsigned t = threadIdx.x;
  lds[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) lds[t] = fminf(lds[t], lds[t + s]);
    __syncthreads();
  }
  return lds[0];
}
static __device__ __forceinline__ float rf_hmin_wave(float v, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor(v, (int)o));
  return v;
}
/* Thread 0 (wave 0) ends with the block minimum. Every thread must call it. */
static __device__ __forceinline__ float rf_hmin_block_waves(float *wave_min, float v) {
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  v = rf_hmin_wave(v, warpSize);
  if (lane == 0) wave_min[wave] = v;
  __syncthreads();
  float m = rf_hmin_identity();
  if (wave == 0) m = rf_hmin_wave(lane < waves ? wave_min[lane] : rf_hmin_identity(), waves);
  return m;
}
/* Order-reversing key of a non-NaN float (the order-preserving key inverted: the integer
 * maximum is the float minimum); 0 is never a key ("nothing seen"). */
static __device__ __forceinline__ unsigned rf_hmin_key(float v) {
  const unsigned b = __float_as_uint(v);
  return ~((b & 0x80000000u) ? ~b : (b | 0x80000000u));
}
static __device__ __forceinline__ float rf_hmin_unkey(unsigned k) {
  k = ~k;
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

__global__ void rf_hmin_lds_atomic_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                          unsigned dt, unsigned *key) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const float m = rf_hmin_tree(lds, rf_hmin_thread(x, n, dt));
  if (threadIdx.x == 0 && m == m) atomicMax(key, rf_hmin_key(m));
}
__global__ void rf_hmin_decode_kernel(const unsigned *key, rf_h_u64 n, void *out, unsigned ot) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    rf_h_store(out, 0, n == 0 ? INFINITY : k == 0 ? rf_hmin_identity() : rf_hmin_unkey(k), ot);
  }
}
/* Per-block minima: wave shuffles (waves = 1) or an LDS tree. */
__global__ void rf_hmin_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n, unsigned dt,
                                        int waves, float *partials) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const float v = rf_hmin_thread(x, n, dt);
  const float m = waves ? rf_hmin_block_waves(lds, v) : rf_hmin_tree(lds, v);
  if (threadIdx.x == 0) partials[blockIdx.x] = m;
}
/* One block over the partials (an empty block's NaN is ignored like a NaN input). */
__global__ void rf_hmin_final_kernel(const float *__restrict__ partials, rf_h_u64 count,
                                     int waves, void *out, unsigned ot) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  float v = rf_hmin_identity();
  for (rf_h_u64 i = threadIdx.x; i < count; i += blockDim.x) v = fminf(v, partials[i]);
  const float m = waves ? rf_hmin_block_waves(lds, v) : rf_hmin_tree(lds, v);
  if (threadIdx.x == 0) rf_h_store(out, 0, count == 0 ? INFINITY : m, ot);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static size_t rf_hmin_key_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(unsigned); }
static size_t rf_hmin_partials_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(float);
}
/* Comparisons, not additions: the plan shows the shape; a min is exact whatever it says. */
static void rf_hmin_plan_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}
static void rf_hmin_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
}
static void rf_hmin_plan_two_stage(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}

static int rf_hmin_launch_lds(const rf_launch_args *a, unsigned dt, unsigned ot) {
  hipStream_t s = (hipStream_t)a->stream;
  unsigned *key = (unsigned *)a->scratch;
  int e = (int)hipMemsetAsync(key, 0, sizeof(unsigned), s);
  if (e) return e;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hmin_lds_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, key);
    if ((e = (int)hipGetLastError())) return e;
  }
  hipLaunchKernelGGL(rf_hmin_decode_kernel, dim3(1), dim3(1), 0, s, (const unsigned *)key,
                     (rf_h_u64)a->cfg.n, a->out, ot);
  return (int)hipGetLastError();
}
static int rf_hmin_launch_two(const rf_launch_args *a, unsigned dt, unsigned ot, int waves) {
  hipStream_t s = (hipStream_t)a->stream;
  float *partials = (float *)a->scratch;
  rf_h_u64 count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hmin_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, waves, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_hmin_final_kernel, dim3(1), dim3(a->cfg.block), 0, s,
                     (const float *)partials, count, waves, a->out, ot);
  return (int)hipGetLastError();
}

#define RF_HMIN_LAUNCHERS(tag, dt, ot)                                                         \
  static int rf_hmin_lds_##tag(const rf_launch_args *a) { return rf_hmin_launch_lds(a, dt, ot); } \
  static int rf_hmin_wave_##tag(const rf_launch_args *a) { return rf_hmin_launch_two(a, dt, ot, 1); } \
  static int rf_hmin_two_##tag(const rf_launch_args *a) { return rf_hmin_launch_two(a, dt, ot, 0); }
RF_HMIN_LAUNCHERS(f16, 1u, 1u)
RF_HMIN_LAUNCHERS(bf16, 2u, 2u)
RF_HMIN_LAUNCHERS(f16_f32, 1u, 0u)
RF_HMIN_LAUNCHERS(bf16_f32, 2u, 0u)

#define RF_HMIN_GRID "grid 1..65535 (default min(CUs*8, ceil(n/block))); no items"
#define RF_HMIN_VARIANTS(tname, tag, DT, OT, suffix)                                           \
  static const rf_variant rf_hmin_v_lds_##tag = {                                              \
      "min/" tname "-lds" suffix, RF_OP_MIN, 1, 0,                                               \
      tname " loaded exactly to float32: grid-stride fminf, LDS tree, integer atomicMax on an " \
      "order-reversing key; the minimum written in the output type (exact)",                   \
      "block power of two 1..1024; " RF_HMIN_GRID,                                              \
      rf_h_configure_lds, rf_hmin_key_scratch, rf_hmin_plan_lds, rf_hmin_lds_##tag, 0, DT, OT}; \
  static const rf_variant rf_hmin_v_wave_##tag = {                                             \
      "min/" tname "-wave" suffix, RF_OP_MIN, 1, 0,                                              \
      tname " loaded exactly to float32: grid-stride fminf, wave butterflies into per-block "   \
      "partials, one block the same over them; the minimum written in the output type",         \
      "block power of two, wave..1024; " RF_HMIN_GRID,                                          \
      rf_h_configure_waves, rf_hmin_partials_scratch, rf_hmin_plan_wave, rf_hmin_wave_##tag, 0, \
      DT, OT};                                                                                  \
  static const rf_variant rf_hmin_v_two_##tag = {                                              \
      "min/" tname "-two-stage" suffix, RF_OP_MIN, 1, 0,                                         \
      tname " loaded exactly to float32: grid-stride fminf + LDS tree into per-block partials, " \
      "one block the same over them; the minimum written in the output type",                   \
      "block power of two 1..1024; " RF_HMIN_GRID,                                              \
      rf_h_configure_lds, rf_hmin_partials_scratch, rf_hmin_plan_two_stage, rf_hmin_two_##tag,  \
      0, DT, OT};
RF_HMIN_VARIANTS("f16", f16, RF_DTYPE_F16, RF_DTYPE_F16, "")
RF_HMIN_VARIANTS("bf16", bf16, RF_DTYPE_BF16, RF_DTYPE_BF16, "")
RF_HMIN_VARIANTS("f16", f16_f32, RF_DTYPE_F16, RF_DTYPE_F32, "-f32out")
RF_HMIN_VARIANTS("bf16", bf16_f32, RF_DTYPE_BF16, RF_DTYPE_F32, "-f32out")

extern "C" const rf_variant *const rf_family_min_half[] = {
    &rf_hmin_v_lds_f16, &rf_hmin_v_wave_f16, &rf_hmin_v_two_f16,
    &rf_hmin_v_lds_bf16, &rf_hmin_v_wave_bf16, &rf_hmin_v_two_bf16,
    &rf_hmin_v_lds_f16_f32, &rf_hmin_v_wave_f16_f32, &rf_hmin_v_two_f16_f32,
    &rf_hmin_v_lds_bf16_f32, &rf_hmin_v_wave_bf16_f32, &rf_hmin_v_two_bf16_f32, NULL};
#endif
