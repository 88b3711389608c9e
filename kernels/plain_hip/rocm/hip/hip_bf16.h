/* <hip/hip_bf16.h> for the hip backend: ROCm's own where it has one (6.0 and later); for an
 * older ROCm (Debian 12's 5.2) a __hip_bfloat16 with HIP's names: conversions rounded to
 * nearest even (float's upper half, the dropped 16 bits rounded; NaN kept quiet), each
 * operation computed in float and rounded once (exact for bfloat16's 8 bits: docs/SIMULATOR.md,
 * "Plain HIP"). */
#ifndef RF_PLAIN_HIP_ROCM_BF16_H
#define RF_PLAIN_HIP_ROCM_BF16_H
#if __has_include_next(<hip/hip_bf16.h>)
#include_next <hip/hip_bf16.h>
#else
#include "hip_runtime.h"
struct __hip_bfloat16_raw {
  unsigned short x;
};
struct __hip_bfloat16 {
  unsigned short __x;
  __host__ __device__ static unsigned short bits(float f) {
    unsigned u = __builtin_bit_cast(unsigned, f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((u >> 16) | 0x40u);
    return static_cast<unsigned short>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  __hip_bfloat16() = default;
  __host__ __device__ constexpr __hip_bfloat16(__hip_bfloat16_raw r) : __x(r.x) {}
  __host__ __device__ __hip_bfloat16(float f) : __x(bits(f)) {}
  __host__ __device__ operator float() const {
    return __builtin_bit_cast(float, static_cast<unsigned>(__x) << 16);
  }
  __host__ __device__ friend __hip_bfloat16 operator+(__hip_bfloat16 a, __hip_bfloat16 b) {
    return __hip_bfloat16(float(a) + float(b));
  }
  __host__ __device__ friend __hip_bfloat16 operator-(__hip_bfloat16 a, __hip_bfloat16 b) {
    return __hip_bfloat16(float(a) - float(b));
  }
  __host__ __device__ friend __hip_bfloat16 operator*(__hip_bfloat16 a, __hip_bfloat16 b) {
    return __hip_bfloat16(float(a) * float(b));
  }
  __host__ __device__ friend __hip_bfloat16 operator/(__hip_bfloat16 a, __hip_bfloat16 b) {
    return __hip_bfloat16(float(a) / float(b));
  }
  __host__ __device__ friend bool operator<(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) < float(b); }
  __host__ __device__ friend bool operator>(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) > float(b); }
  __host__ __device__ friend bool operator==(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) == float(b); }
};
__host__ __device__ inline __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
__host__ __device__ inline float __bfloat162float(__hip_bfloat16 h) { return float(h); }
__device__ inline __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) { return a + b; }
__device__ inline __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) { return a - b; }
__device__ inline __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) { return a * b; }
__device__ inline __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) { return a / b; }
__device__ inline __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hip_bfloat16(fmaxf(float(a), float(b)));
}
__device__ inline __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hip_bfloat16(fminf(float(a), float(b)));
}
__device__ inline bool __hlt(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) < float(b); }
__device__ inline bool __hgt(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) > float(b); }
__device__ inline bool __heq(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) == float(b); }
__device__ inline bool __hisnan(__hip_bfloat16 a) { return float(a) != float(a); }
#endif
#endif
