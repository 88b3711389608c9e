/* Maxima of f16 and bf16 inputs (issue 17). The maximum of values of a type is one of them,
 * so it is exact in any order and in the output type (the input type or float32): the
 * comparisons are float32 ones on the exactly converted values, the result is converted back
 * without rounding. Policy as float32 max (oracle/exact.h): NaN inputs ignored, all-NaN gives
 * NaN, n = 0 gives -inf. Shapes: LDS tree + integer atomicMax on an order-preserving key, wave
 * shuffles into per-block partials + a second kernel, and a two-stage LDS tree. */
#include "half_common.h"

static __device__ __forceinline__ float rf_hmax_thread(const uint16_t *__restrict__ x,
                                                       rf_h_u64 n, unsigned dt) {
  float m = rf_prim_max_identity();
  for (rf_h_u64 i = rf_h_gid(); i < n; i += rf_h_stride()) m = fmaxf(m, rf_h_load(x, i, dt));
  return m;
}

__global__ void rf_hmax_lds_atomic_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                          unsigned dt, unsigned *key) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const float m = rf_prim_block_max_lds(lds, rf_hmax_thread(x, n, dt));
  if (threadIdx.x == 0 && m == m) atomicMax(key, rf_prim_max_key(m));
}
__global__ void rf_hmax_decode_kernel(const unsigned *key, rf_h_u64 n, void *out, unsigned ot) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    const float m = n == 0 ? -INFINITY : k == 0 ? rf_prim_max_identity() : rf_prim_max_unkey(k);
    rf_h_store(out, 0, m, ot);
  }
}
/* Per-block maxima: wave shuffles (waves = 1) or an LDS tree. */
__global__ void rf_hmax_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n, unsigned dt,
                                        int waves, float *partials) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const float v = rf_hmax_thread(x, n, dt);
  const float m = waves ? rf_prim_block_max_waves(lds, v) : rf_prim_block_max_lds(lds, v);
  if (threadIdx.x == 0) partials[blockIdx.x] = m;
}
/* One block over the partials (an empty block's NaN is ignored like a NaN input). */
__global__ void rf_hmax_final_kernel(const float *__restrict__ partials, rf_h_u64 count,
                                     int waves, void *out, unsigned ot) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  float v = rf_prim_max_identity();
  for (rf_h_u64 i = threadIdx.x; i < count; i += blockDim.x) v = fmaxf(v, partials[i]);
  const float m = waves ? rf_prim_block_max_waves(lds, v) : rf_prim_block_max_lds(lds, v);
  if (threadIdx.x == 0) rf_h_store(out, 0, count == 0 ? -INFINITY : m, ot);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static size_t rf_hmax_key_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(unsigned); }
static size_t rf_hmax_partials_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(float);
}
/* Comparisons, not additions: the plan shows the shape; a max is exact whatever it says. */
static void rf_hmax_plan_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}
static void rf_hmax_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block));
}
static void rf_hmax_plan_two_stage(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}

static int rf_hmax_launch_lds(const rf_launch_args *a, unsigned dt, unsigned ot) {
  hipStream_t s = (hipStream_t)a->stream;
  unsigned *key = (unsigned *)a->scratch;
  int e = (int)hipMemsetAsync(key, 0, sizeof(unsigned), s);
  if (e) return e;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hmax_lds_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, key);
    if ((e = (int)hipGetLastError())) return e;
  }
  hipLaunchKernelGGL(rf_hmax_decode_kernel, dim3(1), dim3(1), 0, s, (const unsigned *)key,
                     (rf_h_u64)a->cfg.n, a->out, ot);
  return (int)hipGetLastError();
}
static int rf_hmax_launch_two(const rf_launch_args *a, unsigned dt, unsigned ot, int waves) {
  hipStream_t s = (hipStream_t)a->stream;
  float *partials = (float *)a->scratch;
  rf_h_u64 count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hmax_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, waves, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_hmax_final_kernel, dim3(1), dim3(a->cfg.block), 0, s,
                     (const float *)partials, count, waves, a->out, ot);
  return (int)hipGetLastError();
}

#define RF_HMAX_LAUNCHERS(tag, dt, ot)                                                         \
  static int rf_hmax_lds_##tag(const rf_launch_args *a) { return rf_hmax_launch_lds(a, dt, ot); } \
  static int rf_hmax_wave_##tag(const rf_launch_args *a) { return rf_hmax_launch_two(a, dt, ot, 1); } \
  static int rf_hmax_two_##tag(const rf_launch_args *a) { return rf_hmax_launch_two(a, dt, ot, 0); }
RF_HMAX_LAUNCHERS(f16, 1u, 1u)
RF_HMAX_LAUNCHERS(bf16, 2u, 2u)
RF_HMAX_LAUNCHERS(f16_f32, 1u, 0u)
RF_HMAX_LAUNCHERS(bf16_f32, 2u, 0u)

#define RF_HMAX_GRID "grid 1..65535 (default min(CUs*8, ceil(n/block))); no items"
#define RF_HMAX_VARIANTS(tname, tag, DT, OT, suffix)                                           \
  static const rf_variant rf_hmax_v_lds_##tag = {                                              \
      .name = "max/" tname "-lds" suffix,                                                      \
      .op = RF_OP_MAX,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride fmaxf, LDS tree, integer atomicMax on an "  \
          "order-preserving key; the maximum written in the output type (exact)",              \
      .constraints = "block power of two 1..1024; " RF_HMAX_GRID,                              \
      .configure = rf_h_configure_lds,                                                         \
      .scratch_bytes = rf_hmax_key_scratch,                                                    \
      .plan = rf_hmax_plan_lds,                                                                \
      .launch = rf_hmax_lds_##tag,                                                             \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };                                                                                           \
  static const rf_variant rf_hmax_v_wave_##tag = {                                             \
      .name = "max/" tname "-wave" suffix,                                                     \
      .op = RF_OP_MAX,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride fmaxf, wave butterflies into per-block "    \
          "partials, one block the same over them; the maximum written in the output type",    \
      .constraints = "block power of two, wave..1024; " RF_HMAX_GRID,                          \
      .configure = rf_h_configure_waves,                                                       \
      .scratch_bytes = rf_hmax_partials_scratch,                                               \
      .plan = rf_hmax_plan_wave,                                                               \
      .launch = rf_hmax_wave_##tag,                                                            \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };                                                                                           \
  static const rf_variant rf_hmax_v_two_##tag = {                                              \
      .name = "max/" tname "-two-stage" suffix,                                                \
      .op = RF_OP_MAX,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride fmaxf + LDS tree into per-block "           \
          "partials, " "one block the same over them; the maximum written in the output type", \
      .constraints = "block power of two 1..1024; " RF_HMAX_GRID,                              \
      .configure = rf_h_configure_lds,                                                         \
      .scratch_bytes = rf_hmax_partials_scratch,                                               \
      .plan = rf_hmax_plan_two_stage,                                                          \
      .launch = rf_hmax_two_##tag,                                                             \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };
RF_HMAX_VARIANTS("f16", f16, RF_DTYPE_F16, RF_DTYPE_F16, "")
RF_HMAX_VARIANTS("bf16", bf16, RF_DTYPE_BF16, RF_DTYPE_BF16, "")
RF_HMAX_VARIANTS("f16", f16_f32, RF_DTYPE_F16, RF_DTYPE_F32, "-f32out")
RF_HMAX_VARIANTS("bf16", bf16_f32, RF_DTYPE_BF16, RF_DTYPE_F32, "-f32out")

extern "C" const rf_variant *const rf_family_max_half[] = {
    &rf_hmax_v_lds_f16, &rf_hmax_v_wave_f16, &rf_hmax_v_two_f16,
    &rf_hmax_v_lds_bf16, &rf_hmax_v_wave_bf16, &rf_hmax_v_two_bf16,
    &rf_hmax_v_lds_f16_f32, &rf_hmax_v_wave_f16_f32, &rf_hmax_v_two_f16_f32,
    &rf_hmax_v_lds_bf16_f32, &rf_hmax_v_wave_bf16_f32, &rf_hmax_v_two_bf16_f32, NULL};
#endif
