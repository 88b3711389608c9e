/* Directed rounding on top of round-to-nearest, for the bounds (bounds.c), the double
 * softmax oracle (softmax_double.c) and their device twins (kernels/harness/softmax_device.hip,
 * through softmax_row_math.h): every function is host and device code there (RF_DR).
 *
 * On the device, compilers contract a * b + c into one fused operation unless told not to;
 * nothing here is hurt by that: every product below passes through next_up / next_down (a bit
 * operation, which no contraction crosses) before it is added, and up_mul_add_pos allows a
 * fused a b + c by its own argument. Only the device must not flush subnormal doubles (no GPU
 * of ours does for binary64).
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

#if defined(__HIPCC__) || defined(__CUDACC__) || (defined(RF_SIM) && defined(__cplusplus))
#define RF_DR __host__ __device__ static inline
#else
#define RF_DR static inline
#endif

#if !defined(FLT_EVAL_METHOD) || (FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != 1)
#error "directed rounding needs double operations evaluated in binary64 (FLT_EVAL_METHOD 0 or 1)"
#endif

RF_DR double next_up(double x) {
  if (x != x || x == INFINITY) return x;   /* NaN, +inf */
  if (x == 0) return 0x1p-1074;
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  b = x > 0 ? b + 1 : b - 1;
  memcpy(&x, &b, sizeof b);
  return x;
}
RF_DR double next_down(double x) { return -next_up(-x); }
RF_DR double up_add(double a, double b) { return next_up(a + b); }
RF_DR double up_sub(double a, double b) { return next_up(a - b); }
RF_DR double up_mul(double a, double b) { return next_up(a * b); }
RF_DR double up_div(double a, double b) { return next_up(a / b); }
RF_DR double dn_add(double a, double b) { return next_down(a + b); }
RF_DR double dn_sub(double a, double b) { return next_down(a - b); }
RF_DR double dn_mul(double a, double b) { return next_down(a * b); }
RF_DR double dn_div(double a, double b) { return next_down(a / b); }
/* An integer count as a double that is not below it. */
RF_DR double up_count(uint64_t v) {
  double d = (double)v;
  return v > (UINT64_C(1) << 53) ? next_up(d) : d;
}
/* Cheaper upward steps in plain arithmetic (no branches, no integer moves, so loops over them
 * vectorise), each under a stated no-underflow condition. u = 2^-53.
 * up_step_pos: a double >= next_up(v) for v >= 2^-1022: v + 2^-52 v >= v + ulp(v), and RN is
 * monotone; v = 0 gives 0 (use it only where a zero is exact). */
RF_DR double up_step_pos(double v) { return v * (1 + 0x1p-52); }
/* up_mul_add_pos: an upper bound of a b + c for a, b, c >= 0 when a b is exactly 0 or
 * >= 2^-1022 and c >= 2^-1022: v = RN(RN(a b) + c) >= (a b + c) / (1 + u)^2 (an FMA, if the
 * compiler contracts, is closer still), and for normal v, RN(v (1 + 2^-51)) >=
 * v (1 + 2^-51)(1 - u) >= v (1 + u)^2. */
RF_DR double up_mul_add_pos(double a, double b, double c) {
  return (a * b + c) * (1 + 0x1p-51);
}
/* A lower bound of 1 - r for 0 <= r <= 1/2: 1 - RN(1 - r) is exact there (Sterbenz), so the
 * rounding is detected and only then stepped down (1 - 2^-53 stays exact). */
RF_DR double dn_one_minus(double r) {
  double q = 1.0 - r;
  return 1.0 - q == r ? q : next_down(q);
}
#endif
