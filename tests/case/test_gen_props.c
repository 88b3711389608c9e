/* Generators: each distribution has the property it exists for, checked over many seeds and
 * shapes; each property checker is also shown rejecting a planted violation. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/case.h"
#include "model/gen.h"
#include "model/dtype_bits.h"
#include "rf_test.h"

static float buf[1 << 16], buf2[1 << 16];

static uint32_t bits_of(float x) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}

static void make(rf_case *c, rf_op op, rf_dist d, uint64_t seed, uint64_t n, uint32_t rows,
                 uint32_t cols) {
  rf_case_default(c);
  c->op = op;
  c->dist = d;
  c->seed = seed;
  c->n = op == RF_OP_SOFTMAX ? 0 : n;
  c->rows = rows;
  c->cols = cols;
}

/* Shapes exercised per distribution: 1-D lengths and softmax shapes. */
static const uint64_t lengths[] = {1, 2, 3, 31, 32, 33, 255, 257, 1000, 1027, 4096};
static const uint32_t shapes[][2] = {{1, 1}, {2, 31}, {3, 32}, {4, 33}, {2, 255}, {3, 257},
                                     {7, 2}, {5, 1000}};
#define NLEN (sizeof lengths / sizeof lengths[0])
#define NSHAPE (sizeof shapes / sizeof shapes[0])

/* ---- property checkers: 1 when every element (or row) of x[0..n) has it ---------------- */
static int all_one(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) if (x[i] != 1.0f) return 0;
  return 1;
}
static int all_finite_normal(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    uint32_t e = bits_of(x[i]) >> 23 & 0xFF;
    if (e == 0 || e == 0xFF) return 0;
  }
  return 1;
}
static int all_moderate_negative(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (!(x[i] <= -0x1p-8f && x[i] > -0x1p8f)) return 0;
  return 1;
}
/* at least two entries equal the row's maximum, which is 2.0 (one entry when len is 1) */
static int rows_share_max(const float *x, uint64_t rows, uint64_t len) {
  for (uint64_t r = 0; r < rows; r++) {
    const float *row = x + r * len;
    float m = row[0];
    uint64_t count = 0;
    for (uint64_t j = 1; j < len; j++) if (row[j] > m) m = row[j];
    for (uint64_t j = 0; j < len; j++) count += row[j] == m;
    if (m != 2.0f || count < (len >= 2 ? 2u : 1u) || count > 8) return 0;
  }
  return 1;
}
/* in [-1, 1) on the 2^-23 grid */
static int all_uniform_grid(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    float k = x[i] * 0x1p23f; /* exact */
    if (!(x[i] >= -1.0f && x[i] < 1.0f) || k != (float)(int32_t)k) return 0;
  }
  return 1;
}
/* exactly one entry per row in [2^20, 2^21), the rest within 2^-20 */
static int rows_have_one_spike(const float *x, uint64_t rows, uint64_t len) {
  for (uint64_t r = 0; r < rows; r++) {
    uint64_t spikes = 0;
    for (uint64_t j = 0; j < len; j++) {
      float v = x[r * len + j];
      if (v >= 0x1p20f && v < 0x1p21f) spikes++;
      else if (!(v >= -0x1p-20f && v <= 0x1p-20f)) return 0;
    }
    if (spikes != 1) return 0;
  }
  return 1;
}
static int all_subnormal(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    float a = x[i] < 0 ? -x[i] : x[i];
    if (!(a > 0.0f && a < FLT_MIN)) return 0;
  }
  return 1;
}
static int all_near_overflow(const float *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    float a = x[i] < 0 ? -x[i] : x[i];
    if (!(a >= 0x1p126f && a <= FLT_MAX)) return 0;
  }
  return 1;
}
static int ascending(const float *x, uint64_t n) {
  for (uint64_t i = 1; i < n; i++) if (x[i] < x[i - 1]) return 0;
  return 1;
}
/* row r is row 0 shifted by {0, +1000, -1000}[r % 3], exactly; row 0 in [-8, 8) */
static int rows_shifted(const float *x, uint64_t rows, uint64_t len) {
  static const double shift[3] = {0, 1000, -1000};
  for (uint64_t j = 0; j < len; j++)
    if (!(x[j] >= -8.0f && x[j] < 8.0f)) return 0;
  for (uint64_t r = 1; r < rows; r++)
    for (uint64_t j = 0; j < len; j++)
      if ((double)x[r * len + j] != (double)x[j] + shift[r % 3]) return 0;
  return 1;
}

/* Exact sum (the values here are small integers or +-1, so double is exact). */
static double exact_sum(const float *x, uint64_t n) {
  double s = 0;
  for (uint64_t i = 0; i < n; i++) s += x[i];
  return s;
}

static void test_alternating(void) {
  rf_case c;
  make(&c, RF_OP_SUM, RF_DIST_ALTERNATING, 1, 1027, 0, 0);
  rf_case d;
  rf_case_default(&d);
  CHECK(rf_case_equal(&c, &d)); /* the default case is seed 000's 1027 alternating inputs */
  rf_generate(&c, buf);
  CHECK(buf[0] == 1.0f && buf[1] == -1.0f && exact_sum(buf, 1027) == 1.0);
  c.seed = 0; /* bit 0 picks the first sign */
  rf_generate(&c, buf);
  CHECK(buf[0] == -1.0f && exact_sum(buf, 1027) == -1.0);
  c.seed = 0xFFFFFFFFFFFFFFFEu;
  rf_generate(&c, buf);
  CHECK(buf[0] == -1.0f);
  for (size_t k = 0; k < NLEN; k++) {
    c.n = lengths[k];
    c.seed = 12345 + k;
    rf_generate(&c, buf);
    double want = c.n % 2 == 0 ? 0.0 : c.seed & 1 ? 1.0 : -1.0;
    CHECK_MSG(exact_sum(buf, c.n) == want, "n %llu", (unsigned long long)c.n);
  }
}

static void test_per_element(void) {
  rf_case c;
  for (uint64_t seed = 0; seed < 40; seed++) {
    make(&c, RF_OP_SUM, RF_DIST_ONES, seed, 4096, 0, 0);
    rf_generate(&c, buf);
    CHECK(all_one(buf, 4096));
    c.dist = RF_DIST_WIDE;
    rf_generate(&c, buf);
    CHECK(all_finite_normal(buf, 4096));
    c.dist = RF_DIST_OVERFLOW;
    rf_generate(&c, buf);
    CHECK(all_finite_normal(buf, 4096));
    c.dist = RF_DIST_NEGATIVE;
    rf_generate(&c, buf);
    CHECK(all_moderate_negative(buf, 4096));
    c.dist = RF_DIST_UNIFORM;
    rf_generate(&c, buf);
    CHECK(all_uniform_grid(buf, 4096));
    c.dist = RF_DIST_SUBNORMAL;
    rf_generate(&c, buf);
    CHECK(all_subnormal(buf, 4096));
    c.dist = RF_DIST_NEAR_OVERFLOW;
    rf_generate(&c, buf);
    CHECK(all_near_overflow(buf, 4096));
  }
  /* overflow covers the exponent range and both signs */
  make(&c, RF_OP_MAX, RF_DIST_OVERFLOW, 7, 4096, 0, 0);
  rf_generate(&c, buf);
  int lo = 255, hi = 0, neg = 0;
  for (int i = 0; i < 4096; i++) {
    int e = (int)(bits_of(buf[i]) >> 23 & 0xFF);
    lo = e < lo ? e : lo;
    hi = e > hi ? e : hi;
    neg += buf[i] < 0;
  }
  CHECK(lo <= 3 && hi >= 252 && neg > 1800 && neg < 2300);
  /* subnormal and near-overflow both take both signs */
  c.dist = RF_DIST_SUBNORMAL;
  rf_generate(&c, buf);
  neg = 0;
  for (int i = 0; i < 4096; i++) neg += buf[i] < 0;
  CHECK(neg > 1800 && neg < 2300);
  /* shifted-rows, 1-D: uniform shifted by 1000 */
  c.dist = RF_DIST_SHIFTED_ROWS;
  rf_generate(&c, buf);
  int in = 1;
  for (int i = 0; i < 4096; i++) in &= buf[i] >= 999.0f && buf[i] < 1001.0f;
  CHECK(in);
}

static void test_index_weighted(void) {
  rf_case c;
  make(&c, RF_OP_SUM, RF_DIST_INDEX_WEIGHTED, 3, 65536, 0, 0);
  rf_generate(&c, buf);
  /* integers 1..7; x[i] == x[i + s] only for s a multiple of 7, so power-of-two strides (blocks,
   * waves) never alias and a dropped element shows in the exact sum */
  int ok = 1;
  for (int i = 0; i < 65536; i++) ok &= buf[i] == (float)(1 + (i + 3) % 7);
  CHECK(ok);
  for (int s = 1; s <= 1024; s *= 2) CHECK(buf[0] != buf[s] && buf[5] != buf[5 + s]);
  double sum = exact_sum(buf, 65536);
  CHECK(sum < 16777216.0); /* exact in binary32: every partial sum is an integer < 2^24 */
  CHECK(exact_sum(buf + 1, 65535) != sum && exact_sum(buf, 65535) != sum);
}

static void test_row_wise(void) {
  rf_case c;
  for (uint64_t seed = 0; seed < 30; seed++) {
    for (size_t k = 0; k < NLEN; k++) {
      uint64_t n = lengths[k];
      make(&c, RF_OP_ARGMAX, RF_DIST_EQUAL_MAX, seed, n, 0, 0);
      rf_generate(&c, buf);
      CHECK_MSG(rows_share_max(buf, 1, n), "equal-max n %llu seed %llu", (unsigned long long)n,
                (unsigned long long)seed);
      c.dist = RF_DIST_SPIKE;
      rf_generate(&c, buf);
      CHECK(rows_have_one_spike(buf, 1, n));
    }
    for (size_t k = 0; k < NSHAPE; k++) {
      uint32_t rows = shapes[k][0], cols = shapes[k][1];
      make(&c, RF_OP_SOFTMAX, RF_DIST_EQUAL_MAX, seed, 0, rows, cols);
      rf_generate(&c, buf);
      CHECK(rows_share_max(buf, rows, cols));
      c.dist = RF_DIST_SPIKE;
      rf_generate(&c, buf);
      CHECK(rows_have_one_spike(buf, rows, cols));
      c.dist = RF_DIST_SHIFTED_ROWS;
      rf_generate(&c, buf);
      CHECK(rows_shifted(buf, rows, cols));
    }
  }
  /* the count and positions of the maxima depend on the seed */
  int counts[9] = {0};
  uint64_t first_pos[2] = {0, 0};
  for (uint64_t seed = 0; seed < 200; seed++) {
    make(&c, RF_OP_ARGMAX, RF_DIST_EQUAL_MAX, seed, 1000, 0, 0);
    rf_generate(&c, buf);
    int count = 0;
    uint64_t first = 1000;
    for (int i = 0; i < 1000; i++)
      if (buf[i] == 2.0f) { count++; if (first == 1000) first = (uint64_t)i; }
    counts[count]++;
    first_pos[seed & 1] += first;
  }
  for (int k = 2; k <= 8; k++) CHECK_MSG(counts[k] > 0, "never %d maxima", k);
  CHECK(first_pos[0] != first_pos[1]);
}

static void test_sorted(void) {
  rf_case c;
  for (size_t k = 0; k < NLEN; k++) {
    make(&c, RF_OP_MAX, RF_DIST_SORTED, 100 + k, lengths[k], 0, 0);
    rf_generate(&c, buf);
    CHECK(ascending(buf, c.n) && all_uniform_grid(buf, c.n));
    /* spread over [-1, 1): element i lies in [2i/n - 1, 2(i+1)/n - 1] */
    for (uint64_t i = 0; i < c.n; i++)
      CHECK((double)buf[i] >= 2.0 * (double)i / (double)c.n - 1 - 0x1p-23 &&
            (double)buf[i] <= 2.0 * (double)(i + 1) / (double)c.n - 1);
    c.seed++;
    rf_generate(&c, buf2);
    CHECK(c.n < 255 || memcmp(buf, buf2, (size_t)c.n * sizeof *buf) != 0); /* seeded jitter */
  }
  make(&c, RF_OP_SOFTMAX, RF_DIST_SORTED, 5, 0, 5, 1000);
  rf_generate(&c, buf);
  CHECK(ascending(buf, 5000));
  make(&c, RF_OP_SUM, RF_DIST_SORTED, 5, 1 << 16, 0, 0); /* more elements than 2^24 / 2^8 */
  rf_generate(&c, buf);
  CHECK(ascending(buf, 1 << 16));
}

/* wide: Σ|x| < 2^127 (so every partial sum in any order is finite) over many binades. */
static void test_wide_finite_sums(void) {
  static const uint64_t ns[] = {1, 2, 31, 1027, 4096, 1 << 16};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    rf_case c;
    make(&c, RF_OP_SUM, RF_DIST_WIDE, 9 + k, ns[k], 0, 0);
    rf_generate(&c, buf);
    double abs_sum = 0;
    int lo = 255, hi = 0;
    for (uint64_t i = 0; i < c.n; i++) {
      abs_sum += (double)(buf[i] < 0 ? -buf[i] : buf[i]);
      int e = (int)(bits_of(buf[i]) >> 23 & 0xFF);
      lo = e < lo ? e : lo;
      hi = e > hi ? e : hi;
    }
    CHECK_MSG(abs_sum < 0x1p127, "n %llu: sum |x| = %g", (unsigned long long)c.n, abs_sum);
    if (c.n >= 1027) CHECK_MSG(lo <= 5 && hi >= 230, "n %llu: exponents %d..%d",
                               (unsigned long long)c.n, lo, hi);
  }
}

/* ---- special values ------------------------------------------------------------------------ */
static int is_nan_bits(float x) { return (bits_of(x) & 0x7FFFFFFFu) > 0x7F800000u; }

/* nan-sprinkled: few NaNs, the rest uniform; over seeds, NaN at the first and the last index
 * and on both sides of a multiple of 32 */
static void test_nan_sprinkled(void) {
  int first = 0, last = 0, boundary = 0, clean = 1;
  for (uint64_t seed = 0; seed < 64; seed++) {
    rf_case c;
    make(&c, RF_OP_MAX, RF_DIST_NAN_SPRINKLED, seed, 1027, 0, 0);
    rf_generate(&c, buf);
    int nans = 0;
    for (int i = 0; i < 1027; i++) {
      if (is_nan_bits(buf[i])) {
        nans++;
        if (i == 0) first++;
        else if (i == 1026) last++;
        else if (i % 32 == 31 && is_nan_bits(buf[i + 1])) boundary++;
      } else if (!(buf[i] >= -1.0f && buf[i] < 1.0f)) {
        clean = 0;
      }
    }
    CHECK_MSG(nans <= 1027 / 16 + 2, "seed %llu: %d NaNs", (unsigned long long)seed, nans);
  }
  CHECK(first > 0 && last > 0 && boundary > 0 && clean);
}

/* inf-mixed: rows with only +inf, only -inf, and both; no NaN */
static void test_inf_mixed(void) {
  int only_pos = 0, only_neg = 0, both = 0;
  for (uint64_t seed = 0; seed < 20; seed++) {
    rf_case c;
    make(&c, RF_OP_SOFTMAX, RF_DIST_INF_MIXED, seed, 0, 6, 33);
    rf_generate(&c, buf);
    for (int r = 0; r < 6; r++) {
      int pos = 0, neg = 0;
      for (int j = 0; j < 33; j++) {
        float v = buf[r * 33 + j];
        CHECK(!is_nan_bits(v));
        pos += v == (float)INFINITY;
        neg += v == -(float)INFINITY;
      }
      CHECK(pos + neg > 0);
      only_pos += pos && !neg;
      only_neg += neg && !pos;
      both += pos && neg;
    }
  }
  CHECK(only_pos > 0 && only_neg > 0 && both > 0);
}

/* signed-zero: all -0 rows, all +0 rows, mixed zero rows */
static void test_signed_zero(void) {
  int neg_rows = 0, pos_rows = 0, mixed = 0;
  for (uint64_t seed = 0; seed < 40; seed++) {
    rf_case c;
    make(&c, RF_OP_SUM, RF_DIST_SIGNED_ZERO, seed, 257, 0, 0);
    rf_generate(&c, buf);
    int neg = 0, pos = 0, zero = 0;
    for (int i = 0; i < 257; i++) {
      zero += buf[i] == 0.0f;
      neg += bits_of(buf[i]) == 0x80000000u;
      pos += bits_of(buf[i]) == 0;
    }
    CHECK(zero > 0);
    neg_rows += neg == 257;
    pos_rows += pos == 257;
    mixed += neg > 0 && pos > 0;
  }
  CHECK(neg_rows > 0 && pos_rows > 0 && mixed > 0);
}

static void test_all_special(void) {
  rf_case c;
  make(&c, RF_OP_ARGMAX, RF_DIST_ALL_NAN, 3, 1027, 0, 0);
  rf_generate(&c, buf);
  int nan = 1, neg_sign = 0;
  for (int i = 0; i < 1027; i++) {
    nan &= is_nan_bits(buf[i]);
    neg_sign += bits_of(buf[i]) >> 31;
  }
  CHECK(nan && neg_sign > 0 && neg_sign < 1027); /* NaNs of both signs */
  c.dist = RF_DIST_ALL_NEG_INF;
  rf_generate(&c, buf);
  int ninf = 1;
  for (int i = 0; i < 1027; i++) ninf &= buf[i] == -(float)INFINITY;
  CHECK(ninf);
  /* 16-bit NaNs never carry the runner's 16-bit poison (run/buffers.h: 0x7FBA, a quiet f16
   * NaN): a kernel that passes them through must not look as if it left its output unwritten.
   * Both signs and many payloads still occur. */
  for (unsigned t = 1; t <= 2; t++) {
    c.dist = RF_DIST_ALL_NAN;
    c.dtype = (rf_dtype)t;
    c.n = 8192;
    rf_generate(&c, buf);
    int poison = 0, payloads = 0;
    unsigned char seen[1024] = {0};
    for (int i = 0; i < 8192; i++) {
      const uint16_t h = rf_f32_to_half(t, buf[i]);
      poison += h == 0x7FBA;
      if (!seen[h & 0x3FFu]++) payloads++;
    }
    CHECK_MSG(poison == 0, "%s: %d NaNs are the poison", t == 1 ? "f16" : "bf16", poison);
    CHECK(payloads >= (t == 1 ? 200 : 30));
  }
}

/* ties: the maximum 2.0 at both sides of multiples of a block or wave size and at the end */
static void test_ties(void) {
  int sizes_seen = 0;
  for (uint64_t seed = 0; seed < 40; seed++) {
    rf_case c;
    make(&c, RF_OP_ARGMAX, RF_DIST_TIES, seed, 4097, 0, 0);
    rf_generate(&c, buf);
    int first = -1, count = 0;
    for (int i = 0; i < 4097; i++) {
      CHECK(buf[i] <= 2.0f && (buf[i] == 2.0f || buf[i] < 1.0f));
      if (buf[i] == 2.0f) { count++; if (first < 0) first = i; }
    }
    /* first maximum at B - 1 for B in 32..1024, then B, 2B - 1, 2B, ... */
    CHECK_MSG(first >= 31 && first <= 1023 && ((first + 1) & first) == 0 && buf[first + 1] == 2.0f,
              "seed %llu: first max at %d", (unsigned long long)seed, first);
    CHECK(buf[4096] == 2.0f && count >= 2 * (4097 / (first + 1)) - 1);
    sizes_seen |= 1 << (first == 31 ? 0 : first == 1023 ? 1 : 2);
  }
  CHECK(sizes_seen == 7);
}

/* Per-element distributions do not depend on n (shrinking keeps the prefix); seeds matter. */
static void test_prefix_and_seed(void) {
  static const rf_dist per_element[] = {RF_DIST_ALTERNATING, RF_DIST_OVERFLOW, RF_DIST_NEGATIVE,
                                        RF_DIST_ALL_NAN, RF_DIST_SIGNED_ZERO,
                                        RF_DIST_UNIFORM, RF_DIST_INDEX_WEIGHTED,
                                        RF_DIST_SUBNORMAL, RF_DIST_NEAR_OVERFLOW,
                                        RF_DIST_SHIFTED_ROWS};
  for (size_t k = 0; k < sizeof per_element / sizeof per_element[0]; k++) {
    rf_case c;
    make(&c, RF_OP_SUM, per_element[k], 77, 1000, 0, 0);
    rf_generate(&c, buf);
    c.n = 10;
    rf_generate(&c, buf2);
    CHECK(memcmp(buf, buf2, 10 * sizeof *buf) == 0);
    c.n = 1000;
    c.seed = 78;
    rf_generate(&c, buf2);
    CHECK_MSG(memcmp(buf, buf2, 1000 * sizeof *buf) != 0, "dist %d ignores the seed",
              (int)per_element[k]);
  }
}

/* Each checker above rejects a planted violation, so the passes above mean something. */
static void test_checkers_catch_planted(void) {
  rf_case c;
  make(&c, RF_OP_SUM, RF_DIST_ONES, 1, 100, 0, 0);
  rf_generate(&c, buf);
  buf[50] = 0.0f;
  CHECK(!all_one(buf, 100));
  c.dist = RF_DIST_OVERFLOW;
  rf_generate(&c, buf);
  buf[3] = 1e-40f;
  CHECK(!all_finite_normal(buf, 100));
  c.dist = RF_DIST_NEGATIVE;
  rf_generate(&c, buf);
  buf[99] = 0.0f;
  CHECK(!all_moderate_negative(buf, 100));
  c.dist = RF_DIST_EQUAL_MAX;
  rf_generate(&c, buf);
  for (int i = 0, seen = 0; i < 100; i++) /* keep only the first maximum */
    if (buf[i] == 2.0f && seen++) buf[i] = 0.5f;
  CHECK(!rows_share_max(buf, 1, 100));
  c.dist = RF_DIST_UNIFORM;
  rf_generate(&c, buf);
  buf[7] = 1.0f;
  CHECK(!all_uniform_grid(buf, 100));
  buf[7] = 0x1p-30f;
  CHECK(!all_uniform_grid(buf, 100));
  c.dist = RF_DIST_SPIKE;
  rf_generate(&c, buf);
  buf[buf[0] >= 0x1p20f ? 1 : 0] = 0x1p20f; /* a second spike */
  CHECK(!rows_have_one_spike(buf, 1, 100));
  c.dist = RF_DIST_SUBNORMAL;
  rf_generate(&c, buf);
  buf[0] = FLT_MIN;
  CHECK(!all_subnormal(buf, 100));
  c.dist = RF_DIST_NEAR_OVERFLOW;
  rf_generate(&c, buf);
  buf[0] = 0x1p125f;
  CHECK(!all_near_overflow(buf, 100));
  c.dist = RF_DIST_SORTED;
  rf_generate(&c, buf);
  float t = buf[10];
  buf[10] = buf[11];
  buf[11] = t;
  CHECK(buf[10] == buf[11] || !ascending(buf, 100));
  make(&c, RF_OP_SOFTMAX, RF_DIST_SHIFTED_ROWS, 1, 0, 3, 33);
  rf_generate(&c, buf);
  buf[33 * 2 + 5] += 1.0f; /* row 2 no longer row 0 - 1000 */
  CHECK(!rows_shifted(buf, 3, 33));
}

int main(void) {
  test_alternating();
  test_per_element();
  test_index_weighted();
  test_row_wise();
  test_sorted();
  test_wide_finite_sums();
  test_nan_sprinkled();
  test_inf_mixed();
  test_signed_zero();
  test_all_special();
  test_ties();
  test_prefix_and_seed();
  test_checkers_catch_planted();
  return rf_test_done();
}
