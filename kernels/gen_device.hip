// TEMPORARY stand-in until the device generator lands (issue 12): generates on the host and copies asynchronously, so the runner's device-input path can be built and tested; it gives rf_generate's bits trivially and none of the speed.
#include "port.h"
#include "gen_device.h"
#include "../fuzz/gen.h"

#if !defined(__HIP_DEVICE_COMPILE__)
#include <vector>

// Tells the runner (fuzz/runner_device.c, a weak reference) that this is the stand-in: its
// automatic mode then keeps inputs on the host path, which is faster than this (one pinned
// upload instead of a pageable copy). The real generator does not define it.
extern "C" const int rf_gen_device_stand_in = 1;

extern "C" int rf_gen_launch(const rf_case *c, float *dev_out, void *stream) {
  // Pageable source: the copy call returns once the bytes are staged, so the buffer may be
  // reused by the next call.
  static thread_local std::vector<float> host;
  const uint64_t n = rf_case_elems(c);
  if (n == 0) return 0;
  host.resize(n);
  rf_generate(c, host.data());
  hipMemcpyAsync(dev_out, host.data(), n * sizeof(float), hipMemcpyHostToDevice,
                 (hipStream_t)stream);
  return (int)hipGetLastError();
}
#endif
