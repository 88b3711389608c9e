/* Known failure signatures (run/known.h): the file the fuzz target reads (REDFUZZ_KNOWN) to go
 * on past findings. A listed signature matches its variant, verdict and dist (or any dist when
 * the line names none) and nothing else; a bad line is refused with its file, line, the word
 * and what is allowed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rf_test.h"
#include "known_testlib.h"

int main(void) {
  char err[512] = "";
  rf_known *k = known_load_text("# a comment\n\n  sum/x wrong signed-zero\nmax/y nonfinite\n", err, sizeof err);
  CHECK_MSG(k != NULL, "%s", err);
  CHECK(rf_known_count(k) == 2);
  CHECK(rf_known_has(k, "sum/x", RF_V_WRONG, RF_DIST_SIGNED_ZERO));
  CHECK(!rf_known_has(k, "sum/x", RF_V_WRONG, RF_DIST_ONES));      /* another dist */
  CHECK(!rf_known_has(k, "sum/x", RF_V_OOB, RF_DIST_SIGNED_ZERO)); /* another verdict */
  CHECK(!rf_known_has(k, "sum/xx", RF_V_WRONG, RF_DIST_SIGNED_ZERO));
  CHECK(rf_known_has(k, "max/y", RF_V_NONFINITE, RF_DIST_ONES));   /* no dist: every dist */
  CHECK(rf_known_has(k, "max/y", RF_V_NONFINITE, RF_DIST_WIDE));
  CHECK(!rf_known_has(NULL, "max/y", RF_V_NONFINITE, RF_DIST_WIDE));
  rf_known_free(k);
  known_refuses("sum/x\n", ":1: 'sum/x' is not a signature (allowed: variant verdict [dist])");
  known_refuses("\nsum/x pass\n", ":2: verdict 'pass' is not a failure verdict");
  known_refuses("sum/x wrongg\n", "verdict 'wrongg' is not a failure verdict");
  known_refuses("sum/x wrong onez\n", "dist 'onez' is not a distribution");
  known_refuses("sum/x wrong ones extra\n", "'extra' after the signature");
  known_refuses("sumx wrong\n", "variant 'sumx' is not a variant name");
  k = known_load_text("", err, sizeof err);
  CHECK(k != NULL && rf_known_count(k) == 0);
  rf_known_free(k);
  CHECK(rf_known_load("/nonexistent/known", err, sizeof err) == NULL);
  CHECK(strstr(err, "/nonexistent/known: cannot read it") != NULL);
  return rf_test_done();
}
