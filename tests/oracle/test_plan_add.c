/* rf_plan_add refuses a level of zero additions (and says so) instead of dropping it silently;
 * real levels are recorded in order; past the last slot they fold into it, depth preserved. */
#include "redfuzz/plan.h"
#include "rf_test.h"

int main(void) {
  rf_plan p = {0};
  CHECK(rf_plan_add(&p, RF_LEVEL_CHAIN, 4) == 0);
  CHECK(rf_plan_add(&p, RF_LEVEL_LDS, 0) == RF_PLAN_REFUSED);   /* refused, told */
  CHECK(p.n_levels == 1);                                       /* and not recorded */
  CHECK(rf_plan_add(&p, RF_LEVEL_WAVE, 5) == 0);
  CHECK(p.n_levels == 2 && p.level[1].kind == RF_LEVEL_WAVE && p.level[1].adds == 5);
  CHECK(rf_plan_depth(&p) == 9);
  for (int i = 0; i < 10; i++) CHECK(rf_plan_add(&p, RF_LEVEL_ATOMIC, 1) == 0);
  CHECK(p.n_levels == RF_PLAN_MAX_LEVELS);
  CHECK(rf_plan_depth(&p) == 19);   /* folded, not lost */
  CHECK(rf_plan_add(&p, RF_LEVEL_ATOMIC, 0) == RF_PLAN_REFUSED);
  CHECK(rf_plan_depth(&p) == 19);
  return rf_test_done();
}
