/* Error tracking shared by the MPFR row oracles (softmax_oracle.c, logsumexp_oracle.c): a value
 * v computed at working precision p carries an error bound err, and the oracle raises p until
 * v's rounding to the output format is certain. */
#ifndef RF_MPFR_INTERVAL_H
#define RF_MPFR_INTERVAL_H
#include <mpfr.h>
#include "oracle/ieee_round.h"

/* err += two_u |v|, rounded up (two_u = 2^(1-p): one rounding of v at precision p). tmp is
 * scratch of any precision. */
static inline void rf_mpfr_add_rounding_error(mpfr_ptr err, mpfr_srcptr v, mpfr_srcptr two_u,
                                              mpfr_ptr tmp) {
  mpfr_mul(tmp, v, two_u, MPFR_RNDU);
  mpfr_abs(tmp, tmp, MPFR_RNDU);
  mpfr_add(err, err, tmp, MPFR_RNDU);
}

/* 1 when every real within err of v rounds to the same binary64 as v (and, with also_f32, the
 * same binary32); ±0 count as one (the comparison is ==). lo and hi are scratch of v's
 * precision. */
static inline int rf_mpfr_rounding_is_certain(mpfr_srcptr v, mpfr_srcptr err, mpfr_ptr lo,
                                              mpfr_ptr hi, int also_f32) {
  if (mpfr_zero_p(err)) return 1;
  if (!mpfr_zero_p(v) &&
      mpfr_can_round(v, mpfr_get_exp(v) - mpfr_get_exp(err), MPFR_RNDN, MPFR_RNDZ, 54))
    return 1;
  mpfr_sub(lo, v, err, MPFR_RNDD);
  mpfr_add(hi, v, err, MPFR_RNDU);
  return rf_round_to_f64(lo) == rf_round_to_f64(hi) &&
         (!also_f32 || rf_round_to_f32(lo) == rf_round_to_f32(hi));
}
#endif
