/* Known failure signatures: what a fuzz campaign has found already (or was told to leave out,
 * scripts/fuzz.sh --known), so the fuzz target goes on past them instead of stopping.
 * A signature is "variant verdict dist rule=R": the variant, its failing verdict, the case's
 * distribution (the input property that most often decides which rule a kernel breaks: a
 * dropped element shows on `ones`, not on `wide`) and the contract rule the judge named as
 * deciding it (run/rules.def: a sum from +0 declared signed-zero fails `rule=signed-zero`; a
 * failure no contract rule decided has none). A line without a dist stands for every dist,
 * one without a rule for every rule (none included). File: one signature a line, as
 * "variant verdict [dist] [rule=NAME]"; '#' comments and blank lines are skipped. */
#ifndef RF_KNOWN_H
#define RF_KNOWN_H
#include <stddef.h>
#include "model/case.h"
#include "model/verdict.h"
#include "rules.h"

typedef struct rf_known rf_known;

/* Reads PATH; NULL with "PATH:LINE: ..." in err (the bad word and what is allowed) on a line
 * that is not a signature, or when PATH cannot be read. */
rf_known *rf_known_load(const char *path, char *err, size_t errlen);
/* 1 when (variant, verdict, dist, rule) is listed (or listed without a dist, or without a
 * rule). */
int rf_known_has_rule(const rf_known *k, const char *variant, rf_verdict verdict, rf_dist dist,
                      rf_rule rule);
/* The same for a failure no contract rule decided (rule RF_RULE_NONE). */
int rf_known_has(const rf_known *k, const char *variant, rf_verdict verdict, rf_dist dist);
size_t rf_known_count(const rf_known *k);
void rf_known_free(rf_known *k);
#endif
