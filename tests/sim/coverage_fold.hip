/* Kernel coverage counters (sim/kernel_coverage.cpp), compiled with the fuzz build's
 * SanitizerCoverage flags (cmake/coverage.cmake registers this test). Checks that an edge
 * every thread runs once reads 1 (per-thread maximum), not the wrapped total 1024 % 256 = 0,
 * which is what the plain counters give (the planted failure: the hook switched off); that
 * a per-thread loop's counters follow the trip count; that a second launch does not add up;
 * that host code's counts around launches are kept; and that the block folds give, counter
 * for counter, what the reference byte loops give over a sequence of launches whose stretches
 * reach device functions late (after the hot range has formed), with host code in between
 * (the planted failure there: the plain counters differ from the reference), which the
 * launches' reach (the functions their kernels call directly) holds; that a function called
 * through a pointer is found outside the reach; that a launch touching no counter looks for
 * new functions ever more rarely; and that a quiet stretch of launches (the determinism
 * repeat) leaves every counter as it was. */
#include <stdint.h>
#include "sim/engine.h"
#include "sim_test_util.h"

extern "C" {
extern uint8_t __start___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t __start___sancov_pcs[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t __stop___sancov_pcs[] __attribute__((weak, visibility("hidden")));
}

__global__ void once_kernel(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

__global__ void loop_kernel(int *out, int k) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  for (int i = 0; i < k; i++)
    if ((out[t] + i) % 3 != 0) acc += i;
  out[t] = acc;
}

/* Reached only by some threads, in a late stretch (after several barriers) and in a loop: the
 * hot range grows at a full fold, and its counts until then are what the fold schedule
 * defines (the same for the block folds and the reference). Its conditional stores are one
 * edge each, so that it spans more than one 32-byte block of counters. */
#define RF_COV_STEP(b) \
  if (v & (1 << (b))) o[b] += v;
__attribute__((noinline)) __device__ int late_helper(int *o, int v, int k) {
  for (int i = 0; i < k; i++) {
    v = v % 7 == 0 ? v / 7 : v * 3 + 1;
    RF_COV_STEP(0) RF_COV_STEP(1) RF_COV_STEP(2) RF_COV_STEP(3) RF_COV_STEP(4) RF_COV_STEP(5)
    RF_COV_STEP(6) RF_COV_STEP(7) RF_COV_STEP(8) RF_COV_STEP(9) RF_COV_STEP(10) RF_COV_STEP(11)
    RF_COV_STEP(12) RF_COV_STEP(13) RF_COV_STEP(14) RF_COV_STEP(15) RF_COV_STEP(16)
    RF_COV_STEP(17) RF_COV_STEP(18) RF_COV_STEP(19) RF_COV_STEP(20) RF_COV_STEP(21)
    RF_COV_STEP(22) RF_COV_STEP(23)
  }
  return v;
}
#undef RF_COV_STEP

constexpr unsigned kSteps = 24;  // late_helper's slots per thread

__global__ void staged_kernel(int *out, int *scratch, int k) {
  RF_SHARED(int, s, 256);
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = out[g] + static_cast<int>(t);
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  int v = s[0];
  if (t >= blockDim.x - 8 || static_cast<int>(t) == k)
    v = late_helper(scratch + g * kSteps, v + static_cast<int>(t), k);
  out[g] = v;
}

/* Called only through a pointer, by block 0's threads after their second barrier: outside
 * the reach of pointer_kernel (sim/kernel_coverage.cpp, "The reach"), which a fold that reads
 * every counter finds later in the launch. */
__attribute__((noinline)) __device__ int pointed_helper(int v) { return v % 5 == 0 ? v / 5 : v + 3; }
__device__ int (*volatile pointed)(int) = pointed_helper;

__global__ void pointer_kernel(int *out) {
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = out[g];
  for (int phase = 0; phase < 8; phase++) {
    if (phase == 2 && blockIdx.x == 0) v = pointed(v);
    v += phase;
    __syncthreads();
  }
  out[g] = v;
}

/* Not instrumented, as a plugin's kernel is to this section (its counters are its own): a
 * launch of it touches no counter here. */
__attribute__((no_sanitize("coverage"))) __global__ void bare_kernel(int *out) {
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = out[g];
  for (int phase = 0; phase < 8; phase++) {
    v = v * 3 + static_cast<int>(t);
    __syncthreads();
  }
  out[g] = v;
}

int host_steps;  // observed at the end, so the calls stay
static __attribute__((noinline)) void host_step() { host_steps += 1; }

/* The counters of function f: from its entry in the PC table to the next function's. */
struct Range {
  size_t lo = 0, hi = 0;
};
static Range counters_of(const void *f) {
  Range r;
  size_t n = static_cast<size_t>(__stop___sancov_cntrs - __start___sancov_cntrs);
  const uintptr_t *pcs = __start___sancov_pcs;
  CHECK_MSG(pcs && static_cast<size_t>(__stop___sancov_pcs - pcs) == 2 * n,
            "PC table: %zu entries for %zu counters", pcs ? (size_t)(__stop___sancov_pcs - pcs) : 0, n);
  for (size_t i = 0; i < n; i++)
    if ((pcs[2 * i + 1] & 1) && pcs[2 * i] == reinterpret_cast<uintptr_t>(f)) {
      r.lo = i;
      r.hi = i + 1;
      while (r.hi < n && !(pcs[2 * r.hi + 1] & 1)) r.hi++;
    }
  CHECK_MSG(r.hi > r.lo, "no counters for a kernel: is this file built with -fsanitize-coverage?");
  return r;
}

static unsigned max_in(Range r) {
  unsigned m = 0;
  for (size_t i = r.lo; i < r.hi; i++) m = __start___sancov_cntrs[i] > m ? __start___sancov_cntrs[i] : m;
  return m;
}

static void clear_counters() {
  memset(__start___sancov_cntrs, 0, static_cast<size_t>(__stop___sancov_cntrs - __start___sancov_cntrs));
}

static size_t ncounters() { return static_cast<size_t>(__stop___sancov_cntrs - __start___sancov_cntrs); }

/* The fixed sequence: the counters after it, from zeroed counters and buffer. */
static std::vector<uint8_t> counters_after_sequence(int *out, int *scratch, unsigned threads,
                                                    unsigned blocks) {
  clear_counters();
  hipMemset(out, 0, threads * blocks * sizeof(int));
  hipMemset(scratch, 0, threads * blocks * kSteps * sizeof(int));
  for (int round = 0; round < 3; round++) {
    host_step();
    hipLaunchKernelGGL(staged_kernel, dim3(blocks), dim3(threads), 0, 0, out, scratch, 5 + 20 * round);
    hipLaunchKernelGGL(loop_kernel, dim3(blocks), dim3(threads), 0, 0, out, 3 + round);
    host_step();
    hipLaunchKernelGGL(staged_kernel, dim3(1), dim3(64), 0, 0, out, scratch, 40);
  }
  return std::vector<uint8_t>(__start___sancov_cntrs, __start___sancov_cntrs + ncounters());
}

static size_t differing(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  size_t d = 0;
  for (size_t i = 0; i < a.size(); i++) d += a[i] != b[i];
  return d;
}

int main(int argc, char **argv) {
  // `baseline`: the x86-64 baseline folds (rf_sim_coverage_fold, as the runner sets it from
  // REDFUZZ_COVERAGE_FOLD=baseline), checked against the reference like the AVX2 ones.
  // `full`: every periodic fold reads every counter (REDFUZZ_COVERAGE_FOLD=full), not the
  // launch's reach.
  int fold_mode = RF_SIM_FOLD_BLOCKS;
  if (argc > 1 && strcmp(argv[1], "baseline") == 0) fold_mode = RF_SIM_FOLD_BASELINE;
  if (argc > 1 && strcmp(argv[1], "full") == 0) fold_mode = RF_SIM_FOLD_FULL;
  if (fold_mode != RF_SIM_FOLD_BLOCKS) rf_sim_coverage_fold(fold_mode);
  CHECK_MSG(rf_sim::coverage_hook != nullptr, "the counter folding is not installed");
  auto hook0 = rf_sim::coverage_hook;
  const unsigned threads = 256, blocks = 4;
  int *out = dev_alloc<int>(threads * blocks);
  int *scratch = dev_alloc<int>(threads * blocks * kSteps);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 1, 32);
  Range once = counters_of(reinterpret_cast<const void *>(&once_kernel));
  Range loop = counters_of(reinterpret_cast<const void *>(&loop_kernel));
  Range host = counters_of(reinterpret_cast<const void *>(&host_step));

  // 1024 threads run the one edge: 1, not 1024 % 256.
  clear_counters();
  hipLaunchKernelGGL(once_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  CHECK_MSG(__start___sancov_cntrs[once.lo] == 1, "once_kernel entry: %u", __start___sancov_cntrs[once.lo]);
  // A second launch: still 1 (maxima, not a sum that would wrap again).
  hipLaunchKernelGGL(once_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  CHECK_MSG(__start___sancov_cntrs[once.lo] == 1, "once_kernel entry after two launches: %u",
            __start___sancov_cntrs[once.lo]);

  // Per-thread trip counts show: more iterations, larger counts (the compiler unrolls and
  // vectorises the body, so not exactly 40), never the wrapped totals of 1024 threads.
  clear_counters();
  hipLaunchKernelGGL(loop_kernel, dim3(blocks), dim3(threads), 0, 0, out, 40);
  unsigned m40 = max_in(loop);
  CHECK_MSG(m40 >= 2 && m40 <= 41, "loop_kernel, 40 iterations: largest counter %u", m40);
  clear_counters();
  hipLaunchKernelGGL(loop_kernel, dim3(blocks), dim3(threads), 0, 0, out, 1);
  unsigned m1 = max_in(loop);
  CHECK_MSG(m1 >= 1 && m1 < m40, "loop_kernel, 1 iteration: largest counter %u (40: %u)", m1, m40);

  // Host code's counts before and after a launch are ordinary totals.
  clear_counters();
  for (int i = 0; i < 3; i++) host_step();
  hipLaunchKernelGGL(once_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  host_step();
  CHECK_MSG(__start___sancov_cntrs[host.lo] == 4 && host_steps == 4, "host_step entry: %u, want 4",
            __start___sancov_cntrs[host.lo]);

  // The block folds against the reference byte loops: every counter equal, so every feature
  // libFuzzer derives from them is the same. The sequence reaches late_helper's edges.
  rf_sim::coverage_reference_fold = true;
  std::vector<uint8_t> reference = counters_after_sequence(out, scratch, threads, blocks);
  rf_sim::coverage_reference_fold = false;
  std::vector<uint8_t> fast = counters_after_sequence(out, scratch, threads, blocks);
  Range late = counters_of(reinterpret_cast<const void *>(&late_helper));
  CHECK_MSG(reference[late.lo] != 0 && late.hi - late.lo > 32,
            "late_helper: entry count %u, %zu counters (want > 32)", reference[late.lo], late.hi - late.lo);
  CHECK_MSG(differing(fast, reference) == 0, "block folds: %zu of %zu counters differ from the reference",
            differing(fast, reference), reference.size());
  // late_helper, called directly, was in the launches' reach: no fold that read every
  // counter found a function outside it. (Planted failure: a reach without the callees, and
  // late_helper's counts summed over more stretches, differ from the reference above.)
  CHECK_MSG(rf_sim::coverage_reach_misses == 0, "the reach missed %llu functions of direct calls",
            static_cast<unsigned long long>(rf_sim::coverage_reach_misses));

  // A function reached only through a pointer is outside the reach: a later fold that reads
  // every counter finds it (counted: the planted failure, a reach that read every counter
  // or none, counts none) and its edges count from there on.
  clear_counters();
  hipMemset(out, 0, threads * blocks * sizeof(int));
  hipLaunchKernelGGL(pointer_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  Range pointed_range = counters_of(reinterpret_cast<const void *>(&pointed_helper));
  CHECK_MSG(__start___sancov_cntrs[pointed_range.lo] != 0, "pointed_helper's entry not counted");
  CHECK_MSG(rf_sim::coverage_reach_misses == (fold_mode == RF_SIM_FOLD_FULL ? 0u : 1u),
            "functions found outside the reach: %llu (want %d)",
            static_cast<unsigned long long>(rf_sim::coverage_reach_misses), fold_mode == RF_SIM_FOLD_FULL ? 0 : 1);

  // A launch that touches none of these counters (bare_kernel, as a plugin's) looks for
  // newly run functions ever more rarely: 4 blocks of 256 threads and 8 barriers are ~9,200
  // switches; the looks at the first 4, then after 2, 4, ..., 1024 switches and then every
  // 1024th are ~21.
  // (Planted failure: a look at every switch while none has found anything, as before.)
  uint64_t looks0 = rf_sim::coverage_whole_looks;
  hipLaunchKernelGGL(bare_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  uint64_t bare_looks = rf_sim::coverage_whole_looks - looks0;
  CHECK_MSG(bare_looks >= 5 && bare_looks <= 30, "a launch that touches no counter: %llu looks at every counter",
            static_cast<unsigned long long>(bare_looks));

  // A quiet stretch (rf_sim_quiet_coverage: the determinism repeat) adds nothing: a launch
  // that reaches edges the counters have not seen (loop_kernel's) and host code leave every
  // counter as it was, while the launch computes what it computes and runs without the hook;
  // counting resumes after it. (Planted failures: counters not put back, or the hook kept.)
  // (Only the counters of what the stretch runs are compared: this test's own host code,
  // instrumented too, runs around the stretch.)
  clear_counters();
  hipLaunchKernelGGL(once_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  host_step();
  auto watched = [&] {
    std::vector<uint8_t> w(__start___sancov_cntrs + loop.lo, __start___sancov_cntrs + loop.hi);
    w.insert(w.end(), __start___sancov_cntrs + host.lo, __start___sancov_cntrs + host.hi);
    w.insert(w.end(), __start___sancov_cntrs + once.lo, __start___sancov_cntrs + once.hi);
    return w;
  };
  std::vector<uint8_t> before = watched();
  CHECK(max_in(loop) == 0 && __start___sancov_cntrs[host.lo] == 1);
  rf_sim_quiet_coverage(1);
  CHECK_MSG(rf_sim::coverage_hook == nullptr, "a quiet stretch still folds at every switch");
  host_step();
  hipMemset(out, 0, threads * blocks * sizeof(int));
  hipLaunchKernelGGL(loop_kernel, dim3(blocks), dim3(threads), 0, 0, out, 40);
  hipLaunchKernelGGL(once_kernel, dim3(1), dim3(threads), 0, 0, out + threads * (blocks - 1));
  rf_sim_quiet_coverage(0);
  std::vector<uint8_t> after = watched();
  CHECK_MSG(differing(after, before) == 0, "a quiet stretch changed %zu of its functions' counters",
            differing(after, before));
  int want = 0;
  for (int i = 0; i < 40; i++) want += i % 3 != 0 ? i : 0;
  std::vector<int> got(threads * blocks);
  hipMemcpy(got.data(), out, got.size() * sizeof(int), hipMemcpyDeviceToHost);
  CHECK_MSG(got[0] == want && got.back() == 1, "quiet launches: out[0] %d (want %d), out[last] %d (want 1)",
            got[0], want, got.back());
  CHECK(rf_sim::coverage_hook == hook0);
  hipLaunchKernelGGL(loop_kernel, dim3(blocks), dim3(threads), 0, 0, out, 40);
  CHECK_MSG(max_in(loop) == m40, "after the quiet stretch: loop_kernel's largest counter %u, want %u",
            max_in(loop), m40);

  // The planted failure: without the folding the wrapped total hides the edge.
  auto hook = rf_sim::coverage_hook;
  rf_sim::coverage_hook = nullptr;
  // ... and the comparison above sees a fold that does not fold.
  std::vector<uint8_t> plain = counters_after_sequence(out, scratch, threads, blocks);
  CHECK_MSG(differing(plain, reference) > 0, "plain counters equal the reference: the sequence shows nothing");
  clear_counters();
  hipLaunchKernelGGL(once_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  CHECK_MSG(__start___sancov_cntrs[once.lo] == 0, "plain counters: once_kernel entry %u, expected to wrap to 0",
            __start___sancov_cntrs[once.lo]);
  rf_sim::coverage_hook = hook;
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  hipFree(out);
  hipFree(scratch);
  return rf_test_done();
}
