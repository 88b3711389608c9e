/* Generators are pinned bit for bit: a fixed case per distribution (1-D n = 1000 and
 * softmax 4x33) hashes to a constant, so any change to the inputs a case means (and so to
 * every stored corpus entry and regression) fails here. Also a known-answer test of
 * splitmix64 against the published reference outputs. */
#include <string.h>

#include "fuzz/case.h"
#include "fuzz/gen.h"
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

/* Indexed by rf_dist: 1-D (sum, n 1000) and softmax (4 x 33), both seed 0x5EED. */
static const uint64_t golden_1d[RF_DIST_COUNT] = {
    UINT64_C(0x25f6cf3a6602ad65), /* alternating */
    UINT64_C(0x7a788ced68bf5565), /* ones */
    UINT64_C(0xe0f84795e33ddef5), /* wide */
    UINT64_C(0xe2c79941163caeb2), /* negative */
    UINT64_C(0x0733c95b589d7ab2), /* equal-max */
    UINT64_C(0xfa6672831c76daac), /* shifted-rows */
    UINT64_C(0xe9506cfc2efe6729), /* uniform */
    UINT64_C(0x86a4820a2ffb6458), /* index-weighted */
    UINT64_C(0x6ad5bec47bc04ad2), /* spike */
    UINT64_C(0xba065ea6a217ac6f), /* subnormal */
    UINT64_C(0x6eee831e8cf24642), /* near-overflow */
    UINT64_C(0xb2c84eefd4a49e32), /* sorted */
    UINT64_C(0xd759c4c7073d37c6), /* overflow */
    UINT64_C(0x153efcf899f85cba), /* nan-sprinkled */
    UINT64_C(0x73f4338200b9dc86), /* inf-mixed */
    UINT64_C(0x94eb5aa73e186ba5), /* signed-zero */
    UINT64_C(0x22518cb0801e4744), /* all-nan */
    UINT64_C(0xcace09532a35a565), /* all-neg-inf */
    UINT64_C(0x293509142af7c428), /* ties */
};
static const uint64_t golden_softmax[RF_DIST_COUNT] = {
    UINT64_C(0x80bb5dcc2f0b7fc5), /* alternating */
    UINT64_C(0xfecb7dc02dd63ac5), /* ones */
    UINT64_C(0xcc5e4fb2066fb023), /* wide */
    UINT64_C(0xedc455ab68b585fb), /* negative */
    UINT64_C(0xc27249232a2dd3eb), /* equal-max */
    UINT64_C(0x07f8e0dacbd67ec7), /* shifted-rows */
    UINT64_C(0x1bed0d8058079a74), /* uniform */
    UINT64_C(0x9099533b258d69f8), /* index-weighted */
    UINT64_C(0x183eb81d377b2979), /* spike */
    UINT64_C(0x47316a260ae2ed34), /* subnormal */
    UINT64_C(0xed4bfcbc3a7d1a13), /* near-overflow */
    UINT64_C(0x6cef04a4eca3602f), /* sorted */
    UINT64_C(0xb2136aded45451db), /* overflow */
    UINT64_C(0xd1fcb2898bbf4ee0), /* nan-sprinkled */
    UINT64_C(0x8711a4549940632c), /* inf-mixed */
    UINT64_C(0xc743db5ffb770c65), /* signed-zero */
    UINT64_C(0xc6a304ad60ab50ba), /* all-nan */
    UINT64_C(0xdeb6fcb8bc20c9c5), /* all-neg-inf */
    UINT64_C(0x93f2501b6ad43365), /* ties */
};

static void test_golden(void) {
  static float buf[1000];
  for (int d = 0; d < RF_DIST_COUNT; d++) {
    rf_case c;
    rf_case_default(&c);
    c.dist = (rf_dist)d;
    c.seed = 0x5EED;
    c.n = 1000;
    rf_generate(&c, buf);
    uint64_t h1 = fnv1a_floats(buf, 1000);
    c.op = RF_OP_SOFTMAX;
    c.n = 0;
    c.rows = 4;
    c.cols = 33;
    rf_generate(&c, buf);
    uint64_t h2 = fnv1a_floats(buf, 4 * 33);
    CHECK_MSG(h1 == golden_1d[d], "%s 1-D: 0x%016llx", rf_dist_name((rf_dist)d),
              (unsigned long long)h1);
    CHECK_MSG(h2 == golden_softmax[d], "%s 4x33: 0x%016llx", rf_dist_name((rf_dist)d),
              (unsigned long long)h2);
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
  test_hash_sees_one_bit();
  return rf_test_done();
}
