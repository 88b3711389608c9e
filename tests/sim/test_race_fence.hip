/* The "last block finishes" pattern: each block publishes a partial, fences, takes a ticket
 * with atomicAdd; the block with the last ticket reads every partial. With __threadfence it
 * is correct and nothing is reported; without it the ThreadSanitizer build reports a race
 * between a partial's write and its read.
 * Block b's thread b does the work: thread slot i of every block is one detector identity
 * (docs/SIMULATOR.md), so the blocks' publishers must be different slots for the detector
 * to see them as different threads. */
#include "sim_test_util.h"

template <bool kFence>
__global__ void last_block_sum(float *partial, unsigned *tickets, float *out) {
  unsigned b = blockIdx.x;
  if (threadIdx.x != b % blockDim.x) return;
  enum { kLinePublish = __LINE__ + 1 };
  partial[b] = static_cast<float>(b + 1);
  if (kFence) __threadfence();
  unsigned ticket = atomicAdd(tickets, 1u);
  if (ticket == gridDim.x - 1) {
    float s = 0.0f;
    enum { kLineCollect = __LINE__ + 1 };
    for (unsigned k = 0; k < gridDim.x; k++) s += partial[k];
    out[0] = s;
    extern int g_line_publish, g_line_collect;
    g_line_publish = kLinePublish;
    g_line_collect = kLineCollect;
  }
}
int g_line_publish, g_line_collect;

static float run(bool fence, int schedule, int *status, char *msg, size_t len) {
  const unsigned grid = 8;
  float *partial = dev_alloc<float>(grid), *out = dev_alloc<float>(1);
  unsigned *tickets = dev_from(std::vector<unsigned>{0});
  rf_sim_configure(schedule, 2, 32);
  if (fence)
    hipLaunchKernelGGL(last_block_sum<true>, dim3(grid), dim3(32), 0, 0, partial, tickets, out);
  else
    hipLaunchKernelGGL(last_block_sum<false>, dim3(grid), dim3(32), 0, 0, partial, tickets, out);
  CHECK(hipGetLastError() == hipSuccess);
  *status = rf_sim_take_status(msg, len);
  float got = host_from(out, 1)[0];
  hipFree(partial);
  hipFree(out);
  hipFree(tickets);
  return got;
}

int main() {
  char msg[512], p[64], c[64];
  int status;
  for (int s = 0; s < 4; s++) {
    float got = run(true, s, &status, msg, sizeof msg);
    CHECK_MSG(got == 36.0f && status == RF_SIM_OK, "with fence, %s: %g, %s", kScheduleNames[s], got,
              msg);
    got = run(false, s, &status, msg, sizeof msg);
    printf("without fence, %s: %g, status %s: %s\n", kScheduleNames[s], got,
           rf_sim_status_name(status), msg);
    if (rf_sim_race_detection()) {
      snprintf(p, sizeof p, "test_race_fence.hip:%d", g_line_publish);
      snprintf(c, sizeof c, "test_race_fence.hip:%d", g_line_collect);
      CHECK_MSG(status == RF_SIM_RACE && strstr(msg, p) && strstr(msg, c), "want %s and %s: %s", p,
                c, msg);
    } else {
      // Blocks run one after another on the CPU: the missing fence cannot change the sum.
      CHECK_MSG(got == 36.0f && status == RF_SIM_OK, "%s: %g %s", kScheduleNames[s], got, msg);
    }
  }
  return rf_test_done();
}
