/* Minima of f16 and bf16 inputs (issue 34): kernels/half/ext_half.h's kernels in the
 * direction rf_dir_min, the 16-bit max family (max_half.hip) with the other direction. Exact in
 * any order and in the output type; NaN inputs ignored, all-NaN gives NaN, n = 0 gives +inf
 * (oracle/exact.h). */
#include "ext_half.h"

RF_HEXT_INSTANCES(rf_dir_min)

#if !defined(__HIP_DEVICE_COMPILE__)
#define RF_HMIN_GRID "grid 1..65535 (default min(CUs*8, ceil(n/block))); no items"
#define RF_HMIN_VARIANTS(tname, tag, DT, OT, suffix)                                           \
  static const rf_variant rf_hmin_v_lds_##tag = {                                              \
      .name = "min/" tname "-lds" suffix,                                                      \
      .op = RF_OP_MIN,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride fminf, LDS tree, integer atomicMax on an "  \
          "order-reversing key; the minimum written in the output type (exact)",              \
      .constraints = "block power of two 1..1024; " RF_HMIN_GRID,                              \
      .configure = rf_h_configure_lds,                                                         \
      .scratch_bytes = rf_hext_key_scratch,                                                    \
      .plan = rf_h_plan_lds_atomic,                                                            \
      .launch = rf_hext_launch_lds<rf_dir_min, DT, OT>,                                         \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };                                                                                           \
  static const rf_variant rf_hmin_v_wave_##tag = {                                             \
      .name = "min/" tname "-wave" suffix,                                                     \
      .op = RF_OP_MIN,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride fminf, wave butterflies into per-block "    \
          "partials, one block the same over them; the minimum written in the output type",    \
      .constraints = "block power of two, wave..1024; " RF_HMIN_GRID,                          \
      .configure = rf_h_configure_waves,                                                       \
      .scratch_bytes = rf_h_partials_scratch,                                                  \
      .plan = rf_hext_plan_wave,                                                               \
      .launch = rf_hext_launch_two<rf_dir_min, DT, OT, 1>,                                      \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };                                                                                           \
  static const rf_variant rf_hmin_v_two_##tag = {                                              \
      .name = "min/" tname "-two-stage" suffix,                                                \
      .op = RF_OP_MIN,                                                                         \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride fminf + LDS tree into per-block "           \
          "partials, " "one block the same over them; the minimum written in the output type", \
      .constraints = "block power of two 1..1024; " RF_HMIN_GRID,                              \
      .configure = rf_h_configure_lds,                                                         \
      .scratch_bytes = rf_h_partials_scratch,                                                  \
      .plan = rf_h_plan_two_stage_lds,                                                         \
      .launch = rf_hext_launch_two<rf_dir_min, DT, OT, 0>,                                      \
      .in_dtype = DT,                                                                          \
      .out_dtype = OT                                                                          \
  };
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
