/* Shared by the oracle tests: a seeded generator and float constructors, so that every test
 * sees the same inputs on every machine. */
#ifndef RF_ORACLE_TESTLIB_H
#define RF_ORACLE_TESTLIB_H
#include <stdint.h>
#include <string.h>

/* splitmix64 (Steele, Lea, Flood 2014: "Fast splittable pseudorandom number generators"). */
static inline uint64_t tl_next(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static inline uint32_t tl_below(uint64_t *state, uint32_t n) {
  return (uint32_t)(tl_next(state) % n);
}

static inline float tl_from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static inline uint32_t tl_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

/* Any finite float: random sign, biased exponent in [e_lo, e_hi] (0 = subnormal), mantissa. */
static inline float tl_float_exp(uint64_t *state, uint32_t e_lo, uint32_t e_hi) {
  uint64_t r = tl_next(state);
  uint32_t e = e_lo + (uint32_t)((r >> 32) % (e_hi - e_lo + 1));
  return tl_from_bits((uint32_t)(r & 0x807fffffu) | (e << 23));
}
#endif
