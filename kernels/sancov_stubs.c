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

/* -fsanitize-coverage=trace-cmp: libFuzzer records compared values to mutate toward them. */
#define RF_CMP_STUB(name, type)                              \
  __attribute__((weak)) void name(type a, type b) {          \
    (void)a;                                                 \
    (void)b;                                                 \
  }
RF_CMP_STUB(__sanitizer_cov_trace_cmp1, uint8_t)
RF_CMP_STUB(__sanitizer_cov_trace_cmp2, uint16_t)
RF_CMP_STUB(__sanitizer_cov_trace_cmp4, uint32_t)
RF_CMP_STUB(__sanitizer_cov_trace_cmp8, uint64_t)
RF_CMP_STUB(__sanitizer_cov_trace_const_cmp1, uint8_t)
RF_CMP_STUB(__sanitizer_cov_trace_const_cmp2, uint16_t)
RF_CMP_STUB(__sanitizer_cov_trace_const_cmp4, uint32_t)
RF_CMP_STUB(__sanitizer_cov_trace_const_cmp8, uint64_t)

__attribute__((weak)) void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases) {
  (void)val;
  (void)cases;
}
