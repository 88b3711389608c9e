/* The softmax bound of a kernel that declares the fast exp (rf_plan.exp = RF_EXP_FAST) is
 * derived from that exp's error model: rows computed with an emulation of the target's
 * __expf (exp2f(RN(d * RN(log2 e))), subnormal results flushed; the simulator's
 * sim/sim_port.h) pass under the gfx1201 and the CUDA fast models, over random rows whose
 * spans reach the model's 88 cap; the same results judged as if the library expf had been
 * declared fail on some row (the declaration matters); and a kernel whose exp exceeds its
 * declaration (__expf(x) * __expf(-m): the error follows |x| + |m|, not |x - m|) fails on rows
 * far from 0 with a narrow span. The exact y comes from MPFR at 200 bits, rounded to double
 * (given to the bound with y_rel = 2^-52). */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <string.h>
#include "oracle/bounds.h"
#include "rf_test.h"

#define CMAX 512
static float x[CMAX], y[CMAX];
static double yex[CMAX], rel[CMAX];

static float flush(float r) { return fabsf(r) < FLT_MIN ? copysignf(0.0f, r) : r; }
static float fast_exp(float d) { return flush(exp2f(d * 0x1.715476p+0f)); }

static void exact(uint32_t C) {
  mpfr_t s, t, m;
  mpfr_inits2(200, s, t, m, (mpfr_ptr)0);
  float mx = -INFINITY;
  for (uint32_t j = 0; j < C; j++) mx = x[j] > mx ? x[j] : mx;
  mpfr_set_zero(s, 1);
  for (uint32_t j = 0; j < C; j++) {
    mpfr_set_d(t, (double)x[j] - (double)mx, MPFR_RNDN); /* exact: floats within 2^8 */
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
  }
  for (uint32_t j = 0; j < C; j++) {
    mpfr_set_d(t, (double)x[j] - (double)mx, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_div(m, t, s, MPFR_RNDN);
    yex[j] = mpfr_get_d(m, MPFR_RNDN);
  }
  mpfr_clears(s, t, m, (mpfr_ptr)0);
}

/* Sequential 3-pass softmax with exp(x_j, m) = mode 0: fast_exp(x_j - m); 1: factored. */
static void kernel(uint32_t C, int mode) {
  float m = -INFINITY, s = 0;
  for (uint32_t j = 0; j < C; j++) m = fmaxf(m, x[j]);
  for (uint32_t j = 0; j < C; j++) s += mode ? fast_exp(x[j]) * fast_exp(-m) : fast_exp(x[j] - m);
  for (uint32_t j = 0; j < C; j++)
    y[j] = (mode ? fast_exp(x[j]) * fast_exp(-m) : fast_exp(x[j] - m)) / s;
}

/* 1 when every element is within the bound of plan (a sequential chain over C) under em. */
static int row_passes(uint32_t C, const rf_exp_model *em, rf_exp_kind declared) {
  rf_plan p;
  memset(&p, 0, sizeof p);
  rf_plan_add(&p, RF_LEVEL_CHAIN, C);
  p.exp = declared;
  rf_softmax_bound b = {.rel = rel};
  rf_bound_softmax_row_rel(&p, em, x, C, yex, 0x1p-52, 0, &b);
  for (uint32_t j = 0; j < C; j++)
    if (!rf_softmax_within(&b, j, y[j], yex[j])) return 0;
  return 1;
}

static uint64_t st = 7;
static double unit(void) {
  st += 0x9e3779b97f4a7c15ull;
  uint64_t z = st;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

int main(void) {
  int honest_fail = 0, undeclared_caught = 0, rows = 0;
  for (int r = 0; r < 400; r++) {
    uint32_t C = 1 + (uint32_t)(unit() * CMAX);
    double span = (r % 4 == 0) ? 100.0 : (r % 4 == 1) ? 30.0 : (r % 4 == 2) ? 5.0 : 0.5;
    double base = (unit() - 0.5) * 100.0;
    for (uint32_t j = 0; j < C; j++) x[j] = (float)(base - span * unit());
    exact(C);
    kernel(C, 0);
    rows++;
    if (!row_passes(C, &RF_EXP_GFX1201_FAST, RF_EXP_FAST)) honest_fail++;
    if (!row_passes(C, &RF_EXP_CUDA_FAST, RF_EXP_FAST)) honest_fail++;
    if (!row_passes(C, &RF_EXP_HOST_LIBM, RF_EXP_ACCURATE)) undeclared_caught++;
  }
  CHECK_MSG(honest_fail == 0, "%d of %d honest fast-exp rows outside the fast bound", honest_fail,
            2 * rows);
  CHECK_MSG(undeclared_caught > 0, "no row of %d fails when the library expf is declared", rows);
  printf("honest fast exp: %d rows pass both fast models; declared as expf: %d fail\n", rows,
         undeclared_caught);

  /* Exceeding the declaration: short rows near +-80 with a span of 1 (the shared __expf(-m)
   * cancels in e_j / S; the __expf(x_j) errors, up to ~100 ulps each, do not). */
  int factored_caught = 0;
  for (int r = 0; r < 20; r++) {
    uint32_t C = 4;
    double base = (r & 1 ? 80.0 : -80.0) + unit();
    for (uint32_t j = 0; j < C; j++) x[j] = (float)(base - unit());
    exact(C);
    kernel(C, 1);
    if (!row_passes(C, &RF_EXP_GFX1201_FAST, RF_EXP_FAST)) factored_caught++;
  }
  CHECK_MSG(factored_caught >= 10, "__expf(x) * __expf(-m) caught on only %d of 20 rows",
            factored_caught);
  printf("__expf(x) * __expf(-m) declared fast: caught on %d of 20 rows\n", factored_caught);
  return rf_test_done();
}
