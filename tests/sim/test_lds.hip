/* LDS: every block starts with a fresh arena poisoned with the quiet NaN 0x7FDADBAD, so a
 * read before any write is visible; all threads of a block share each declaration;
 * declarations and the dynamic LDS do not overlap; the 64 KiB limit is a launch error. */
#include "sim_test_util.h"

/* Thread t reads shared[t] before anyone writes it (poison expected), then writes a
 * block-specific value so a later block would see it if the arena were not fresh. */
__global__ void read_before_write(unsigned *seen) {
  RF_SHARED(unsigned, shared, 256);
  unsigned t = threadIdx.x;
  seen[blockIdx.x * blockDim.x + t] = shared[t];
  __syncthreads();
  shared[t] = blockIdx.x + 1;
}

/* Two static declarations and the dynamic LDS: each thread writes its slot of each with a
 * distinct tag; after a barrier thread t checks its neighbour's slots in all three. */
__global__ void three_regions(int *bad, int n_dyn) {
  RF_SHARED(int, a, 64);
  RF_SHARED(float, b, 64);
  RF_DYN_SHARED(int, dyn);
  RF_DYN_SHARED(int, dyn_alias);  // every dynamic declaration starts at the same place
  unsigned t = threadIdx.x, u = (t + 1) % blockDim.x;
  a[t] = 1000 + static_cast<int>(t);
  b[t] = 2000.0f + static_cast<float>(t);
  if (static_cast<int>(t) < n_dyn) dyn[t] = 3000 + static_cast<int>(t);
  __syncthreads();
  int wrong = 0;
  if (a[u] != 1000 + static_cast<int>(u)) wrong |= 1;
  if (b[u] != 2000.0f + static_cast<float>(u)) wrong |= 2;
  if (static_cast<int>(u) < n_dyn && dyn_alias[u] != 3000 + static_cast<int>(u)) wrong |= 4;
  if (reinterpret_cast<char *>(a) + 64 * sizeof(int) > reinterpret_cast<char *>(b) &&
      reinterpret_cast<char *>(b) + 64 * sizeof(float) > reinterpret_cast<char *>(a))
    wrong |= 8;  // the two declarations overlap
  bad[blockIdx.x * blockDim.x + t] = wrong;
}

/* A declaration of `count` floats; thread 0 touches both ends. */
template <int kCount>
__global__ void big_static(float *out) {
  RF_SHARED(float, big, kCount);
  if (threadIdx.x == 0) {
    big[0] = 1.0f;
    big[kCount - 1] = 2.0f;
    out[0] = big[0] + big[kCount - 1];
  }
}
enum { kLineOverLimit = __LINE__ + 3 };
__global__ void static_plus_dynamic(float *out) {
  RF_DYN_SHARED(float, dyn);
  RF_SHARED(float, more, 2);
  more[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    dyn[0] = more[1];
    out[0] = dyn[0];
  }
}

static void test_poison_and_fresh_blocks(int schedule) {
  const unsigned blocks = 3, threads = 256;
  unsigned *seen = dev_alloc<unsigned>(blocks * threads);
  rf_sim_configure(schedule, 9, 32);
  hipLaunchKernelGGL(read_before_write, dim3(blocks), dim3(threads), 0, 0, seen);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  std::vector<unsigned> got = host_from(seen, blocks * threads);
  size_t poisoned = 0;
  for (unsigned v : got) poisoned += v == 0x7FDADBADu;
  CHECK_MSG(poisoned == got.size(), "%s: %zu of %zu reads saw the poison", kScheduleNames[schedule],
            poisoned, got.size());
  float as_float;
  memcpy(&as_float, &got[0], 4);
  CHECK(as_float != as_float);         // a NaN
  CHECK((got[0] & 0x00400000u) != 0);  // quiet: arithmetic on it raises no invalid flag
  hipFree(seen);
}

static void test_regions(unsigned threads, int n_dyn) {
  int *bad = dev_alloc<int>(2 * threads);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 3, 32);
  hipLaunchKernelGGL(three_regions, dim3(2), dim3(threads), n_dyn * sizeof(int), 0, bad, n_dyn);
  CHECK(hipGetLastError() == hipSuccess);
  char msg[512];
  CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s", msg);
  std::vector<int> got = host_from(bad, 2 * threads);
  for (unsigned i = 0; i < got.size(); i++)
    CHECK_MSG(got[i] == 0, "thread %u: flags %d", i, got[i]);
  hipFree(bad);
}

static void test_limits() {
  float *out = dev_alloc<float>(1);
  char msg[512];
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  // Exactly 64 KiB of static LDS is allowed.
  hipLaunchKernelGGL(big_static<16384>, dim3(1), dim3(32), 0, 0, out);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK);
  CHECK(host_from(out, 1)[0] == 3.0f);
  // One float more is a launch failure naming the declaration.
  hipLaunchKernelGGL(big_static<16385>, dim3(2), dim3(32), 0, 0, out);
  CHECK(hipGetLastError() == hipErrorLaunchFailure);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);
  CHECK_MSG(strstr(msg, "LDS limit") && strstr(msg, "test_lds.hip:"), "%s", msg);
  // Dynamic LDS above the limit is refused at launch.
  hipLaunchKernelGGL(static_plus_dynamic, dim3(1), dim3(2), 65537, 0, out);
  CHECK(hipGetLastError() == hipErrorInvalidValue);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);
  // 64 KiB dynamic plus a static declaration exceeds it while running.
  hipLaunchKernelGGL(static_plus_dynamic, dim3(1), dim3(2), 65536, 0, out);
  CHECK(hipGetLastError() == hipErrorLaunchFailure);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);
  char needle[64];
  snprintf(needle, sizeof needle, "test_lds.hip:%d", kLineOverLimit);
  CHECK_MSG(strstr(msg, needle) != nullptr, "want %s in: %s", needle, msg);
  printf("%s\n", msg);
  // The simulator recovers: the next launch works.
  hipLaunchKernelGGL(static_plus_dynamic, dim3(1), dim3(2), 64, 0, out);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK);
  CHECK(host_from(out, 1)[0] == 1.0f);
  hipFree(out);
}

int main() {
  for (int s = 0; s < 4; s++) test_poison_and_fresh_blocks(s);
  test_regions(64, 0);
  test_regions(64, 64);
  test_regions(40, 17);
  test_limits();
  return rf_test_done();
}
