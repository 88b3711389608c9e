/* tests/sim/coverage_cmp.hip's stand-in for libFuzzer's trace-cmp callback: in a file of its
 * own (the linker's --wrap redirects only references from other files) and not instrumented
 * (C: the kernel flags go to the .hip sources only). Counts the compares of the two values. */
#include <stdint.h>

const uint32_t rf_test_cmp_host_value = 0x0badc0deu, rf_test_cmp_device_value = 0x5eed1234u;
unsigned rf_test_cmp_host_seen, rf_test_cmp_device_seen;

/* Not under ThreadSanitizer either: GPU threads call it unordered, as libFuzzer's, which is
 * not instrumented. */
#if defined(__clang__)
__attribute__((no_sanitize("thread")))
#endif
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) {
  if (a == rf_test_cmp_host_value || b == rf_test_cmp_host_value) rf_test_cmp_host_seen++;
  if (a == rf_test_cmp_device_value || b == rf_test_cmp_device_value) rf_test_cmp_device_seen++;
}
