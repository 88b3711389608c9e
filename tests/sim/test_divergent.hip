/* Divergent barriers and wave operations end the launch with `divergent-barrier` (never a
 * hang), hipErrorLaunchFailure from hipGetLastError, and a message naming the lines; the
 * next launch runs normally. A launch that never ends is stopped by the step budget. */
#include "sim_test_util.h"

enum { kLineBarrierInIf = __LINE__ + 3 };
__global__ void barrier_in_if(int *out) {
  if (threadIdx.x < 16) {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

enum { kLineThen = __LINE__ + 5, kLineElse = __LINE__ + 7 };
__global__ void barrier_per_branch(int *out) {
  RF_SHARED(int, s, 64);
  if (threadIdx.x % 2) {
    s[threadIdx.x] = 1;
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}

enum { kLineShuffle = __LINE__ + 4 };
__global__ void shuffle_after_exit(float *out) {
  float v = static_cast<float>(threadIdx.x);
  if (threadIdx.x % 32 >= 24) return;  // a common bug: lanes leave before the collective
  v += __shfl_down(v, 1);
  out[threadIdx.x] = v;
}

enum { kLineShflA = __LINE__ + 4, kLineShflB = __LINE__ + 6 };
__global__ void shuffle_per_branch(int *out) {
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < 8)
    v = __shfl_xor(v, 1);
  else
    v = __shfl_xor(v, 2);
  out[threadIdx.x] = v;
}

__global__ void barrier_forever(int *out) {
  for (;;) __syncthreads();
  out[0] = 1;
}

__global__ void all_reach(int *out) {  // each block its own part: blocks are unordered
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}

static bool has_line(const char *msg, int line) {
  char needle[64];
  snprintf(needle, sizeof needle, "test_divergent.hip:%d", line);
  return strstr(msg, needle) != nullptr;
}

template <typename T>
static void expect_divergent(void (*kernel)(T *), unsigned block, int schedule, int line1,
                             int line2, const char *what) {
  T *out = dev_alloc<T>(1024);
  rf_sim_configure(schedule, 5, 32);
  hipLaunchKernelGGL(kernel, dim3(2), dim3(block), 0, 0, out);
  CHECK_MSG(hipGetLastError() == hipErrorLaunchFailure, "%s", what);
  char msg[512];
  int status = rf_sim_take_status(msg, sizeof msg);
  printf("%s, %s: %s\n", what, kScheduleNames[schedule], msg);
  CHECK_MSG(status == RF_SIM_DIVERGENT_BARRIER, "%s: %s %s", what, rf_sim_status_name(status), msg);
  CHECK_MSG(has_line(msg, line1) && (line2 == 0 || has_line(msg, line2)), "%s: lines %d %d: %s",
            what, line1, line2, msg);
  hipFree(out);
}

static void expect_recovered() {
  int *out = dev_alloc<int>(3 * 64);
  hipLaunchKernelGGL(all_reach, dim3(3), dim3(64), 0, 0, out);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  std::vector<int> got = host_from(out, 64);
  for (int t = 0; t < 64; t++) CHECK(got[t] == t);
  hipFree(out);
}

__global__ void one_barrier(int *out) {
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = 1;
}

int main() {
  for (int s = 0; s < 4; s++) {
    expect_divergent(barrier_in_if, 64, s, kLineBarrierInIf, 0, "barrier in if");
    expect_recovered();
    expect_divergent(barrier_per_branch, 64, s, kLineThen, kLineElse, "barrier per branch");
    expect_recovered();
    expect_divergent(shuffle_after_exit, 64, s, kLineShuffle, 0, "shuffle after exit");
    expect_recovered();
    expect_divergent(shuffle_per_branch, 32, s, kLineShflA, kLineShflB, "shuffle per branch");
    expect_recovered();
  }
  // Watchdog: a block that keeps passing barriers forever is stopped by the step budget.
  rf_sim_set_step_budget(20000);
  int *out = dev_alloc<int>(1);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  hipLaunchKernelGGL(barrier_forever, dim3(1), dim3(64), 0, 0, out);
  CHECK(hipGetLastError() == hipErrorLaunchTimeOut);
  char msg[512];
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_TIMEOUT);
  CHECK_MSG(strstr(msg, "step budget") != nullptr, "%s", msg);
  // ... which grows with a launch past 2^22 threads (64 switches a thread): one element a
  // thread at n = 2^31 passed 2^28 switches and was a false `timeout`. The same barrier
  // kernel at 2^22 + 64 threads is within the grown budget, and a spinning block of a small
  // launch still ends at the set one (above).
  CHECK(rf_sim_launch_budget(20000, 64) == 20000);
  CHECK(rf_sim_launch_budget(20000, uint64_t{1} << 22) == 20000);
  CHECK(rf_sim_launch_budget(20000, (uint64_t{1} << 22) + 64) == ((uint64_t{1} << 22) + 64) * 64);
  CHECK(rf_sim_launch_budget(uint64_t{1} << 40, (uint64_t{1} << 22) + 64) == uint64_t{1} << 40);
  CHECK(rf_sim_launch_budget(0, UINT64_MAX) == UINT64_MAX);
  int *many = dev_alloc<int>(1);
  hipLaunchKernelGGL(one_barrier, dim3((1u << 16) + 1), dim3(64), 0, 0, many);
  CHECK_MSG(hipGetLastError() == hipSuccess, "%s", "2^22 + 64 threads, one barrier each");
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  hipLaunchKernelGGL(barrier_forever, dim3(1), dim3(64), 0, 0, out);   // the set budget is back
  CHECK(hipGetLastError() == hipErrorLaunchTimeOut);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_TIMEOUT);
  rf_sim_set_step_budget(uint64_t{1} << 28);
  expect_recovered();
  hipFree(out);
  hipFree(many);
  return rf_test_done();
}
