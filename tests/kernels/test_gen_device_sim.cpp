/* The device input generator gives rf_generate's bits exactly: every distribution, 1-D
 * lengths 0, 1, 31, 33, 1027, 4097 and softmax shapes, several seeds, on the device of this
 * build (the simulator in CI; the same test on GPUs). Floats are compared as bits, so NaN
 * payloads and signs of zero count. The comparison is first shown to catch one flipped bit,
 * and a poisoned guard after the output shows nothing past it is written. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vector>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "model/dtype.h"
#include "kernels/harness/device.h"
#include "kernels/harness/gen_device.h"
#include "redfuzz/variant.h"
#include <stdlib.h>

namespace {
#include "device_buffer.h"

/* Runs case c on the device and on the host (encoded in the case's type, rf_dtype_store);
 * returns the first differing element or -1, and checks that the bytes after the output (the
 * rest of its last word and kGuardFloats words) kept their poison. */
long compare(const rf_case &c, Buffer *dev, bool plant = false) {
  const size_t n = (size_t)rf_case_elems(&c), esz = rf_dtype_bytes(c.dtype);
  const size_t bytes = n * esz, words = (bytes + 3) / 4;
  dev->reserve(words + kGuardFloats);
  fill_poison(dev, words + kGuardFloats);
  CHECK(rf_gen_launch(&c, dev->p, nullptr) == 0);
  CHECK(rf_dev_sync() == 0);
  std::vector<unsigned char> got((words + kGuardFloats) * 4), want(bytes + 4);
  std::vector<float> x(n ? n : 1);
  CHECK(rf_dev_download(got.data(), dev->p, got.size()) == 0);
  rf_generate(&c, x.data());
  rf_dtype_store(c.dtype, x.data(), n, want.data());
  for (size_t b = bytes; b < got.size(); b++) {
    const uint32_t poison = kPoisonBits;
    CHECK_MSG(got[b] == ((const unsigned char *)&poison)[b % 4],
              "byte %zu after %zu elements written", b, n);
  }
  if (plant && n) want[(n / 2) * esz] ^= 1u << 1;
  for (size_t i = 0; i < n; i++)
    if (memcmp(&got[i * esz], &want[i * esz], esz) != 0) return (long)i;
  return -1;
}
}  // namespace

int main() {
  Buffer dev;
  rf_case c;
  rf_case_default(&c);
  c.dist = RF_DIST_WIDE;
  for (int t = 0; t < RF_DTYPE_COUNT; t++) {
    c.dtype = (rf_dtype)t;
    CHECK(compare(c, &dev, true) == 1027 / 2); /* the comparison sees one flipped bit */
  }

  static const uint64_t lengths[] = {0, 1, 31, 33, 1027, 4097};
  static const uint64_t seeds[] = {0, 1, 0x5EED, UINT64_MAX};
  static const uint32_t shapes[][2] = {{3, 33}, {2, 1027}, {5, 1}, {0, 7}};
  int cases = 0;
  for (int t = 0; t < RF_DTYPE_COUNT; t++)
  for (int d = 0; d < RF_DIST_COUNT; d++) {
    for (uint64_t seed : seeds) {
      for (uint64_t n : lengths) {
        rf_case_default(&c);
        c.op = (rf_op)((d + n) % 3); /* sum, max, argmax: the 1-D generator is the same */
        c.dist = (rf_dist)d;
        c.seed = seed;
        c.n = n;
        c.dtype = (rf_dtype)t;
        long k = compare(c, &dev);
        CHECK_MSG(k < 0, "%s %s n %llu seed %llu: first difference at %ld", rf_dtype_name(c.dtype), rf_dist_name(c.dist),
                  (unsigned long long)n, (unsigned long long)seed, k);
        cases++;
      }
      for (auto &s : shapes) {
        rf_case_default(&c);
        c.op = RF_OP_SOFTMAX;
        c.n = 0;
        c.rows = s[0];
        c.cols = s[1];
        c.dist = (rf_dist)d;
        c.seed = seed;
        c.dtype = (rf_dtype)t;
        long k = compare(c, &dev);
        CHECK_MSG(k < 0, "%s %s %ux%u seed %llu: first difference at %ld", rf_dtype_name(c.dtype), rf_dist_name(c.dist),
                  s[0], s[1], (unsigned long long)seed, k);
        cases++;
      }
    }
  }
  printf("device generator: %d cases, identical bits\n", cases);
  return rf_test_done();
}
