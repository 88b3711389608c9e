/* The watchdog's limit and stop (sim/watchdog.cpp), in every build: the plain and
 * AddressSanitizer simulators end the launch from a timer's signal, the ThreadSanitizer one
 * from the GPU threads' own look at the clocks (there a signal handler's reads race with the
 * host in the detector's eyes: sim.tsan_instrumented_many_races once failed on them).
 *   - a block that passes barriers forever, under a step budget it never reaches, ends with
 *     RF_SIM_TIMEOUT naming the CPU-time limit, within a bounded time;
 *   - the next launch runs to its end (the budget the watchdog lowered is back);
 *   - after rf_sim_interrupt the same block ends with RF_SIM_INTERRUPTED. */
#include <stdio.h>
#include <time.h>
#include "sim_test_util.h"

__global__ void barrier_forever(int *out) {
  for (;;) __syncthreads();
  out[0] = 1;
}

__global__ void one_barrier(int *out) {
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = 7;
}

static double seconds_now() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

int main() {
  char msg[512];
  int *out = dev_alloc<int>(2);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  rf_sim_set_step_budget(uint64_t{1} << 40);  // never the step budget: the clock ends it
  rf_sim_set_launch_timeout_ms(200);
  rf_sim_set_launch_work(0, 0);
  double t0 = seconds_now();
  hipLaunchKernelGGL(barrier_forever, dim3(1), dim3(64), 0, 0, out);
  const double took = seconds_now() - t0;
  CHECK(hipGetLastError() == hipErrorLaunchTimeOut);
  int status = rf_sim_take_status(msg, sizeof msg);
  CHECK_MSG(status == RF_SIM_TIMEOUT && strstr(msg, "limit of 200 ms of CPU time"),
            "status %d: %s", status, msg);
  // 200 ms of CPU; the wall-clock backstop is ten times that. 60 s: only a watchdog that
  // never fires fails here (ctest's TIMEOUT would too, later).
  CHECK_MSG(took < 60.0, "the launch took %.1f s", took);
  printf("timeout after %.2f s: %s\n", took, msg);

  hipLaunchKernelGGL(one_barrier, dim3(2), dim3(64), 0, 0, out);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK);
  CHECK(host_from(out, 2)[1] == 7);

  rf_sim_set_launch_timeout_ms(0);  // no limit: only the stop ends it
  rf_sim_interrupt();
  CHECK(rf_sim_interrupted() == 1);
  hipLaunchKernelGGL(barrier_forever, dim3(1), dim3(64), 0, 0, out);
  status = rf_sim_take_status(msg, sizeof msg);
  CHECK_MSG(status == RF_SIM_INTERRUPTED && strstr(msg, "interrupted"), "status %d: %s",
            status, msg);
  hipFree(out);
  return rf_test_done();
}
