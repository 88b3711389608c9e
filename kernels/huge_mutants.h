/* Mutants whose bug shows only past 2^31 or 2^32 elements (kernels/mutants/family.hip,
 * rf_family_huge_mutants): sweeps and the mutation score leave them out unless named, since
 * no default case reaches their boundary (docs/MUTANTS.md). */
#ifndef RF_HUGE_MUTANTS_H
#define RF_HUGE_MUTANTS_H
#include "redfuzz/variant.h"
#ifdef __cplusplus
extern "C" {
#endif
/* 1 when v is one of them (0 in builds without mutants). */
int rf_variant_huge_only(const rf_variant *v);
#ifdef __cplusplus
}
#endif
#endif
