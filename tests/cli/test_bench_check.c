/* The bench's library part (fuzz/bench.h): the oracle check of a timed 1-D result must
 * report planted errors (a sum just beyond its bound, a dropped element under an exact
 * bound, a wrong maximum, an argmax tie resolved upwards, a NaN) and pass right answers;
 * medians, byte counts and GB/s; and the timing loop runs warmup + repeat launches and
 * stops at the first failing one with its error. */
#include <math.h>
#include <string.h>
#include "rf_test.h"
#include "run/bench.h"
#include "redfuzz/variant.h"
#include "oracle/bounds.h"
#include "oracle/exact.h"

static rf_plan chain_plan(uint64_t adds) {
  rf_plan p = {0};
  rf_plan_add(&p, RF_LEVEL_CHAIN, adds);
  return p;
}

static rf_verdict check_bits(rf_op op, uint32_t index_bits, const rf_plan *p, const float *x,
                             uint64_t n, const void *got) {
  char detail[256];
  rf_verdict v = rf_bench_check_1d(op, index_bits, p, x, n, got, detail, sizeof detail);
  CHECK_MSG((v == RF_V_PASS) == (detail[0] == 0), "detail '%s' for verdict %s", detail,
            rf_verdict_name(v));
  return v;
}

static rf_verdict check(rf_op op, const rf_plan *p, const float *x, uint64_t n, const void *got) {
  return check_bits(op, 0, p, x, n, got);
}

static void test_sum(void) {
  enum { N = 1000 };
  float x[N];
  /* Ones: every partial sum is exact, so the bound is 0 and one lost element shows. */
  for (int i = 0; i < N; i++) x[i] = 1.0f;
  rf_plan p = chain_plan(N - 1);
  float got = 1000.0f;
  CHECK(check(RF_OP_SUM, &p, x, N, &got) == RF_V_PASS);
  got = 999.0f;
  CHECK(check(RF_OP_SUM, &p, x, N, &got) == RF_V_WRONG);

  /* Values that round: an error just beyond the derived bound is wrong, half of it passes. */
  for (int i = 0; i < N; i++) x[i] = 1.0f + (float)i * 0x1p-20f + (i % 3 ? 0x1p-23f : 0);
  rf_sum_facts f;
  rf_sum_facts_compute(x, N, &f);
  rf_sum_bound b;
  rf_bound_sum(&p, &f, &b);
  CHECK(b.bound > 0);
  double want = (double)rf_oracle_sum(x, N);
  got = (float)(want + 0.5 * b.bound);
  CHECK(check(RF_OP_SUM, &p, x, N, &got) == RF_V_PASS);
  got = (float)(want + 1.01 * b.bound);   /* 1% beyond: about 10 ulp of the sum */
  CHECK(check(RF_OP_SUM, &p, x, N, &got) == RF_V_WRONG);
  got = NAN;
  CHECK(check(RF_OP_SUM, &p, x, N, &got) == RF_V_NONFINITE);
}

static void test_max_argmax(void) {
  float x[10] = {0.5f, -1, 3, 2, -4, 0, 1, 3, 2.5f, -0.25f};
  rf_plan p = chain_plan(9);
  float got = 3;
  CHECK(check(RF_OP_MAX, &p, x, 10, &got) == RF_V_PASS);
  got = 2.5f;
  CHECK(check(RF_OP_MAX, &p, x, 10, &got) == RF_V_WRONG);
  got = NAN;
  CHECK(check(RF_OP_MAX, &p, x, 10, &got) == RF_V_NONFINITE);
  got = -INFINITY;   /* a fold that never saw a value: a wrong number, not a NaN */
  CHECK(check(RF_OP_MAX, &p, x, 10, &got) == RF_V_WRONG);
  float nans[3] = {NAN, NAN, NAN};
  CHECK(check(RF_OP_MAX, &p, nans, 3, &got) == RF_V_WRONG);   /* all NaN: NaN due */
  got = NAN;
  CHECK(check(RF_OP_MAX, &p, nans, 3, &got) == RF_V_PASS);

  rf_argmax_out a = {3, 2};
  CHECK(check(RF_OP_ARGMAX, &p, x, 10, &a) == RF_V_PASS);
  a.index = 7;   /* the same maximum, but ties go to the lowest index */
  CHECK(check(RF_OP_ARGMAX, &p, x, 10, &a) == RF_V_WRONG);
  a = (rf_argmax_out){2.5f, 2};   /* right index, wrong value */
  CHECK(check(RF_OP_ARGMAX, &p, x, 10, &a) == RF_V_WRONG);
  /* The 16-byte layout of a variant of index_bits 64 (the index at offset 8) is read as such:
   * the same answers, the same verdicts. */
  rf_argmax_out64 w = {3, 0, 2};
  CHECK(check_bits(RF_OP_ARGMAX, 64, &p, x, 10, &w) == RF_V_PASS);
  w.index = 7;
  CHECK(check_bits(RF_OP_ARGMAX, 64, &p, x, 10, &w) == RF_V_WRONG);
  w = (rf_argmax_out64){3, 0, 2 + ((int64_t)1 << 32)};   /* the low 32 bits are right */
  CHECK(check_bits(RF_OP_ARGMAX, 64, &p, x, 10, &w) == RF_V_WRONG);
}

static void test_figures(void) {
  double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
  CHECK(rf_bench_median(odd, 3) == 2);
  CHECK(rf_bench_median(even, 4) == 2.5);
  CHECK(isnan(rf_bench_median(NULL, 0)));
  CHECK(rf_bench_bytes(RF_OP_SUM, 4, 0, 0) == 20);      /* 4n + 4 */
  CHECK(rf_bench_bytes(RF_OP_ARGMAX, 1u << 22, 0, 0) == 4.0 * (1u << 22) + 4);
  CHECK(rf_bench_bytes(RF_OP_SOFTMAX, 0, 2, 3) == 48);  /* 2 * rows * cols * 4 */
  CHECK(rf_bench_gbps(1e6, 1.0) == 1.0);
  CHECK(isnan(rf_bench_gbps(1e6, 0)));
}

typedef struct { int calls, fail_at, code; } fake_launch;
static int fake(void *p) {
  fake_launch *f = p;
  return ++f->calls == f->fail_at ? f->code : 0;
}

static void test_timing_loop(void) {
  double samples[3] = {-1, -1, -1};
  fake_launch ok = {0, 0, 0};
  CHECK(rf_bench_time(fake, &ok, 2, 3, samples) == 0);
  CHECK(ok.calls == 5);
  CHECK(samples[0] >= 0 && samples[1] >= 0 && samples[2] >= 0);

  fake_launch bad = {0, 4, 77};   /* the second timed launch fails */
  CHECK(rf_bench_time(fake, &bad, 2, 3, samples) == 77);
  CHECK(bad.calls == 4);
}

int main(void) {
  test_sum();
  test_max_argmax();
  test_figures();
  test_timing_loop();
  return rf_test_done();
}
