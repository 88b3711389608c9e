/* Emulated IEEE rounding with MPFR (MPFR manual, "mpfr_subnormalize"): round to the format's
 * precision in the default (wide) exponent range, then narrow the exponent range to the
 * format's and let mpfr_check_range (overflow / whole underflow) and mpfr_subnormalize
 * (subnormal range) re-round using the ternary value of the first rounding, which is what
 * keeps the two steps from double rounding. The result is then exactly a float / double.
 * MPFR exponents are those of 0.1xxx * 2^e: binary32 has emin = -148 (2^-149 = 0.1 * 2^-148)
 * and emax = 128; binary64 has emin = -1073 and emax = 1024. */
#include "oracle/ieee_round.h"

static void round_ieee(mpfr_ptr t, mpfr_srcptr v, mpfr_exp_t emin, mpfr_exp_t emax) {
  int inex = mpfr_set(t, v, MPFR_RNDN);
  /* Exponent limits are per thread in a thread-safe MPFR build; restore the caller's. */
  mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  inex = mpfr_check_range(t, inex, MPFR_RNDN);
  mpfr_subnormalize(t, inex, MPFR_RNDN);
  mpfr_set_emin(old_emin);
  mpfr_set_emax(old_emax);
}

float rf_round_to_f32(mpfr_srcptr v) {
  MPFR_DECL_INIT(t, 24);
  round_ieee(t, v, -148, 128);
  return mpfr_get_flt(t, MPFR_RNDN);   /* exact: t is a binary32 value, inf or NaN */
}

double rf_round_to_f64(mpfr_srcptr v) {
  MPFR_DECL_INIT(t, 53);
  round_ieee(t, v, -1073, 1024);
  return mpfr_get_d(t, MPFR_RNDN);
}
