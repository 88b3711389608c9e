/* max / argmax policy: ties to the lowest index, NaN ignored (all NaN: NaN / -1), empty:
 * -inf / -1, -0.0 and +0.0 compare equal (IEEE) and the value at the argmax index is
 * reported, so its sign is that of the first zero. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "oracle/exact.h"
#include "rf_test.h"
#include "oracle_testlib.h"

#define N(arr) (sizeof(arr) / sizeof((arr)[0]))

static int64_t argmax_of(const float *x, size_t n, float *v) { return rf_oracle_argmax(x, n, v); }

static void test_basic_and_ties(void) {
  float x[] = {1.0f, 3.0f, -2.0f, 3.0f, 2.0f};
  float v;
  CHECK(argmax_of(x, N(x), &v) == 1 && v == 3.0f);
  CHECK(rf_oracle_max(x, N(x)) == 3.0f);
  float all_equal[] = {7.0f, 7.0f, 7.0f};
  CHECK(argmax_of(all_equal, N(all_equal), &v) == 0 && v == 7.0f);
  float last[] = {-FLT_MAX, -1.0f, 0x1p-149f};
  CHECK(argmax_of(last, N(last), &v) == 2 && v == 0x1p-149f);
  CHECK(argmax_of(last, N(last), NULL) == 2);
}

static void test_infinities(void) {
  float x[] = {-INFINITY, -INFINITY};
  float v;
  CHECK(argmax_of(x, N(x), &v) == 0 && v == -INFINITY);
  float y[] = {1.0f, INFINITY, INFINITY};
  CHECK(argmax_of(y, N(y), &v) == 1 && v == INFINITY);
}

static void test_nan(void) {
  float v;
  float lead[] = {NAN, 1.0f, NAN, 2.0f};
  CHECK(argmax_of(lead, N(lead), &v) == 3 && v == 2.0f);
  float only[] = {NAN, -NAN};
  CHECK(argmax_of(only, N(only), &v) == -1 && isnan(v));
  CHECK(isnan(rf_oracle_max(only, N(only))));
  float with_ninf[] = {NAN, -INFINITY};
  CHECK(argmax_of(with_ninf, N(with_ninf), &v) == 1 && v == -INFINITY);
}

static void test_empty(void) {
  float v = 0.0f;
  CHECK(argmax_of(NULL, 0, &v) == -1 && v == -INFINITY);
  CHECK(rf_oracle_max(NULL, 0) == -INFINITY);
}

static void test_signed_zeros(void) {
  float v;
  float neg_first[] = {-1.0f, -0.0f, 0.0f};
  CHECK(argmax_of(neg_first, N(neg_first), &v) == 1 && tl_bits(v) == 0x80000000u);
  CHECK(tl_bits(rf_oracle_max(neg_first, N(neg_first))) == 0x80000000u);
  float pos_first[] = {0.0f, -0.0f};
  CHECK(argmax_of(pos_first, N(pos_first), &v) == 0 && tl_bits(v) == 0u);
}

/* Against a plain scan written differently (index of the first maximum of the non-NaN). */
static void test_random(void) {
  uint64_t st = 31337;
  float x[257];
  int bad = 0;
  for (int t = 0; t < 2000; t++) {
    size_t n = 1 + tl_below(&st, 256);
    for (size_t i = 0; i < n; i++) {
      uint32_t r = tl_below(&st, 16);
      x[i] = r == 0 ? NAN : r == 1 ? -0.0f : (float)((int)tl_below(&st, 9) - 4);
    }
    float best = NAN;
    int64_t want = -1;
    for (size_t i = 0; i < n; i++)
      if (!isnan(x[i]) && (want < 0 || !(x[i] <= best))) { best = x[i]; want = (int64_t)i; }
    float v;
    int64_t got = argmax_of(x, n, &v);
    if (got != want || (want >= 0 && tl_bits(v) != tl_bits(x[want])) || (want < 0 && !isnan(v)))
      bad++;
  }
  CHECK_MSG(bad == 0, "%d random rows differ", bad);
}

/* min / argmin: the same policy mirrored (oracle/exact.h). */
static void test_argmin(void) {
  float v;
  float ties[] = {3.0f, -2.0f, 1.0f, -2.0f};   /* ties to the lowest index */
  CHECK(rf_oracle_argmin(ties, N(ties), &v) == 1 && v == -2.0f);
  CHECK(rf_oracle_min(ties, N(ties)) == -2.0f);
  float pinf[] = {INFINITY, INFINITY, INFINITY};   /* all +inf: index 0, not FLT_MAX / 1 */
  CHECK(rf_oracle_argmin(pinf, N(pinf), &v) == 0 && v == INFINITY);
  float big[] = {INFINITY, FLT_MAX, INFINITY};
  CHECK(rf_oracle_argmin(big, N(big), &v) == 1 && v == FLT_MAX);
  float nan_lead[] = {NAN, 2.0f, NAN, 1.0f};   /* NaN ignored */
  CHECK(rf_oracle_argmin(nan_lead, N(nan_lead), &v) == 3 && v == 1.0f);
  float only[] = {NAN, -NAN};
  CHECK(rf_oracle_argmin(only, N(only), &v) == -1 && isnan(v));
  float with_pinf[] = {NAN, INFINITY};
  CHECK(rf_oracle_argmin(with_pinf, N(with_pinf), &v) == 1 && v == INFINITY);
  CHECK(rf_oracle_argmin(NULL, 0, &v) == -1 && v == INFINITY);   /* empty: +inf / -1 */
  CHECK(rf_oracle_min(NULL, 0) == INFINITY);
  float zeros[] = {1.0f, 0.0f, -0.0f};   /* -0 ties +0: the first zero, with its sign */
  CHECK(rf_oracle_argmin(zeros, N(zeros), &v) == 1 && tl_bits(v) == 0u);
  /* against the argmax of the negated input, on random rows with NaN, zeros and ties */
  uint64_t st = 4242;
  float x[257], neg[257];
  int bad = 0;
  for (int t = 0; t < 2000; t++) {
    size_t n = 1 + tl_below(&st, 256);
    for (size_t i = 0; i < n; i++) {
      uint32_t r = tl_below(&st, 16);
      x[i] = r == 0 ? NAN : r == 1 ? INFINITY : (float)((int)tl_below(&st, 9) - 4);
      neg[i] = -x[i];
    }
    float vmin, vmax;
    const int64_t imin = rf_oracle_argmin(x, n, &vmin), imax = rf_oracle_argmax(neg, n, &vmax);
    if (imin != imax || !(vmin == -vmax || (isnan(vmin) && isnan(vmax)))) bad++;
  }
  CHECK_MSG(bad == 0, "%d random rows differ from the negated argmax", bad);
}

int main(void) {
  test_argmin();
  test_basic_and_ties();
  test_infinities();
  test_nan();
  test_empty();
  test_signed_zeros();
  test_random();
  return rf_test_done();
}
