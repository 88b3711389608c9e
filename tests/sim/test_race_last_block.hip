/* The "last block" pattern in its common form: thread 0 of each block publishes the block's
 * partial to global memory and takes a ticket with atomicAdd; after __syncthreads() the
 * block that drew the last ticket reads every partial (each of its threads a strided share).
 * Without __threadfence() before the ticket the ThreadSanitizer build must report a race
 * naming the publishing line and the reading line, under every schedule and block size; with
 * the fence nothing is reported. (Before every (block, thread) had its own detector identity
 * this form was silent: thread 0 of every block ran as the host's identity, whose releases
 * between blocks ordered each block's write before the next block's read.) The plain build
 * runs the blocks one after another: the sum is right either way. */
#include "sim_test_util.h"

int g_line_publish, g_line_read;

template <bool kFence>
__global__ void last_block_sum(float *partial, unsigned *tickets, float *out) {
  RF_SHARED(unsigned, am_last, 1);
  enum { kLinePublish = __LINE__ + 2 };
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = static_cast<float>(blockIdx.x + 1);
    if (kFence) __threadfence();
    am_last[0] = atomicAdd(tickets, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!am_last[0]) return;
  float s = 0.0f;
  enum { kLineRead = __LINE__ + 1 };
  for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x) s += partial[k];
  atomicAdd(out, s);
  if (threadIdx.x == 0) {  // the last block only: no race on these two
    g_line_publish = kLinePublish;
    g_line_read = kLineRead;
  }
}

static float run(bool fence, int schedule, unsigned grid, unsigned block, int *status, char *msg,
                 size_t len) {
  float *partial = dev_alloc<float>(grid);
  float *out = dev_from(std::vector<float>{0.0f});
  unsigned *tickets = dev_from(std::vector<unsigned>{0});
  rf_sim_configure(schedule, 3, 32);
  if (fence)
    hipLaunchKernelGGL(last_block_sum<true>, dim3(grid), dim3(block), 0, 0, partial, tickets, out);
  else
    hipLaunchKernelGGL(last_block_sum<false>, dim3(grid), dim3(block), 0, 0, partial, tickets, out);
  CHECK(hipGetLastError() == hipSuccess);
  *status = rf_sim_take_status(msg, len);
  float got = host_from(out, 1)[0];
  hipFree(partial);
  hipFree(out);
  hipFree(tickets);
  return got;
}

int main() {
  char msg[512], p[64], r[64];
  int status;
  const unsigned shapes[][2] = {{2, 32}, {5, 256}, {3, 1024}, {40, 64}};
  for (int s = 0; s < 4; s++) {
    for (const auto &shape : shapes) {
      unsigned grid = shape[0], block = shape[1];
      float want = grid * (grid + 1) / 2.0f;
      float got = run(true, s, grid, block, &status, msg, sizeof msg);
      CHECK_MSG(got == want && status == RF_SIM_OK, "with fence, %s, grid %u block %u: %g, %s",
                kScheduleNames[s], grid, block, got, msg);
      got = run(false, s, grid, block, &status, msg, sizeof msg);
      if (rf_sim_race_detection()) {
        snprintf(p, sizeof p, "test_race_last_block.hip:%d", g_line_publish);
        snprintf(r, sizeof r, "test_race_last_block.hip:%d", g_line_read);
        CHECK_MSG(status == RF_SIM_RACE && strstr(msg, p) && strstr(msg, r),
                  "%s, grid %u block %u: want %s and %s: %s", kScheduleNames[s], grid, block, p,
                  r, msg);
      } else {
        CHECK_MSG(got == want && status == RF_SIM_OK, "%s: %g %s", kScheduleNames[s], got, msg);
      }
    }
  }
  return rf_test_done();
}
