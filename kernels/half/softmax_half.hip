/* Row softmax of f16 and bf16 inputs (issue 17): one block per row, every element converted
 * exactly to float32, the max, the exp sum (float32 expf and additions) and the division in
 * float32, each output rounded once to the declared output type. Two shapes: LDS trees for
 * the max and the sum, and wave butterflies finished through LDS. Bound: the float32 plan's
 * per-element bound, then one rounding to the output type (docs/TOLERANCES.md, "Softmax
 * output in a 16-bit type"). Rows are grid-strided (a grid below rows is allowed). */
#include "half_common.h"

/* The block's maximum (op 0) or sum (op 1) of v, returned to every thread. lds: blockDim.x
 * floats (LDS form) or RF_H_MAX_WAVES + 1 (wave form). A barrier ends it, after which lds may
 * be written again only once every thread has read the result: the caller's next call writes
 * lds before its first barrier, so the result is read into a register right here, and a
 * reader barrier follows. */
static __device__ __forceinline__ float rf_hsm_block(float *lds, float v, int op, int waves) {
  const unsigned t = threadIdx.x;
  float r;
  if (!waves) {
    lds[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s) lds[t] = op ? lds[t] + lds[t + s] : fmaxf(lds[t], lds[t + s]);
      __syncthreads();
    }
    r = lds[0];
  } else {
    const unsigned lane = t % warpSize, wave = t / warpSize, nw = blockDim.x / warpSize;
    v = op ? rf_prim_wave_sum_down(v, warpSize) : rf_prim_wave_max(v, warpSize);
    if (lane == 0) lds[wave] = v;
    __syncthreads();
    if (wave == 0) {   /* the whole first wave: every lane takes part in the shuffles */
      const float w = lane < nw ? lds[lane] : op ? 0.0f : -INFINITY;
      const float c = op ? rf_prim_wave_sum_down(w, nw) : rf_prim_wave_max(w, nw);
      if (lane == 0) lds[RF_H_MAX_WAVES] = c;
    }
    __syncthreads();
    r = lds[RF_H_MAX_WAVES];
  }
  __syncthreads();   /* reader barrier: every thread has r before lds is written again */
  return r;
}

__global__ void rf_hsm_kernel(const uint16_t *__restrict__ x, unsigned rows, unsigned cols,
                              unsigned dt, int waves, void *out, unsigned ot) {
  RF_SHARED(float, lds, RF_H_MAX_BLOCK);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  for (rf_h_u64 r = blockIdx.x; r < rows; r += gridDim.x) {
    const rf_h_u64 base = r * cols;
    float m = -INFINITY;
    for (unsigned c = t; c < cols; c += nt) m = fmaxf(m, rf_h_load(x, base + c, dt));
    const float row_max = rf_hsm_block(lds, m, 0, waves);
    float sum = 0.0f;
    for (unsigned c = t; c < cols; c += nt) sum += expf(rf_h_load(x, base + c, dt) - row_max);
    const float denom = rf_hsm_block(lds, sum, 1, waves);
    for (unsigned c = t; c < cols; c += nt)
      rf_h_store(out, base + c, expf(rf_h_load(x, base + c, dt) - row_max) / denom, ot);
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* One block per row up to 65535 blocks (rows beyond are grid-strided); a requested grid wins. */
static const char *rf_hsm_pick_grid(rf_launch_cfg *cfg) {
  cfg->items = 0;
  if (cfg->grid == 0) cfg->grid = cfg->rows ? (cfg->rows < RF_H_MAX_GRID ? cfg->rows : RF_H_MAX_GRID) : 1;
  else if (cfg->grid > RF_H_MAX_GRID)
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_H_MAX_GRID);
  return NULL;
}
static const char *rf_hsm_configure_lds(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_H_DEFAULT_BLOCK, 1, RF_H_MAX_BLOCK, 0);
  return why ? why : rf_hsm_pick_grid(cfg);
}
static const char *rf_hsm_configure_waves(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, RF_H_DEFAULT_BLOCK, cfg->wave, RF_H_MAX_BLOCK, 1);
  return why ? why : rf_hsm_pick_grid(cfg);
}
/* Per row: the busiest thread adds ceil(cols/block) exps from 0, then the tree. */
static void rf_hsm_plan_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->cols, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}
static void rf_hsm_plan_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->cols, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
}
static int rf_hsm_launch(const rf_launch_args *a, unsigned dt, unsigned ot, int waves) {
  if (a->cfg.rows == 0 || a->cfg.cols == 0) return 0;   /* nothing to write */
  hipLaunchKernelGGL(rf_hsm_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, (const uint16_t *)a->x, a->cfg.rows, a->cfg.cols, dt,
                     waves, a->out, ot);
  return (int)hipGetLastError();
}
#define RF_HSM_LAUNCHERS(tag, dt, ot)                                                          \
  static int rf_hsm_lds_##tag(const rf_launch_args *a) { return rf_hsm_launch(a, dt, ot, 0); } \
  static int rf_hsm_wave_##tag(const rf_launch_args *a) { return rf_hsm_launch(a, dt, ot, 1); }
RF_HSM_LAUNCHERS(f16, 1u, 1u)
RF_HSM_LAUNCHERS(bf16, 2u, 2u)
RF_HSM_LAUNCHERS(f16_f32, 1u, 0u)
RF_HSM_LAUNCHERS(bf16_f32, 2u, 0u)

#define RF_HSM_VARIANTS(tname, tag, DT, OT, suffix)                                            \
  static const rf_variant rf_hsm_v_lds_##tag = {                                               \
      .name = "softmax/" tname "-block-lds" suffix,                                            \
      .op = RF_OP_SOFTMAX,                                                                     \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32; one block per row: LDS max tree, LDS tree of expf "     \
          "sums, e/s rounded once to the output type",                                         \
      .constraints = "block power of two 1..1024; grid 1..65535 (default min(rows, 65535)); "  \
          "no items",                                                                          \
      .configure = rf_hsm_configure_lds,                                                       \
      .scratch_bytes = rf_h_no_scratch,                                                        \
      .plan = rf_hsm_plan_lds,                                                                 \
      .launch = rf_hsm_lds_##tag,                                                              \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };                                                                                           \
  static const rf_variant rf_hsm_v_wave_##tag = {                                              \
      .name = "softmax/" tname "-block-wave" suffix,                                           \
      .op = RF_OP_SOFTMAX,                                                                     \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32; one block per row: max and expf sum by wave "           \
          "butterflies finished through LDS, e/s rounded once to the output type",             \
      .constraints = "block power of two, wave..1024; grid 1..65535 (default min(rows, "       \
          "65535)); no items",                                                                 \
      .configure = rf_hsm_configure_waves,                                                     \
      .scratch_bytes = rf_h_no_scratch,                                                        \
      .plan = rf_hsm_plan_wave,                                                                \
      .launch = rf_hsm_wave_##tag,                                                             \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };
RF_HSM_VARIANTS("f16", f16, RF_DTYPE_F16, RF_DTYPE_F16, "")
RF_HSM_VARIANTS("bf16", bf16, RF_DTYPE_BF16, RF_DTYPE_BF16, "")
RF_HSM_VARIANTS("f16", f16_f32, RF_DTYPE_F16, RF_DTYPE_F32, "-f32out")
RF_HSM_VARIANTS("bf16", bf16_f32, RF_DTYPE_BF16, RF_DTYPE_F32, "-f32out")

extern "C" const rf_variant *const rf_family_softmax_half[] = {
    &rf_hsm_v_lds_f16, &rf_hsm_v_wave_f16, &rf_hsm_v_lds_bf16, &rf_hsm_v_wave_bf16,
    &rf_hsm_v_lds_f16_f32, &rf_hsm_v_wave_f16_f32, &rf_hsm_v_lds_bf16_f32,
    &rf_hsm_v_wave_bf16_f32, NULL};
#endif
