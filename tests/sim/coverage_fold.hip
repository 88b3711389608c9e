/* Kernel coverage counters (sim/kernel_coverage.cpp), compiled with the fuzz build's
 * SanitizerCoverage flags (cmake/coverage.cmake registers this test). Checks that an edge
 * every thread runs once reads 1 (per-thread maximum), not the wrapped total 1024 % 256 = 0,
 * which is what the plain counters give (the planted failure: the hook switched off); that
 * a per-thread loop's counters follow the trip count; that a second launch does not add up;
 * and that host code's counts around launches are kept. */
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

int main() {
  CHECK_MSG(rf_sim::coverage_hook != nullptr, "the counter folding is not installed");
  const unsigned threads = 256, blocks = 4;
  int *out = dev_alloc<int>(threads * blocks);
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

  // The planted failure: without the folding the wrapped total hides the edge.
  auto hook = rf_sim::coverage_hook;
  rf_sim::coverage_hook = nullptr;
  clear_counters();
  hipLaunchKernelGGL(once_kernel, dim3(blocks), dim3(threads), 0, 0, out);
  CHECK_MSG(__start___sancov_cntrs[once.lo] == 0, "plain counters: once_kernel entry %u, expected to wrap to 0",
            __start___sancov_cntrs[once.lo]);
  rf_sim::coverage_hook = hook;
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  hipFree(out);
  return rf_test_done();
}
