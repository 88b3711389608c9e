/* The oracle's one-step rounding of an MPFR value to binary32 / binary64 (oracle/ieee_round.h)
 * against an independent construction: scale by the ulp of the target (limited below by the
 * subnormal ulp), round to an integer with ties to even (mpfr_rint), scale back, and overflow
 * from 2^emax. Hand-picked ties in the subnormal range and at the overflow threshold, random
 * values, and exact midpoints at every exponent. */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include "oracle/ieee_round.h"
#include "rf_test.h"
#include "oracle_testlib.h"

#define WIDE 256

typedef struct { int prec, min_q, max_e; } format;  /* significand bits, 2^min_q, 2^max_e */
static const format F32 = {24, -149, 128}, F64 = {53, -1074, 1024};

/* The reference rounding of v, as an MPFR value (inf on overflow). */
static void reference_round(mpfr_t out, mpfr_srcptr v, format f) {
  mpfr_set_prec(out, WIDE);
  if (!mpfr_regular_p(v)) {
    mpfr_set(out, v, MPFR_RNDN);
    return;
  }
  long q = mpfr_get_exp(v) - f.prec;          /* ulp of a normal with v's exponent */
  if (q < f.min_q) q = f.min_q;
  mpfr_mul_2si(out, v, -q, MPFR_RNDN);        /* exact */
  mpfr_rint(out, out, MPFR_RNDN);             /* ties to even */
  mpfr_mul_2si(out, out, q, MPFR_RNDN);
  if (mpfr_zero_p(out)) mpfr_setsign(out, out, mpfr_signbit(v), MPFR_RNDN);
  else if (mpfr_get_exp(out) > f.max_e) mpfr_set_inf(out, mpfr_sgn(v));   /* >= 2^max_e */
}

static int agrees_f32(mpfr_srcptr v) {
  mpfr_t r;
  mpfr_init2(r, WIDE);
  reference_round(r, v, F32);
  float want = mpfr_get_flt(r, MPFR_RNDN);    /* exact: r is a binary32 value */
  mpfr_clear(r);
  float got = rf_round_to_f32(v);
  return tl_bits(got) == tl_bits(want) || (isnan(got) && isnan(want));
}

static int agrees_f64(mpfr_srcptr v) {
  mpfr_t r;
  mpfr_init2(r, WIDE);
  reference_round(r, v, F64);
  double want = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(r);
  double got = rf_round_to_f64(v);
  return memcmp(&got, &want, sizeof got) == 0 || (isnan(got) && isnan(want));
}

/* v = k * 2^e exactly. */
static void set_scaled(mpfr_t v, long k, long e) {
  mpfr_set_si(v, k, MPFR_RNDN);
  mpfr_mul_2si(v, v, e, MPFR_RNDN);
}

static void test_hand_cases(void) {
  mpfr_t v;
  mpfr_init2(v, WIDE);
  set_scaled(v, 1, -150);                               /* half the smallest subnormal: 0 */
  CHECK(tl_bits(rf_round_to_f32(v)) == 0);
  set_scaled(v, -1, -150);
  CHECK(tl_bits(rf_round_to_f32(v)) == 0x80000000u);    /* -0 */
  mpfr_set_ui_2exp(v, 1, -150, MPFR_RNDN);
  mpfr_nextabove(v);                                    /* just above: the smallest */
  CHECK(rf_round_to_f32(v) == 0x1p-149f);
  set_scaled(v, 3, -150);                               /* 1.5 ulp: to 2 (even) */
  CHECK(rf_round_to_f32(v) == 0x1p-148f);
  set_scaled(v, 5, -151);                               /* 1.25 ulp */
  CHECK(rf_round_to_f32(v) == 0x1p-149f);
  set_scaled(v, (1L << 24) - 1, -150);                  /* (2^23 - 1/2) ulp: to 2^-126 */
  CHECK(rf_round_to_f32(v) == 0x1p-126f);
  set_scaled(v, (1L << 24) - 3, -150);                  /* (2^23 - 3/2) ulp: to even 2^23-2 */
  CHECK(tl_bits(rf_round_to_f32(v)) == 0x007ffffeu);
  set_scaled(v, (1L << 25) - 1, 103);                   /* 2^128 (1 - 2^-25): overflow */
  CHECK(rf_round_to_f32(v) == INFINITY);
  mpfr_nextbelow(v);
  CHECK(rf_round_to_f32(v) == FLT_MAX);
  set_scaled(v, -((1L << 25) - 1), 103);
  CHECK(rf_round_to_f32(v) == -INFINITY);
  set_scaled(v, 1, 200);
  CHECK(rf_round_to_f32(v) == INFINITY && rf_round_to_f64(v) == 0x1p200);
  set_scaled(v, 1, -1075);                              /* binary64: half the smallest */
  CHECK(rf_round_to_f64(v) == 0.0);
  set_scaled(v, 3, -1075);
  CHECK(rf_round_to_f64(v) == 0x1p-1073);
  set_scaled(v, (1L << 54) - 1, 970);                   /* 2^1024 (1 - 2^-54): overflow */
  CHECK(rf_round_to_f64(v) == INFINITY);
  mpfr_nextbelow(v);
  CHECK(rf_round_to_f64(v) == DBL_MAX);
  mpfr_set_nan(v);
  CHECK(isnan(rf_round_to_f32(v)) && isnan(rf_round_to_f64(v)));
  mpfr_set_inf(v, -1);
  CHECK(rf_round_to_f32(v) == -INFINITY && rf_round_to_f64(v) == -INFINITY);
  mpfr_set_zero(v, -1);
  CHECK(tl_bits(rf_round_to_f32(v)) == 0x80000000u);
  mpfr_clear(v);
}

/* The reference is able to disagree: a value one ulp off is caught. */
static void test_reference_is_sensitive(void) {
  mpfr_t v, r;
  mpfr_inits2(WIDE, v, r, (mpfr_ptr)0);
  set_scaled(v, 3, -150);
  reference_round(r, v, F32);
  CHECK(mpfr_get_flt(r, MPFR_RNDN) == 0x1p-148f);
  CHECK(rf_round_to_f32(v) != 0x1p-149f);
  mpfr_clears(v, r, (mpfr_ptr)0);
}

/* Random values over both formats' ranges, and exact midpoints between neighbours. */
static void test_random_and_midpoints(void) {
  uint64_t st = 4242;
  mpfr_t v;
  mpfr_init2(v, WIDE);
  int bad32 = 0, bad64 = 0;
  for (int i = 0; i < 40000; i++) {
    int kind = i % 4;
    if (kind < 2) {                                     /* random 100-bit significand */
      mpfr_set_ui(v, (unsigned long)(tl_next(&st) >> 14), MPFR_RNDN);
      mpfr_mul_2ui(v, v, 50, MPFR_RNDN);
      mpfr_add_ui(v, v, (unsigned long)(tl_next(&st) >> 14), MPFR_RNDN);
      long e = kind == 0 ? -260 + (long)tl_below(&st, 420) : -1200 + (long)tl_below(&st, 2300);
      mpfr_mul_2si(v, v, e - 100, MPFR_RNDN);
    } else {                                            /* (2k + 1) * 2^(q - 1): a tie */
      int f64 = kind == 3;
      long bits = f64 ? 53 : 24;
      long q = f64 ? -1074 + (long)tl_below(&st, 2100) : -149 + (long)tl_below(&st, 280);
      long k = (long)(tl_next(&st) >> (64 - bits - 1));
      set_scaled(v, 2 * k + 1, q - 1);
    }
    if (tl_next(&st) & 1) mpfr_neg(v, v, MPFR_RNDN);
    if (!agrees_f32(v)) bad32++;
    if (!agrees_f64(v)) bad64++;
  }
  CHECK_MSG(bad32 == 0, "%d binary32 roundings differ", bad32);
  CHECK_MSG(bad64 == 0, "%d binary64 roundings differ", bad64);
  mpfr_clear(v);
}

static void test_exponent_range_restored(void) {
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_t v;
  mpfr_init2(v, 64);
  mpfr_set_ui_2exp(v, 1, -140, MPFR_RNDN);
  (void)rf_round_to_f32(v);
  (void)rf_round_to_f64(v);
  CHECK(mpfr_get_emin() == emin && mpfr_get_emax() == emax);
  mpfr_clear(v);
}

int main(void) {
  test_hand_cases();
  test_reference_is_sensitive();
  test_random_and_midpoints();
  test_exponent_range_restored();
  return rf_test_done();
}
