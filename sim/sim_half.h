/* The 16-bit float types of plain HIP on the simulator: __half / __half2 (<hip/hip_fp16.h>)
 * and __hip_bfloat16 / __hip_bfloat162 (<hip/hip_bf16.h>), with HIP's names and interface
 * (implicit conversions from and to float, the usual operators, the __h* functions).
 *
 * Rounding as the hardware does it: every conversion from float (or double) rounds to
 * nearest even (binary16 through clang's _Float16 conversion, which is IEEE's; bfloat16 by
 * the bit formula below), NaN stays NaN. Each arithmetic operation is computed in float and
 * rounded once to the 16-bit type: for +, -, *, / of two binary16 (11-bit) or bfloat16 (8-bit)
 * values float's 24 bits are at least 2p + 2, so that double rounding gives the correctly
 * rounded result (S. Figueroa, "When is double rounding innocuous?", SIGNUM 1995), what
 * gfx1201's v_add_f16 and NVIDIA's hadd give. __hfma is computed in double and rounded once
 * (double's 53 bits hold a product of two halves exactly; the sum's rounding can in rare ties
 * differ from a fused operation's). min/max follow fmaxf/fminf (a NaN operand is ignored),
 * the _nan forms propagate NaN. hexp/hlog/hsqrt ... are float's functions rounded once.
 * C++17, the simulator's; docs/SIMULATOR.md, "Plain HIP". */
#ifndef RF_SIM_HALF_H
#define RF_SIM_HALF_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>
#include "sim_port.h"

namespace rf_sim {
inline unsigned short f32_to_f16_bits(float f) {
  _Float16 h = static_cast<_Float16>(f);
  unsigned short b;
  memcpy(&b, &h, 2);
  return b;
}
inline unsigned short f64_to_f16_bits(double d) {
  _Float16 h = static_cast<_Float16>(d);
  unsigned short b;
  memcpy(&b, &h, 2);
  return b;
}
inline float f16_bits_to_f32(unsigned short b) {
  _Float16 h;
  memcpy(&h, &b, 2);
  return static_cast<float>(h);
}
/* bfloat16 is float's upper half: round to nearest even on the 16 bits dropped (add 0x7FFF
 * plus the kept lowest bit, then truncate); a NaN keeps its sign and top payload, made quiet. */
inline unsigned short f32_to_bf16_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((u >> 16) | 0x40u);
  return static_cast<unsigned short>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
/* From double: first to float rounded to odd (truncated, the last bit set when inexact), then
 * to nearest even: float's 24 bits are at least 8 + 2, so the result is double's value rounded
 * once to nearest even (S. Boldo, G. Melquiond, "When double rounding is odd", 2005). */
inline unsigned short f64_to_bf16_bits(double d) {
  float f = static_cast<float>(d);
  if (!isnan(d) && static_cast<double>(f) != d) {
    if (fabs(static_cast<double>(f)) > fabs(d)) f = nextafterf(f, 0.0f);
    uint32_t u;
    memcpy(&u, &f, 4);
    u |= 1u;
    memcpy(&f, &u, 4);
  }
  return f32_to_bf16_bits(f);
}
inline float bf16_bits_to_f32(unsigned short b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
}  // namespace rf_sim

/* Both types share one shape: the bits, conversions from floating and integral values
 * (rounded to nearest), conversions to them, and operators that round each result once. */
#define RF_SIM_HALF_TYPE(H, RAW, TO_BITS, TO_BITS_D, FROM_BITS)                                  \
  struct RAW {                                                                                   \
    unsigned short x;                                                                            \
  };                                                                                             \
  struct H {                                                                                     \
    unsigned short __x;                                                                          \
    H() = default;                                                                               \
    constexpr H(const RAW &r) : __x(r.x) {}                                                      \
    H(float f) : __x(::rf_sim::TO_BITS(f)) {}                                                    \
    H(double d) : __x(::rf_sim::TO_BITS_D(d)) {}                                                 \
    template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>    \
    H(T v) : __x(::rf_sim::TO_BITS_D(static_cast<double>(v))) {}                                 \
    H &operator=(const RAW &r) {                                                                 \
      __x = r.x;                                                                                 \
      return *this;                                                                              \
    }                                                                                            \
    H &operator=(float f) {                                                                      \
      __x = ::rf_sim::TO_BITS(f);                                                                \
      return *this;                                                                              \
    }                                                                                            \
    H &operator=(double d) {                                                                     \
      __x = ::rf_sim::TO_BITS_D(d);                                                              \
      return *this;                                                                              \
    }                                                                                            \
    operator float() const { return ::rf_sim::FROM_BITS(__x); }                                  \
    operator RAW() const { return RAW{__x}; }                                                    \
    H &operator+=(const H &o) { return *this = H(float(*this) + float(o)); }                     \
    H &operator-=(const H &o) { return *this = H(float(*this) - float(o)); }                     \
    H &operator*=(const H &o) { return *this = H(float(*this) * float(o)); }                     \
    H &operator/=(const H &o) { return *this = H(float(*this) / float(o)); }                     \
    H operator+() const { return *this; }                                                        \
    H operator-() const { return H(RAW{static_cast<unsigned short>(__x ^ 0x8000u)}); }           \
    friend H operator+(const H &a, const H &b) { return H(float(a) + float(b)); }                \
    friend H operator-(const H &a, const H &b) { return H(float(a) - float(b)); }                \
    friend H operator*(const H &a, const H &b) { return H(float(a) * float(b)); }                \
    friend H operator/(const H &a, const H &b) { return H(float(a) / float(b)); }                \
    friend bool operator==(const H &a, const H &b) { return float(a) == float(b); }              \
    friend bool operator!=(const H &a, const H &b) { return float(a) != float(b); }              \
    friend bool operator<(const H &a, const H &b) { return float(a) < float(b); }                \
    friend bool operator>(const H &a, const H &b) { return float(a) > float(b); }                \
    friend bool operator<=(const H &a, const H &b) { return float(a) <= float(b); }              \
    friend bool operator>=(const H &a, const H &b) { return float(a) >= float(b); }              \
  };
RF_SIM_HALF_TYPE(__half, __half_raw, f32_to_f16_bits, f64_to_f16_bits, f16_bits_to_f32)
RF_SIM_HALF_TYPE(__hip_bfloat16, __hip_bfloat16_raw, f32_to_bf16_bits, f64_to_bf16_bits,
                 bf16_bits_to_f32)
#undef RF_SIM_HALF_TYPE
static_assert(sizeof(__half) == 2 && std::is_trivially_copyable<__half>::value, "__half");
static_assert(sizeof(__hip_bfloat16) == 2 && std::is_trivially_copyable<__hip_bfloat16>::value,
              "__hip_bfloat16");

/* Pairs: 4 bytes, 4-byte aligned (a misaligned pair is not reported: only 8- and 16-byte
 * vector types are, docs/SIMULATOR.md "Alignment"). */
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(__half a, __half b) : x(a), y(b) {}
};
struct alignas(4) __hip_bfloat162 {
  __hip_bfloat16 x, y;
  __hip_bfloat162() = default;
  constexpr __hip_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) : x(a), y(b) {}
};

/* ---- functions, for __half and __hip_bfloat16 alike -------------------------------------- */
#define RF_SIM_HALF_FUNCS(H)                                                                   \
  inline H __hadd(H a, H b) { return a + b; }                                                  \
  inline H __hsub(H a, H b) { return a - b; }                                                  \
  inline H __hmul(H a, H b) { return a * b; }                                                  \
  inline H __hdiv(H a, H b) { return a / b; }                                                  \
  inline H __hfma(H a, H b, H c) {                                                             \
    return H(static_cast<double>(float(a)) * float(b) + float(c));                             \
  }                                                                                            \
  inline H __hneg(H a) { return -a; }                                                          \
  inline H __habs(H a) { return H(fabsf(float(a))); }                                         \
  inline H __hmax(H a, H b) { return H(fmaxf(float(a), float(b))); }                           \
  inline H __hmin(H a, H b) { return H(fminf(float(a), float(b))); }                           \
  inline H __hmax_nan(H a, H b) {                                                              \
    return isnan(float(a)) ? a : isnan(float(b)) ? b : H(fmaxf(float(a), float(b)));           \
  }                                                                                            \
  inline H __hmin_nan(H a, H b) {                                                              \
    return isnan(float(a)) ? a : isnan(float(b)) ? b : H(fminf(float(a), float(b)));           \
  }                                                                                            \
  inline bool __heq(H a, H b) { return float(a) == float(b); }                                 \
  inline bool __hne(H a, H b) { return float(a) < float(b) || float(a) > float(b); }           \
  inline bool __hlt(H a, H b) { return float(a) < float(b); }                                  \
  inline bool __hle(H a, H b) { return float(a) <= float(b); }                                 \
  inline bool __hgt(H a, H b) { return float(a) > float(b); }                                  \
  inline bool __hge(H a, H b) { return float(a) >= float(b); }                                 \
  inline bool __hequ(H a, H b) { return !(float(a) < float(b) || float(a) > float(b)); }       \
  inline bool __hneu(H a, H b) { return !(float(a) == float(b)); }                             \
  inline bool __hltu(H a, H b) { return !(float(a) >= float(b)); }                             \
  inline bool __hleu(H a, H b) { return !(float(a) > float(b)); }                              \
  inline bool __hgtu(H a, H b) { return !(float(a) <= float(b)); }                             \
  inline bool __hgeu(H a, H b) { return !(float(a) < float(b)); }                              \
  inline bool __hisnan(H a) { return isnan(float(a)); }                                        \
  inline int __hisinf(H a) { return isinf(float(a)) ? (float(a) < 0 ? -1 : 1) : 0; }          \
  inline H hsqrt(H a) { return H(sqrtf(float(a))); }                                           \
  inline H hrsqrt(H a) { return H(1.0f / sqrtf(float(a))); }                                   \
  inline H hexp(H a) { return H(expf(float(a))); }                                             \
  inline H hexp2(H a) { return H(exp2f(float(a))); }                                           \
  inline H hlog(H a) { return H(logf(float(a))); }                                             \
  inline H hlog2(H a) { return H(log2f(float(a))); }                                           \
  inline H hrcp(H a) { return H(1.0f / float(a)); }                                            \
  inline H hfloor(H a) { return H(floorf(float(a))); }                                         \
  inline H hceil(H a) { return H(ceilf(float(a))); }                                           \
  inline H htrunc(H a) { return H(truncf(float(a))); }
RF_SIM_HALF_FUNCS(__half)
RF_SIM_HALF_FUNCS(__hip_bfloat16)
#undef RF_SIM_HALF_FUNCS

/* __half conversions and bits (HIP's names). */
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline float __half2float(__half h) { return float(h); }
inline __half __int2half_rn(int v) { return __half(v); }
inline __half __uint2half_rn(unsigned v) { return __half(v); }
inline int __half2int_rz(__half h) { return static_cast<int>(float(h)); }
inline int __half2int_rn(__half h) { return static_cast<int>(nearbyintf(float(h))); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __ushort_as_half(unsigned short v) { return __half(__half_raw{v}); }
inline __half __short_as_half(short v) { return __half(__half_raw{static_cast<unsigned short>(v)}); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half __low2half(__half2 v) { return v.x; }
inline __half __high2half(__half2 v) { return v.y; }
inline float __low2float(__half2 v) { return float(v.x); }
inline float __high2float(__half2 v) { return float(v.y); }
inline float2 __half22float2(__half2 v) { return float2(float(v.x), float(v.y)); }
inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline __half2 __float2half2_rn(float a) { return __half2(__half(a), __half(a)); }
inline __half2 __hadd2(__half2 a, __half2 b) { return __half2(a.x + b.x, a.y + b.y); }
inline __half2 __hsub2(__half2 a, __half2 b) { return __half2(a.x - b.x, a.y - b.y); }
inline __half2 __hmul2(__half2 a, __half2 b) { return __half2(a.x * b.x, a.y * b.y); }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
inline __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
inline __half2 __hneg2(__half2 a) { return __half2(-a.x, -a.y); }

/* __hip_bfloat16 conversions and bits (HIP's names). */
inline __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
inline __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
inline float __bfloat162float(__hip_bfloat16 h) { return float(h); }
inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 h) { return h.__x; }
inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short v) {
  return __hip_bfloat16(__hip_bfloat16_raw{v});
}
inline __hip_bfloat162 make_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hip_bfloat162(a, b);
}
inline float __low2float(__hip_bfloat162 v) { return float(v.x); }
inline float __high2float(__hip_bfloat162 v) { return float(v.y); }
inline float2 __bfloat1622float2(__hip_bfloat162 v) { return float2(float(v.x), float(v.y)); }
inline __hip_bfloat162 __float22bfloat162_rn(float2 f) {
  return __hip_bfloat162(__hip_bfloat16(f.x), __hip_bfloat16(f.y));
}

#endif
