/* The contract rules that decide failures (run/rules.def): names for results, signatures and
 * known-signature files. */
#ifndef RF_RULES_H
#define RF_RULES_H
typedef enum {
#define RF_RULE(id, name, meaning) RF_RULE_##id,
#include "rules.def"
#undef RF_RULE
  RF_RULE_COUNT
} rf_rule;
/* "signed-zero", ...; "" for RF_RULE_NONE and out of range. */
const char *rf_rule_name(rf_rule r);
/* 0 and *out for a rule's name (not ""), else -1. */
int rf_rule_parse(const char *s, rf_rule *out);
/* "signed-zero, nan-ignored, ..." (every named rule), for messages. */
const char *rf_rule_list(void);
#endif
