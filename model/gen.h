/* Input generators: integer-based, bit-identical on every platform (docs/CASE_FORMAT.md). */
#ifndef RF_GEN_H
#define RF_GEN_H
#include "case.h"
#include "gen_elem.h"
#ifdef __cplusplus
extern "C" {
#endif
/* splitmix64: one step of the documented PRNG (Steele, Lea, Flood 2014). */
uint64_t rf_splitmix64(uint64_t *state);
/* Fills out[0 .. rf_case_elems(c)) with the case's distribution, seeded by c->seed. */
void rf_generate(const rf_case *c, float *out);
/* The element-wise generator's parameters for c (what the device generator receives). */
void rf_gen_params_of(const rf_case *c, rf_gen_params *p);
/* Fills out[0 .. cols) with row r of a row case (the same bits as rf_generate's row r). */
void rf_generate_row(const rf_case *c, uint64_t r, float *out);
/* A sparse case (rf_case_is_sparse): the markers of its one row (a 1-D case), or of each of
 * its rows (logsumexp: every row has the same, at these columns), sorted by position into
 * pos and val (room for RF_GEN_MARKERS_MAX); every other element is +0. Returns how many; 0
 * for an empty case or one that is not sparse. */
unsigned rf_gen_marker_list(const rf_case *c, uint64_t *pos, float *val);
/* Element i of rf_generate(c) alone. */
float rf_gen_one(const rf_case *c, uint64_t i);
#ifdef __cplusplus
}
#endif
#endif
