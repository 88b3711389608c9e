/* Input generators: integer-based, bit-identical on every platform (docs/CASE_FORMAT.md). */
#ifndef RF_GEN_H
#define RF_GEN_H
#include "case.h"
#ifdef __cplusplus
extern "C" {
#endif
/* splitmix64: one step of the documented PRNG (Steele, Lea, Flood 2014). */
uint64_t rf_splitmix64(uint64_t *state);
/* Fills out[0 .. rf_case_elems(c)) with the case's distribution, seeded by c->seed. */
void rf_generate(const rf_case *c, float *out);
#ifdef __cplusplus
}
#endif
#endif
