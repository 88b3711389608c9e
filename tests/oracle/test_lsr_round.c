/* rf_lsr_round_t (oracle/log_row_math.h), the RN_t of the 16-bit log-op output rule that the
 * host and the device judge share, against model/dtype.c's rf_dtype_round (frexp, ldexp,
 * nearbyint: an independent computation of the same RN_t, which the host used before):
 *  - equal bits (sign of zero included) on every f16 and bf16 tie and its neighbours over
 *    every binade the types reach, the overflow thresholds, the types' subnormal ranges and
 *    double subnormals, and on 2^20 doubles of random bits;
 *  - a few values known by hand (ties to even, 65520 overflows f16, 65519.99 does not);
 *  - the comparison catches a planted error: ties rounded away from zero differ from the
 *    reference on a tie. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "model/dtype.h"
#include "oracle/log_row_math.h"
#include "rf_test.h"

static uint64_t bits_of(double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}

/* The planted error: ties away from zero (the reference's ties go to even). */
static double round_ties_away(uint32_t t, double x) {
  const double r = rf_lsr_round_t(t, x);
  const double o = rf_lsr_round_t(t, x + (x - r));   /* the other neighbour on a tie */
  return x - r == o - x && fabs(o) > fabs(r) ? o : r;
}

static int same(uint32_t t, double x) {
  return bits_of(rf_lsr_round_t(t, x)) == bits_of(rf_dtype_round((rf_dtype)t, x));
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

int main(void) {
  long bad = 0, tried = 0, planted_caught = 0;
  for (uint32_t t = 1; t <= 2; t++) {
    const int p = t == 2 ? 8 : 11;
    for (int e = -160; e <= 130; e++) {   /* every binade of both types, and beyond */
      const int q = (e < (t == 2 ? -126 : -14) ? (t == 2 ? -126 : -14) : e) - (p - 1);
      for (int k = 0; k < 64; k++) {
        /* a tie between two multiples of 2^q in binade e, and its neighbours */
        const double tie = ldexp(1.0, e) + ldexp((double)(2 * k + 1), q - 1);
        const double cand[] = {tie, nextafter(tie, 0), nextafter(tie, INFINITY), -tie};
        for (int c = 0; c < 4; c++) {
          tried++;
          bad += !same(t, cand[c]);
        }
        if (bits_of(round_ties_away(t, tie)) != bits_of(rf_dtype_round((rf_dtype)t, tie)))
          planted_caught++;
      }
    }
    const double edge[] = {0.0, -0.0, 65504.0, 65519.99, 65520.0, -65520.0, 65536.0,
                           0x1.fep127, 0x1.ffp127, 0x1.fefffffffffffp127, 0x1p-24, 0x1p-25,
                           0x1.0000000000001p-25, 0x1p-133, 0x1p-134, 0x1.0000000000001p-134,
                           0x1p-1074, -0x1p-1030, 1e300, -1e300, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
      tried++;
      bad += !same(t, edge[i]);
    }
  }
  for (long i = 0; i < (1L << 20); i++) {
    double x;
    uint64_t b = next_rand();
    memcpy(&x, &b, sizeof x);
    if (isnan(x)) continue;
    for (uint32_t t = 1; t <= 2; t++) {
      tried++;
      bad += !same(t, x);
    }
  }
  CHECK_MSG(bad == 0, "%ld of %ld values differ from rf_dtype_round", bad, tried);
  CHECK(isnan(rf_lsr_round_t(1, NAN)) && isnan(rf_lsr_round_t(2, NAN)));
  CHECK(rf_lsr_round_t(1, 1 + 0x1p-11) == 1.0);                         /* tie to even */
  CHECK(rf_lsr_round_t(1, 1 + 3 * 0x1p-11) == 1 + 0x1p-9);              /* tie to even, up */
  CHECK(rf_lsr_round_t(1, 65519.99) == 65504.0);
  CHECK(rf_lsr_round_t(1, 65520.0) == INFINITY && rf_lsr_round_t(1, -65520.0) == -INFINITY);
  CHECK(rf_lsr_round_t(2, 1 + 0x1p-8) == 1.0 && rf_lsr_round_t(2, 0x1.ffp127) == INFINITY);
  CHECK(rf_lsr_round_t(1, 0x1p-25) == 0.0 && rf_lsr_round_t(1, 0x1.0000000000001p-25) == 0x1p-24);
  CHECK(bits_of(rf_lsr_round_t(1, -0x1p-30)) == bits_of(-0.0));
  CHECK_MSG(planted_caught > 100, "ties away from zero differed on %ld ties", planted_caught);
  return rf_test_done();
}
