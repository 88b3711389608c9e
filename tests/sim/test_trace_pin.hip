/* The exact interleaving every schedule produces, pinned: each GPU thread takes a ticket at
 * every stretch between scheduling points (block start, barriers, wave shuffles, its end,
 * which comes earlier for one wave than for the others), and the whole launch's ticket
 * order is hashed per schedule over seeds, wave sizes and 1-D and 2-D blocks. The expected
 * hashes were printed by this test built against the engine before the switch-path changes
 * of issue 14 (main at 9eb7da1): any change to which thread runs when, or to the thread
 * indices a thread sees, changes them (docs/SIMULATOR.md, "Performance": the switch work
 * must not change what is modelled). */
#include <stdio.h>
#include "sim_test_util.h"

constexpr int kCap = 1 << 14;

__global__ void traced(int *counter, unsigned *trace) {
  unsigned t = threadIdx.x + blockDim.x * threadIdx.y;
  auto note = [&](unsigned stretch) {
    int k = atomicAdd(counter, 1);
    if (k < kCap) trace[k] = blockIdx.x << 24 | stretch << 20 | threadIdx.y << 10 | threadIdx.x;
  };
  note(0);
  __syncthreads();
  note(1);
  unsigned v = __shfl_xor(t, 1);
  note(2 + (v & 1));
  __syncthreads();
  note(4);
  if (t / warpSize == 1) return;  // wave 1 ends here, the others after one more shuffle
  v = __shfl_down(v, 2);
  note(5 + (v & 1));
}

static uint64_t fnv1a(uint64_t h, uint32_t v) {
  for (int i = 0; i < 4; i++) h = (h ^ (v >> (8 * i) & 0xff)) * 0x100000001b3ull;
  return h;
}

/* The hash of the launch's tickets for one schedule over its configurations. */
static uint64_t schedule_hash(int schedule) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned wave : {32u, 64u})
    for (uint64_t seed : {1ull, 7ull})
      for (dim3 block : {dim3(96), dim3(16, 6)}) {
        rf_sim_configure(schedule, seed, wave);
        int *counter = dev_from(std::vector<int>{0});
        unsigned *trace = dev_alloc<unsigned>(kCap);
        hipLaunchKernelGGL(traced, dim3(3), block, 0, 0, counter, trace);
        char msg[512];
        CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s", msg);
        int n = host_from(counter, 1)[0];
        CHECK(n > 0 && n < kCap);
        std::vector<unsigned> got = host_from(trace, n);
        for (unsigned x : got) h = fnv1a(h, x);
        h = fnv1a(h, static_cast<uint32_t>(n));
        hipFree(counter);
        hipFree(trace);
      }
  return h;
}

int main() {
  // in-order, reverse, random, wave-skew (RF_SIM_SCHED_* order).
  const uint64_t expected[4] = {0x2269ae46c1074665ull, 0x3b06c72ed30264e5ull, 0x019aef18b0aab965ull,
                                0x56c50f1959e47765ull};
  for (int s = 0; s < 4; s++) {
    uint64_t h = schedule_hash(s);
    printf("%s 0x%016llxull\n", kScheduleNames[s], static_cast<unsigned long long>(h));
    CHECK_MSG(h == expected[s], "%s: interleaving hash 0x%016llx, pinned 0x%016llx",
              kScheduleNames[s], static_cast<unsigned long long>(h),
              static_cast<unsigned long long>(expected[s]));
  }
  return rf_test_done();
}
