/* Generators are pinned bit for bit: a fixed case per distribution (1-D n = 1000 and
 * softmax 4x33) hashes to a constant, so any change to the inputs a case means (and so to
 * every stored corpus entry and regression) fails here. Also a known-answer test of
 * splitmix64 against the published reference outputs. */
#include <string.h>

#include "model/case.h"
#include "model/gen.h"
#include "rf_test.h"

/* FNV-1a 64 (Fowler, Noll, Vo) over each float's bits, least significant byte first. */
static uint64_t fnv1a_floats(const float *x, uint64_t n) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t b;
    memcpy(&b, &x[i], sizeof b);
    for (int k = 0; k < 4; k++) {
      h ^= (b >> (8 * k)) & 0xFF;
      h *= UINT64_C(0x100000001b3);
    }
  }
  return h;
}

static void test_splitmix64_reference(void) {
  /* splitmix64.c reference (Vigna, prng.di.unimi.it) seeded with 0 */
  uint64_t s = 0;
  CHECK(rf_splitmix64(&s) == UINT64_C(0xE220A8397B1DCDAF));
  CHECK(rf_splitmix64(&s) == UINT64_C(0x6E789E6AA1B965F4));
  CHECK(rf_splitmix64(&s) == UINT64_C(0x06C45D188009454F));
  CHECK(s == 3 * UINT64_C(0x9E3779B97F4A7C15));
}

/* The pins live in the distribution table itself (model/dists.def), so a distribution and
 * its expected inputs are one line: 1-D (sum, n 1000) and softmax (4 x 33), seed 0x5EED. */
static const uint64_t golden_1d[RF_DIST_COUNT] = {
#define RF_DIST(id, name, since, sparse, g1, g2, meaning) UINT64_C(g1),
#include "model/dists.def"
#undef RF_DIST
};
static const uint64_t golden_softmax[RF_DIST_COUNT] = {
#define RF_DIST(id, name, since, sparse, g1, g2, meaning) UINT64_C(g2),
#include "model/dists.def"
#undef RF_DIST
};

/* The hash of distribution d's input for seed 0x5EED: 1-D n = 1000, or softmax 4 x 33. */
static uint64_t pinned_hash(rf_dist d, int softmax) {
  static float buf[1000];
  rf_case c;
  rf_case_default(&c);
  c.dist = d;
  c.seed = 0x5EED;
  if (softmax) {
    c.op = RF_OP_SOFTMAX;
    c.n = 0;
    c.rows = 4;
    c.cols = 33;
  } else {
    c.n = 1000;
  }
  rf_generate(&c, buf);
  return fnv1a_floats(buf, rf_case_elems(&c));
}

static void test_golden(void) {
  for (int d = 0; d < RF_DIST_COUNT; d++) {
    uint64_t h1 = pinned_hash((rf_dist)d, 0), h2 = pinned_hash((rf_dist)d, 1);
    CHECK_MSG(h1 == golden_1d[d], "%s 1-D: 0x%016llx", rf_dist_name((rf_dist)d),
              (unsigned long long)h1);
    CHECK_MSG(h2 == golden_softmax[d], "%s 4x33: 0x%016llx", rf_dist_name((rf_dist)d),
              (unsigned long long)h2);
  }
}

/* Every distribution makes its own inputs: a line added to model/dists.def without its
 * generator (which would fall back to another's) fails here. */
static void test_distributions_distinct(void) {
  uint64_t h[RF_DIST_COUNT];
  for (int d = 0; d < RF_DIST_COUNT; d++) {
    h[d] = pinned_hash((rf_dist)d, 0);
    for (int e = 0; e < d; e++)
      CHECK_MSG(h[d] != h[e], "%s generates the same input as %s", rf_dist_name((rf_dist)d),
                rf_dist_name((rf_dist)e));
  }
}

/* The hash sees a single flipped bit, so the pins above can fail. */
static void test_hash_sees_one_bit(void) {
  static float buf[1000];
  rf_case c;
  rf_case_default(&c);
  c.dist = RF_DIST_UNIFORM;
  c.n = 1000;
  rf_generate(&c, buf);
  uint64_t h = fnv1a_floats(buf, 1000);
  uint32_t b;
  memcpy(&b, &buf[999], sizeof b);
  b ^= 1;
  memcpy(&buf[999], &b, sizeof b);
  CHECK(fnv1a_floats(buf, 1000) != h);
}

int main(void) {
  test_splitmix64_reference();
  test_golden();
  test_distributions_distinct();
  test_hash_sees_one_bit();
  return rf_test_done();
}
