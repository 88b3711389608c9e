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

/* REDFUZZ_SIM_THREADS (as the runner reads it) runs the test's launches with parallel blocks:
 * the `sim.*.threads2` copies of every test (CMakeLists.txt) expect exactly the sequential
 * results. */
static const bool rf_sim_test_threads_read = [] {
  if (const char *t = getenv("REDFUZZ_SIM_THREADS")) rf_sim_set_threads(static_cast<unsigned>(atoi(t)));
  return true;
}();

static inline uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
#endif
