/* A race ends its launch (sim/engine.cpp, count_switch; issue 47: a racy tree raised ~1,600
 * reports a launch, each symbolised by the runtime, and a TSan sweep of it crawled). The
 * first race is the launch's verdict, so under ThreadSanitizer the launch ends at the next
 * switch after it, before more reports:
 *   - ThreadSanitizer build: `race` naming the racing lines, the launch itself succeeds (a
 *     race fails no GPU launch), and no thread gets past the barrier after the race;
 *   - every build: the same kernel's marks are all written where nothing is detected, and a
 *     clean launch after the racy one runs to its end. */
#include <stdio.h>
#include "sim_test_util.h"

__global__ void race_then_mark(int *mark) {
  RF_SHARED(int, s, 64);
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  __syncthreads();
  s[t] += 1;                               // each thread its own slot ...
  const int v = s[(t + 1) % blockDim.x];   // ... and its neighbour's, with no barrier between
  __syncthreads();
  mark[t] = v + 1000;
}

__global__ void clean_mark(int *mark) {
  __syncthreads();
  mark[threadIdx.x] = 5;
}

int main() {
  const unsigned n = 64;
  char msg[512];
  std::vector<int> zeros(n, 0);
  int *mark = dev_from(zeros);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  hipLaunchKernelGGL(race_then_mark, dim3(1), dim3(n), 0, 0, mark);
  CHECK(hipGetLastError() == hipSuccess);
  const int status = rf_sim_take_status(msg, sizeof msg);
  std::vector<int> got = host_from(mark, n);
  int written = 0;
  for (unsigned t = 0; t < n; t++) written += got[t] >= 1000;
  printf("status %s: %s; %d of %u marks written\n", rf_sim_status_name(status), msg, written, n);
  if (rf_sim_race_detection()) {
    CHECK_MSG(status == RF_SIM_RACE && strstr(msg, "write at tests/sim/test_race_ends_launch.hip:") &&
                  strstr(msg, "read at tests/sim/test_race_ends_launch.hip:"),
              "want the race of the slot's write and the neighbour's read: %s", msg);
    CHECK_MSG(written == 0, "%d threads went on past the race's next barrier", written);
  } else {
    CHECK_MSG(status == RF_SIM_OK && written == static_cast<int>(n), "status %d: %s, %d marks",
              status, msg, written);
  }
  hipLaunchKernelGGL(clean_mark, dim3(1), dim3(n), 0, 0, mark);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s", msg);
  CHECK(host_from(mark, n)[n - 1] == 5);
  hipFree(mark);
  return rf_test_done();
}
