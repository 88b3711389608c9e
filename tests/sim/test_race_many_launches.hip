/* Regression: many racy launches in one process. ThreadSanitizer's report hook once called
 * code that traces events (a mutex, an instrumented function) while the runtime held its
 * report locks; when such an event filled the thread's trace part, the runtime waited on a
 * lock its own report held and the process hung (with the simulator built instrumented,
 * after ~130 launches of this test). Each launch of the racy LDS tree raises 128 reports;
 * argv[1] launches (default 80). ctest's TIMEOUT turns a hang into a failure;
 * sim.tsan_instrumented_many_races runs this file against the instrumented simulator.
 *   - ThreadSanitizer build: every launch ends with `race` naming the tree line.
 *   - every build: the status is taken cleanly after each launch, and a clean kernel after
 *     the racy ones reports nothing (no race left over from an earlier launch). */
#include <stdio.h>
#include <stdlib.h>
#include "sim_test_util.h"

template <bool kBarrierInLoop>
__global__ void tree_sum(const float *x, float *out) {
  RF_SHARED(float, s, 256);
  unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    enum { kLineTree = __LINE__ + 1 };
    if (t < stride) s[t] += s[t + stride];
    if (kBarrierInLoop) __syncthreads();
    if (blockIdx.x == 0 && t == 0 && stride == 1) {
      extern int g_line_tree;
      g_line_tree = kLineTree;
    }
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int g_line_tree;

int main(int argc, char **argv) {
  const unsigned block = 256, blocks = 2;
  const int launches = argc > 1 ? atoi(argv[1]) : 80;
  std::vector<float> ones(blocks * block, 1.0f);
  float *dx = dev_from(ones);
  float *dout = dev_alloc<float>(blocks);
  char msg[512], needle[64];
  int raced = 0;
  for (int i = 0; i < launches; i++) {
    rf_sim_configure(i % 4, static_cast<uint64_t>(i), 32);
    hipLaunchKernelGGL(tree_sum<false>, dim3(blocks), dim3(block), 0, 0, dx, dout);
    CHECK(hipGetLastError() == hipSuccess);
    int status = rf_sim_take_status(msg, sizeof msg);
    if (rf_sim_race_detection()) {
      snprintf(needle, sizeof needle, "test_race_many_launches.hip:%d", g_line_tree);
      CHECK_MSG(status == RF_SIM_RACE && strstr(msg, needle) && strstr(msg, "earlier"),
                "launch %d: want race at %s: %s", i, needle, msg);
      raced += status == RF_SIM_RACE;
    } else {
      CHECK_MSG(status == RF_SIM_OK, "launch %d: %s", i, msg);
    }
  }
  printf("%d racy launches, %d reported as race; last: %s\n", launches, raced, msg);
  hipLaunchKernelGGL(tree_sum<true>, dim3(blocks), dim3(block), 0, 0, dx, dout);
  int status = rf_sim_take_status(msg, sizeof msg);
  CHECK_MSG(status == RF_SIM_OK && host_from(dout, blocks)[1] == static_cast<float>(block),
            "clean kernel after the racy ones: %s", msg);
  hipFree(dx);
  hipFree(dout);
  return rf_test_done();
}
