/* <hip/hip_runtime.h> for the cuda backend: a plain HIP plugin through nvcc. rf_add_plugin
 * (cmake/rf_plugin.cmake) puts this folder first on the include path of cuda plugin builds.
 * port_cuda.h maps port.h's subset (host runtime, HIP's mask-less __shfl family); this adds
 * what plain HIP kernels use beyond it: __shared__, extern __shared__, <<<...>>>, warpSize,
 * __ldg, __syncwarp, __activemask and the _sync shuffles are CUDA's own. */
#ifndef RF_PLAIN_HIP_CUDA_RUNTIME_H
#define RF_PLAIN_HIP_CUDA_RUNTIME_H
#include "../../../port_cuda.h"

#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_KERNEL_NAME(...) __VA_ARGS__

/* HIP's masks are 64-bit; a warp has 32 lanes, named by the low half. */
template <typename T>
__device__ __forceinline__ T __shfl_sync(unsigned long long m, T v, int src, int w = warpSize) {
  return __shfl_sync(static_cast<unsigned>(m), v, src, w);
}
template <typename T>
__device__ __forceinline__ T __shfl_up_sync(unsigned long long m, T v, unsigned d, int w = warpSize) {
  return __shfl_up_sync(static_cast<unsigned>(m), v, d, w);
}
template <typename T>
__device__ __forceinline__ T __shfl_down_sync(unsigned long long m, T v, unsigned d,
                                              int w = warpSize) {
  return __shfl_down_sync(static_cast<unsigned>(m), v, d, w);
}
template <typename T>
__device__ __forceinline__ T __shfl_xor_sync(unsigned long long m, T v, int x, int w = warpSize) {
  return __shfl_xor_sync(static_cast<unsigned>(m), v, x, w);
}
__device__ __forceinline__ unsigned long long __ballot_sync(unsigned long long m, int p) {
  return __ballot_sync(static_cast<unsigned>(m), p);
}
__device__ __forceinline__ int __any_sync(unsigned long long m, int p) {
  return __any_sync(static_cast<unsigned>(m), p);
}
__device__ __forceinline__ int __all_sync(unsigned long long m, int p) {
  return __all_sync(static_cast<unsigned>(m), p);
}
__device__ __forceinline__ void __syncwarp(unsigned long long m) {
  __syncwarp(static_cast<unsigned>(m));
}
/* HIP's mask-less votes, over the lanes active here as HIP's are. CUDA still declares its own
 * deprecated __ballot/__any/__all (invalid from sm_70 on, __any and __all with C linkage), so
 * HIP's are macros over functions of their own. */
__device__ __forceinline__ unsigned long long rf_hip_ballot(int p) {
  return __ballot_sync(__activemask(), p);
}
__device__ __forceinline__ int rf_hip_any(int p) { return __any_sync(__activemask(), p); }
__device__ __forceinline__ int rf_hip_all(int p) { return __all_sync(__activemask(), p); }
#define __ballot(p) rf_hip_ballot(p)
#define __any(p) rf_hip_any(p)
#define __all(p) rf_hip_all(p)
__device__ __forceinline__ unsigned __lane_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

/* HIP's float and double atomicMax / atomicMin (CUDA has none): fmaxf / fminf in a CAS loop. */
__device__ __forceinline__ float atomicMax(float *p, float v) {
  unsigned *u = reinterpret_cast<unsigned *>(p), old = *u, seen;
  do {
    seen = old;
    old = atomicCAS(u, seen, __float_as_uint(fmaxf(__uint_as_float(seen), v)));
  } while (old != seen);
  return __uint_as_float(old);
}
__device__ __forceinline__ float atomicMin(float *p, float v) {
  unsigned *u = reinterpret_cast<unsigned *>(p), old = *u, seen;
  do {
    seen = old;
    old = atomicCAS(u, seen, __float_as_uint(fminf(__uint_as_float(seen), v)));
  } while (old != seen);
  return __uint_as_float(old);
}
__device__ __forceinline__ double atomicMax(double *p, double v) {
  unsigned long long *u = reinterpret_cast<unsigned long long *>(p), old = *u, seen;
  do {
    seen = old;
    old = atomicCAS(u, seen, __double_as_longlong(fmax(__longlong_as_double(seen), v)));
  } while (old != seen);
  return __longlong_as_double(old);
}
__device__ __forceinline__ double atomicMin(double *p, double v) {
  unsigned long long *u = reinterpret_cast<unsigned long long *>(p), old = *u, seen;
  do {
    seen = old;
    old = atomicCAS(u, seen, __double_as_longlong(fmin(__longlong_as_double(seen), v)));
  } while (old != seen);
  return __longlong_as_double(old);
}

/* Host runtime names port_cuda.h does not map. */
typedef cudaDeviceAttr hipDeviceAttribute_t;
#define hipDeviceAttributeMaxThreadsPerBlock cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipStreamDestroy cudaStreamDestroy
#endif
