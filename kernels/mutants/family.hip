/* The known-bug mutants (docs/MUTANTS.md), one per file, gathered into the family the registry
 * reads when REDFUZZ_MUTANTS is ON. */
#include "redfuzz/variant.h"

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" {
extern const rf_variant rf_mut_sum_pad_one;
extern const rf_variant rf_mut_sum_tree_no_barrier;
extern const rf_variant rf_mut_sum_sync_in_if;
extern const rf_variant rf_mut_sum_drop_tail;
extern const rf_variant rf_mut_sum_second_stage_drops;
extern const rf_variant rf_mut_sum_vec4_overrun;
extern const rf_variant rf_mut_sum_vec4_skip_tail;
extern const rf_variant rf_mut_sum_atomic_not_zeroed;
extern const rf_variant rf_mut_sum_grid_stride_double;
extern const rf_variant rf_mut_sum_atomic_claims_deterministic;
extern const rf_variant rf_mut_sum_last_block_no_fence;
extern const rf_variant rf_mut_max_last_block_no_fence;
extern const rf_variant rf_mut_max_pad_zero;
extern const rf_variant rf_mut_max_wave_no_pad;
extern const rf_variant rf_mut_argmax_ties_high;
extern const rf_variant rf_mut_min_pad_zero;
extern const rf_variant rf_mut_argmin_flt_max_start;
extern const rf_variant rf_mut_softmax_lds_reuse_race;
extern const rf_variant rf_mut_softmax_mask_zero;
extern const rf_variant rf_mut_softmax_online_no_rescale;
extern const rf_variant rf_mut_argmax_nan_wins;
extern const rf_variant rf_mut_max_all_nan_neg_inf;
extern const rf_variant rf_mut_softmax_clamp_inputs;
extern const rf_variant rf_mut_sum_saturate;
extern const rf_variant rf_mut_sum_pos_zero;
extern const rf_variant rf_mut_max_vec4_tail_pad_zero;
extern const rf_variant rf_mut_argmax_vec4_lane_ties;
extern const rf_variant rf_mut_logsumexp_no_max_shift;
extern const rf_variant rf_mut_logsumexp_pad_zero_max;
extern const rf_variant rf_mut_logsoftmax_online_no_rescale;
/* misaligned views and LDS bounds (issue 37) */
extern const rf_variant rf_mut_sum_vec4_no_head;
extern const rf_variant rf_mut_sum_lds_256;
/* 16-bit inputs (issue 17) */
extern const rf_variant rf_mut_sum_f16_narrow_acc;
extern const rf_variant rf_mut_sum_bf16_early_round;
extern const rf_variant rf_mut_max_f16_int_compare;
extern const rf_variant rf_mut_softmax_f16_exp_overflow;
extern const rf_variant rf_mut_logsoftmax_f16_sub_in_half;
extern const rf_variant rf_mut_logsumexp_f16_sum_in_half;
extern const rf_variant rf_mut_logsumexp_f16_two_step_round;
}

/* The single-declaration form of extern "C" gives the const array external linkage. */
extern "C" const rf_variant *const rf_family_mutants[] = {
    &rf_mut_sum_pad_one,           &rf_mut_sum_tree_no_barrier,
    &rf_mut_sum_sync_in_if,        &rf_mut_sum_drop_tail,
    &rf_mut_sum_second_stage_drops, &rf_mut_sum_vec4_overrun,
    &rf_mut_sum_vec4_skip_tail,    &rf_mut_sum_atomic_not_zeroed,
    &rf_mut_sum_grid_stride_double, &rf_mut_sum_atomic_claims_deterministic,
    &rf_mut_sum_last_block_no_fence, &rf_mut_max_last_block_no_fence,
    &rf_mut_max_pad_zero,
    &rf_mut_max_wave_no_pad,
    &rf_mut_argmax_ties_high,      &rf_mut_softmax_lds_reuse_race,
    &rf_mut_softmax_mask_zero,     &rf_mut_softmax_online_no_rescale,
    &rf_mut_sum_saturate,          &rf_mut_sum_pos_zero,
    &rf_mut_max_all_nan_neg_inf,   &rf_mut_argmax_nan_wins,
    &rf_mut_softmax_clamp_inputs,
    &rf_mut_max_vec4_tail_pad_zero, &rf_mut_argmax_vec4_lane_ties,
    &rf_mut_logsumexp_no_max_shift, &rf_mut_logsumexp_pad_zero_max,
    &rf_mut_logsoftmax_online_no_rescale,
    &rf_mut_sum_f16_narrow_acc,    &rf_mut_sum_bf16_early_round,
    &rf_mut_max_f16_int_compare,   &rf_mut_softmax_f16_exp_overflow,
    &rf_mut_logsoftmax_f16_sub_in_half, &rf_mut_logsumexp_f16_sum_in_half,
    &rf_mut_logsumexp_f16_two_step_round,
    &rf_mut_min_pad_zero,          &rf_mut_argmin_flt_max_start,
#if !(defined(RF_ASAN) && RF_ASAN)
    /* Both are caught by checks of the plain simulator build (docs/SIMULATOR.md, "Alignment",
     * "LDS bounds"). The AddressSanitizer build has neither: its kernels are built without
     * -fsanitize=alignment, and an LDS overrun lands in ASan's red zones, whose first report
     * still ends the process (turning reports into verdicts is issue 37's open item). */
    &rf_mut_sum_vec4_no_head,      &rf_mut_sum_lds_256,
#endif
    NULL};
#endif
