/* The host side of the HIP subset: launch configuration errors through hipGetLastError,
 * device properties, memory and event calls, multi-dimensional grids, argument
 * conversion, template kernels, warpSize, and the configuration checks. */
#include "sim_test_util.h"

__global__ void record_ids(unsigned *out, int scale, float half) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[b * n + t] = (b * n + t) * static_cast<unsigned>(scale) + (half == 0.5f ? 1u : 0u);
}

__global__ void wave_size_kernel(int *out) { out[threadIdx.x] = warpSize; }

template <int kA, int kB>
__global__ void template_kernel(int *out) {
  out[threadIdx.x] = kA * kB;
}

enum { kLineBadLaunch = __LINE__ + 2 };
static void bad_launch(dim3 grid, dim3 block, size_t shmem, hipError_t want) {
  hipLaunchKernelGGL(wave_size_kernel, grid, block, shmem, 0, nullptr);
  CHECK(hipPeekAtLastError() == want);  // peek keeps the error
  CHECK(hipGetLastError() == want);     // get returns and clears it
  CHECK(hipGetLastError() == hipSuccess);
  char msg[512], needle[64];
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);
  snprintf(needle, sizeof needle, "test_launch.hip:%d", kLineBadLaunch);
  CHECK_MSG(strstr(msg, needle) != nullptr, "%s", msg);
}

__global__ void nested_launch(int *out) {
  hipLaunchKernelGGL(wave_size_kernel, dim3(1), dim3(1), 0, 0, out);
}

int main() {
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  bad_launch(dim3(1), dim3(0), 0, hipErrorInvalidConfiguration);
  bad_launch(dim3(1), dim3(1025), 0, hipErrorInvalidConfiguration);
  bad_launch(dim3(1), dim3(512, 4), 0, hipErrorInvalidConfiguration);
  bad_launch(dim3(1), dim3(1, 1, 65), 0, hipErrorInvalidConfiguration);
  bad_launch(dim3(0), dim3(32), 0, hipErrorInvalidConfiguration);
  bad_launch(dim3(2, 0), dim3(32), 0, hipErrorInvalidConfiguration);
  bad_launch(dim3(1), dim3(32), 65537, hipErrorInvalidValue);

  for (unsigned wave : {32u, 64u}) {
    rf_sim_configure(RF_SIM_SCHED_RANDOM, 1, wave);
    hipDeviceProp_t prop;
    CHECK(hipGetDeviceProperties(&prop, 0) == hipSuccess);
    CHECK(strcmp(prop.name, "redfuzz-sim") == 0);
    CHECK(prop.multiProcessorCount == 8);
    CHECK(prop.warpSize == static_cast<int>(wave));
    CHECK(prop.sharedMemPerBlock == 65536);
    int *ws = dev_alloc<int>(3);
    hipLaunchKernelGGL(wave_size_kernel, dim3(1), dim3(3), 0, 0, ws);
    std::vector<int> got = host_from(ws, 3);
    CHECK(got[0] == static_cast<int>(wave) && got[2] == static_cast<int>(wave));
    hipFree(ws);
  }
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 1) == hipErrorInvalidDevice);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);

  // A bad configuration is reported and the defaults are used.
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 48);
  char msg[512];
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);
  CHECK_MSG(strstr(msg, "wave 48") != nullptr, "%s", msg);
  CHECK(warpSize == 32);
  rf_sim_configure(7, 0, 32);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);

  // Every block of a 3-D grid and every thread of a 3-D block runs exactly once, and the
  // arguments convert to the parameter types (size_t -> int, double -> float).
  dim3 grid(3, 2, 2), block(4, 3, 2);
  unsigned total = 3 * 2 * 2 * 4 * 3 * 2;
  unsigned *ids = dev_alloc<unsigned>(total);
  CHECK(hipMemset(ids, 0xff, total * sizeof(unsigned)) == hipSuccess);
  size_t scale = 2;
  hipLaunchKernelGGL(record_ids, grid, block, 0, 0, ids, scale, 0.5);
  CHECK(hipGetLastError() == hipSuccess);
  std::vector<unsigned> got = host_from(ids, total);
  for (unsigned i = 0; i < total; i++) CHECK(got[i] == 2 * i + 1);

  // Templates with two arguments need parentheses, as with HIP's macro.
  int *tk = dev_alloc<int>(2);
  hipLaunchKernelGGL((template_kernel<3, 7>), dim3(1), dim3(2), 0, 0, tk);
  CHECK(host_from(tk, 2)[1] == 21);

  // Memory and events.
  void *none = reinterpret_cast<void *>(1);
  CHECK(hipMalloc(&none, 0) == hipSuccess && none == nullptr);
  unsigned *copy = dev_alloc<unsigned>(total);
  CHECK(hipMemcpy(copy, ids, total * sizeof(unsigned), hipMemcpyDeviceToDevice) == hipSuccess);
  CHECK(hipMemsetAsync(ids, 0, total * sizeof(unsigned)) == hipSuccess);
  CHECK(hipMemcpyAsync(ids, copy, 4, hipMemcpyDeviceToDevice) == hipSuccess);
  CHECK(hipStreamSynchronize(nullptr) == hipSuccess && hipDeviceSynchronize() == hipSuccess);
  got = host_from(ids, total);
  CHECK(got[0] == 1 && got[1] == 0);
  hipEvent_t start = nullptr, stop = nullptr;
  CHECK(hipEventCreate(&start) == hipSuccess && hipEventCreate(&stop) == hipSuccess);
  CHECK(hipEventRecord(start) == hipSuccess);
  hipLaunchKernelGGL(record_ids, grid, block, 0, 0, ids, 1, 0.0f);
  CHECK(hipEventRecord(stop) == hipSuccess && hipEventSynchronize(stop) == hipSuccess);
  float ms = -1.0f;
  CHECK(hipEventElapsedTime(&ms, start, stop) == hipSuccess && ms >= 0.0f);
  CHECK(hipEventDestroy(start) == hipSuccess && hipEventDestroy(stop) == hipSuccess);
  CHECK(strcmp(hipGetErrorString(hipSuccess), "no error") == 0);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);

  // A kernel that launches a kernel is refused and the launch fails.
  hipLaunchKernelGGL(nested_launch, dim3(1), dim3(2), 0, 0, tk);
  CHECK(hipGetLastError() == hipErrorLaunchFailure);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);
  CHECK_MSG(strstr(msg, "inside a kernel") != nullptr, "%s", msg);

  CHECK(strcmp(rf_sim_status_name(RF_SIM_DIVERGENT_BARRIER), "divergent-barrier") == 0);
  CHECK(strcmp(rf_sim_status_name(RF_SIM_RACE), "race") == 0);
  CHECK(rf_sim_status_name(99) == nullptr);
  hipFree(ids);
  hipFree(copy);
  hipFree(tk);
  return rf_test_done();
}
