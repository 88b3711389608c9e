/* <hip/hip_runtime.h> for the hip backend: ROCm's own header, plus what plain HIP kernels use
 * that an older ROCm lacks. rf_add_plugin (cmake/rf_plugin.cmake) puts this folder first on the
 * include path of hip plugin builds; the real header comes through #include_next.
 *  - ROCm >= 6.2 has the _sync wave functions behind HIP_ENABLE_WARP_SYNC_BUILTINS: defined
 *    here, so a kernel written with them builds (their 64-bit mask rule is ROCm's own).
 *  - ROCm < 6.2 (Debian 12's 5.2) has none: they are defined here. A wave's lanes run in
 *    lockstep on AMD GPUs, so the mask changes nothing in what a lane receives (the simulator
 *    checks it: docs/SIMULATOR.md, "Plain HIP"). */
#ifndef RF_PLAIN_HIP_ROCM_RUNTIME_H
#define RF_PLAIN_HIP_ROCM_RUNTIME_H
#include <hip/hip_version.h>
#if HIP_VERSION >= 60200000 && !defined(HIP_ENABLE_WARP_SYNC_BUILTINS)
#define HIP_ENABLE_WARP_SYNC_BUILTINS 1
#endif
#include_next <hip/hip_runtime.h>

#if HIP_VERSION < 60200000
namespace rf_plain_hip {
/* A value of 2, 4 or 8 bytes through ROCm's int / long long shuffles, bit for bit. */
template <typename T, typename F>
__device__ inline T via_bits(T v, F f) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "wave operations take a value of 2, 4 or 8 bytes");
  if constexpr (sizeof(T) == 8) {
    long long b;
    __builtin_memcpy(&b, &v, 8);
    b = f(b);
    __builtin_memcpy(&v, &b, 8);
  } else {
    int b = 0;
    __builtin_memcpy(&b, &v, sizeof(T));
    b = f(b);
    __builtin_memcpy(&v, &b, sizeof(T));
  }
  return v;
}
}  // namespace rf_plain_hip
template <typename M, typename T>
__device__ inline T __shfl_sync(M, T v, int src, int w = warpSize) {
  return rf_plain_hip::via_bits(v, [=](auto b) { return __shfl(b, src, w); });
}
template <typename M, typename T>
__device__ inline T __shfl_up_sync(M, T v, unsigned d, int w = warpSize) {
  return rf_plain_hip::via_bits(v, [=](auto b) { return __shfl_up(b, d, w); });
}
template <typename M, typename T>
__device__ inline T __shfl_down_sync(M, T v, unsigned d, int w = warpSize) {
  return rf_plain_hip::via_bits(v, [=](auto b) { return __shfl_down(b, d, w); });
}
template <typename M, typename T>
__device__ inline T __shfl_xor_sync(M, T v, int x, int w = warpSize) {
  return rf_plain_hip::via_bits(v, [=](auto b) { return __shfl_xor(b, x, w); });
}
template <typename M>
__device__ inline unsigned long long __ballot_sync(M m, int p) {
  return __ballot(p) & static_cast<unsigned long long>(m);
}
template <typename M>
__device__ inline int __any_sync(M m, int p) {
  return (__ballot(p) & static_cast<unsigned long long>(m)) != 0;
}
template <typename M>
__device__ inline int __all_sync(M m, int p) {
  const unsigned long long mm = static_cast<unsigned long long>(m) & __ballot(1);
  return (__ballot(p) & mm) == mm;
}
__device__ inline unsigned long long __activemask() { return __ballot(1); }
/* As ROCm 6.2 defines it: the wave's lanes meet, their LDS and global writes visible. */
template <typename M = unsigned long long>
__device__ inline void __syncwarp(M = ~M{0}) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#endif
#endif
