/* Faults are verdicts (plain build): a read or write past a device buffer hits its guard
 * page and the launch ends with RF_SIM_OOB naming the offset; a wild pointer or an integer
 * division by zero ends it with RF_SIM_CRASH naming the thread; in every case the process
 * goes on and the next launch (same thread slots, same block shapes) runs normally, many
 * times over (the signal is not left blocked, the faulting fiber's slot is usable again).
 * Sanitizer builds leave faults to the sanitizer: the test only says so. */
#include <stdint.h>
#include "sim_test_util.h"

__global__ void read_all(const float *x, float *out) {  // no bounds check: the planted bug
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[i] + 1.0f;
}

__global__ void write_past(float *y, unsigned n, unsigned past) {
  __syncthreads();  // the other threads wait here when one faults
  if (threadIdx.x == 3) y[n + past] = 1.0f;
}

__global__ void wild(float *y) {
  if (threadIdx.x == 7 && blockIdx.x == 1) *(volatile float *)(uintptr_t)8 = 1.0f;
  y[threadIdx.x] = 2.0f;
}

__global__ void divide(int *y, int d) { y[threadIdx.x] = 100 / (d - (int)blockIdx.x); }

static void expect_status(int want, const char *needle) {
  char msg[512];
  int st = rf_sim_take_status(msg, sizeof msg);
  CHECK_MSG(st == want, "status %d (%s), want %d", st, msg, want);
  CHECK_MSG(strstr(msg, needle) != nullptr, "'%s' lacks '%s'", msg, needle);
  hipGetLastError();
}

static void correct_launch() {
  float *x = dev_from(std::vector<float>(64, 1.0f));
  float *out = dev_alloc<float>(64);
  hipLaunchKernelGGL(read_all, dim3(2), dim3(32), 0, 0, x, out);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  CHECK(hipGetLastError() == hipSuccess);
  std::vector<float> got = host_from(out, 64);
  CHECK(got[0] == 2.0f && got[63] == 2.0f);
  hipFree(x);
  hipFree(out);
}

int main() {
#if defined(RF_TSAN) || defined(RF_ASAN)
  printf("faults are left to the sanitizer in this build\n");
  return rf_test_done();
#else
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  for (int round = 0; round < 20; round++) {
    // n = 31 floats, grid 3 x block 1024: the read of x[32] is the first past the buffer
    // (31 floats round up to 128 bytes with the 16-byte granule: offset 128 faults).
    float *x = dev_from(std::vector<float>(31, 1.0f));
    float *out = dev_alloc<float>(3 * 1024);
    hipLaunchKernelGGL(read_all, dim3(3), dim3(1024), 0, 0, x, out);
    expect_status(RF_SIM_OOB, "oob: read at byte offset 128 of device buffer #");
    hipFree(x);
    hipFree(out);

    float *y = dev_alloc<float>(64);
    hipLaunchKernelGGL(write_past, dim3(2), dim3(64), 0, 0, y, 64u, 1000u);
    expect_status(RF_SIM_OOB, "oob: write at byte offset 4256 of device buffer #");
    hipLaunchKernelGGL(wild, dim3(3), dim3(32), 0, 0, y);
    expect_status(RF_SIM_CRASH, "crash: SIGSEGV (bad address) at address 0x8 by thread (7,0,0) of block (1,0,0)");
    int *iy = dev_alloc<int>(32);
    hipLaunchKernelGGL(divide, dim3(3), dim3(32), 0, 0, iy, 2);
    expect_status(RF_SIM_CRASH, "crash: SIGFPE (arithmetic fault)");
    hipFree(y);
    hipFree(iy);
    correct_launch();
  }
  CHECK(strcmp(rf_sim_status_name(RF_SIM_CRASH), "crash") == 0);
  return rf_test_done();
#endif
}
