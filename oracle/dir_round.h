/* Directed rounding on top of round-to-nearest, for the bounds (bounds.c) and the double
 * softmax oracle (softmax_double.c). Private to oracle/.
 *
 * Every bound is an upper bound on a real number, computed in double with directed rounding
 * emulated by "round to nearest, then one step outward" (next_up / next_down). RN(a op b) is
 * within one ulp of the exact a op b, so one step outward encloses it. That is rigorous
 * whatever the compiler does with fesetround (GCC does not honour FENV_ACCESS), as long as
 * double operations are IEEE binary64 operations: FLT_EVAL_METHOD 0 or 1 and no fast-math
 * (the build passes -fno-fast-math). */
#ifndef RF_DIR_ROUND_H
#define RF_DIR_ROUND_H
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || (FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != 1)
#error "directed rounding needs double operations evaluated in binary64 (FLT_EVAL_METHOD 0 or 1)"
#endif

static inline double next_up(double x) {
  if (isnan(x) || x == INFINITY) return x;
  if (x == 0) return 0x1p-1074;
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  b = x > 0 ? b + 1 : b - 1;
  memcpy(&x, &b, sizeof b);
  return x;
}
static inline double next_down(double x) { return -next_up(-x); }
static inline double up_add(double a, double b) { return next_up(a + b); }
static inline double up_sub(double a, double b) { return next_up(a - b); }
static inline double up_mul(double a, double b) { return next_up(a * b); }
static inline double up_div(double a, double b) { return next_up(a / b); }
static inline double dn_add(double a, double b) { return next_down(a + b); }
static inline double dn_sub(double a, double b) { return next_down(a - b); }
static inline double dn_mul(double a, double b) { return next_down(a * b); }
static inline double dn_div(double a, double b) { return next_down(a / b); }
/* An integer count as a double that is not below it. */
static inline double up_count(uint64_t v) {
  double d = (double)v;
  return v > (UINT64_C(1) << 53) ? next_up(d) : d;
}
/* Cheaper upward steps in plain arithmetic (no branches, no integer moves, so loops over them
 * vectorise), each under a stated no-underflow condition. u = 2^-53.
 * up_step_pos: a double >= next_up(v) for v >= 2^-1022: v + 2^-52 v >= v + ulp(v), and RN is
 * monotone; v = 0 gives 0 (use it only where a zero is exact). */
static inline double up_step_pos(double v) { return v * (1 + 0x1p-52); }
/* up_mul_add_pos: an upper bound of a b + c for a, b, c >= 0 when a b is exactly 0 or
 * >= 2^-1022 and c >= 2^-1022: v = RN(RN(a b) + c) >= (a b + c) / (1 + u)^2 (an FMA, if the
 * compiler contracts, is closer still), and for normal v, RN(v (1 + 2^-51)) >=
 * v (1 + 2^-51)(1 - u) >= v (1 + u)^2. */
static inline double up_mul_add_pos(double a, double b, double c) {
  return (a * b + c) * (1 + 0x1p-51);
}
/* A lower bound of 1 - r for 0 <= r <= 1/2: 1 - RN(1 - r) is exact there (Sterbenz), so the
 * rounding is detected and only then stepped down (1 - 2^-53 stays exact). */
static inline double dn_one_minus(double r) {
  double q = 1.0 - r;
  return 1.0 - q == r ? q : next_down(q);
}
#endif
