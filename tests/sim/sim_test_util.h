/* Helpers shared by the simulator tests: device buffers and status checks. */
#ifndef RF_SIM_TEST_UTIL_H
#define RF_SIM_TEST_UTIL_H
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "kernels/port.h"
#include "rf_test.h"
#include "schedule_names.h"

template <typename T>
static T *dev_alloc(size_t n) {
  T *p = nullptr;
  hipMalloc(&p, n * sizeof(T));
  return p;
}
template <typename T>
static T *dev_from(const std::vector<T> &v) {
  T *p = dev_alloc<T>(v.size());
  hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice);
  return p;
}
template <typename T>
static std::vector<T> host_from(const T *p, size_t n) {
  std::vector<T> v(n);
  hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost);
  return v;
}

/* RF_TEST_SIM_THREADS=N (a test knob: the runner's REDFUZZ_SIM_THREADS is a setting, read
 * and checked by the edges only, run/settings.def) runs the test's launches with N parallel
 * blocks: the `sim.*.threads2` copies of every test (CMakeLists.txt) expect exactly the
 * sequential results. A value other than 1..8 stops the test (it would test nothing). */
static const bool rf_sim_test_threads_read = [] {
  const char *t = getenv("RF_TEST_SIM_THREADS");
  if (!t) return true;
  char *end;
  const long n = strtol(t, &end, 10);
  if (*t == '\0' || *end != '\0' || n < 1 || n > 8) {
    fprintf(stderr, "RF_TEST_SIM_THREADS: '%s' is not 1..8\n", t);
    exit(2);
  }
  rf_sim_set_threads(static_cast<unsigned>(n));
  return true;
}();

static inline uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
#endif
