/* γ_h against its exact value (MPFR), its monotonicity and its infinite range; plan depth,
 * saturation and the text form. */
#include <math.h>
#include <stdio.h>   /* before mpfr.h */
#include <string.h>
#include <mpfr.h>
#include "oracle/bounds.h"
#include "redfuzz/plan.h"
#include "model/case.h"
#include "rf_test.h"

/* γ_h must be an upper bound of h u / (1 - h u) and no more than 2^-50 above it. */
static int gamma_ok(uint64_t h) {
  mpfr_t num, den, q, g;
  mpfr_inits2(200, num, den, q, g, (mpfr_ptr)0);
  mpfr_set_ui(num, 1, MPFR_RNDN);
  mpfr_mul_2si(num, num, -24, MPFR_RNDN);
  mpfr_mul_ui(num, num, (unsigned long)h, MPFR_RNDN);  /* exact */
  mpfr_ui_sub(den, 1, num, MPFR_RNDN);                  /* exact */
  mpfr_div(q, num, den, MPFR_RNDN);                     /* 2^-200 relative */
  mpfr_set_d(g, rf_gamma(h), MPFR_RNDN);
  int above = mpfr_cmp(g, q) > 0;
  mpfr_sub(g, g, q, MPFR_RNDN);
  mpfr_div(g, g, q, MPFR_RNDN);
  int tight = mpfr_cmp_d(g, 0x1p-50) <= 0;
  mpfr_clears(num, den, q, g, (mpfr_ptr)0);
  return above && tight;
}

static void test_gamma(void) {
  CHECK(rf_gamma(0) == 0);
  for (uint64_t h = 1; h <= 4096; h++) CHECK_MSG(gamma_ok(h), "h=%llu", (unsigned long long)h);
  const uint64_t big[] = {65535, 65544, 1u << 20, 12345678, (1u << 24) - 2, (1u << 24) - 1};
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
    CHECK_MSG(gamma_ok(big[i]), "h=%llu", (unsigned long long)big[i]);
  /* γ_1 = u/(1-u) is just above u; γ_(2^24-1) = 2^24 - 1. */
  CHECK(rf_gamma(1) > 0x1p-24 && rf_gamma(1) < 0x1p-24 * (1 + 0x1p-23));
  CHECK(rf_gamma((1u << 24) - 1) >= 16777215.0 && rf_gamma((1u << 24) - 1) < 16777216.0);
  /* Strictly increasing. */
  int mono = 1;
  for (uint64_t h = 0; h < 100000; h++) mono &= rf_gamma(h + 1) > rf_gamma(h);
  for (uint64_t h = 100000; h + 1 < (1u << 24); h += 9973) mono &= rf_gamma(h + 1) > rf_gamma(h);
  CHECK(mono);
  /* h u >= 1: no bound. */
  CHECK(isinf(rf_gamma(1u << 24)));
  CHECK(isinf(rf_gamma((1u << 24) + 1)));
  CHECK(isinf(rf_gamma(UINT64_MAX)));
}

static void test_plan(void) {
  rf_plan p;
  memset(&p, 0, sizeof p);
  char buf[128];
  rf_plan_format(&p, buf, sizeof buf);
  CHECK(strcmp(buf, "none (h=0)") == 0);
  CHECK(rf_plan_depth(&p) == 0);

  rf_plan_add(&p, RF_LEVEL_CHAIN, 4);
  rf_plan_add(&p, RF_LEVEL_WAVE, 5);
  rf_plan_add(&p, RF_LEVEL_LDS, 0);  /* ignored */
  rf_plan_add(&p, RF_LEVEL_LDS, 3);
  rf_plan_add(&p, RF_LEVEL_ATOMIC, 64);
  CHECK(p.n_levels == 4);
  CHECK(rf_plan_depth(&p) == 76);
  rf_plan_format(&p, buf, sizeof buf);
  CHECK_MSG(strcmp(buf, "chain 4 > wave 5 > lds 3 > atomic 64 (h=76)") == 0, "%s", buf);

  p.rescales = 3;
  p.div = RF_DIV_RECIP_MUL;
  rf_plan_add(&p, RF_LEVEL_SECOND_KERNEL, 1);
  rf_plan_add(&p, RF_LEVEL_HOST, 2);
  rf_plan_format(&p, buf, sizeof buf);
  CHECK_MSG(strcmp(buf, "chain 4 > wave 5 > lds 3 > atomic 64 > kernel2 1 > host 2 "
                        "(h=79, rescales=3, div=recip-mul)") == 0, "%s", buf);

  /* Truncation: always terminated, never past len. */
  char small[16];
  memset(small, 'X', sizeof small);
  rf_plan_format(&p, small, 10);
  CHECK(strlen(small) == 9 && small[10] == 'X');
  rf_plan_format(&p, small, 0);  /* writes nothing */
  CHECK(small[0] == 'c');

  /* More levels than fit: folded into the last, so the depth stays the sum. */
  rf_plan q;
  memset(&q, 0, sizeof q);
  uint64_t want = 0;
  for (uint64_t i = 1; i <= 12; i++) {
    rf_plan_add(&q, RF_LEVEL_LDS, i);
    want += i;
  }
  CHECK(q.n_levels == RF_PLAN_MAX_LEVELS);
  CHECK(rf_plan_depth(&q) == want);

  /* The depth saturates instead of wrapping to a small (unsafe) number. */
  rf_plan s;
  memset(&s, 0, sizeof s);
  rf_plan_add(&s, RF_LEVEL_ATOMIC, UINT64_MAX - 1);
  rf_plan_add(&s, RF_LEVEL_HOST, 5);
  CHECK(rf_plan_depth(&s) == UINT64_MAX);
  CHECK(isinf(rf_gamma(rf_plan_depth(&s))));
}

/* The plan rules hold every size the case model does (2^34, RF_CASE_MAX_N): a one-level
 * atomic sum at n = 2^32 + 3 is an honest plan (it was refused as a broken one, a
 * launch-error on the GPU); one more add than any case has inputs is still refused. */
static void test_plan_check_sizes(void) {
  char why[160];
  rf_plan p;
  memset(&p, 0, sizeof p);
  rf_plan_add(&p, RF_LEVEL_ATOMIC, (UINT64_C(1) << 32) + 3);
  CHECK(rf_plan_check(&p, why, sizeof why) == 0);
  memset(&p, 0, sizeof p);
  rf_plan_add(&p, RF_LEVEL_ATOMIC, RF_CASE_MAX_N);
  CHECK(rf_plan_check(&p, why, sizeof why) == 0);
  memset(&p, 0, sizeof p);
  rf_plan_add(&p, RF_LEVEL_ATOMIC, RF_CASE_MAX_N + 1);
  CHECK(rf_plan_check(&p, why, sizeof why) != 0 && strstr(why, "level 0 has adds"));
}

int main(void) {
  test_gamma();
  test_plan();
  test_plan_check_sizes();
  return rf_test_done();
}
