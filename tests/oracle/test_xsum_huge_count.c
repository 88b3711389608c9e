/* Counts beyond 2^32 and the lazy-carry limit, with the largest magnitudes: the digits must
 * never overflow, in bulk (bins) or one at a time (lazy carries, normalised every 2^20). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <mpfr.h>
#include "oracle/exact.h"
#include "rf_test.h"

/* The accumulator holds exactly k * v. */
static int holds_multiple(const rf_xsum *a, float v, uint64_t k) {
  mpfr_t want, got;
  mpfr_inits2(512, want, got, (mpfr_ptr)0);
  mpfr_set_flt(want, v, MPFR_RNDN);
  mpfr_mul_ui(want, want, (unsigned long)k, MPFR_RNDN);   /* exact: 24 + 64 bits */
  rf_xsum_get(a, got);
  int ok = mpfr_equal_p(want, got);
  mpfr_clears(want, got, (mpfr_ptr)0);
  return ok;
}

/* 2^32 + 2^20 additions of FLT_MAX through rf_xsum_add in 2^20 blocks. */
static void test_bulk_beyond_2_32(void) {
  size_t block = (size_t)1 << 20;
  uint64_t blocks = (UINT64_C(1) << 12) + 1;
  float *x = malloc(block * sizeof *x);
  for (size_t i = 0; i < block; i++) x[i] = FLT_MAX;
  rf_xsum a;
  rf_xsum_init(&a);
  for (uint64_t r = 0; r < blocks; r++) rf_xsum_add(&a, x, block);
  CHECK(holds_multiple(&a, FLT_MAX, blocks * block));
  CHECK(rf_xsum_round_f32(&a) == INFINITY);
  rf_xsum_add1(&a, -0x1p-149f);                  /* a borrow through every digit */
  mpfr_t want, got;
  mpfr_init2(want, 512);
  mpfr_init2(got, 8);                            /* rf_xsum_get raises it: 309 bits needed */
  mpfr_set_flt(want, FLT_MAX, MPFR_RNDN);
  mpfr_mul_ui(want, want, (unsigned long)(blocks * block), MPFR_RNDN);
  CHECK(mpfr_sub_d(want, want, 0x1p-149, MPFR_RNDN) == 0);
  rf_xsum_get(&a, got);
  CHECK(mpfr_get_prec(got) >= 309);
  CHECK(mpfr_equal_p(want, got));
  mpfr_clears(want, got, (mpfr_ptr)0);
  free(x);
}

/* One-at-a-time additions across many normalisation intervals: 2^24 + 2^20 adds of -FLT_MAX
 * through add1, then as many of +FLT_MAX through short arrays, leaving exactly 0. */
static void test_lazy_carries_beyond_interval(void) {
  uint64_t count = (UINT64_C(1) << 24) + (UINT64_C(1) << 20);
  rf_xsum a;
  rf_xsum_init(&a);
  for (uint64_t i = 0; i < count; i++) rf_xsum_add1(&a, -FLT_MAX);
  CHECK(holds_multiple(&a, -FLT_MAX, count));
  float x[1024];
  for (int i = 0; i < 1024; i++) x[i] = FLT_MAX;
  for (uint64_t i = 0; i < count / 1024; i++) rf_xsum_add(&a, x, 1024);
  CHECK(holds_multiple(&a, FLT_MAX, 0));
  CHECK(rf_xsum_round_f32(&a) == 0.0f);
}

/* The lazy-carry invariant behind the one-at-a-time path (oracle/exact_sum.c): normalised at
 * least every 2^20 additions, each addition moving a word by < 2^32, so every word stays
 * below 2^32 (pending + 1) in magnitude, whatever the count. */
static void test_lazy_invariant(void) {
  rf_xsum a;
  rf_xsum_init(&a);
  int bad = 0;
  for (uint64_t i = 1; i <= (UINT64_C(3) << 20) + 5; i++) {
    rf_xsum_add1(&a, FLT_MAX);                   /* the low part is nearly 2^32 */
    if ((i & 0xffff) != 5) continue;
    if (a.pending > (UINT64_C(1) << 20)) bad++;
    for (int k = 0; k < RF_XSUM_WORDS; k++)
      if (llabs(a.w[k]) >= (long long)((a.pending + 1) << 32)) bad++;
  }
  CHECK_MSG(bad == 0, "%d invariant violations", bad);
  CHECK(holds_multiple(&a, FLT_MAX, (UINT64_C(3) << 20) + 5));
}

int main(void) {
  test_bulk_beyond_2_32();
  test_lazy_carries_beyond_interval();
  test_lazy_invariant();
  return rf_test_done();
}
