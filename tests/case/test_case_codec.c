/* Binary codec: totality (every byte string decodes to a valid case), exact round trips of
 * valid cases, an idempotent canonical form, the documented layout, and the share of
 * boundary sizes among decoded random inputs. */
#include <string.h>

#include "model/case.h"
#include "model/gen.h"
#include "random_case.h"
#include "rf_test.h"

static const rf_limits gpu = {UINT64_C(1) << 24, UINT64_C(1) << 24, 1u << 20, 0};
static const rf_limits sim = {UINT64_C(1) << 18, UINT64_C(1) << 18, 1u << 12, 0};
static const rf_limits odd = {5, 7, 3, 0};
static const rf_limits zero = {0, 0, 0, 0};
static const rf_limits huge = {UINT64_MAX, UINT64_MAX, UINT32_MAX, 0};
static const rf_limits *const limits[] = {NULL, &gpu, &sim, &odd, &zero, &huge};
#define LIMITS (sizeof limits / sizeof limits[0])

/* decode(b) validates, and its canonical encoding decodes to the same case */
static int decode_ok(const uint8_t *b, size_t len, const rf_limits *lim, rf_case *out) {
  char err[256];
  rf_case again;
  uint8_t enc[RF_CASE_ENCODED_MAX];
  rf_case_decode(b, len, lim, out);
  if (rf_case_validate(out, lim, err, sizeof err) != 0) {
    fprintf(stderr, "  decoded case invalid: %s\n", err);
    return 0;
  }
  size_t n = rf_case_encode(out, enc);
  if (n > RF_CASE_ENCODED_MAX) return 0;
  rf_case_decode(enc, n, lim, &again);
  if (!rf_case_equal(out, &again)) {
    fprintf(stderr, "  canonical form not idempotent\n");
    return 0;
  }
  return 1;
}

static void test_empty_and_fixed_strings(void) {
  rf_case c;
  uint8_t buf[201];
  for (size_t l = 0; l < LIMITS; l++) {
    CHECK(decode_ok(NULL, 0, limits[l], &c));
    CHECK(decode_ok((const uint8_t *)"", 0, limits[l], &c));
    for (int fill = 0; fill < 3; fill++) {
      memset(buf, fill == 0 ? 0x00 : fill == 1 ? 0xFF : 0x80, sizeof buf);
      for (size_t len = 0; len <= 200; len++)
        CHECK_MSG(decode_ok(buf, len, limits[l], &c), "fill %d len %zu limits %zu", fill, len, l);
    }
  }
  /* the empty string: every byte reads as 0 */
  rf_case_decode(NULL, 0, NULL, &c);
  CHECK(c.op == RF_OP_SUM && c.n == 0 && c.seed == 0 && c.dist == RF_DIST_ALTERNATING);
  CHECK(c.block == 0 && c.grid == 0 && c.items == 0 && c.sched == RF_SCHED_IN_ORDER);
  CHECK(c.wave == 32 && c.variant[0] == '\0');
  /* all 0xFF but byte 0 = 2 (version 2, pinned: the newest version may have more
   * distributions): op 3 (softmax), dist 255 % 19 = 8, literal sizes folded into the limits */
  memset(buf, 0xFF, sizeof buf);
  buf[0] = 2;
  rf_case_decode(buf, 200, &gpu, &c);
  CHECK(c.op == RF_OP_SOFTMAX && c.dist == RF_DIST_SPIKE && c.sched == RF_SCHED_WAVE_SKEW);
  CHECK(c.wave == 64 && c.seed == UINT64_MAX);
}

static void test_random_strings(void) {
  uint64_t s = 12345;
  uint8_t buf[64];
  int bad = 0;
  for (int i = 0; i < 100000; i++) {
    size_t len = rf_splitmix64(&s) % (sizeof buf + 1);
    for (size_t j = 0; j < len; j++) buf[j] = (uint8_t)rf_splitmix64(&s);
    rf_case c;
    if (!decode_ok(buf, len, limits[i % LIMITS], &c)) bad++;
  }
  CHECK_MSG(bad == 0, "%d of 100000 random strings decoded to invalid or unstable cases", bad);
}

static void test_round_trip(void) {
  uint64_t s = 777;
  int bad = 0;
  for (int i = 0; i < 100000; i++) {
    const rf_limits *lim = limits[i % LIMITS];
    rf_case c, d;
    random_valid_case(&s, lim, &c);
    uint8_t enc[RF_CASE_ENCODED_MAX];
    size_t n = rf_case_encode(&c, enc);
    rf_case_decode(enc, n, lim, &d);
    if (!rf_case_equal(&c, &d) || n > RF_CASE_ENCODED_MAX) bad++;
  }
  CHECK_MSG(bad == 0, "%d of 100000 valid cases did not round-trip", bad);

  /* the extremes of every field at once */
  rf_case c, d;
  rf_case_default(&c);
  c.op = RF_OP_SOFTMAX;
  c.n = 0;
  c.rows = 16;
  c.cols = 1u << 20;
  c.seed = UINT64_MAX;
  c.dist = RF_DIST_SORTED;
  c.block = 1024;
  c.grid = INT32_MAX;
  c.items = 64;
  c.sched = RF_SCHED_WAVE_SKEW;
  c.wave = 64;
  uint8_t enc[RF_CASE_ENCODED_MAX];
  rf_case_decode(enc, rf_case_encode(&c, enc), &gpu, &d);
  CHECK(rf_case_equal(&c, &d));
  rf_case_default(&c);
  c.n = UINT64_C(1) << 32;
  c.block = 1023;
  c.items = 17;
  rf_case_decode(enc, rf_case_encode(&c, enc), NULL, &d);
  CHECK(rf_case_equal(&c, &d));

  /* sizes past 2^32 up to the model's 2^34 (issue 37), dense and sparse, under limits that
   * allow them (without limits the decoder keeps its old 2^32 fold, so old inputs decode as
   * before) */
  static const rf_limits big = {RF_CASE_MAX_N, UINT64_C(1) << 32, 1u << 20, 0};
  for (int sparse = 0; sparse < 2; sparse++) {
    rf_case_default(&c);
    c.n = UINT64_C(1) << 34;
    c.dist = sparse ? RF_DIST_MARKERS : RF_DIST_ONES;
    rf_case_decode(enc, rf_case_encode(&c, enc), &big, &d);
    CHECK(rf_case_equal(&c, &d));
    c.n = (UINT64_C(1) << 32) + 3;
    rf_case_decode(enc, rf_case_encode(&c, enc), &big, &d);
    CHECK(rf_case_equal(&c, &d));
  }
  /* version 4 bytes keep their meaning: its dist byte 19 folds onto 19 distributions */
  rf_case_default(&c);
  c.dist = RF_DIST_MARKERS;
  const size_t len = rf_case_encode(&c, enc);
  CHECK(enc[0] == rf_codec_version() && enc[2] == 19);
  enc[0] = 4;
  rf_case_decode(enc, len, NULL, &d);
  CHECK(d.dist == RF_DIST_ALTERNATING);

  rf_case_default(&c);
  /* the variant is not part of the binary form: the harness runs every variant */
  strcpy(c.variant, "sum/lds");
  rf_case_decode(enc, rf_case_encode(&c, enc), NULL, &d);
  CHECK(d.variant[0] == '\0');
  c.variant[0] = '\0';
  CHECK(rf_case_equal(&c, &d));
}

/* Pins the byte layout documented in docs/CASE_FORMAT.md. */
static void test_layout(void) {
  rf_case c;
  rf_case_default(&c);
  uint8_t enc[RF_CASE_ENCODED_MAX];
  static const uint8_t want[41] = {
      0, 0, 0, 0,                      /* version (the newest, set below), op sum, dist
                                          alternating, in-order wave 32 */
      255, 0x03, 0x04, 0, 0, 0, 0, 0, 0, /* n: literal 1027 */
      0, 0, 0, 0, 0, 0, 0, 0, 0,         /* cols: unused for sum */
      1, 0, 0, 0, 0, 0, 0, 0,            /* seed 1 */
      255, 0, 0,                         /* block: literal 0 */
      255, 0, 0, 0, 0,                   /* grid: literal 0 */
      255, 0,                            /* items: literal 0 */
      0};                                /* dtype (version 3 on): f32 */
  CHECK(rf_case_encode(&c, enc) == 41 && enc[0] == rf_codec_version() &&
        memcmp(enc + 1, want + 1, 40) == 0);

  /* hand-written strings, one per class */
  uint8_t b[40];
  memset(b, 0, sizeof b);
  b[0] = 2; /* version 2 pinned: its dist byte folds onto 19 distributions */
  b[4] = 184; /* seed boundary list, index 7: 1027 */
  b[5] = 7;
  rf_case_decode(b, sizeof b, &gpu, &c);
  CHECK(c.n == 1027);
  b[5] = 8; /* index 8: 2^24 */
  rf_case_decode(b, sizeof b, &gpu, &c);
  CHECK(c.n == 16777216);
  rf_case_decode(b, sizeof b, &sim, &c); /* clamped to the simulator's limit */
  CHECK(c.n == 262144);
  b[4] = 10; /* small exact: 200 % 71 = 58 */
  b[5] = 200;
  rf_case_decode(b, sizeof b, &gpu, &c);
  CHECK(c.n == 58);
  b[4] = 40; /* 2^k + delta, payload 785: k = 785 % 25 = 10, delta = (785 >> 8) % 5 - 2 = +1 */
  b[5] = 17;
  b[6] = 3;
  rf_case_decode(b, sizeof b, &gpu, &c);
  CHECK(c.n == 1025);
  b[4] = 255; /* literal, folded: 2^24 + 5 -> (2^24 + 5) % (2^24 + 1) = 4 */
  b[5] = 5;
  b[6] = 0;
  b[7] = 0;
  b[8] = 1;
  rf_case_decode(b, sizeof b, &gpu, &c);
  CHECK(c.n == 4);
  memset(b, 0, sizeof b);
  b[1] = 3; /* softmax */
  b[4] = 224; /* seed shapes, index 6: 4096 x 1024 */
  b[5] = 6;
  rf_case_decode(b, sizeof b, &gpu, &c);
  CHECK(c.op == RF_OP_SOFTMAX && c.n == 0 && c.rows == 4096 && c.cols == 1024);
  rf_case_decode(b, sizeof b, &sim, &c); /* 4096*1024 > 2^18: rows shrink to fit */
  CHECK(c.rows == 256 && c.cols == 1024);
  b[30] = 128; /* block: powers of two, 5 % 6 -> 1024 */
  b[31] = 5;
  b[33] = 130; /* grid: small, 1 + 70 % 64 = 7 */
  b[34] = 70;
  b[38] = 130; /* items: 1 + (130 - 128) % 16 = 3 */
  b[3] = 0x0E; /* schedule random, wave 64 */
  b[0] = 2;  /* version 2 pinned */
  b[2] = 20; /* dist 20 % 19 = 1: ones */
  rf_case_decode(b, sizeof b, &gpu, &c);
  CHECK(c.block == 1024 && c.grid == 7 && c.items == 3 && c.sched == RF_SCHED_RANDOM);
  CHECK(c.wave == 64 && c.dist == RF_DIST_ONES);
  b[0] = 200; /* a byte 0 that names no version decodes as the newest */
  rf_case d;
  rf_case_decode(b, sizeof b, &gpu, &d);
  b[0] = (uint8_t)rf_codec_version();
  rf_case e;
  rf_case_decode(b, sizeof b, &gpu, &e);
  CHECK(rf_case_equal(&e, &d));
  /* Version 1 folds the dist byte onto its own 12 distributions forever: 25 % 12 = ones,
   * whatever model/dists.def has added since. */
  b[0] = 1;
  b[2] = 25;
  rf_case_decode(b, sizeof b, &gpu, &d);
  CHECK(d.dist == RF_DIST_ONES && rf_case_equal(&c, &d));
  b[2] = 20; /* version 1: dist byte % 12 in the old order, 20 % 12 = 8: spike */
  rf_case_decode(b, sizeof b, &gpu, &d);
  CHECK(d.dist == RF_DIST_SPIKE && d.block == 1024 && d.grid == 7);
  b[2] = 14; /* version 1's `wide` (14 % 12 = 2) is today's `overflow` */
  rf_case_decode(b, sizeof b, &gpu, &d);
  CHECK(d.dist == RF_DIST_OVERFLOW);
  b[0] = 2;
  rf_case_decode(b, sizeof b, &gpu, &d);
  CHECK(d.dist == RF_DIST_INF_MIXED); /* version 2: 14 % 19 = 14 */
}

/* The frozen part of the format: how many distributions each released version decodes to.
 * A distribution added with an old `since` (instead of newest + 1) would change what that
 * version's files mean, and fails here. Add a row when a version is released. */
/* The element type: versions 1 and 2 predate it and decode to f32 whatever follows; from
 * version 3 on every type of model/dtypes.def round-trips, and its byte folds (byte % 3). */
static void test_dtype_versions(void) {
  uint8_t b[RF_CASE_ENCODED_MAX];
  rf_case d;
  for (unsigned v = 1; v <= 2; v++) {
    memset(b, 0, sizeof b);
    b[0] = (uint8_t)v;
    b[40] = 1;
    rf_case_decode(b, sizeof b, NULL, &d);
    CHECK(d.dtype == RF_DTYPE_F32);
  }
  memset(b, 0, sizeof b);
  b[0] = 3;
  b[40] = 5;   /* 5 % 3 = 2: bf16 */
  rf_case_decode(b, sizeof b, NULL, &d);
  CHECK(d.dtype == RF_DTYPE_BF16);
  rf_case_decode(b, 40, NULL, &d);   /* the byte missing reads as 0: f32 */
  CHECK(d.dtype == RF_DTYPE_F32);
  /* the op byte: versions 1 and 2 knew four ops, versions 3 to 5 six (5 % 4 = max,
   * 5 = logsoftmax), version 6 eight (7 % 6 = max, 7 = argmin) */
  for (unsigned v = 1; v <= 3; v++) {
    memset(b, 0, sizeof b);
    b[0] = (uint8_t)v;
    b[1] = 5;
    rf_case_decode(b, sizeof b, NULL, &d);
    CHECK(d.op == (v < 3 ? RF_OP_MAX : RF_OP_LOGSOFTMAX));
  }
  for (unsigned v = 4; v <= 6; v++) {
    memset(b, 0, sizeof b);
    b[0] = (uint8_t)v;
    b[1] = 7;
    rf_case_decode(b, sizeof b, NULL, &d);
    CHECK(d.op == (v < 6 ? RF_OP_MAX : RF_OP_ARGMIN));
  }
  for (int t = 0; t < RF_DTYPE_COUNT; t++)
    for (int op = 0; op < RF_OP_COUNT; op++) {
      rf_case c;
      rf_case_default(&c);
      c.op = (rf_op)op;
      if (rf_op_has_rows(c.op)) { c.n = 0; c.rows = 3; c.cols = 33; }
      c.dtype = (rf_dtype)t;
      rf_case_encode(&c, b);
      rf_case_decode(b, sizeof b, NULL, &d);
      CHECK(rf_case_equal(&c, &d));
    }
}

/* Version 4 made the misalignment a field (the dtype byte's high nibble); versions 1..3 keep
 * the placement they always had: seed bits 62..63. */
static void test_misalign_versions(void) {
  uint8_t b[RF_CASE_ENCODED_MAX];
  rf_case d;
  for (unsigned v = 1; v <= 3; v++) {
    memset(b, 0, sizeof b);
    b[0] = (uint8_t)v;
    b[29] = 0xC0;   /* seed bits 62..63 = 3 */
    b[40] = 0x51;   /* the high nibble is no misalignment before version 4 */
    rf_case_decode(b, sizeof b, NULL, &d);
    CHECK(d.misalign == 3);
    b[29] = 0x40;
    rf_case_decode(b, sizeof b, NULL, &d);
    CHECK(d.misalign == 1);
  }
  memset(b, 0, sizeof b);
  b[0] = 4;
  b[29] = 0xC0;     /* the seed's bits mean nothing for the placement from version 4 */
  b[40] = 0x51;     /* f16, misalign 5 */
  rf_case_decode(b, sizeof b, NULL, &d);
  CHECK(d.dtype == RF_DTYPE_F16 && d.misalign == 5);
  b[40] = 0x50;     /* f32: 5 % 4 = 1 */
  rf_case_decode(b, sizeof b, NULL, &d);
  CHECK(d.dtype == RF_DTYPE_F32 && d.misalign == 1);
  b[40] = 0xF2;     /* bf16: 15 % 8 = 7 */
  rf_case_decode(b, sizeof b, NULL, &d);
  CHECK(d.dtype == RF_DTYPE_BF16 && d.misalign == 7);
  for (int t = 0; t < RF_DTYPE_COUNT; t++)
    for (uint32_t m = 0; m <= rf_case_misalign_max((rf_dtype)t); m++) {
      rf_case c;
      rf_case_default(&c);
      c.dtype = (rf_dtype)t;
      c.misalign = m;
      c.seed = UINT64_C(0xC000000000000000) | m;   /* seed bits and field disagree */
      CHECK(rf_case_validate(&c, NULL, NULL, 0) == 0);
      rf_case_encode(&c, b);
      rf_case_decode(b, sizeof b, NULL, &d);
      CHECK(rf_case_equal(&c, &d));
    }
  /* Decoding is total: every byte string gives a misalignment its type can take. */
  for (unsigned x = 0; x < 256; x++) {
    memset(b, 0, sizeof b);
    b[40] = (uint8_t)x;
    rf_case_decode(b, sizeof b, NULL, &d);
    CHECK(d.misalign <= rf_case_misalign_max(d.dtype) && rf_case_validate(&d, NULL, NULL, 0) == 0);
  }
}

static void test_versions_frozen(void) {
  static const unsigned frozen[][2] = {{1, 12}, {2, 19}, {3, 19}, {4, 19}, {5, 20}, {6, 23}, {7, 24}};
  for (size_t i = 0; i < sizeof frozen / sizeof frozen[0]; i++)
    CHECK(rf_codec_dist_count(frozen[i][0]) == frozen[i][1]);
  CHECK(rf_codec_dist_count(rf_codec_version()) == RF_DIST_COUNT);
  /* the encoder names the newest version, and decodes back exactly */
  rf_case c;
  rf_case_default(&c);
  c.dist = (rf_dist)(RF_DIST_COUNT - 1);
  uint8_t buf[RF_CASE_ENCODED_MAX];
  rf_case_encode(&c, buf);
  CHECK(buf[0] == rf_codec_version());
  rf_case d;
  rf_case_decode(buf, sizeof buf, NULL, &d);
  CHECK(rf_case_equal(&c, &d));
}

static int is_pow2_pm1(uint64_t v) {
  for (int k = 0; k < 64; k++) {
    uint64_t p = UINT64_C(1) << k;
    if (v == p || v == p - 1 || v == p + 1) return 1;
  }
  return 0;
}
static int in_seed_list(uint64_t v) {
  static const uint64_t list[] = {1, 31, 32, 33, 255, 256, 257, 1027, 16777216};
  for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
    if (v == list[i]) return 1;
  return 0;
}

/* Random bytes must land on the sizes that matter far more often than uniform sampling. */
static void test_distribution(void) {
  uint64_t s = 99;
  uint8_t buf[40];
  long sizes = 0, boundary = 0, zero_n = 0, at_limit = 0, big = 0, shape_main = 0;
  long softmax = 0, block_default = 0, block_pow2 = 0, block_other = 0, grid_big = 0;
  long items_set = 0, wave64 = 0, dist[RF_DIST_COUNT] = {0}, sched[RF_SCHED_COUNT] = {0};
  long cols_boundary = 0;
  const long N = 100000;
  for (long i = 0; i < N; i++) {
    for (size_t j = 0; j < sizeof buf; j++) buf[j] = (uint8_t)rf_splitmix64(&s);
    rf_case c;
    rf_case_decode(buf, sizeof buf, &gpu, &c);
    if (rf_op_has_rows(c.op)) {
      softmax++;
      shape_main += c.rows == 4096 && c.cols == 1024;
      cols_boundary += in_seed_list(c.cols) || is_pow2_pm1(c.cols);
    } else {
      sizes++;
      boundary += in_seed_list(c.n) || is_pow2_pm1(c.n);
      zero_n += c.n == 0;
      at_limit += c.n == gpu.max_n;
      big += c.n > (1u << 20);
    }
    block_default += c.block == 0;
    block_pow2 += c.block >= 32 && (c.block & (c.block - 1)) == 0;
    block_other += c.block && (c.block & (c.block - 1)) != 0;
    grid_big += c.grid > 4096;
    items_set += c.items != 0;
    wave64 += c.wave == 64;
    dist[c.dist]++;
    sched[c.sched]++;
  }
  printf("of %ld 1-D sizes: %.1f%% boundary (seed list or 2^k+-1), %.2f%% zero, %.2f%% at the "
         "limit, %.1f%% above 2^20\n", sizes, 100.0 * boundary / sizes, 100.0 * zero_n / sizes,
         100.0 * at_limit / sizes, 100.0 * big / sizes);
  printf("of %ld row-op shapes: %.1f%% 4096x1024, %.1f%% boundary cols\n", softmax,
         100.0 * shape_main / softmax, 100.0 * cols_boundary / softmax);
  printf("block: %.1f%% default, %.1f%% power of two, %.1f%% other; grid > 4096: %.1f%%; "
         "items set: %.1f%%; wave 64: %.1f%%\n", 100.0 * block_default / N,
         100.0 * block_pow2 / N, 100.0 * block_other / N, 100.0 * grid_big / N,
         100.0 * items_set / N, 100.0 * wave64 / N);
  CHECK_MSG(boundary * 10 >= sizes, "boundary sizes: %ld of %ld", boundary, sizes);
  CHECK(zero_n > 0 && at_limit > 0 && big * 100 > sizes);
  CHECK(shape_main * 100 > softmax && cols_boundary * 10 > softmax);
  CHECK(block_default * 100 > N * 40 && block_pow2 * 100 > N * 20 && block_other * 100 > N * 5);
  CHECK(grid_big > 0 && items_set * 100 > N * 30 && wave64 * 100 > N * 15 &&
        wave64 * 100 < N * 40);
  /* dist: byte % D (D = RF_DIST_COUNT) gives each floor(256/D) or that + 1 of 256 (D = 19:
   * 13 or 14, 5.1% or 5.5%), within 0.6% either way; a random first byte is version 1
   * (byte % 12, old order) 1 time in 256 */
  const long lo = 256 / RF_DIST_COUNT * 1000 / 256 - 6, hi = (256 / RF_DIST_COUNT + 1) * 1000 / 256 + 6;
  for (int d = 0; d < RF_DIST_COUNT; d++)
    CHECK_MSG(dist[d] * 1000 > N * lo && dist[d] * 1000 < N * hi, "dist %d: %ld", d, dist[d]);
  for (int k = 0; k < RF_SCHED_COUNT; k++)
    CHECK_MSG(sched[k] * 100 > N * 22 && sched[k] * 100 < N * 28, "sched %d: %ld", k, sched[k]);
}

int main(void) {
  test_versions_frozen();
  test_dtype_versions();
  test_misalign_versions();
  test_empty_and_fixed_strings();
  test_random_strings();
  test_round_trip();
  test_layout();
  test_distribution();
  return rf_test_done();
}
