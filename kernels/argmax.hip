/* The argmax variants (seed 000 §9.1 table): kernels/argext.h's kernels in the direction
 * rf_dir_max, the first maximum (the largest value, then the lowest index). argmin.hip is the
 * same with rf_dir_min. Policy (oracle/exact.h): NaN inputs are ignored; -0 and +0 tie; only
 * NaN gives {NaN, -1}; n = 0 gives {-inf, -1}. */
#include "argext.h"

RF_ARGX_INSTANCES(rf_dir_max)

/* Everything below is host code: kept out of clang's HIP device pass, which would otherwise
 * emit the variant tables and miss the host functions they point to (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

#include "argext_host.h"   /* configure, scratch, plans and launchers, shared with argmin.hip */

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_argmax_lds_variant = {
    .name = "argmax/lds",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride (value, index) winner, LDS tree of pairs into per-block partials; one "
        "block does the same over the partials",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); no items; 64-bit indices",
    .configure = rf_argx_configure_lds,
    .scratch_bytes = rf_argx_partials_scratch,
    .plan = rf_argx_plan_lds,
    .launch = rf_argx_launch_lds<rf_dir_max>,
    .index_bits = 64};

static const rf_variant rf_argmax_wave_variant = {
    .name = "argmax/wave",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "contiguous chunk a block, (value, index) winner, wave shuffle of pairs, wave "
        "winners via LDS, first wave finishes, block winner to a partial and one 64-bit "
        "atomicMax per block on (ordered value, inverted block); one thread decodes",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); no items; 64-bit indices",
    .configure = rf_argx_configure_wave,
    .scratch_bytes = rf_argx_key_scratch,
    .plan = rf_argx_plan_wave,
    .launch = rf_argx_launch_wave<rf_dir_max>,
    .index_bits = 64};

extern "C" const rf_variant *const rf_family_argmax[] = {&rf_argmax_lds_variant,
                                                         &rf_argmax_wave_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
