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
#include "kernels/device.h"
#include "kernels/gen_device.h"
#include "redfuzz/variant.h"
#include <stdlib.h>

namespace {
#include "device_buffer.h"

/* Index of the first differing float, or -1. */
long first_diff(const std::vector<float> &a, const std::vector<float> &b, size_t n) {
  return n && memcmp(a.data(), b.data(), n * sizeof(float)) == 0 ? -1 : [&] {
    for (size_t i = 0; i < n; i++)
      if (memcmp(&a[i], &b[i], sizeof(float)) != 0) return (long)i;
    return -1L;
  }();
}

/* Runs case c on the device and on the host; returns the first differing index or -1, and
 * checks the guard floats after the output kept their poison. */
long compare(const rf_case &c, Buffer *dev, bool plant = false) {
  const size_t n = (size_t)rf_case_elems(&c);
  dev->reserve(n + kGuardFloats);
  fill_poison(dev, n + kGuardFloats);
  CHECK(rf_gen_launch(&c, dev->p, nullptr) == 0);
  CHECK(rf_dev_sync() == 0);
  std::vector<float> got(n + kGuardFloats), want(n ? n : 1);
  CHECK(rf_dev_download(got.data(), dev->p, (n + kGuardFloats) * sizeof(float)) == 0);
  rf_generate(&c, want.data());
  for (size_t g = 0; g < kGuardFloats; g++) {
    uint32_t b;
    memcpy(&b, &got[n + g], sizeof b);
    CHECK_MSG(b == kPoisonBits, "guard float %zu after %zu elements written", g, n);
  }
  if (plant && n) {
    uint32_t b;
    memcpy(&b, &want[n / 2], sizeof b);
    b ^= 1u << 7;
    memcpy(&want[n / 2], &b, sizeof b);
  }
  return first_diff(got, want, n);
}
}  // namespace

int main() {
  Buffer dev;
  rf_case c;
  rf_case_default(&c);
  c.dist = RF_DIST_WIDE;
  CHECK(compare(c, &dev, true) == 1027 / 2); /* the comparison sees one flipped bit */

  static const uint64_t lengths[] = {0, 1, 31, 33, 1027, 4097};
  static const uint64_t seeds[] = {0, 1, 0x5EED, UINT64_MAX};
  static const uint32_t shapes[][2] = {{3, 33}, {2, 1027}, {5, 1}, {0, 7}};
  int cases = 0;
  for (int d = 0; d < RF_DIST_COUNT; d++) {
    for (uint64_t seed : seeds) {
      for (uint64_t n : lengths) {
        rf_case_default(&c);
        c.op = (rf_op)((d + n) % 3); /* sum, max, argmax: the 1-D generator is the same */
        c.dist = (rf_dist)d;
        c.seed = seed;
        c.n = n;
        long k = compare(c, &dev);
        CHECK_MSG(k < 0, "%s n %llu seed %llu: first difference at %ld", rf_dist_name(c.dist),
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
        long k = compare(c, &dev);
        CHECK_MSG(k < 0, "%s %ux%u seed %llu: first difference at %ld", rf_dist_name(c.dist),
                  s[0], s[1], (unsigned long long)seed, k);
        cases++;
      }
    }
  }
  printf("device generator: %d cases, identical bits\n", cases);
  return rf_test_done();
}
