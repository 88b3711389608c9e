/* Parallel blocks (docs/SIMULATOR.md, "Parallel blocks"): a launch run with 2 simulator
 * threads gives exactly what the sequential run gives, bit for bit and message for message:
 * a float atomicAdd merge (whose bits depend on the order of the adds: checked), the
 * last-block ticket pattern with and without its fence, and launches where a later block
 * faults, diverges or runs over the step budget while earlier blocks are still running
 * (the first problem in the launch's order wins, and device memory is the sequential run's).
 * Sanitizer builds always run sequentially: there the test checks that nothing ran in
 * parallel. */
#include <stdint.h>
#include <string>
#include "sim_test_util.h"

#if defined(RF_TSAN) || defined(RF_ASAN)
static const bool kParallelBuild = false;  // faults are the sanitizer's there
#else
static const bool kParallelBuild = true;
#endif

/* Every thread adds its element to one float, then thread 0 adds the block's count: the
 * result depends on the order of the adds across blocks (elements of mixed magnitude). */
__global__ void atomic_merge(const float *x, float *acc, unsigned *count) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; k++) __syncthreads();  // some work before the atomics
  atomicAdd(acc, x[i]);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(count, 1u);
}

/* The last-block pattern: thread 0 publishes the block's sum, (fence,) takes a ticket; after
 * a barrier every thread of the block that drew the last ticket reads the partials. */
template <bool kFence>
__global__ void last_block(const float *x, float *partial, unsigned *ticket, float *out,
                           unsigned *which) {
  RF_SHARED(float, s, 256);
  RF_SHARED(unsigned, last, 1);
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    if (kFence) __threadfence();
    last[0] = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last[0]) return;
  s[t] = t < gridDim.x ? partial[t] : 0.0f;  // every thread reads another block's partial
  __syncthreads();
  if (t == 0) {
    float sum = 0.0f;
    for (unsigned b = 0; b < gridDim.x; b++) sum += s[b];
    out[0] = sum;
    which[0] = blockIdx.x;
  }
}

/* Barrier-heavy blocks that write their output; block `bad` (and `bad2`) faults or
 * diverges by `how`: 0 over-read, 1 division by zero, 2 divergent barrier, 3 nothing. */
__global__ void later_block_fails(const float *x, float *y, unsigned n, unsigned bad,
                                  unsigned bad2, int how, int zero) {
  const unsigned t = threadIdx.x, b = blockIdx.x;
  float v = x[b * blockDim.x + t];
  for (int k = 0; k < 16; k++) {
    v = v * 0.5f + 1.0f;
    __syncthreads();
  }
  y[b * blockDim.x + t] = v;
  if ((b == bad || b == bad2) && t == 5) {
    if (how == 0) y[b * blockDim.x + t] = x[n + b];  // past the end (inside the guard page): oob
    if (how == 1) y[b * blockDim.x + t] = static_cast<float>(100 / (zero + static_cast<int>(b) - static_cast<int>(b)));
    if (how == 2) __syncthreads();  // the others do not come: divergent
  }
  if (how != 3) __syncthreads();
  y[b * blockDim.x + t] += 1.0f;
}

struct Outcome {
  int status = 0;
  std::string msg;
  std::vector<uint32_t> bits;  // every output buffer's bits
  uint64_t parallel = 0, reruns = 0;
};

static bool same(const Outcome &a, const Outcome &b) {
  return a.status == b.status && a.msg == b.msg && a.bits == b.bits;
}

/* Runs `body` (which fills the outputs' bits) with `threads` simulator threads. */
template <typename Body>
static Outcome run_with(unsigned threads, int schedule, uint64_t seed, Body body) {
  Outcome o;
  uint64_t p0 = rf_sim_parallel_launches(), r0 = rf_sim_parallel_reruns();
  rf_sim_set_threads(threads);
  rf_sim_configure(schedule, seed, 32);
  body(o.bits);
  char msg[512];
  o.status = rf_sim_take_status(msg, sizeof msg);
  o.msg = msg;
  hipGetLastError();
  o.parallel = rf_sim_parallel_launches() - p0;
  o.reruns = rf_sim_parallel_reruns() - r0;
  rf_sim_set_threads(1);
  return o;
}

static void append_bits(std::vector<uint32_t> &bits, const float *p, size_t n) {
  for (float f : host_from(p, n)) bits.push_back(float_bits(f));
}

/* Sequential once, then `repeats` parallel runs: each must be the sequential one. */
template <typename Body>
static Outcome expect_same(const char *what, int schedule, uint64_t seed, int repeats,
                           bool expect_rerun, Body body) {
  Outcome ref = run_with(1, schedule, seed, body);
  CHECK(ref.parallel == 0);
  for (int r = 0; r < repeats; r++) {
    Outcome par = run_with(2, schedule, seed, body);
    CHECK_MSG(same(ref, par), "%s, %s seed %llu, run %d: sequential status %d '%s', parallel %d '%s'%s",
              what, kScheduleNames[schedule], (unsigned long long)seed, r, ref.status,
              ref.msg.c_str(), par.status, par.msg.c_str(),
              ref.bits == par.bits ? "" : " (memory differs)");
    if (kParallelBuild) {
      CHECK_MSG(par.parallel > 0 || par.reruns > 0, "%s: nothing ran in parallel", what);
      CHECK_MSG((par.reruns > 0) == expect_rerun, "%s: %llu re-runs", what,
                (unsigned long long)par.reruns);
    } else {
      CHECK(par.parallel == 0 && par.reruns == 0);  // sanitizer builds stay sequential
    }
  }
  return ref;
}

static void test_float_atomics() {
  const unsigned blocks = 64, threads = 128, n = blocks * threads;
  std::vector<float> hx(n);
  for (unsigned i = 0; i < n; i++) hx[i] = (i % 7 == 0 ? 1e7f : 1.0f) * ((i * 2654435761u) % 1000) / 999.0f;
  float *x = dev_from(hx), *acc = dev_alloc<float>(1);
  unsigned *count = dev_alloc<unsigned>(1);
  auto body = [&](std::vector<uint32_t> &bits) {
    hipMemset(acc, 0, sizeof(float));
    hipMemset(count, 0, sizeof(unsigned));
    hipLaunchKernelGGL(atomic_merge, dim3(blocks), dim3(threads), 0, 0, x, acc, count);
    append_bits(bits, acc, 1);
    bits.push_back(host_from(count, 1)[0]);
  };
  std::vector<uint32_t> seen;
  for (int sched = 0; sched < 4; sched++)
    for (uint64_t seed = 1; seed <= (sched == RF_SIM_SCHED_RANDOM ? 3u : 1u); seed++)
      seen.push_back(
          expect_same("float atomicAdd", sched, seed, kParallelBuild ? 25 : 2, false, body).bits[0]);
  // The adds' order shows in the bits (in-order vs reverse): a parallel run that applied
  // them in another order than the sequential one would differ.
  CHECK_MSG(seen[0] != seen[1], "in-order and reverse give the same bits %08x", seen[0]);
  hipFree(x);
  hipFree(acc);
  hipFree(count);
}

template <bool kFence>
static void test_last_block() {
  const unsigned blocks = 40, threads = 256, n = blocks * threads;
  std::vector<float> hx(n);
  for (unsigned i = 0; i < n; i++) hx[i] = static_cast<float>((i * 37) % 101) / 7.0f;
  float *x = dev_from(hx), *partial = dev_alloc<float>(blocks), *out = dev_alloc<float>(1);
  unsigned *ticket = dev_alloc<unsigned>(1), *which = dev_alloc<unsigned>(1);
  auto body = [&](std::vector<uint32_t> &bits) {
    hipMemset(ticket, 0, sizeof(unsigned));
    hipMemset(out, 0xff, sizeof(float));
    hipLaunchKernelGGL(last_block<kFence>, dim3(blocks), dim3(threads), 0, 0, x, partial, ticket,
                       out, which);
    append_bits(bits, out, 1);
    bits.push_back(host_from(which, 1)[0]);
  };
  for (int sched = 0; sched < 4; sched++) {
    // Without the fence the pattern is a race: the ThreadSanitizer build (sequential blocks
    // whatever the setting) reports it (test_race_last_block checks that), naming a thread
    // that differs from run to run, or, the pair once reported, not again (the detector's
    // history); every other build computes the sequential bits.
    if (!kFence && rf_sim_race_detection()) {
      CHECK(run_with(2, sched, 7, body).parallel == 0);
      continue;
    }
    Outcome ref = expect_same(kFence ? "last block, fence" : "last block, no fence", sched, 7,
                              kParallelBuild ? 10 : 1, false, body);
    // The last block read every completed partial: the sum of the block sums in index order.
    std::vector<float> p = host_from(partial, blocks);
    float want = 0.0f;
    for (float f : p) want += f;
    CHECK_MSG(ref.status == RF_SIM_OK && ref.bits[0] == float_bits(want),
              "last block: status %d '%s', sum %08x, want %08x", ref.status, ref.msg.c_str(),
              ref.bits[0], float_bits(want));
  }
  hipFree(x);
  hipFree(partial);
  hipFree(out);
  hipFree(ticket);
  hipFree(which);
}

/* A problem in a later block while earlier blocks run: the same status, message and memory. */
static void test_later_block_problem() {
  const unsigned blocks = 24, threads = 128, n = blocks * threads;
  float *x = dev_from(std::vector<float>(n, 3.0f)), *y = dev_alloc<float>(n);
  struct Plan {
    const char *what;
    int how;
    unsigned bad, bad2;
    int want;
  } plans[] = {{"over-read in block 1", 0, 1, 1, RF_SIM_OOB},
               {"over-reads in blocks 5 and 17", 0, 5, 17, RF_SIM_OOB},
               {"division by zero in block 9", 1, 9, 9, RF_SIM_CRASH},
               {"divergent barrier in blocks 3 and 20", 2, 3, 20, RF_SIM_DIVERGENT_BARRIER}};
  for (const Plan &p : plans) {
    if (!kParallelBuild && p.how != 2) continue;  // a fault: the sanitizer's (test_faults)
    auto body = [&](std::vector<uint32_t> &bits) {
      hipMemset(y, 0, n * sizeof(float));
      hipLaunchKernelGGL(later_block_fails, dim3(blocks), dim3(threads), 0, 0, x, y, n, p.bad,
                         p.bad2, p.how, 0);
      append_bits(bits, y, n);
    };
    for (int sched = 0; sched < 4; sched++) {
      Outcome ref = expect_same(p.what, sched, 3, kParallelBuild ? 4 : 1, true, body);
      CHECK_MSG(ref.status == p.want, "%s: status %d '%s'", p.what, ref.status, ref.msg.c_str());
    }
  }
  // The first problem in the launch's order wins: in-order names block 5, reverse block 17.
  if (kParallelBuild) {
    auto two = [&](int sched) {
      return run_with(2, sched, 3, [&](std::vector<uint32_t> &bits) {
        hipLaunchKernelGGL(later_block_fails, dim3(blocks), dim3(threads), 0, 0, x, y, n, 5u,
                           17u, 0, 0);
        append_bits(bits, y, 1);
      });
    };
    Outcome in_order = two(RF_SIM_SCHED_IN_ORDER), reverse = two(RF_SIM_SCHED_REVERSE);
    CHECK_MSG(strstr(in_order.msg.c_str(), "block (5,0,0)"), "in-order: '%s'",
              in_order.msg.c_str());
    CHECK_MSG(strstr(reverse.msg.c_str(), "block (17,0,0)"), "reverse: '%s'",
              reverse.msg.c_str());
  }

  // The step budget counts the whole launch: every block alone is within it, all of them are
  // not (each block: 128 threads x 17 phases; 24 blocks).
  auto budget_body = [&](std::vector<uint32_t> &bits) {
    hipMemset(y, 0, n * sizeof(float));
    hipLaunchKernelGGL(later_block_fails, dim3(blocks), dim3(threads), 0, 0, x, y, n, ~0u, ~0u,
                       3, 0);
    append_bits(bits, y, n);
  };
  rf_sim_set_step_budget(20000);
  for (int sched = 0; sched < 4; sched++) {
    Outcome ref = expect_same("step budget over the launch", sched, 3, 4, true, budget_body);
    CHECK_MSG(ref.status == RF_SIM_TIMEOUT, "budget: status %d '%s'", ref.status, ref.msg.c_str());
  }
  rf_sim_set_step_budget(uint64_t{1} << 28);
  // Within the budget: no problem, no re-run.
  for (int sched = 0; sched < 4; sched++) {
    Outcome ref = expect_same("no problem", sched, 3, 4, false, budget_body);
    CHECK(ref.status == RF_SIM_OK);
  }
  hipFree(x);
  hipFree(y);
}

int main() {
  test_float_atomics();
  test_last_block<true>();
  test_last_block<false>();
  test_later_block_problem();
  return rf_test_done();
}
