/* The min variants (issue 34's second op of the op table): kernels/extremum.h's kernels in
 * the direction rf_dir_min (grid-stride fminf, an LDS tree or wave shuffles in a block, an
 * integer atomicMax on the order-REVERSING key or a second kernel across blocks), the max
 * family (max.hip) with the other direction. NaN policy (oracle/exact.h, rf_oracle_argmin):
 * NaN inputs are ignored; an input of only NaN gives NaN; n = 0 gives +inf. */
#include "extremum.h"

RF_EXT_INSTANCES(rf_dir_min)

/* Everything below is host code: kept out of clang's HIP device pass, which would otherwise
 * emit the variant tables and miss the host functions they point to (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

#include "extremum_host.h"   /* configure, scratch, plans and launchers, shared with max.hip */

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_min_lds_variant = {
    .name = "min/lds",
    .op = RF_OP_MIN,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fminf, LDS tree, one integer atomicMax per block on an "
        "order-reversing key, one thread decodes the key",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); no items",
    .configure = rf_ext_configure_lds,
    .scratch_bytes = rf_ext_key_scratch,
    .plan = rf_ext_plan_lds,
    .launch = rf_ext_launch_lds<rf_dir_min>};

static const rf_variant rf_min_wave_variant = {
    .name = "min/wave",
    .op = RF_OP_MIN,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fminf, wave shuffle, wave minima via LDS, first wave finishes, one "
        "integer atomicMax per block on an order-reversing key, one thread decodes the key",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); no items",
    .configure = rf_ext_configure_waves,
    .scratch_bytes = rf_ext_key_scratch,
    .plan = rf_ext_plan_wave,
    .launch = rf_ext_launch_wave<rf_dir_min>};

static const rf_variant rf_min_two_stage_variant = {
    .name = "min/two-stage",
    .op = RF_OP_MIN,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fminf, wave shuffle, wave minima via LDS into per-block partials; one "
        "block does the same over the partials",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); no items",
    .configure = rf_ext_configure_waves,
    .scratch_bytes = rf_ext_partials_scratch,
    .plan = rf_ext_plan_two_stage,
    .launch = rf_ext_launch_two_stage<rf_dir_min>};

extern "C" const rf_variant *const rf_family_min[] = {&rf_min_lds_variant, &rf_min_wave_variant,
                                                      &rf_min_two_stage_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
