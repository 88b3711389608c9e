/* Flushing float atomics (NVIDIA: PTX atom.add.f32 flushes subnormal inputs and results):
 * the model's bound covers a sum whose atomic merges flush, and nothing above it; inputs
 * that are multiples of 2^-126 keep the exact (zero) bound because nothing can flush. */
#include <math.h>
#include <string.h>
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "rf_test.h"

static float ftz(float v) { return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v; }

int main(void) {
  /* G blocks each sum B subnormal inputs exactly (subnormal additions are exact), then
   * merge by flushing atomics into a zeroed accumulator. */
  enum { G = 64, B = 32 };
  float x[G * B];
  for (int i = 0; i < G * B; i++) x[i] = ((i % 5) + 1) * 0x1p-140f * ((i % 3) ? 1 : -1);
  float acc = 0.0f;
  for (int g = 0; g < G; g++) {
    float part = 0.0f;
    for (int k = 0; k < B; k++) part += x[g * B + k];
    acc = ftz(acc + ftz(part));
  }
  rf_xsum xs;
  rf_xsum_init(&xs);
  rf_xsum_add(&xs, x, G * B);
  double err = rf_xsum_abs_err_up(&xs, acc);
  rf_sum_facts f;
  rf_sum_facts_compute(x, G * B, &f);
  rf_plan p = {0};
  rf_plan_add(&p, RF_LEVEL_CHAIN, B);
  rf_plan_add(&p, RF_LEVEL_ATOMIC, G);
  rf_sum_bound ieee, flushing;
  rf_bound_sum(&p, &f, &ieee);
  rf_bound_sum_model(&p, &f, &RF_SUM_ATOMIC_FTZ, &flushing);
  CHECK_MSG(err > 0, "the flushed sum must differ from the exact one (err %g)", err);
  CHECK_MSG(ieee.exact && ieee.bound == 0, "IEEE model: exact data, bound 0");
  CHECK_MSG(!rf_sum_within(&ieee, err), "IEEE model reports the flushed result");
  CHECK_MSG(rf_sum_within(&flushing, err), "FTZ model covers it: err %g bound %g", err,
            flushing.bound);
  CHECK(!flushing.exact);
  /* The extra term is G * 2^-125 (plus γ_h of it): not far above the real error. */
  CHECK(flushing.bound >= G * 0x1p-125 && flushing.bound < 2 * G * 0x1p-125);
  CHECK(!rf_sum_within(&flushing, nextafter(flushing.bound, INFINITY)));
  /* Without atomic levels the model changes nothing. */
  rf_plan tree = {0};
  rf_plan_add(&tree, RF_LEVEL_LDS, 11);
  rf_sum_bound t1, t2;
  rf_bound_sum(&tree, &f, &t1);
  rf_bound_sum_model(&tree, &f, &RF_SUM_ATOMIC_FTZ, &t2);
  CHECK(t1.bound == t2.bound && t1.exact == t2.exact);
  /* Normal inputs (multiples of 2^-126): nothing flushes, ones stay exact. */
  float ones[1027];
  for (int i = 0; i < 1027; i++) ones[i] = 1.0f;
  rf_sum_facts fo;
  rf_sum_facts_compute(ones, 1027, &fo);
  rf_bound_sum_model(&p, &fo, &RF_SUM_ATOMIC_FTZ, &t2);
  CHECK(t2.exact && t2.bound == 0);
  return rf_test_done();
}
