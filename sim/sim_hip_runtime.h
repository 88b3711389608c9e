/* The host-runtime part of port.h's HIP subset, for the simulator: device memory is host
 * memory, every call is synchronous. C-compatible declarations (the kernel side, which
 * needs C++, is in sim_port.h). */
#ifndef RF_SIM_HIP_RUNTIME_H
#define RF_SIM_HIP_RUNTIME_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values as in HIP's hip_runtime_api.h, so messages and logs read the same. */
typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidDevice = 101,
  hipErrorLaunchTimeOut = 702,
  hipErrorLaunchFailure = 719
} hipError_t;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4
} hipMemcpyKind;

typedef struct rf_sim_stream *hipStream_t; /* every stream is the one synchronous queue */
typedef struct rf_sim_event *hipEvent_t;

typedef struct hipDeviceProp_t {
  char name[256]; /* "redfuzz-sim" */
  size_t totalGlobalMem;
  size_t sharedMemPerBlock; /* 65536, as gfx1201 */
  int warpSize;             /* the configured wave size */
  int maxThreadsPerBlock;   /* 1024 */
  int multiProcessorCount;  /* 8 */
  int maxThreadsDim[3];
  int maxGridSize[3];
} hipDeviceProp_t;

hipError_t hipMalloc(void **ptr, size_t bytes);
hipError_t hipFree(void *ptr);
/* Stream-ordered allocation: immediate here (allocations inside a variant's launch break its
 * contract all the same). */
hipError_t hipMallocAsync(void **ptr, size_t bytes, hipStream_t stream);
hipError_t hipFreeAsync(void *ptr, hipStream_t stream);
/* Page-locked host memory on a GPU; plain heap memory here. */
#define hipHostMallocDefault 0u
hipError_t hipHostMalloc(void **ptr, size_t bytes, unsigned flags);
hipError_t hipHostFree(void *ptr);
hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind);
hipError_t hipMemset(void *dst, int value, size_t bytes);
hipError_t hipDeviceSynchronize(void);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorString(hipError_t err);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device);
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventDestroy(hipEvent_t event);
/* The stream argument is optional in HIP's C++ API; C callers pass it. */
hipError_t rf_sim_memcpy_async(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
                               hipStream_t stream);
hipError_t rf_sim_memset_async(void *dst, int value, size_t bytes, hipStream_t stream);
hipError_t rf_sim_event_record(hipEvent_t event, hipStream_t stream);
/* The call site of the next checked call (the launch contract, sim_control.h): passed by the
 * macros below, consumed by that call. */
void rf_sim_call_site(const char *file, int line);

#ifdef __cplusplus
}
/* C++ overloads with HIP's defaults and typed pointers. */
template <typename T>
inline hipError_t hipMalloc(T **ptr, size_t bytes) {
  return hipMalloc(reinterpret_cast<void **>(ptr), bytes);
}
inline hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
                                 hipStream_t stream = nullptr) {
  return rf_sim_memcpy_async(dst, src, bytes, kind, stream);
}
inline hipError_t hipMemsetAsync(void *dst, int value, size_t bytes, hipStream_t stream = nullptr) {
  return rf_sim_memset_async(dst, value, bytes, stream);
}
inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr) {
  return rf_sim_event_record(event, stream);
}
template <typename T>
inline hipError_t hipMallocAsync(T **ptr, size_t bytes, hipStream_t stream) {
  return hipMallocAsync(reinterpret_cast<void **>(ptr), bytes, stream);
}
/* The calls the launch contract checks carry their call site, so that a breach names the line
 * (docs/SIMULATOR.md, "The launch contract"). A macro, not a default argument: the C names
 * stay the C functions (plugins built before resolve them). Self-reference does not expand
 * again; the runtime's own definitions are compiled with RF_SIM_RUNTIME_IMPL. */
#if !defined(RF_SIM_RUNTIME_IMPL)
#define RF_SIM_AT(call) (::rf_sim_call_site(__FILE__, __LINE__), call)
#define hipMalloc(...) RF_SIM_AT(hipMalloc(__VA_ARGS__))
#define hipFree(...) RF_SIM_AT(hipFree(__VA_ARGS__))
#define hipMallocAsync(...) RF_SIM_AT(hipMallocAsync(__VA_ARGS__))
#define hipFreeAsync(...) RF_SIM_AT(hipFreeAsync(__VA_ARGS__))
#define hipHostMalloc(...) RF_SIM_AT(hipHostMalloc(__VA_ARGS__))
#define hipHostFree(...) RF_SIM_AT(hipHostFree(__VA_ARGS__))
#define hipMemcpy(...) RF_SIM_AT(hipMemcpy(__VA_ARGS__))
#define hipMemset(...) RF_SIM_AT(hipMemset(__VA_ARGS__))
#define hipMemcpyAsync(...) RF_SIM_AT(hipMemcpyAsync(__VA_ARGS__))
#define hipMemsetAsync(...) RF_SIM_AT(hipMemsetAsync(__VA_ARGS__))
#define hipEventRecord(...) RF_SIM_AT(hipEventRecord(__VA_ARGS__))
#define hipDeviceSynchronize(...) RF_SIM_AT(hipDeviceSynchronize(__VA_ARGS__))
#define hipStreamSynchronize(...) RF_SIM_AT(hipStreamSynchronize(__VA_ARGS__))
#define hipEventSynchronize(...) RF_SIM_AT(hipEventSynchronize(__VA_ARGS__))
#endif
#else
#define hipMemcpyAsync rf_sim_memcpy_async
#define hipMemsetAsync rf_sim_memset_async
#define hipEventRecord rf_sim_event_record
#endif

#endif
