/* The one header every kernel includes. Kernels use only what this header provides:
 * the HIP subset listed below, plus RF_SHARED / RF_DYN_SHARED for LDS declarations.
 *
 *   AMD (hipcc / clang -x hip)  -> <hip/hip_runtime.h>
 *   NVIDIA (__CUDACC__)         -> port_cuda.h: the same names mapped onto CUDA
 *   CPU simulator (RF_SIM)      -> ../sim/sim_port.h: fibers, barriers, wave collectives
 *
 * The subset (all three backends provide exactly these):
 *   qualifiers      __global__ __device__ __host__ __forceinline__ __restrict__
 *   indices         threadIdx blockIdx blockDim gridDim (.x .y .z), warpSize
 *   sync            __syncthreads() __threadfence()
 *   wave ops        __shfl(v, lane, w) __shfl_up(v, d, w) __shfl_down(v, d, w)
 *                   __shfl_xor(v, m, w) for float and int (w defaults to warpSize)
 *   atomics         atomicAdd(float*|int*|unsigned*|unsigned long long*, v)
 *                   atomicMax(int*|unsigned*|unsigned long long*, v) atomicCAS(int*|unsigned*|
 *                   unsigned long long*, cmp, v) atomicExch(float*|int*|unsigned*, v)
 *   math            expf __expf fmaxf fminf fabsf INFINITY __int_as_float __float_as_int
 *                   __float_as_uint __uint_as_float
 *   vector types    float4 (make_float4), dim3
 *   host runtime    hipMalloc hipFree hipMemcpy(+Async) hipMemset(+Async) hipMemcpyHostToDevice
 *                   hipMemcpyDeviceToHost hipMemcpyDeviceToDevice hipDeviceSynchronize
 *                   hipStreamSynchronize hipGetLastError hipPeekAtLastError hipGetErrorString
 *                   hipSuccess hipError_t hipStream_t hipGetDeviceProperties(hipDeviceProp_t:
 *                   name, multiProcessorCount, warpSize, sharedMemPerBlock)
 *                   hipEventCreate hipEventRecord hipEventSynchronize hipEventElapsedTime
 *                   hipEventDestroy hipEvent_t
 *                   hipLaunchKernelGGL(kernel, dim3 grid, dim3 block, shmem, stream, args...)
 */
#ifndef RF_PORT_H
#define RF_PORT_H

#if defined(RF_SIM)
#include "../sim/sim_port.h"
#elif defined(__CUDACC__)
#include "port_cuda.h"
#else
#include <hip/hip_runtime.h>
#endif

/* LDS declarations. The simulator gives each block a fresh LDS arena poisoned with NaN. */
#if !defined(RF_SIM)
#define RF_SHARED(type, name, count) __shared__ type name[count]
#define RF_DYN_SHARED(type, name) extern __shared__ type name[]
#endif

#endif
