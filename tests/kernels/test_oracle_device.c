/* The device exact oracle (kernels/harness/oracle_device.h) equals the host oracle, field by field,
 * on every input of the boundary sweep (the seeds' lengths, every distribution, seeds 1..3,
 * plus lengths past one block's chunk) and on hand-made inputs at the edges of the format:
 * infinities, NaN, signed zeros, ties, subnormals, overflow of the rounded sum, rounding
 * ties, cancellation to zero and to negative values. Runs on whatever backend the build has
 * (the simulator in CI; `ctest -R oracle_device` on a GPU build). The comparison itself is
 * shown to fire on planted differences. 16-bit inputs (rf_oracle_dev_launch_typed): the
 * device oracle on the f16/bf16 encodings equals the host oracle on their float values, on
 * the boundary sweep made in each type, on every encoding of each type, and at a half-word
 * offset; reading one type's encodings as the other's is caught. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "model/dtype.h"
#include "kernels/harness/device.h"
#include "kernels/harness/oracle_device.h"
#include <stdio.h>

static void *dev_x, *dev_scratch, *dev_out;
static size_t dev_x_bytes;

/* Runs both oracles on x[0..n); 0 when they agree (else says where). */
static int agree(const float *x, uint64_t n, const char *what) {
  size_t bytes = (n ? n : 1) * sizeof(float);
  if (bytes > dev_x_bytes) {
    rf_dev_free(dev_x);
    if (rf_dev_alloc(&dev_x, bytes)) { fprintf(stderr, "device allocation failed\n"); exit(2); }
    dev_x_bytes = bytes;
  }
  if (n) CHECK(rf_dev_upload(dev_x, x, n * sizeof(float)) == 0);
  rf_oracle_dev_out want, got;
  memset(&got, 0xa5, sizeof got);   /* a field the kernel forgot would show */
  CHECK(rf_dev_upload(dev_out, &got, sizeof got) == 0);
  CHECK(rf_oracle_dev_launch_typed(dev_x, (uint32_t)RF_DTYPE_F32, n, dev_scratch, dev_out, NULL) == 0);
  CHECK(rf_dev_sync() == 0);
  char status[512];
  CHECK_MSG(rf_dev_sim_take_status(status, sizeof status) == 0, "%s: simulator: %s", what, status);
  CHECK(rf_dev_download(&got, dev_out, sizeof got) == 0);
  rf_oracle_dev_host(x, n, &want);
  char msg[256];
  int ok = rf_oracle_dev_compare(&want, &got, msg, sizeof msg) == 0;
  CHECK_MSG(ok, "%s (n = %llu): %s", what, (unsigned long long)n, msg);
  return ok ? 0 : -1;
}

/* Both oracles on the 16-bit encodings h[0..n) of type dt: the device reads h (from a
 * buffer offset by `shift` elements: a half-word start), the host their floats. 0 when they
 * agree (else says where). */
static int agree_half(rf_dtype dt, const uint16_t *h, uint64_t n, size_t shift,
                      const char *what) {
  size_t bytes = (n + shift + 1) * sizeof(uint16_t);
  if (bytes > dev_x_bytes) {
    rf_dev_free(dev_x);
    if (rf_dev_alloc(&dev_x, bytes)) { fprintf(stderr, "device allocation failed\n"); exit(2); }
    dev_x_bytes = bytes;
  }
  uint16_t *x_dev = (uint16_t *)dev_x + shift;
  if (n) CHECK(rf_dev_upload(x_dev, h, n * sizeof(uint16_t)) == 0);
  rf_oracle_dev_out want, got;
  memset(&got, 0xa5, sizeof got);
  CHECK(rf_dev_upload(dev_out, &got, sizeof got) == 0);
  CHECK(rf_oracle_dev_launch_typed(x_dev, (uint32_t)dt, n, dev_scratch, dev_out, NULL) == 0);
  CHECK(rf_dev_sync() == 0);
  char status[512];
  CHECK_MSG(rf_dev_sim_take_status(status, sizeof status) == 0, "%s: simulator: %s", what, status);
  CHECK(rf_dev_download(&got, dev_out, sizeof got) == 0);
  float *x = malloc((n + 1) * sizeof(float));
  for (uint64_t i = 0; i < n; i++) x[i] = rf_dtype_load(dt, h, i);
  rf_oracle_dev_host(x, n, &want);
  free(x);
  char msg[256];
  const int ok = rf_oracle_dev_compare(&want, &got, msg, sizeof msg) == 0;
  CHECK_MSG(ok, "%s %s (n = %llu): %s", rf_dtype_name(dt), what, (unsigned long long)n, msg);
  return ok ? 0 : -1;
}

/* The boundary sweep made in each 16-bit type (rf_generate's values are exact in it), at
 * even and odd half-word offsets. */
static void half_boundary_sweep(void) {
  static const uint64_t ns[] = {0, 1, 2, 31, 33, 257, 1027, 4097, 70001};
  const rf_dtype types[] = {RF_DTYPE_F16, RF_DTYPE_BF16};
  size_t cases = 0, bad = 0;
  float *x = malloc(70001 * sizeof(float));
  uint16_t *h = malloc(70001 * sizeof(uint16_t));
  for (size_t t = 0; t < 2; t++)
    for (int d = 0; d < RF_DIST_COUNT; d++)
      for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
          rf_case c;
          rf_case_default(&c);
          c.op = RF_OP_SUM;
          c.dtype = types[t];
          c.n = ns[k];
          c.dist = (rf_dist)d;
          c.seed = seed;
          rf_generate(&c, x);
          rf_dtype_store(c.dtype, x, c.n, h);
          char what[96];
          snprintf(what, sizeof what, "dist %s seed %llu", rf_dist_name(c.dist),
                   (unsigned long long)seed);
          bad += agree_half(c.dtype, h, c.n, (size_t)seed - 1, what) != 0;
          cases++;
        }
  free(h);
  free(x);
  printf("16-bit boundary sweep: %zu inputs, %zu disagreements\n", cases, bad);
}

/* Every encoding of each 16-bit type (both zeros, subnormals, the largest finite values,
 * infinities, NaNs with every payload), then the finite ones only (a finite sum to round),
 * then the finite ones in reverse (the argmax's ties between -0 and +0 and its lowest index).
 * A planted error: the bf16 encodings read as f16 (and the reverse) must disagree. */
static void half_every_encoding(void) {
  const size_t all = 65536;
  uint16_t *h = malloc(all * sizeof(uint16_t)), *fin = malloc(all * sizeof(uint16_t));
  const rf_dtype types[] = {RF_DTYPE_F16, RF_DTYPE_BF16};
  for (size_t t = 0; t < 2; t++) {
    const rf_dtype dt = types[t];
    size_t nf = 0;
    for (size_t i = 0; i < all; i++) {
      h[i] = (uint16_t)i;
      if (isfinite(rf_dtype_load(dt, h, i))) fin[nf++] = (uint16_t)i;
    }
    agree_half(dt, h, all, 0, "every encoding");
    agree_half(dt, fin, nf, 1, "every finite encoding");
    for (size_t i = 0; i < nf / 2; i++) {
      const uint16_t v = fin[i];
      fin[i] = fin[nf - 1 - i];
      fin[nf - 1 - i] = v;
    }
    agree_half(dt, fin, nf, 0, "every finite encoding, reversed");
    /* the conversion matters: the other type's reading of the same encodings differs */
    const rf_dtype other = dt == RF_DTYPE_F16 ? RF_DTYPE_BF16 : RF_DTYPE_F16;
    uint16_t three[3] = {fin[0], fin[nf / 3], fin[nf / 2]};
    char status[512];
    CHECK(rf_dev_upload(dev_x, three, sizeof three) == 0);
    CHECK(rf_oracle_dev_launch_typed(dev_x, (uint32_t)other, 3, dev_scratch, dev_out, NULL) == 0);
    CHECK(rf_dev_sync() == 0);
    rf_dev_sim_take_status(status, sizeof status);
    rf_oracle_dev_out got, want;
    CHECK(rf_dev_download(&got, dev_out, sizeof got) == 0);
    float xf[3];
    for (size_t i = 0; i < 3; i++) xf[i] = rf_dtype_load(dt, three, i);
    rf_oracle_dev_host(xf, 3, &want);
    char msg[256];
    CHECK_MSG(rf_oracle_dev_compare(&want, &got, msg, sizeof msg) != 0,
              "%s read as %s went unnoticed", rf_dtype_name(dt), rf_dtype_name(other));
  }
  /* no third 16-bit type */
  CHECK(rf_oracle_dev_launch_typed(dev_x, 3, 1, dev_scratch, dev_out, NULL) != 0);
  free(fin);
  free(h);
}

static void boundary_sweep(void) {
  static const uint64_t ns[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1027, 4095, 4096, 4097,
                                16384, 70001};
  size_t cases = 0, bad = 0;
  float *x = malloc(70001 * sizeof(float));
  for (int d = 0; d < RF_DIST_COUNT; d++)
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        rf_case c;
        rf_case_default(&c);
        c.op = RF_OP_SUM;
        c.n = ns[k];
        c.dist = (rf_dist)d;
        c.seed = seed;
        rf_generate(&c, x);
        char what[96];
        snprintf(what, sizeof what, "dist %s seed %llu", rf_dist_name(c.dist),
                 (unsigned long long)seed);
        bad += agree(x, c.n, what) != 0;
        cases++;
      }
  free(x);
  printf("boundary sweep: %zu inputs, %zu disagreements\n", cases, bad);
}

static float bits_f(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

static void edges(void) {
  const float inf = INFINITY, nan = NAN, tiny = bits_f(1), maxf = FLT_MAX;
  struct { const char *what; float x[8]; int n; } t[] = {
    {"+inf", {1, inf, 2}, 3},
    {"-inf", {1, -inf, 2}, 3},
    {"inf - inf", {inf, -inf}, 2},
    {"NaN", {1, nan, 3}, 3},
    {"only NaN", {nan, nan}, 2},
    {"-0 then +0 (tie: the first)", {-0.0f, 0.0f}, 2},
    {"+0 then -0", {0.0f, -0.0f}, 2},
    {"all -0 (sum +0)", {-0.0f, -0.0f, -0.0f}, 3},
    {"ties at the max", {1, 3, 2, 3, 3}, 5},
    {"negative max after NaN", {nan, -5, -2, -2}, 4},
    {"subnormals", {tiny, bits_f(0x007fffff), -tiny, bits_f(0x00400000)}, 4},
    {"sum to the smallest normal", {bits_f(0x00400000), bits_f(0x00400000)}, 2},
    {"overflow of the rounded sum", {maxf, maxf}, 2},
    {"negative overflow", {-maxf, -maxf, 1}, 3},
    {"FLT_MAX + half ulp (tie to inf)", {maxf, 0x1p103f}, 2},
    {"FLT_MAX + less than half ulp", {maxf, 0x1p102f}, 2},
    {"rounding tie to even (down)", {1.0f, 0x1p-24f}, 2},
    {"rounding tie to even (up)", {bits_f(0x3f800001), 0x1p-24f}, 2},
    {"just over a tie", {1.0f, 0x1p-24f, 0x1p-60f}, 3},
    {"cancellation to zero", {1e30f, 3.0f, -1e30f, -3.0f}, 4},
    {"cancellation to a negative", {1e30f, -1e30f, -0x1p-140f}, 3},
    {"huge and tiny", {maxf, tiny, -maxf}, 3},
    {"inf with max and NaN", {nan, -inf, inf, 7}, 4},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) agree(t[i].x, (uint64_t)t[i].n, t[i].what);
  agree(NULL, 0, "empty");
  /* Many copies of one value (every element in one bin) and an alternating sign pattern
   * spanning chunks: the integer fields' carries. */
  size_t n = 300000;
  float *x = malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) x[i] = maxf;
  agree(x, n, "300000 x FLT_MAX");
  for (size_t i = 0; i < n; i++) x[i] = (i & 1) ? -bits_f(0x7f7ffffe) : maxf;
  agree(x, n, "alternating near FLT_MAX");
  for (size_t i = 0; i < n; i++) x[i] = bits_f(0x807fffff);
  agree(x, n, "300000 x -largest subnormal");
  x[n - 1] = bits_f(0x7fc00001);
  x[7] = inf;
  agree(x, n, "with a late NaN and an inf");
  free(x);
}

/* The comparison is what every agreement rests on: a planted difference in each kind of
 * field must be reported. */
static void compare_fires(void) {
  float x[3] = {1.5f, -2.0f, 0x1p-130f};
  rf_oracle_dev_out a, b;
  rf_oracle_dev_host(x, 3, &a);
  char msg[256];
  CHECK(rf_oracle_dev_compare(&a, &a, msg, sizeof msg) == 0);
  b = a; b.sum_w[0] ^= 1;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "sum digit 0"));
  b = a; b.abs_w[9] += 1;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "|x| sum digit 9"));
  b = a; b.argmax_index = 2;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "argmax_index"));
  b = a; b.sum_f32 = nextafterf(a.sum_f32, 0);
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "sum_f32"));
  b = a; b.abs_sum_up = nextafter(a.abs_sum_up, 10);
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "abs_sum_up"));
  b = a; b.min_exp--;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "min_exp"));
  b = a; b.max_value = -b.max_value;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "max_value"));
  b = a; b.n_nan = 1;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "n_nan"));
  b = a; b.argmin_index = 2;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "argmin_index"));
  b = a; b.min_value = -b.min_value;
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "min_value"));
  /* -0 and +0 are different answers (max reports the element's sign). */
  float z[2] = {-0.0f, 0.0f}, zr[2] = {0.0f, -0.0f};
  rf_oracle_dev_host(z, 2, &a);
  rf_oracle_dev_host(zr, 2, &b);
  CHECK(rf_oracle_dev_compare(&a, &b, msg, sizeof msg) != 0 && strstr(msg, "max_value"));
}

/* The simulator's schedules and wave sizes (no-ops on a GPU): the oracle's integer atomics
 * must give the same bits whatever order the threads meet. */
static void schedules(void) {
  float *x = malloc(20000 * sizeof(float));
  for (int d = 0; d < RF_DIST_COUNT; d += 3) {
    rf_case c;
    rf_case_default(&c);
    c.n = 20000;
    c.dist = (rf_dist)d;
    rf_generate(&c, x);
    for (int s = 0; s < RF_SCHED_COUNT; s++)
      for (unsigned wave = 32; wave <= 64; wave *= 2) {
        rf_dev_sim_configure(s, 7, wave);
        char what[96];
        snprintf(what, sizeof what, "dist %s schedule %s wave %u", rf_dist_name(c.dist),
                 rf_sched_name((rf_sched)s), wave);
        agree(x, c.n, what);
      }
  }
  rf_dev_sim_configure(RF_SCHED_IN_ORDER, 0, 32);
  free(x);
}

int main(void) {
  if (rf_dev_alloc(&dev_scratch, rf_oracle_dev_scratch_bytes()) ||
      rf_dev_alloc(&dev_out, sizeof(rf_oracle_dev_out))) {
    fprintf(stderr, "no device\n");
    return 2;
  }
  compare_fires();
  edges();
  boundary_sweep();
  half_boundary_sweep();
  half_every_encoding();
  schedules();
  rf_dev_free(dev_x);
  rf_dev_free(dev_scratch);
  rf_dev_free(dev_out);
  return rf_test_done();
}
