/* Known failure signatures: what a fuzz campaign has found already (or was told to leave out,
 * scripts/fuzz.sh --known), so the fuzz target goes on past them instead of stopping.
 * A signature is "variant verdict dist": the variant, its failing verdict and the case's
 * distribution, the input property that most often decides which rule a kernel breaks (a sum
 * from +0 fails only `signed-zero`; a dropped element shows on `ones`, not on `wide`). A line
 * without a dist stands for every dist. File: one signature a line; '#' comments and blank
 * lines are skipped. */
#ifndef RF_KNOWN_H
#define RF_KNOWN_H
#include <stddef.h>
#include "model/case.h"
#include "model/verdict.h"

typedef struct rf_known rf_known;

/* Reads PATH; NULL with "PATH:LINE: ..." in err (the bad word and what is allowed) on a line
 * that is not a signature, or when PATH cannot be read. */
rf_known *rf_known_load(const char *path, char *err, size_t errlen);
/* 1 when (variant, verdict, dist) is listed (or listed without a dist). */
int rf_known_has(const rf_known *k, const char *variant, rf_verdict verdict, rf_dist dist);
size_t rf_known_count(const rf_known *k);
void rf_known_free(rf_known *k);
#endif
