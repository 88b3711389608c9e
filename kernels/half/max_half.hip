/* Maxima of f16 and bf16 inputs (issue 17): kernels/half/ext_half.h's kernels in the
 * direction rf_dir_max (min_half.hip: the same with rf_dir_min). Exact in any order and in the
 * output type; NaN inputs ignored, all-NaN gives NaN, n = 0 gives -inf (oracle/exact.h). */
#include "ext_half.h"

RF_HEXT_INSTANCES(rf_dir_max)

#if !defined(__HIP_DEVICE_COMPILE__)
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
      .scratch_bytes = rf_hext_key_scratch,                                                    \
      .plan = rf_h_plan_lds_atomic,                                                            \
      .launch = rf_hext_launch_lds<rf_dir_max, DT, OT>,                                         \
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
      .scratch_bytes = rf_h_partials_scratch,                                                  \
      .plan = rf_hext_plan_wave,                                                               \
      .launch = rf_hext_launch_two<rf_dir_max, DT, OT, 1>,                                      \
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
      .scratch_bytes = rf_h_partials_scratch,                                                  \
      .plan = rf_h_plan_two_stage_lds,                                                         \
      .launch = rf_hext_launch_two<rf_dir_max, DT, OT, 0>,                                      \
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
