/* The host runtime subset: device memory is host memory, streams and events are
 * synchronous, launches run before hipLaunchKernelGGL returns. Inside a variant's launch the
 * calls the launch contract forbids are recorded (contract.cpp). */
#define RF_SIM_RUNTIME_IMPL 1   /* the definitions below, not sim_hip_runtime.h's call-site macros */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine.h"
#include "guarded_alloc.h"
#include "sanitizer_hooks.h"

using rf_sim::engine;
using rf_sim::contract_forbidden;
using rf_sim::contract_stream;

static const char kAllocates[] = "launch must not allocate";
static const char kSynchronises[] = "launch must not synchronise";

struct rf_sim_event {
  double ms;  // host monotonic clock at the last record
};

static double now_ms() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

extern "C" {

static hipError_t device_alloc(void **ptr, size_t bytes) {
  if (!ptr) return hipErrorInvalidValue;
  *ptr = nullptr;
  if (bytes == 0) return hipSuccess;
  // Sanitizer builds: the plain heap (AddressSanitizer bounds it). Plain build: a mapping
  // with guard pages, so a kernel's out-of-range access faults and becomes `oob`.
  *ptr = rf_sim::san::tsan || rf_sim::san::asan ? malloc(bytes) : rf_sim::guarded_alloc(bytes);
  if (!*ptr) return engine().last_error = hipErrorOutOfMemory;
  return hipSuccess;
}

static hipError_t device_free(void *ptr) {
  if (!rf_sim::guarded_free(ptr)) free(ptr);
  return hipSuccess;
}

hipError_t hipMalloc(void **ptr, size_t bytes) {
  contract_forbidden("hipMalloc", kAllocates);
  return device_alloc(ptr, bytes);
}

hipError_t hipMallocAsync(void **ptr, size_t bytes, hipStream_t) {
  contract_forbidden("hipMallocAsync", kAllocates);
  return device_alloc(ptr, bytes);
}

void *rf_sim_alloc_zero(size_t bytes) {
  if (rf_sim::san::tsan || rf_sim::san::asan) return calloc(1, bytes ? bytes : 1);
  return rf_sim::guarded_alloc_zero(bytes ? bytes : 1);
}

int rf_sim_protect_readonly(void *p) { return rf_sim::guarded_protect_readonly(p) ? 0 : -1; }
int rf_sim_set_readonly(void *p, int readonly) {
  return rf_sim::guarded_set_readonly(p, readonly != 0) ? 0 : -1;
}

hipError_t hipFree(void *ptr) {
  contract_forbidden("hipFree", kAllocates);
  return device_free(ptr);
}

hipError_t hipFreeAsync(void *ptr, hipStream_t) {
  contract_forbidden("hipFreeAsync", kAllocates);
  return device_free(ptr);
}

hipError_t hipHostMalloc(void **ptr, size_t bytes, unsigned) {
  contract_forbidden("hipHostMalloc", kAllocates);
  return device_alloc(ptr, bytes);
}
hipError_t hipHostFree(void *ptr) {
  contract_forbidden("hipHostFree", kAllocates);
  return device_free(ptr);
}

static hipError_t copy(void *dst, const void *src, size_t bytes) {
  if (bytes == 0) return hipSuccess;
  if (!dst || !src) return engine().last_error = hipErrorInvalidValue;
  memmove(dst, src, bytes);
  return hipSuccess;
}

static hipError_t fill(void *dst, int value, size_t bytes) {
  if (bytes == 0) return hipSuccess;
  if (!dst) return engine().last_error = hipErrorInvalidValue;
  memset(dst, value, bytes);
  return hipSuccess;
}

/* Synchronous on a GPU (they wait for the default stream's work): a synchronisation. */
hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind) {
  contract_forbidden("hipMemcpy (synchronous)", kSynchronises);
  return copy(dst, src, bytes);
}

hipError_t hipMemset(void *dst, int value, size_t bytes) {
  contract_forbidden("hipMemset (synchronous)", kSynchronises);
  return fill(dst, value, bytes);
}

hipError_t rf_sim_memcpy_async(void *dst, const void *src, size_t bytes, hipMemcpyKind,
                               hipStream_t stream) {
  contract_stream("hipMemcpyAsync", stream, nullptr, 0);
  return copy(dst, src, bytes);
}

hipError_t rf_sim_memset_async(void *dst, int value, size_t bytes, hipStream_t stream) {
  contract_stream("hipMemsetAsync", stream, nullptr, 0);
  return fill(dst, value, bytes);
}

hipError_t hipDeviceSynchronize(void) {
  contract_forbidden("hipDeviceSynchronize", kSynchronises);
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t) {
  contract_forbidden("hipStreamSynchronize", kSynchronises);
  return hipSuccess;
}

hipError_t hipGetLastError(void) {
  hipError_t e = engine().last_error;
  engine().last_error = hipSuccess;
  return e;
}

hipError_t hipPeekAtLastError(void) { return engine().last_error; }

const char *hipGetErrorString(hipError_t err) {
  switch (err) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidConfiguration: return "invalid configuration argument";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorLaunchTimeOut: return "the launch timed out (simulator step budget)";
    case hipErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unknown error";
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device) {
  if (!prop) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  memset(prop, 0, sizeof *prop);
  strcpy(prop->name, "redfuzz-sim");
  prop->totalGlobalMem = size_t{1} << 34;
  prop->sharedMemPerBlock = rf_sim::kLdsLimit;
  prop->warpSize = rf_sim::wave_size;
  prop->maxThreadsPerBlock = 1024;
  prop->multiProcessorCount = 8;
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 0x7fffffff;
  prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
  return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t *event) {
  if (!event) return hipErrorInvalidValue;
  *event = new rf_sim_event{now_ms()};
  return hipSuccess;
}

hipError_t rf_sim_event_record(hipEvent_t event, hipStream_t stream) {
  contract_stream("hipEventRecord", stream, nullptr, 0);
  if (!event) return hipErrorInvalidValue;
  event->ms = now_ms();
  return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  contract_forbidden("hipEventSynchronize", kSynchronises);
  return event ? hipSuccess : hipErrorInvalidValue;
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
  if (!ms || !start || !stop) return hipErrorInvalidValue;
  *ms = static_cast<float>(stop->ms - start->ms);
  return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event) {
  delete event;
  return hipSuccess;
}

}  // extern "C"
