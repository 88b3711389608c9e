/* Signatures carry the contract rule that decided a failure (run/rules.def, run/known.h):
 * a known line with rule=NAME matches that rule only, so a campaign told of one rule's
 * finding still reports the same variant's other rule; a line without a rule matches every
 * rule (none included); the names are the table's, a bad one is refused naming the allowed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rf_test.h"
#include "known_testlib.h"

int main(void) {
  /* Every rule has a name that reads back to itself; none is empty but NONE's. */
  for (unsigned i = 1; i < RF_RULE_COUNT; i++) {
    rf_rule r;
    CHECK(rf_rule_name((rf_rule)i)[0] != '\0');
    CHECK(rf_rule_parse(rf_rule_name((rf_rule)i), &r) == 0 && r == (rf_rule)i);
  }
  rf_rule r;
  CHECK(rf_rule_parse("", &r) != 0);
  char err[512] = "";
  rf_known *k = known_load_text("argmax/two wrong rule=tie-first\n"
                     "sum/x wrong signed-zero rule=signed-zero\n"
                     "max/y wrong\n", err, sizeof err);
  CHECK_MSG(k != NULL, "%s", err);
  CHECK(rf_known_count(k) == 3);
  /* One variant, two rules: the known one is left out, the other is not. */
  CHECK(rf_known_has_rule(k, "argmax/two", RF_V_WRONG, RF_DIST_TIES, RF_RULE_TIE_FIRST));
  CHECK(rf_known_has_rule(k, "argmax/two", RF_V_WRONG, RF_DIST_UNIFORM, RF_RULE_TIE_FIRST));
  CHECK(!rf_known_has_rule(k, "argmax/two", RF_V_WRONG, RF_DIST_NAN_SPRINKLED,
                           RF_RULE_NAN_PROPAGATES));
  CHECK(!rf_known_has_rule(k, "argmax/two", RF_V_WRONG, RF_DIST_TIES, RF_RULE_NONE));
  CHECK(!rf_known_has(k, "argmax/two", RF_V_WRONG, RF_DIST_TIES));   /* no rule: another one */
  /* dist and rule together: both must match. */
  CHECK(rf_known_has_rule(k, "sum/x", RF_V_WRONG, RF_DIST_SIGNED_ZERO, RF_RULE_SIGNED_ZERO));
  CHECK(!rf_known_has_rule(k, "sum/x", RF_V_WRONG, RF_DIST_ONES, RF_RULE_SIGNED_ZERO));
  CHECK(!rf_known_has_rule(k, "sum/x", RF_V_WRONG, RF_DIST_SIGNED_ZERO, RF_RULE_NONE));
  /* No rule named: every rule, none included. */
  CHECK(rf_known_has_rule(k, "max/y", RF_V_WRONG, RF_DIST_ONES, RF_RULE_NAN_IGNORED));
  CHECK(rf_known_has_rule(k, "max/y", RF_V_WRONG, RF_DIST_ONES, RF_RULE_NONE));
  CHECK(rf_known_has(k, "max/y", RF_V_WRONG, RF_DIST_WIDE));
  rf_known_free(k);
  known_refuses("sum/x wrong rule=nope\n", "'rule=nope' is not a contract rule (allowed: one rule=NAME, "
          "NAME one of signed-zero, nan-ignored");
  known_refuses("sum/x wrong rule=tie-first rule=tie-any\n", "'rule=tie-any' is not a contract rule");
  known_refuses("sum/x wrong rule=tie-first ones\n", "'ones' after the signature");
  known_refuses("sum/x wrong ones ties\n", "'ties' after the signature");
  known_refuses("sum/x wrong ones rule=tie-first x\n", "'x' after the signature");
  return rf_test_done();
}
