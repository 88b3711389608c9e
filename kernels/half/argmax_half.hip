/* Argmax of f16 and bf16 inputs (issue 17): kernels/half/argext_half.h's kernels in the
 * direction rf_dir_max (argmin_half.hip: the same with rf_dir_min). Policy as float32 argmax
 * (oracle/exact.h): NaN ignored, ties to the lowest index, only NaN gives {NaN, -1}, n = 0
 * gives {-inf, -1}. */
#include "argext_half.h"

RF_HARGX_INSTANCES(rf_dir_max)

#if !defined(__HIP_DEVICE_COMPILE__)
#define RF_HARGMAX_GRID "grid 1..65535 (default min(CUs*8, ceil(n/block))); no items; 64-bit indices"
#define RF_HARGMAX_VARIANTS(tname, tag, DT)                                                     \
  static const rf_variant rf_hargmax_v_lds_##tag = {                                             \
      .name = "argmax/" tname "-lds",                                                         \
      .op = RF_OP_ARGMAX,                                                                    \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: a contiguous chunk a block, first maximum, LDS tree " \
          "of pairs, block winner to a partial, 64-bit atomicMax on (value key, block)",   \
      .constraints = "block power of two 1..1024; " RF_HARGMAX_GRID,                            \
      .configure = rf_hargx_configure_lds,                                                     \
      .scratch_bytes = rf_hargx_key_scratch,                                                   \
      .plan = rf_h_plan_lds_atomic,                                                            \
      .launch = rf_hargx_launch_lds<rf_dir_max, DT>,                                                \
      .in_dtype = DT,                                                                          \
      .out_dtype = RF_DTYPE_F32,                                                               \
      .index_bits = 64                                                                         \
  };                                                                                           \
  static const rf_variant rf_hargmax_v_wave_##tag = {                                            \
      .name = "argmax/" tname "-wave",                                                        \
      .op = RF_OP_ARGMAX,                                                                    \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride first maximum, wave butterflies of pairs "  \
          "into per-block partials, one block the same over them",                             \
      .constraints = "block power of two, wave..1024; " RF_HARGMAX_GRID,                        \
      .configure = rf_hargx_configure_waves,                                                   \
      .scratch_bytes = rf_hargx_partials_scratch,                                              \
      .plan = rf_hargx_plan_wave,                                                              \
      .launch = rf_hargx_launch_two<rf_dir_max, DT, 1>,                                             \
      .in_dtype = DT,                                                                          \
      .out_dtype = RF_DTYPE_F32,                                                               \
      .index_bits = 64                                                                         \
  };                                                                                           \
  static const rf_variant rf_hargmax_v_two_##tag = {                                             \
      .name = "argmax/" tname "-two-stage",                                                   \
      .op = RF_OP_ARGMAX,                                                                    \
      .deterministic = 1,                                                                      \
      .is_mutant = 0,                                                                          \
      .summary = tname                                                                         \
          " loaded exactly to float32: grid-stride first maximum + LDS tree of pairs into "    \
          "per-block partials, one block the same over them",                                  \
      .constraints = "block power of two 1..1024; " RF_HARGMAX_GRID,                            \
      .configure = rf_hargx_configure_lds,                                                     \
      .scratch_bytes = rf_hargx_partials_scratch,                                              \
      .plan = rf_h_plan_two_stage_lds,                                                         \
      .launch = rf_hargx_launch_two<rf_dir_max, DT, 0>,                                             \
      .in_dtype = DT,                                                                          \
      .out_dtype = RF_DTYPE_F32,                                                               \
      .index_bits = 64                                                                         \
  };
RF_HARGMAX_VARIANTS("f16", f16, RF_DTYPE_F16)
RF_HARGMAX_VARIANTS("bf16", bf16, RF_DTYPE_BF16)

extern "C" const rf_variant *const rf_family_argmax_half[] = {
    &rf_hargmax_v_lds_f16, &rf_hargmax_v_wave_f16, &rf_hargmax_v_two_f16,
    &rf_hargmax_v_lds_bf16, &rf_hargmax_v_wave_bf16, &rf_hargmax_v_two_bf16, NULL};
#endif
