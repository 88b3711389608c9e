/* The kernels' trace-cmp callbacks, between the kernels and libFuzzer (linked with
 * -Wl,--wrap for each callback: cmake/coverage.cmake, rf_kernel_cmp_link). Simulator fuzz
 * build only.
 *
 * The kernels are compiled with -fsanitize-coverage=trace-cmp so that libFuzzer's
 * table of recent compares learns the values their code compares against, for its
 * mutations; with the default -use_value_profile=0 the callbacks add no coverage feature.
 * Device code runs every comparison once per GPU thread (`i < n` in a grid-stride loop,
 * thread index against a width): the callbacks were 8 % of an execution's instructions
 * (callgrind, corpus/bench), each pair told thousands of times over, and a table of 32 slots a
 * size churned by thread indices. Host code in the kernel files (the launch functions: sizes
 * against tile widths and thresholds, grid choices) compares what the case's decoded sizes
 * set, once a launch. So compares made while a launch runs (the engine's in_launch: only
 * GPU threads run then; launches are synchronous) stop here, and the host code's go on to
 * libFuzzer unchanged. REDFUZZ_COVERAGE_CMP=all (rf_sim_coverage_cmp_all, from the runner)
 * passes the device code's on as well (the behaviour before, to measure against).
 *
 * Plugins loaded with dlopen bind the callbacks at run time to libFuzzer's own (--wrap is a
 * link-time renaming): theirs all go on, as before. A forwarded call is a tail call, so
 * libFuzzer still sees the kernel's call site as its caller (the PC it keys
 * -use_value_profile=1 features by). This file is simulator code: not instrumented for
 * coverage (it would call itself). */
#include <stdint.h>
#include "engine.h"

namespace rf_sim {
namespace {

/* Whether a compare made now reaches libFuzzer. */
inline bool forwarded() { return coverage_cmp_all || !this_engine->in_launch; }

}  // namespace
}  // namespace rf_sim

#if defined(__clang__)
#define RF_TAIL [[clang::musttail]]
#else
#define RF_TAIL
#endif

/* __wrap_X receives every kernel call of X (the linker's --wrap), __real_X is libFuzzer's. */
#define RF_CMP_WRAP(name, type)                                       \
  extern "C" void __real_##name(type a, type b);                      \
  extern "C" void __wrap_##name(type a, type b) {                     \
    if (!::rf_sim::forwarded()) return;                               \
    RF_TAIL return __real_##name(a, b);                               \
  }
RF_CMP_WRAP(__sanitizer_cov_trace_cmp1, uint8_t)
RF_CMP_WRAP(__sanitizer_cov_trace_cmp2, uint16_t)
RF_CMP_WRAP(__sanitizer_cov_trace_cmp4, uint32_t)
RF_CMP_WRAP(__sanitizer_cov_trace_cmp8, uint64_t)
RF_CMP_WRAP(__sanitizer_cov_trace_const_cmp1, uint8_t)
RF_CMP_WRAP(__sanitizer_cov_trace_const_cmp2, uint16_t)
RF_CMP_WRAP(__sanitizer_cov_trace_const_cmp4, uint32_t)
RF_CMP_WRAP(__sanitizer_cov_trace_const_cmp8, uint64_t)

extern "C" void __real___sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases);
extern "C" void __wrap___sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases) {
  if (!::rf_sim::forwarded()) return;
  RF_TAIL return __real___sanitizer_cov_trace_switch(val, cases);
}
