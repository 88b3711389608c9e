/* Schedules: a correct deterministic kernel gives the same bits under every schedule and
 * seed; a kernel whose result depends on the interleaving gives reproducible bits per
 * (schedule, seed); each schedule interleaves the way it is documented. */
#include <algorithm>
#include "sim_test_util.h"

/* Deterministic: per-thread strided sums, then an LDS tree with a barrier per level. */
__global__ void tree_sum(const float *x, float *out, int n) {
  RF_SHARED(float, s, 1024);
  unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += x[i];
  s[t] = acc;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

/* Order-dependent: float atomics over values of very different magnitudes. */
__global__ void atomic_sum(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, x[i]);
}

/* Records the order in which threads pass the point after a barrier. */
__global__ void tickets_after_barrier(int *counter, int *ticket) {
  __syncthreads();
  ticket[threadIdx.x] = atomicAdd(counter, 1);
}

static std::vector<float> spread_input(int n) {
  std::vector<float> x(n);
  for (int i = 0; i < n; i++)
    x[i] = ldexpf(1.0f + (i % 7) / 8.0f, (i * 13) % 40 - 20) * (i % 3 ? 1 : -1);
  return x;
}

template <typename Launch>
static std::vector<float> run(int schedule, uint64_t seed, unsigned wave, int n, int outs,
                              Launch launch) {
  std::vector<float> x = spread_input(n);
  float *dx = dev_from(x);
  float *dout = dev_from(std::vector<float>(outs, 0.0f));
  rf_sim_configure(schedule, seed, wave);
  launch(dx, dout);
  CHECK(hipGetLastError() == hipSuccess);
  char msg[512];
  CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s", msg);
  std::vector<float> got = host_from(dout, outs);
  hipFree(dx);
  hipFree(dout);
  return got;
}

static void test_deterministic_kernel() {
  const int n = 5000;
  std::vector<float> reference;
  for (unsigned wave : {32u, 64u})
    for (int s = 0; s < 4; s++)
      for (uint64_t seed : {1ull, 2ull, 99ull}) {
        std::vector<float> got = run(s, seed, wave, n, 3, [&](float *dx, float *dout) {
          hipLaunchKernelGGL(tree_sum, dim3(3), dim3(256), 0, 0, dx, dout, n);
        });
        if (reference.empty()) reference = got;
        bool same = true;
        for (int k = 0; k < 3; k++) same = same && float_bits(got[k]) == float_bits(reference[k]);
        CHECK_MSG(same, "tree_sum differs under %s seed %llu wave %u", kScheduleNames[s],
                  (unsigned long long)seed, wave);
      }
}

static void test_reproducible_bits() {
  const int n = 3000;
  auto launch = [&](float *dx, float *dout) {
    hipLaunchKernelGGL(atomic_sum, dim3((n + 127) / 128), dim3(128), 0, 0, dx, dout, n);
  };
  std::vector<uint32_t> distinct;
  for (int s = 0; s < 4; s++)
    for (uint64_t seed : {1ull, 5ull}) {
      uint32_t a = float_bits(run(s, seed, 32, n, 1, launch)[0]);
      uint32_t b = float_bits(run(s, seed, 32, n, 1, launch)[0]);
      CHECK_MSG(a == b, "%s seed %llu: %08x then %08x", kScheduleNames[s], (unsigned long long)seed,
                a, b);
      if (std::find(distinct.begin(), distinct.end(), a) == distinct.end()) distinct.push_back(a);
    }
  // The schedules really reorder the atomics: the rounding differs between some of them.
  CHECK_MSG(distinct.size() >= 2, "all schedules gave the same order-dependent sum");
}

static std::vector<int> launch_tickets(unsigned block) {
  int *counter = dev_from(std::vector<int>{0});
  int *ticket = dev_alloc<int>(block);
  hipLaunchKernelGGL(tickets_after_barrier, dim3(1), dim3(block), 0, 0, counter, ticket);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  std::vector<int> t = host_from(ticket, block);
  hipFree(counter);
  hipFree(ticket);
  return t;
}

static std::vector<int> tickets(int schedule, uint64_t seed, unsigned wave, unsigned block) {
  rf_sim_configure(schedule, seed, wave);
  return launch_tickets(block);
}

static void test_interleavings() {
  const unsigned block = 100;  // 4 waves of 32, the last one partial
  std::vector<int> in_order = tickets(RF_SIM_SCHED_IN_ORDER, 1, 32, block);
  std::vector<int> reverse = tickets(RF_SIM_SCHED_REVERSE, 1, 32, block);
  for (unsigned t = 0; t < block; t++) {
    CHECK(in_order[t] == static_cast<int>(t));
    CHECK(reverse[t] == static_cast<int>(block - 1 - t));
  }
  // random: a reproducible permutation per seed, not the identity, and seeds differ.
  std::vector<int> r1 = tickets(RF_SIM_SCHED_RANDOM, 1, 32, block);
  CHECK(r1 == tickets(RF_SIM_SCHED_RANDOM, 1, 32, block));
  CHECK(r1 != in_order && r1 != reverse);
  CHECK(r1 != tickets(RF_SIM_SCHED_RANDOM, 2, 32, block));
  std::vector<int> sorted = r1;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == in_order);
  // wave-skew: one whole wave (chosen by the seed) passes first, the rest in order.
  std::vector<unsigned> chosen;
  for (uint64_t seed = 1; seed <= 8; seed++) {
    std::vector<int> k = tickets(RF_SIM_SCHED_WAVE_SKEW, seed, 32, block);
    unsigned first_wave = 0;
    while (k[first_wave * 32] != 0) first_wave++;
    unsigned lo = first_wave * 32, hi = std::min(lo + 32, block);
    int next = 0;
    bool ok = true;
    for (unsigned t = lo; t < hi; t++) ok = ok && k[t] == next++;
    for (unsigned t = 0; t < block; t++)
      if (t < lo || t >= hi) ok = ok && k[t] == next++;
    CHECK_MSG(ok, "wave-skew seed %llu: wave %u first, then not in order", (unsigned long long)seed,
              first_wave);
    if (std::find(chosen.begin(), chosen.end(), first_wave) == chosen.end())
      chosen.push_back(first_wave);
  }
  CHECK_MSG(chosen.size() >= 2, "wave-skew picked the same wave for every seed");
}

/* The launch counter restarts at configure: the same configuration and launches repeat
 * the same interleavings, while successive launches get fresh ones. */
static void test_configure_restarts() {
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 4, 32);
  std::vector<int> a1 = launch_tickets(64), a2 = launch_tickets(64);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 4, 32);
  std::vector<int> b1 = launch_tickets(64), b2 = launch_tickets(64);
  CHECK(a1 == b1 && a2 == b2);
  CHECK(a1 != a2);
}

int main() {
  test_deterministic_kernel();
  test_reproducible_bits();
  test_interleavings();
  test_configure_restarts();
  uint64_t before = rf_sim_switch_count();
  tickets(RF_SIM_SCHED_RANDOM, 3, 32, 64);
  CHECK(rf_sim_switch_count() > before);
  return rf_test_done();
}
