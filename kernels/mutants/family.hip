/* The known-bug mutants (docs/MUTANTS.md), one per file, gathered into the family the registry
 * reads when REDFUZZ_MUTANTS is ON. The list is mutants.def: a new mutant is its file (which
 * the CMake glob picks up) and one line there. */
#include "redfuzz/variant.h"

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" {
#define RF_MUTANT(name) extern const rf_variant rf_mut_##name;
#define RF_MUTANT_PLAIN(name) RF_MUTANT(name)
#define RF_MUTANT_HUGE(name) RF_MUTANT(name)
#include "mutants.def"
#undef RF_MUTANT
#undef RF_MUTANT_PLAIN
#undef RF_MUTANT_HUGE
}

/* RF_MUTANT_PLAIN ones are caught only by a check of the plain simulator build: the alignment
 * check (docs/SIMULATOR.md, "Alignment"). The AddressSanitizer build's kernels are built
 * without -fsanitize=alignment (its runtime's handler would replace the simulator's), and
 * misaligned float4 loads that stay inside the buffer are nothing ASan can see. (An LDS
 * overrun is a report there, and reports are verdicts: sim/asan_report.cpp.) */
#if defined(RF_ASAN) && RF_ASAN
#define RF_MUTANT_PLAIN(name)
#else
#define RF_MUTANT_PLAIN(name) &rf_mut_##name,
#endif
#define RF_MUTANT(name) &rf_mut_##name,
#define RF_MUTANT_HUGE(name)

/* The single-declaration form of extern "C" gives the const array external linkage. */
extern "C" const rf_variant *const rf_family_mutants[] = {
#include "mutants.def"
    NULL};
#undef RF_MUTANT
#undef RF_MUTANT_PLAIN
#undef RF_MUTANT_HUGE

/* RF_MUTANT_HUGE: bugs that show only past 2^31 or 2^32 elements (issue 37). Every fuzz input
 * and every default sweep case is smaller, so they run only when named (`--variant`, or
 * scripts/bench-huge.sh), at n = 2^31+5 and 2^32+3 on the markers distribution
 * (docs/MUTANTS.md). */
#define RF_MUTANT(name)
#define RF_MUTANT_PLAIN(name)
#define RF_MUTANT_HUGE(name) &rf_mut_##name,
extern "C" const rf_variant *const rf_family_huge_mutants[] = {
#include "mutants.def"
    NULL};
#undef RF_MUTANT
#undef RF_MUTANT_PLAIN
#undef RF_MUTANT_HUGE
#endif
