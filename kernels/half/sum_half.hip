/* Sums of f16 and bf16 inputs with float32 accumulation (issue 17): each element is converted
 * exactly to float32, every addition is a float32 one, and the one result is rounded once to
 * the declared output type. The shapes are the float32 seeds' main ones: an LDS tree with one
 * atomic per block, wave shuffles into per-block partials and a second kernel, and a two-stage
 * LDS tree. Bound: the float32 plan's, then the output rounding (docs/TOLERANCES.md, "Inputs
 * and outputs in 16-bit types"). */
#include "half_common.h"

/* This thread's grid-stride chain in float32, from -0 (so a sum of only -0 stays -0). */
static __device__ __forceinline__ float rf_hsum_thread(const uint16_t *__restrict__ x,
                                                       rf_h_u64 n, unsigned dt) {
  float acc = -0.0f;
  for (rf_h_u64 i = rf_h_gid(); i < n; i += rf_h_stride()) acc += rf_h_load(x, i, dt);
  return acc;
}

/* The accumulator set to -0: the identity the blocks add into. */
__global__ void rf_hsum_neg_zero_kernel(float *acc) {
  if (blockIdx.x == 0 && threadIdx.x == 0) acc[0] = -0.0f;
}

/* Grid-stride chain, LDS tree, one float32 atomicAdd per block into *acc. */
__global__ void rf_hsum_lds_atomic_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                          unsigned dt, float *acc) {
  RF_SHARED(float, sd, RF_H_MAX_BLOCK);
  sd[threadIdx.x] = rf_hsum_thread(x, n, dt);
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(acc, sd[0]);
}

/* The float32 result rounded once to the output type (+0 for the empty sum). */
__global__ void rf_hsum_finish_kernel(const float *acc, rf_h_u64 n, void *out, unsigned ot) {
  if (blockIdx.x == 0 && threadIdx.x == 0) rf_h_store(out, 0, n == 0 ? 0.0f : acc[0], ot);
}

/* Per-block partials: grid-stride chain, then wave shuffles (waves = 1) or an LDS tree. */
__global__ void rf_hsum_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n, unsigned dt,
                                        int waves, float *partials) {
  RF_SHARED(float, sd, RF_H_MAX_BLOCK);
  const float v = rf_hsum_thread(x, n, dt);
  float s;
  if (waves) {
    s = rf_prim_block_sum_waves(sd, v);
  } else {
    sd[threadIdx.x] = v;
    rf_prim_lds_sum_tree(sd);
    s = sd[0];
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

/* One block over the float32 partials, the same way, then the one rounding to the output. */
__global__ void rf_hsum_final_kernel(const float *__restrict__ partials, rf_h_u64 count,
                                     int waves, void *out, unsigned ot) {
  RF_SHARED(float, sd, RF_H_MAX_BLOCK);
  float v = -0.0f;
  for (rf_h_u64 i = threadIdx.x; i < count; i += blockDim.x) v += partials[i];
  float s;
  if (waves) {
    s = rf_prim_block_sum_waves(sd, v);
  } else {
    sd[threadIdx.x] = v;
    rf_prim_lds_sum_tree(sd);
    s = sd[0];
  }
  if (threadIdx.x == 0) rf_h_store(out, 0, count == 0 ? 0.0f : s, ot);
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* ---- host --------------------------------------------------------------------------------- */
static size_t rf_hsum_acc_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(float); }
static void rf_hsum_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t in_wave = rf_ceil_log2(cfg->wave), across = rf_ceil_log2(cfg->block / cfg->wave);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
}
static int rf_hsum_launch_lds(const rf_launch_args *a, unsigned dt, unsigned ot) {
  hipStream_t s = (hipStream_t)a->stream;
  float *acc = (float *)a->scratch;
  hipLaunchKernelGGL(rf_hsum_neg_zero_kernel, dim3(1), dim3(1), 0, s, acc);
  int e = (int)hipGetLastError();
  if (e) return e;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_hsum_lds_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, dt, acc);
    if ((e = (int)hipGetLastError())) return e;
  }
  hipLaunchKernelGGL(rf_hsum_finish_kernel, dim3(1), dim3(1), 0, s, (const float *)acc,
                     (rf_h_u64)a->cfg.n, a->out, ot);
  return (int)hipGetLastError();
}

/* One launcher per (form, input type, output type): the variant table needs plain functions. */
#define RF_HSUM_LAUNCHERS(tag, dt, ot)                                                        \
  static int rf_hsum_lds_##tag(const rf_launch_args *a) { return rf_hsum_launch_lds(a, dt, ot); } \
  static int rf_hsum_wave_##tag(const rf_launch_args *a) {                                    \
    return rf_h_launch_two(a, rf_hsum_partials_kernel, rf_hsum_final_kernel, dt, ot, 1);      \
  }                                                                                            \
  static int rf_hsum_two_##tag(const rf_launch_args *a) {                                     \
    return rf_h_launch_two(a, rf_hsum_partials_kernel, rf_hsum_final_kernel, dt, ot, 0);      \
  }
RF_HSUM_LAUNCHERS(f16, 1u, 1u)
RF_HSUM_LAUNCHERS(bf16, 2u, 2u)
RF_HSUM_LAUNCHERS(f16_f32, 1u, 0u)
RF_HSUM_LAUNCHERS(bf16_f32, 2u, 0u)

#define RF_HSUM_GRID "grid 1..65535 (default min(CUs*8, ceil(n/block))); no items"
#define RF_HSUM_VARIANTS(tname, tag, DT, OT, suffix)                                           \
  static const rf_variant rf_hsum_v_lds_##tag = {                                              \
      .name = "sum/" tname "-lds" suffix,                                                      \
      .op = RF_OP_SUM,                                                                         \
      .deterministic = 0,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride chain, LDS tree, one float32 atomicAdd "    \
          "per block into scratch set to -0, one rounding to the output type",                 \
      .constraints = "block power of two 1..1024; " RF_HSUM_GRID,                              \
      .configure = rf_h_configure_lds,                                                         \
      .scratch_bytes = rf_hsum_acc_scratch,                                                    \
      .plan = rf_h_plan_lds_atomic,                                                            \
      .launch = rf_hsum_lds_##tag,                                                             \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT,                                                                         \
      .contract = RF_CONTRACT_SIGNED_ZERO                                                      \
  };                                                                                           \
  static const rf_variant rf_hsum_v_wave_##tag = {                                             \
      .name = "sum/" tname "-wave" suffix,                                                     \
      .op = RF_OP_SUM,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride chain, wave shuffles, wave sums via LDS, "  \
          "per-block partials; one block does the same over them; one rounding to the "        \
          "output type",                                                                       \
      .constraints = "block power of two, wave..1024; " RF_HSUM_GRID,                          \
      .configure = rf_h_configure_waves,                                                       \
      .scratch_bytes = rf_h_partials_scratch,                                               \
      .plan = rf_hsum_plan_wave,                                                               \
      .launch = rf_hsum_wave_##tag,                                                            \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT,                                                                         \
      .contract = RF_CONTRACT_SIGNED_ZERO                                                      \
  };                                                                                           \
  static const rf_variant rf_hsum_v_two_##tag = {                                              \
      .name = "sum/" tname "-two-stage" suffix,                                                \
      .op = RF_OP_SUM,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride chain + LDS tree into per-block "           \
          "partials, " "then one block the same over them; one rounding to the output type",   \
      .constraints = "block power of two 1..1024; " RF_HSUM_GRID,                              \
      .configure = rf_h_configure_lds,                                                         \
      .scratch_bytes = rf_h_partials_scratch,                                               \
      .plan = rf_h_plan_two_stage_lds,                                                          \
      .launch = rf_hsum_two_##tag,                                                             \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT,                                                                         \
      .contract = RF_CONTRACT_SIGNED_ZERO                                                      \
  };
/* Their sums start from -0 (half_common.h): each declares the strict IEEE zero sign. */
RF_HSUM_VARIANTS("f16", f16, RF_DTYPE_F16, RF_DTYPE_F16, "")
RF_HSUM_VARIANTS("bf16", bf16, RF_DTYPE_BF16, RF_DTYPE_BF16, "")
RF_HSUM_VARIANTS("f16", f16_f32, RF_DTYPE_F16, RF_DTYPE_F32, "-f32out")
RF_HSUM_VARIANTS("bf16", bf16_f32, RF_DTYPE_BF16, RF_DTYPE_F32, "-f32out")

extern "C" const rf_variant *const rf_family_sum_half[] = {
    &rf_hsum_v_lds_f16, &rf_hsum_v_wave_f16, &rf_hsum_v_two_f16,
    &rf_hsum_v_lds_bf16, &rf_hsum_v_wave_bf16, &rf_hsum_v_two_bf16,
    &rf_hsum_v_lds_f16_f32, &rf_hsum_v_wave_f16_f32, &rf_hsum_v_two_f16_f32,
    &rf_hsum_v_lds_bf16_f32, &rf_hsum_v_wave_bf16_f32, &rf_hsum_v_two_bf16_f32, NULL};
#endif
