/* The kernels' trace-cmp callbacks (sim/kernel_cmp.cpp), compiled with the fuzz build's
 * SanitizerCoverage flags and linked through the same wrappers (cmake/coverage.cmake
 * registers this test); a stand-in for libFuzzer's callback counts the compares that reach
 * it (coverage_cmp_record.c). Host code's compare, before and after a launch, reaches it once
 * a call; a kernel's compare, made by each of 128 GPU threads, does not by default, and does
 * 128 times with the argument `all` (rf_sim_coverage_cmp_all, as the runner sets it from
 * REDFUZZ_COVERAGE_CMP=all: the ctest sim.coverage_cmp.all, which also shows that the
 * kernel's compare is instrumented at all). The planted failures: the wrappers
 * forwarding every compare (the default run counts 128), or none (host code counts 0). */
#include <stdint.h>
#include "sim_test_util.h"

/* tests/sim/coverage_cmp_record.c: the callback the wrappers forward to (libFuzzer's in the
 * fuzz target), counting the compares of these two values. */
extern "C" {
extern const uint32_t rf_test_cmp_host_value, rf_test_cmp_device_value;
extern unsigned rf_test_cmp_host_seen, rf_test_cmp_device_seen;
}

__global__ void below_limit(const unsigned *limit, unsigned *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = t < limit[0] ? 1u : 2u;  // two loaded values: __sanitizer_cov_trace_cmp4
}

__attribute__((noinline)) static int host_below(const volatile unsigned *a, unsigned b) {
  return b < *a;
}

int main(int argc, char **argv) {
  const bool all = argc > 1 && strcmp(argv[1], "all") == 0;
  rf_sim_coverage_cmp_all(all);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 5, 32);
  volatile unsigned host_limit = rf_test_cmp_host_value;
  CHECK(host_below(&host_limit, 7u) == 1);
  unsigned *limit = dev_from(std::vector<unsigned>{rf_test_cmp_device_value});
  unsigned *out = dev_alloc<unsigned>(128);
  hipLaunchKernelGGL(below_limit, dim3(2), dim3(64), 0, 0, limit, out);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  std::vector<unsigned> got = host_from(out, 128);
  CHECK(got[0] == 1u && got[127] == 1u);
  CHECK(host_below(&host_limit, 9u) == 1);
  CHECK_MSG(rf_test_cmp_host_seen == 2, "host compares seen: %u, want 2", rf_test_cmp_host_seen);
  CHECK_MSG(rf_test_cmp_device_seen == (all ? 128u : 0u),
            "GPU threads' compares seen: %u, want %u", rf_test_cmp_device_seen, all ? 128u : 0u);
  hipFree(limit);
  hipFree(out);
  return rf_test_done();
}
