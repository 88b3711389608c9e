/* The element types (model/dtypes.def) and the generators in each: the two conversions of
 * model/dtype_bits.h agree with the table-driven rounding of model/dtype.c (two independent
 * implementations: integer bit fiddling and double arithmetic), and every distribution gives,
 * in every type, values exactly representable in it with the property the distribution is
 * for, in the type's own range. Each checker is first shown rejecting a planted violation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/case.h"
#include "model/dtype.h"
#include "model/dtype_bits.h"
#include "model/gen.h"
#include "rf_test.h"

static float buf[1 << 14];

static uint32_t bits_of(float x) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}

/* Every 16-bit pattern converts to float32 and back to itself (NaNs: to a quiet NaN of the
 * same sign), and random float32 values round to the nearest value of the type exactly as
 * rf_dtype_round says, overflow and subnormals included. */
static void test_conversions(void) {
  for (int t = RF_DTYPE_F16; t < RF_DTYPE_COUNT; t++) {
    unsigned bad = 0;
    for (uint32_t h = 0; h < 0x10000u; h++) {
      float f = rf_half_to_f32((uint32_t)t, (uint16_t)h);
      uint16_t back = rf_f32_to_half((uint32_t)t, f);
      if (isnan(f)) bad += !isnan(rf_half_to_f32((uint32_t)t, back)) || (back ^ h) & 0x8000u;
      else bad += back != h || rf_dtype_round((rf_dtype)t, f) != f;
    }
    CHECK_MSG(bad == 0, "%s: %u patterns do not round-trip", rf_dtype_name((rf_dtype)t), bad);
    uint64_t s = 0x1234 + (uint64_t)t;
    bad = 0;
    for (int i = 0; i < 2000000; i++) {
      uint32_t b = (uint32_t)(rf_splitmix64(&s) >> 32);
      if (i & 1) b = (b & 0x807FFFFFu) | ((100u + (b >> 23) % 60u) << 23);  /* near the range */
      float f;
      memcpy(&f, &b, sizeof f);
      if (isnan(f)) continue;
      double want = rf_dtype_round((rf_dtype)t, f);
      float got = rf_half_to_f32((uint32_t)t, rf_f32_to_half((uint32_t)t, f));
      if (!(got == want && signbit(got) == signbit(want))) {
        if (bad++ < 3) fprintf(stderr, "%s: %a rounds to %a, want %a\n",
                               rf_dtype_name((rf_dtype)t), f, got, want);
      }
    }
    CHECK_MSG(bad == 0, "%s: %u roundings disagree", rf_dtype_name((rf_dtype)t), bad);
  }
  /* fixed points of the rounding: the largest finite value, the overflow threshold and the
   * smallest subnormal's half (ties to even) */
  CHECK(rf_f32_to_f16(65504.0f) == 0x7BFF && rf_f32_to_f16(65519.99f) == 0x7BFF);
  CHECK(rf_f32_to_f16(65520.0f) == 0x7C00 && rf_f32_to_f16(-1e6f) == 0xFC00);
  CHECK(rf_f32_to_f16(0x1p-25f) == 0 && rf_f32_to_f16(0x1.8p-25f) == 1);
  CHECK(rf_f32_to_bf16(0x1.fep127f) == 0x7F7F && rf_f32_to_bf16(0x1.ffp127f) == 0x7F80);
  CHECK(rf_dtype_round(RF_DTYPE_F16, 65520.0) == INFINITY && rf_dtype_round(RF_DTYPE_F16, 2049) == 2048);
}

/* ---- per-type properties ------------------------------------------------------------------- */
static const rf_dtype_info *T;
static rf_dtype TD;   /* T's number */

static int representable(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (!isnan(x[i]) && rf_dtype_round(TD, x[i]) != x[i])
      return 0;
  return 1;
}
static int all_subnormal(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (!(x[i] != 0 && fabs(x[i]) < ldexp(1, T->emin))) return 0;
  return 1;
}
static int all_near_overflow(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (!(fabs(x[i]) >= ldexp(1, T->emax - 1) && fabs(x[i]) <= T->max_finite)) return 0;
  return 1;
}
static int normal_finite_sum(const float *x, uint64_t n) {   /* wide: Σ|x| below overflow */
  double s = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (!(fabs(x[i]) >= ldexp(1, T->emin) && fabs(x[i]) <= T->max_finite)) return 0;
    s += fabs(x[i]);
  }
  return s < T->max_finite;
}
static int on_unit_grid(const float *x, uint64_t n) {       /* [-1, 1) on the 2^-(p-1) grid */
  for (uint64_t i = 0; i < n; i++) {
    double k = ldexp(x[i], T->p - 1);
    if (!(x[i] >= -1 && x[i] < 1 && k == floor(k))) return 0;
  }
  return 1;
}
static int spans_binades(const float *x, uint64_t n, int want) {   /* wide reaches far */
  int lo = 1000, hi = -1000;
  for (uint64_t i = 0; i < n; i++) {
    int e;
    frexp(x[i], &e);
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  return hi - lo >= want;
}

static void check_dist(rf_dtype t, rf_dist d, const rf_case *c, uint64_t n) {
  rf_generate(c, buf);
  CHECK_MSG(representable(buf, n), "%s %s: a value not in the type", T->name, rf_dist_name(d));
  switch (d) {
  case RF_DIST_SUBNORMAL: CHECK(all_subnormal(buf, n)); break;
  case RF_DIST_NEAR_OVERFLOW: CHECK(all_near_overflow(buf, n)); break;
  case RF_DIST_WIDE:
    CHECK_MSG(normal_finite_sum(buf, n), "%s wide n %llu", T->name, (unsigned long long)n);
    if (n >= 1000) CHECK(spans_binades(buf, n, t == RF_DTYPE_F16 ? 12 : 100));
    break;
  case RF_DIST_OVERFLOW:
    if (n >= 1000) CHECK(spans_binades(buf, n, t == RF_DTYPE_F16 ? 25 : 200));
    break;
  case RF_DIST_UNIFORM: case RF_DIST_SORTED: CHECK(on_unit_grid(buf, n)); break;
  default: break;
  }
}

static void test_dists(void) {
  static const uint64_t lengths[] = {1, 33, 1027, 4096};
  static const uint32_t shapes[][2] = {{4, 33}, {3, 257}};
  /* the checkers fire on planted violations */
  T = rf_dtype_get(TD = RF_DTYPE_F16);
  float bad[2] = {1.0f, 1.0f + 0x1p-12f};
  CHECK(!representable(bad, 2));
  bad[1] = 0x1p-14f;
  CHECK(!all_subnormal(bad + 1, 1));
  bad[1] = 8192.0f;
  CHECK(!all_near_overflow(bad + 1, 1));
  float big[3] = {60000.0f, 6000.0f, -1.0f};
  CHECK(!normal_finite_sum(big, 3));
  bad[1] = 0x1p-11f;
  CHECK(!on_unit_grid(bad + 1, 1));
  int cases = 0;
  for (int t = RF_DTYPE_F16; t < RF_DTYPE_COUNT; t++) {
    T = rf_dtype_get(TD = (rf_dtype)t);
    for (int d = 0; d < RF_DIST_COUNT; d++)
      for (uint64_t seed = 0; seed < 6; seed++) {
        rf_case c;
        for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
          rf_case_default(&c);
          c.dist = (rf_dist)d;
          c.seed = seed * 0x9E3779B97F4A7C15ull;
          c.n = lengths[k];
          c.dtype = (rf_dtype)t;
          check_dist((rf_dtype)t, (rf_dist)d, &c, c.n);
          cases++;
        }
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
          rf_case_default(&c);
          c.op = RF_OP_SOFTMAX;
          c.n = 0;
          c.rows = shapes[k][0];
          c.cols = shapes[k][1];
          c.dist = (rf_dist)d;
          c.seed = seed;
          c.dtype = (rf_dtype)t;
          rf_generate(&c, buf);
          uint64_t n = (uint64_t)c.rows * c.cols;
          CHECK(representable(buf, n));
          if (d == RF_DIST_SHIFTED_ROWS) {   /* rows x, x + 128, x - 128 of one base row */
            for (uint32_t j = 0; j < c.cols; j++)
              CHECK(buf[c.cols + j] == buf[j] + 128 && buf[2 * c.cols + j] == buf[j] - 128);
          }
          cases++;
        }
      }
  }
  /* the half generator is not float32's: f16 `subnormal` values are f16 subnormals */
  rf_case c;
  rf_case_default(&c);
  c.dist = RF_DIST_SUBNORMAL;
  c.dtype = RF_DTYPE_F16;
  rf_generate(&c, buf);
  CHECK(fabsf(buf[0]) >= 0x1p-24f && bits_of(buf[0]) != 0);
  printf("element types: %d generated cases checked\n", cases);
}

int main(void) {
  test_conversions();
  test_dists();
  return rf_test_done();
}
