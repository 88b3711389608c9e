/* Weak no-op SanitizerCoverage callbacks (cmake/coverage.cmake). In the simulator fuzz build
 * the kernels carry coverage counters for libFuzzer, and every program linking them must
 * define the callbacks their module constructors call: redfuzz_fuzz gets libFuzzer's (which
 * win over these), the CLI, tests and plugins' hosts get these, and their counters are
 * simply unused. */
#include <stdint.h>

__attribute__((weak)) void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) {
  (void)start;
  (void)stop;
}

__attribute__((weak)) void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop) {
  (void)start;
  (void)stop;
}
