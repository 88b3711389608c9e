/* Internal to the oracle: one correct rounding of an MPFR value to IEEE binary32 / binary64,
 * round to nearest even, with gradual underflow (subnormals) and overflow to inf. */
#ifndef RF_IEEE_ROUND_H
#define RF_IEEE_ROUND_H
#include <mpfr.h>
#ifdef __cplusplus
extern "C" {
#endif

float rf_round_to_f32(mpfr_srcptr v);
double rf_round_to_f64(mpfr_srcptr v);

#ifdef __cplusplus
}
#endif
#endif
