/* A 16-bit sum's reported bound does not depend on what the variant returned (run/judge.c,
 * rf_judge_sum_exact_typed): for the same case, a finite output in range and an accepted
 * overflow (+inf, where partial sums may overflow) report the same bound, the output type's
 * (rf_bound_sum_output). Before, the accepted overflow kept the float32 bound, so the GPU's
 * host and device pipelines reported different bounds for one bf16 case whose atomics had
 * overflowed in one run and not in the other. */
#include <math.h>
#include <string.h>
#include "rf_test.h"
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "run/judge.h"

int main(void) {
  /* Terms near FLT_MAX of alternating signs: the exact sum (~3e37) is finite in float32 and
   * bf16, and an order that adds the positive terms first overflows. */
  float x[64];
  for (int i = 0; i < 64; i++) x[i] = (i % 2 ? -1.0f : 1.0f) * 0x1.8p127f * (1.0f - 0.0137f * (float)i + 1e-7f * (float)(i * i));
  rf_xsum xs;
  rf_xsum_init(&xs);
  rf_xsum_add(&xs, x, 64);
  rf_sum_facts f;
  rf_sum_facts_compute(x, 64, &f);
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.n_levels = 1;
  plan.level[0].kind = RF_LEVEL_CHAIN;
  plan.level[0].adds = 64;
  const rf_dtype types[] = {RF_DTYPE_BF16};   /* f16 cannot hold the sum itself */
  CHECK(isfinite(rf_xsum_round_f32(&xs)));
  for (int k = 0; k < 1; k++) {
    rf_sum_bound b;
    rf_bound_sum_model(&plan, &f, &RF_SUM_IEEE, &b);
    CHECK(b.overflow_possible);
    rf_sum_out_range rg;
    rf_bound_sum_output(&b, rf_xsum_round_f64(&xs), types[k], &rg);
    rf_result fin, inf;
    memset(&fin, 0, sizeof fin);
    memset(&inf, 0, sizeof inf);
    rf_judge_sum_exact_typed(&xs, &f, &plan, &RF_SUM_IEEE, types[k], 0, rf_xsum_round_f32(&xs), &fin);
    rf_judge_sum_exact_typed(&xs, &f, &plan, &RF_SUM_IEEE, types[k], 0, INFINITY, &inf);
    CHECK_MSG(inf.verdict == RF_V_PASS, "an overflow where partial sums may overflow: %d", inf.verdict);
    CHECK_MSG(fin.bound == rg.bound && inf.bound == rg.bound,
              "type %d: bound %.17g for a finite output, %.17g for +inf, the type's %.17g", k,
              fin.bound, inf.bound, rg.bound);
    CHECK(!b.exact && isfinite(rg.bound) && rg.bound > 1e30 && rg.bound != b.bound);   /* else the check could not tell them apart */
  }
  return rf_test_done();
}
