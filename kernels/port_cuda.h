/* The HIP subset of port.h mapped onto CUDA, for running the kernels on NVIDIA GPUs.
 * Wave operations map to the _sync forms with a full mask: our kernels keep every lane of a
 * wave active through a shuffle, which is what HIP on AMD assumes too. */
#ifndef RF_PORT_CUDA_H
#define RF_PORT_CUDA_H
#include <cuda_runtime.h>
#include <math_constants.h>

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef cudaMemcpyKind hipMemcpyKind;
#define hipSuccess cudaSuccess
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipHostMalloc(ptr, bytes, flags) cudaHostAlloc((ptr), (bytes), (flags))
#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostFree cudaFreeHost
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemset cudaMemset
#define hipMemGetInfo cudaMemGetInfo
#define hipMemsetAsync cudaMemsetAsync
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipStreamSynchronize cudaStreamSynchronize
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetErrorString cudaGetErrorString
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetErrorName cudaGetErrorName
#define hipEventCreate cudaEventCreate
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipEventDestroy cudaEventDestroy
#define hipEventQuery cudaEventQuery
#define hipErrorNotReady cudaErrorNotReady
/* Streams, events and launch graphs: used by device.hip alone (the runner's batches). */
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphExec_t hipGraphExec_t;
#define hipStreamCreate cudaStreamCreate
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDisableTiming cudaEventDisableTiming
#define hipStreamBeginCapture cudaStreamBeginCapture
#define hipStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#define hipStreamEndCapture cudaStreamEndCapture
#define hipGraphInstantiateWithFlags cudaGraphInstantiateWithFlags
#define hipGraphLaunch cudaGraphLaunch
#define hipGraphExecDestroy cudaGraphExecDestroy
#define hipGraphDestroy cudaGraphDestroy
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
  kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)

#define RF_FULL_MASK 0xffffffffu
/* HIP's wave functions have no mask argument; width defaults to the wave size. */
template <typename T> __device__ __forceinline__ T __shfl(T v, int lane, int w = warpSize) {
  return __shfl_sync(RF_FULL_MASK, v, lane, w);
}
template <typename T> __device__ __forceinline__ T __shfl_up(T v, unsigned d, int w = warpSize) {
  return __shfl_up_sync(RF_FULL_MASK, v, d, w);
}
template <typename T> __device__ __forceinline__ T __shfl_down(T v, unsigned d, int w = warpSize) {
  return __shfl_down_sync(RF_FULL_MASK, v, d, w);
}
template <typename T> __device__ __forceinline__ T __shfl_xor(T v, int m, int w = warpSize) {
  return __shfl_xor_sync(RF_FULL_MASK, v, m, w);
}
#endif
