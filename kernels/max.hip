/* The max variants (seed 000 §9.1 table, seed 002 v1/v2, seed 003 §7): kernels/extremum.h's
 * kernels in the direction rf_dir_max (grid-stride fmaxf, an LDS tree or wave shuffles in a
 * block, an integer atomicMax on the order-preserving key or a second kernel across blocks).
 * min.hip is the same with rf_dir_min. NaN policy (oracle/exact.h): NaN inputs are ignored; an
 * input of only NaN gives NaN; n = 0 gives -inf. */
#include "extremum.h"

RF_EXT_INSTANCES(rf_dir_max)

/* Everything below is host code: kept out of clang's HIP device pass, which would otherwise
 * emit the variant tables and miss the host functions they point to (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

#include "extremum_host.h"   /* configure, scratch, plans and launchers, shared with min.hip */

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_max_lds_variant = {
    .name = "max/lds",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fmaxf, LDS tree, one integer atomicMax per block on an "
        "order-preserving key, one thread decodes the key",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); no items",
    .configure = rf_ext_configure_lds,
    .scratch_bytes = rf_ext_key_scratch,
    .plan = rf_ext_plan_lds,
    .launch = rf_ext_launch_lds<rf_dir_max>};

static const rf_variant rf_max_wave_variant = {
    .name = "max/wave",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fmaxf, wave shuffle, wave maxima via LDS, first wave finishes, one "
        "integer atomicMax per block on an order-preserving key, one thread decodes the key",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); no items",
    .configure = rf_ext_configure_waves,
    .scratch_bytes = rf_ext_key_scratch,
    .plan = rf_ext_plan_wave,
    .launch = rf_ext_launch_wave<rf_dir_max>};

static const rf_variant rf_max_two_stage_variant = {
    .name = "max/two-stage",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fmaxf, wave shuffle, wave maxima via LDS into per-block partials; one "
        "block does the same over the partials",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); no items",
    .configure = rf_ext_configure_waves,
    .scratch_bytes = rf_ext_partials_scratch,
    .plan = rf_ext_plan_two_stage,
    .launch = rf_ext_launch_two_stage<rf_dir_max>};

extern "C" const rf_variant *const rf_family_max[] = {&rf_max_lds_variant, &rf_max_wave_variant,
                                                      &rf_max_two_stage_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
