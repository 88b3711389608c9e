/* Planted bug 2: an LDS tree reduction without the barrier inside its loop. Thread t reads
 * s[t + stride] while thread t + stride may still be adding into it.
 *   - ThreadSanitizer build: `race` naming the tree line, under every schedule (the launch
 *     ends at the race: no sum is written there).
 *   - every other build: the sum is wrong under in-order and wave-skew.
 *   - with the barrier the sum is exact and nothing is reported. */
#include "sim_test_util.h"

template <bool kBarrierInLoop>
__global__ void tree_sum(const float *x, float *out) {
  RF_SHARED(float, s, 1024);
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

static float run(bool barrier, int schedule, uint64_t seed, unsigned block, int *status, char *msg,
                 size_t len) {
  const unsigned blocks = 2;
  std::vector<float> ones(blocks * block, 1.0f);  // every partial sum is exact
  float *dx = dev_from(ones);
  float *dout = dev_alloc<float>(blocks);
  rf_sim_configure(schedule, seed, 32);
  if (barrier)
    hipLaunchKernelGGL(tree_sum<true>, dim3(blocks), dim3(block), 0, 0, dx, dout);
  else
    hipLaunchKernelGGL(tree_sum<false>, dim3(blocks), dim3(block), 0, 0, dx, dout);
  CHECK(hipGetLastError() == hipSuccess);
  *status = rf_sim_take_status(msg, len);
  float got = host_from(dout, blocks)[1];
  hipFree(dx);
  hipFree(dout);
  return got;
}

int main() {
  char msg[512], needle[64];
  int status;
  for (unsigned block : {64u, 256u}) {
    for (int s = 0; s < 4; s++) {
      float got = run(false, s, 3, block, &status, msg, sizeof msg);
      printf("no barrier in the loop, block %u, %s: sum %g of %u, status %s: %s\n", block,
             kScheduleNames[s], got, block, rf_sim_status_name(status), msg);
      if (!rf_sim_race_detection() && (s == RF_SIM_SCHED_IN_ORDER || s == RF_SIM_SCHED_WAVE_SKEW))
        CHECK_MSG(got != static_cast<float>(block), "%s should give a wrong sum",
                  kScheduleNames[s]);
      if (rf_sim_race_detection()) {
        snprintf(needle, sizeof needle, "test_race_tree.hip:%d", g_line_tree);
        CHECK_MSG(status == RF_SIM_RACE && strstr(msg, needle), "block %u %s: want race at %s: %s",
                  block, kScheduleNames[s], needle, msg);
      } else {
        CHECK_MSG(status == RF_SIM_OK, "%s", msg);
      }
      got = run(true, s, 3, block, &status, msg, sizeof msg);
      CHECK_MSG(got == static_cast<float>(block) && status == RF_SIM_OK,
                "with the barrier, block %u %s: sum %g, %s", block, kScheduleNames[s], got, msg);
    }
    for (uint64_t seed = 1; seed <= 4 && !rf_sim_race_detection(); seed++) {
      float got = run(false, RF_SIM_SCHED_WAVE_SKEW, seed, block, &status, msg, sizeof msg);
      CHECK_MSG(got != static_cast<float>(block), "wave-skew seed %llu gave the right sum",
                (unsigned long long)seed);
    }
  }
  return rf_test_done();
}
