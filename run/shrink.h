/* Semantic shrinking: make a failing case smaller and plainer while it keeps its failure
 * signature (variant + verdict + the contract rule that decided it, run/rules.def). */
#ifndef RF_SHRINK_H
#define RF_SHRINK_H
#include "runner.h"

typedef struct {
  char variant[RF_VARIANT_NAME_MAX];
  rf_verdict verdict;
  rf_rule rule;          /* RF_RULE_NONE: decided by no contract rule */
} rf_signature;

/* The first failing result of c (variants in registry order), or -1 when nothing fails. */
int rf_first_failure(rf_runner *r, const rf_case *c, rf_signature *sig);
/* Shrinks c in place; returns the number of accepted steps. `log` (may be NULL) receives one
 * line per accepted step. */
int rf_shrink(rf_runner *r, rf_case *c, const rf_signature *sig, FILE *log);
/* Writes the regression file for c: header comment, the case, and an expect line for every
 * variant of its op as it behaves now. Path: <dir>/<op>-<variant>-<verdict>[-<rule>]-<hash>.case
 * (variant's '/' becomes '-'; the rule where one decided it, so each signature has its file), written safely (model/file_out.h): a file already at that
 * name with other bytes (a hand-edited regression) is kept and this one takes the first free
 * <name>-2.case, -3, ... Returns 0 written at its name, 1 an identical file was there already
 * (nothing written), 2 written under a numbered name; the path; or -1 with a message (nothing
 * left behind). */
int rf_write_regression(rf_runner *r, const rf_case *c, const rf_signature *sig, const char *dir,
                        char *path, size_t pathlen, char *err, size_t errlen);
#endif
