/* Plain HIP on the simulator: what a kernel written against <hip/hip_runtime.h> uses beyond
 * kernels/port.h's subset (sim_port.h), with HIP's names, signatures and semantics. Included
 * by the simulator's own hip/hip_runtime.h (sim/include/hip/), which the plugin build puts
 * first on the include path (rf_add_plugin, cmake/rf_plugin.cmake). `__shared__` and the
 * triple-chevron launch need the plain-HIP build step (sim/plain_hip/rf_sim_hipcc.py), which
 * turns them into sim_port.h's lds_bind and chevron. What is modelled and what is not:
 * docs/SIMULATOR.md, "Plain HIP". C++17, like sim_port.h. */
#ifndef RF_SIM_PLAIN_HIP_H
#define RF_SIM_PLAIN_HIP_H
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "sim_port.h"

/* ---- qualifiers and declarations ---------------------------------------------------------- */
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
/* Constant memory is ordinary memory here (the kernels only read it). */
#define __constant__
/* HIP's spellings of a dynamic LDS array and of a kernel name with template commas. */
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_KERNEL_NAME(...) __VA_ARGS__

/* ---- vector types beyond float2/float4 (sim_port.h): GPU alignment, member-wise copies, so
 * a misaligned access is reported as sim_port.h's float4 is (docs/SIMULATOR.md, "Alignment"). */
#define RF_SIM_VEC2(name, T, align)                                          \
  struct alignas(align) name {                                               \
    T x, y;                                                                  \
    name() = default;                                                        \
    constexpr name(T x_, T y_) : x(x_), y(y_) {}                             \
    constexpr name(const name &o) : x(o.x), y(o.y) {}                        \
    name &operator=(const name &o) {                                         \
      x = o.x;                                                               \
      y = o.y;                                                               \
      return *this;                                                          \
    }                                                                        \
  };                                                                         \
  inline name make_##name(T x, T y) { return name{x, y}; }
#define RF_SIM_VEC4(name, T, align)                                                  \
  struct alignas(align) name {                                                       \
    T x, y, z, w;                                                                    \
    name() = default;                                                                \
    constexpr name(T x_, T y_, T z_, T w_) : x(x_), y(y_), z(z_), w(w_) {}           \
    constexpr name(const name &o) : x(o.x), y(o.y), z(o.z), w(o.w) {}               \
    name &operator=(const name &o) {                                                 \
      x = o.x;                                                                       \
      y = o.y;                                                                       \
      z = o.z;                                                                       \
      w = o.w;                                                                       \
      return *this;                                                                  \
    }                                                                                \
  };                                                                                 \
  inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
RF_SIM_VEC2(int2, int, 8)
RF_SIM_VEC2(uint2, unsigned, 8)
RF_SIM_VEC2(double2, double, 16)
RF_SIM_VEC4(int4, int, 16)
RF_SIM_VEC4(uint4, unsigned, 16)
#undef RF_SIM_VEC2
#undef RF_SIM_VEC4

/* ---- math: <math.h> (glibc) gives expf, exp2f, logf, log2f, fmaxf, fminf, fabsf, sqrtf,
 * isnan, isinf, INFINITY, NAN ...; <float.h> FLT_MAX ...; sim_port.h the fast intrinsics. --- */
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float fdividef(float x, float y) { return x / y; }
/* The round-to-nearest forms are the ordinary IEEE operations. */
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(nearbyintf(x)); }
inline float __int2float_rn(int v) { return static_cast<float>(v); }
inline float __uint2float_rn(unsigned v) { return static_cast<float>(v); }
inline long long __double_as_longlong(double d) {
  long long v;
  memcpy(&v, &d, 8);
  return v;
}
inline double __longlong_as_double(long long v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
/* HIP's integer and float min/max device functions (fminf/fmaxf are <math.h>'s). */
#define RF_SIM_MINMAX(T)                                  \
  inline T min(T a, T b) { return b < a ? b : a; }        \
  inline T max(T a, T b) { return a < b ? b : a; }
RF_SIM_MINMAX(int)
RF_SIM_MINMAX(unsigned)
RF_SIM_MINMAX(long long)
RF_SIM_MINMAX(unsigned long long)
#undef RF_SIM_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }

/* ---- bits --------------------------------------------------------------------------------- */
inline int __popc(unsigned v) { return __builtin_popcount(v); }
inline int __popcll(unsigned long long v) { return __builtin_popcountll(v); }
inline int __ffs(int v) { return __builtin_ffs(v); }
inline int __ffs(unsigned v) { return __builtin_ffs(static_cast<int>(v)); }
inline int __ffsll(long long v) { return __builtin_ffsll(v); }
inline int __ffsll(unsigned long long v) { return __builtin_ffsll(static_cast<long long>(v)); }
inline int __clz(int v) { return v ? __builtin_clz(static_cast<unsigned>(v)) : 32; }
inline int __clzll(long long v) { return v ? __builtin_clzll(static_cast<unsigned long long>(v)) : 64; }
inline unsigned __brev(unsigned v) { return __builtin_bitreverse32(v); }
inline unsigned long long __brevll(unsigned long long v) { return __builtin_bitreverse64(v); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }

/* ---- memory and ordering ------------------------------------------------------------------ */
template <typename T>
inline T __ldg(const T *p) {
  return *p;
}
namespace rf_sim {
void threadfence_block();
uint64_t active_mask(const char *file, int line);
/* A `_sync` mask of any integer type as 64 lanes' bits (HIP's masks are 64-bit; CUDA's 32-bit
 * ones name lanes 0..31). */
template <typename M>
inline uint64_t lane_mask(M m) {
  static_assert(std::is_integral<M>::value, "a wave operation's mask is an integer");
  return static_cast<uint64_t>(m);
}
/* Lanes of the ballot (a wave of 64 needs the second collective for its upper word). */
inline uint64_t ballot(int pred, uint64_t mask, const char *file, int line) {
  const uint32_t p = pred != 0;
  uint64_t b = wave_exchange_masked(p, SHFL_BALLOT, 0, warpSize, mask, file, line);
  if (warpSize > 32)
    b |= uint64_t{wave_exchange_masked(p, SHFL_BALLOT, 1, warpSize, mask, file, line)} << 32;
  return b;
}
}  // namespace rf_sim
#define __threadfence_block() ::rf_sim::threadfence_block()
#define __threadfence_system() ::rf_sim::threadfence()

/* ---- wave operations with masks (HIP >= 6.2 and CUDA spellings) ---------------------------
 * The mask is checked when the collective completes (sync_ops.cpp, "masks"): a lane missing
 * from its own mask, lanes named with different masks, or a read from a lane outside the
 * mask is a divergent wave operation. The values move as port.h's __shfl family's do. */
template <typename M, typename T>
inline T __shfl_sync(M mask, T v, int src_lane, int width = warpSize,
                     const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rf_sim::shuffle_masked(v, ::rf_sim::SHFL_IDX, src_lane, width,
                                  ::rf_sim::lane_mask(mask), file, line);
}
template <typename M, typename T>
inline T __shfl_up_sync(M mask, T v, unsigned delta, int width = warpSize,
                        const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rf_sim::shuffle_masked(v, ::rf_sim::SHFL_UP, ::rf_sim::clamp_delta(delta), width,
                                  ::rf_sim::lane_mask(mask), file, line);
}
template <typename M, typename T>
inline T __shfl_down_sync(M mask, T v, unsigned delta, int width = warpSize,
                          const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rf_sim::shuffle_masked(v, ::rf_sim::SHFL_DOWN, ::rf_sim::clamp_delta(delta), width,
                                  ::rf_sim::lane_mask(mask), file, line);
}
template <typename M, typename T>
inline T __shfl_xor_sync(M mask, T v, int lane_mask, int width = warpSize,
                         const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rf_sim::shuffle_masked(v, ::rf_sim::SHFL_XOR, lane_mask, width,
                                  ::rf_sim::lane_mask(mask), file, line);
}

/* ---- votes: wave collectives over every lane (HIP returns 64-bit ballots) ----------------- */
inline unsigned long long __ballot(int pred, const char *file = __builtin_FILE(),
                                   int line = __builtin_LINE()) {
  return ::rf_sim::ballot(pred, ::rf_sim::kNoMask, file, line);
}
inline int __any(int pred, const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rf_sim::ballot(pred, ::rf_sim::kNoMask, file, line) != 0;
}
inline int __all(int pred, const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rf_sim::ballot(!pred, ::rf_sim::kNoMask, file, line) == 0;
}
template <typename M>
inline unsigned long long __ballot_sync(M mask, int pred, const char *file = __builtin_FILE(),
                                        int line = __builtin_LINE()) {
  const uint64_t m = ::rf_sim::lane_mask(mask);
  return ::rf_sim::ballot(pred, m, file, line) & m;
}
template <typename M>
inline int __any_sync(M mask, int pred, const char *file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  const uint64_t m = ::rf_sim::lane_mask(mask);
  return (::rf_sim::ballot(pred, m, file, line) & m) != 0;
}
template <typename M>
inline int __all_sync(M mask, int pred, const char *file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  const uint64_t m = ::rf_sim::lane_mask(mask);
  return (::rf_sim::ballot(!pred, m, file, line) & m) == 0;
}
/* The lanes of the caller's wave that have not exited (not a scheduling point). */
inline unsigned long long __activemask(const char *file = __builtin_FILE(),
                                       int line = __builtin_LINE()) {
  return ::rf_sim::active_mask(file, line);
}
/* A collective of the wave's lanes (orders them, as the shuffles do). */
template <typename M = unsigned long long>
inline void __syncwarp(M mask = ~M{0}, const char *file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
  ::rf_sim::wave_exchange_masked(0, ::rf_sim::SHFL_IDX, 0, warpSize, ::rf_sim::lane_mask(mask),
                                 file, line);
}
/* The lane of the calling thread in its wave. */
inline unsigned __lane_id() {
  const dim3 &b = blockDim;
  return (threadIdx.x + b.x * (threadIdx.y + b.y * threadIdx.z)) & static_cast<unsigned>(warpSize - 1);
}

/* ---- atomics beyond sim_port.h's: relaxed, device scope, through sim_port.h's gate -------- */
namespace rf_sim {
/* A read-modify-write of a float or double as a CAS loop on its bits. */
template <typename F, typename U, typename Op>
inline F atomic_rmw_float(F *p, Op op, F v) {
  atomic_gate(p);
  U *u = reinterpret_cast<U *>(p);
  U old = __atomic_load_n(u, __ATOMIC_RELAXED);
  for (;;) {
    F f;
    memcpy(&f, &old, sizeof f);
    F r = op(f, v);
    U nu;
    memcpy(&nu, &r, sizeof nu);
    if (__atomic_compare_exchange_n(u, &old, nu, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
  }
  atomic_observed();
  F r;
  memcpy(&r, &old, sizeof r);
  return r;
}
template <typename T, typename Op>
inline T atomic_rmw(T *p, Op op, T v) {
  atomic_gate(p);
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, op(old, v), true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
  atomic_observed();
  return old;
}
}  // namespace rf_sim

#define RF_SIM_ATOMIC_BITS(T)                                                                  \
  inline T atomicSub(T *p, T v) {                                                              \
    return ::rf_sim::atomic_rmw(p, [](T a, T b) { return static_cast<T>(a - b); }, v);         \
  }                                                                                            \
  inline T atomicMin(T *p, T v) {                                                              \
    return ::rf_sim::atomic_rmw(p, [](T a, T b) { return b < a ? b : a; }, v);                 \
  }                                                                                            \
  inline T atomicAnd(T *p, T v) {                                                              \
    return ::rf_sim::atomic_rmw(p, [](T a, T b) { return static_cast<T>(a & b); }, v);         \
  }                                                                                            \
  inline T atomicOr(T *p, T v) {                                                               \
    return ::rf_sim::atomic_rmw(p, [](T a, T b) { return static_cast<T>(a | b); }, v);         \
  }                                                                                            \
  inline T atomicXor(T *p, T v) {                                                              \
    return ::rf_sim::atomic_rmw(p, [](T a, T b) { return static_cast<T>(a ^ b); }, v);         \
  }
RF_SIM_ATOMIC_BITS(int)
RF_SIM_ATOMIC_BITS(unsigned)
RF_SIM_ATOMIC_BITS(unsigned long long)
#undef RF_SIM_ATOMIC_BITS
inline long long atomicMin(long long *p, long long v) {
  return ::rf_sim::atomic_rmw(p, [](long long a, long long b) { return b < a ? b : a; }, v);
}
inline long long atomicMax(long long *p, long long v) {
  return ::rf_sim::atomic_rmw(p, [](long long a, long long b) { return a < b ? b : a; }, v);
}
inline unsigned long long atomicExch(unsigned long long *p, unsigned long long v) {
  ::rf_sim::atomic_gate(p);
  unsigned long long r = __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
  ::rf_sim::atomic_observed();
  return r;
}
/* CUDA's definitions: ((old >= v) ? 0 : old + 1) and ((old == 0 || old > v) ? v : old - 1). */
inline unsigned atomicInc(unsigned *p, unsigned v) {
  return ::rf_sim::atomic_rmw(p, [](unsigned a, unsigned b) { return a >= b ? 0u : a + 1; }, v);
}
inline unsigned atomicDec(unsigned *p, unsigned v) {
  return ::rf_sim::atomic_rmw(p, [](unsigned a, unsigned b) { return a == 0 || a > b ? b : a - 1; },
                              v);
}
inline float atomicSub(float *p, float v) {
  return ::rf_sim::atomic_rmw_float<float, uint32_t>(p, [](float a, float b) { return a - b; }, v);
}
/* Float max and min as fmaxf / fminf (NaN ignored), as LLVM's atomicrmw fmax / fmin that HIP
 * lowers them to. */
inline float atomicMax(float *p, float v) {
  return ::rf_sim::atomic_rmw_float<float, uint32_t>(p, [](float a, float b) { return fmaxf(a, b); },
                                                     v);
}
inline float atomicMin(float *p, float v) {
  return ::rf_sim::atomic_rmw_float<float, uint32_t>(p, [](float a, float b) { return fminf(a, b); },
                                                     v);
}
inline double atomicAdd(double *p, double v) {
  return ::rf_sim::atomic_rmw_float<double, uint64_t>(p, [](double a, double b) { return a + b; }, v);
}
inline double atomicSub(double *p, double v) {
  return ::rf_sim::atomic_rmw_float<double, uint64_t>(p, [](double a, double b) { return a - b; }, v);
}
inline double atomicMax(double *p, double v) {
  return ::rf_sim::atomic_rmw_float<double, uint64_t>(p, [](double a, double b) { return fmax(a, b); },
                                                      v);
}
inline double atomicMin(double *p, double v) {
  return ::rf_sim::atomic_rmw_float<double, uint64_t>(p, [](double a, double b) { return fmin(a, b); },
                                                      v);
}
inline double atomicExch(double *p, double v) {
  return ::rf_sim::atomic_rmw_float<double, uint64_t>(p, [](double, double b) { return b; }, v);
}

/* ---- host runtime beyond sim_hip_runtime.h's: one device, as hipGetDeviceProperties says --- */
typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeMaxThreadsPerBlock = 0,
  hipDeviceAttributeWarpSize,
  hipDeviceAttributeMultiprocessorCount,
  hipDeviceAttributeMaxSharedMemoryPerBlock
} hipDeviceAttribute_t;
inline hipError_t hipGetDevice(int *device) {
  if (!device) return hipErrorInvalidValue;
  *device = 0;
  return hipSuccess;
}
inline hipError_t hipSetDevice(int device) {
  return device == 0 ? hipSuccess : hipErrorInvalidDevice;
}
inline hipError_t hipGetDeviceCount(int *count) {
  if (!count) return hipErrorInvalidValue;
  *count = 1;
  return hipSuccess;
}
inline hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr, int device) {
  hipDeviceProp_t p;
  hipError_t err = hipGetDeviceProperties(&p, device);
  if (err != hipSuccess || !value) return err != hipSuccess ? err : hipErrorInvalidValue;
  switch (attr) {
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock);
      break;
    default: return hipErrorInvalidValue;
  }
  return hipSuccess;
}
inline const char *hipGetErrorName(hipError_t err) { return hipGetErrorString(err); }

#endif
