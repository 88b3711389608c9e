/* Case model: names, defaults, element count, equality, and validation (each rule shown
 * accepting its range ends and rejecting one step past them, with the exact message). */
#include <stdio.h>
#include <string.h>

#include "model/case.h"
#include "rf_test.h"

static char msg[512];

/* validate(c) fails with exactly `want` */
static int rejects(const rf_case *c, const rf_limits *lim, const char *want) {
  int r = rf_case_validate(c, lim, msg, sizeof msg);
  if (r != -1 || strcmp(msg, want) != 0) {
    fprintf(stderr, "  got %d '%s'\n  want '%s'\n", r, msg, want);
    return 0;
  }
  return 1;
}
static int accepts(const rf_case *c, const rf_limits *lim) {
  int r = rf_case_validate(c, lim, msg, sizeof msg);
  if (r != 0) fprintf(stderr, "  unexpected rejection: %s\n", msg);
  return r == 0;
}

static void test_names(void) {
  static const char *ops[] = {"sum",        "max", "argmax", "softmax", "logsumexp",
                              "logsoftmax", "min", "argmin"};
  static const char *dists[] = {"alternating", "ones", "wide", "negative", "equal-max",
                                "shifted-rows", "uniform", "index-weighted", "spike",
                                "subnormal", "near-overflow", "sorted", "overflow",
                                "nan-sprinkled", "inf-mixed", "signed-zero", "all-nan",
                                "all-neg-inf", "ties"};
  static const char *scheds[] = {"in-order", "reverse", "random", "wave-skew"};
  /* The first 19 distributions are frozen (codec version 2 decodes to them in this order);
   * later ones may follow (model/dists.def is append-only). */
  CHECK(RF_OP_COUNT == 8 && RF_DIST_COUNT >= 19 && RF_SCHED_COUNT == 4);
  for (int i = 0; i < RF_OP_COUNT; i++) {
    rf_op op = RF_OP_COUNT;
    CHECK(strcmp(rf_op_name((rf_op)i), ops[i]) == 0);
    CHECK(rf_op_parse(ops[i], &op) == 0 && op == (rf_op)i);
  }
  for (int i = 0; i < 19; i++) {   /* the frozen ones; names of later ones: rf_dist_list */
    rf_dist d = RF_DIST_COUNT;
    CHECK(strcmp(rf_dist_name((rf_dist)i), dists[i]) == 0);
    CHECK(rf_dist_parse(dists[i], &d) == 0 && d == (rf_dist)i);
  }
  for (int i = 0; i < RF_SCHED_COUNT; i++) {
    rf_sched s = RF_SCHED_COUNT;
    CHECK(strcmp(rf_sched_name((rf_sched)i), scheds[i]) == 0);
    CHECK(rf_sched_parse(scheds[i], &s) == 0 && s == (rf_sched)i);
  }
  CHECK(rf_op_name(RF_OP_COUNT) == NULL && rf_op_name((rf_op)-1) == NULL);
  CHECK(rf_dist_name(RF_DIST_COUNT) == NULL && rf_sched_name(RF_SCHED_COUNT) == NULL);
  rf_op op = RF_OP_MAX;
  CHECK(rf_op_parse("Sum", &op) == -1 && op == RF_OP_MAX); /* case-sensitive, out untouched */
  CHECK(rf_op_parse("", &op) == -1 && rf_op_parse(NULL, &op) == -1);
  rf_dist d;
  rf_sched s;
  CHECK(rf_dist_parse("equal_max", &d) == -1 && rf_sched_parse("inorder", &s) == -1);
}

static void test_default_and_elems(void) {
  rf_case c;
  memset(&c, 0x5a, sizeof c);
  rf_case_default(&c);
  CHECK(c.op == RF_OP_SUM && c.n == 1027 && c.rows == 0 && c.cols == 0 && c.seed == 1);
  CHECK(c.dist == RF_DIST_ALTERNATING && c.block == 0 && c.grid == 0 && c.items == 0);
  CHECK(c.sched == RF_SCHED_IN_ORDER && c.wave == 32 && c.variant[0] == '\0');
  CHECK(accepts(&c, NULL));
  CHECK(rf_case_elems(&c) == 1027);
  c.op = RF_OP_SOFTMAX;
  c.n = 0;
  c.rows = 65536;
  c.cols = 65536;
  CHECK(rf_case_elems(&c) == (UINT64_C(1) << 32)); /* no 32-bit overflow */
}

static void test_equal(void) {
  rf_case a, b;
  rf_case_default(&a);
  rf_case_default(&b);
  CHECK(rf_case_equal(&a, &b));
  strcpy(a.variant, "sum/x");
  strcpy(b.variant, "sum/x");
  b.variant[10] = 'z'; /* bytes after the terminator do not count */
  CHECK(rf_case_equal(&a, &b));
  rf_case c = a;
  c.variant[4] = 'y';
  CHECK(!rf_case_equal(&a, &c));
  /* every field takes part */
  for (int f = 0; f < 11; f++) {
    c = a;
    switch (f) {
    case 0: c.op = RF_OP_MAX; break;
    case 1: c.n++; break;
    case 2: c.rows++; break;
    case 3: c.cols++; break;
    case 4: c.seed ^= UINT64_C(1) << 63; break;
    case 5: c.dist = RF_DIST_ONES; break;
    case 6: c.block = 32; break;
    case 7: c.grid = 1; break;
    case 8: c.items = 1; break;
    case 9: c.sched = RF_SCHED_REVERSE; break;
    default: c.wave = 64; break;
    }
    CHECK_MSG(!rf_case_equal(&a, &c), "field %d ignored by rf_case_equal", f);
  }
}

static void test_validate_1d(void) {
  rf_case c;
  rf_case_default(&c);
  const rf_limits lim = {1000, 5000, 100, 0};
  c.n = 1000;
  CHECK(accepts(&c, &lim));
  c.n = 1001;
  CHECK(rejects(&c, &lim, "n: 1001 is out of range (allowed: 0..1000)"));
  c.n = (UINT64_C(1) << 32) + 3;   /* the model holds 2^34 (issue 37) */
  CHECK(accepts(&c, NULL));
  c.n = UINT64_C(1) << 34;
  CHECK(accepts(&c, NULL));
  c.n = (UINT64_C(1) << 34) + 1;
  CHECK(rejects(&c, NULL, "n: 17179869185 is out of range (allowed: 0..17179869184)"));
  /* A sparse distribution goes past a backend's max_n up to the model's 2^34; others do not. */
  c.n = UINT64_C(1) << 34;
  CHECK(rejects(&c, &lim, "n: 17179869184 is out of range (allowed: 0..1000)"));
  c.dist = RF_DIST_MARKERS;
  CHECK(accepts(&c, &lim));
  c.n = (UINT64_C(1) << 34) + 1;
  CHECK(rejects(&c, &lim, "n: 17179869185 is out of range (allowed: 0..17179869184)"));
  c.dist = RF_DIST_ALTERNATING;
  c.n = 0;
  CHECK(accepts(&c, NULL)); /* empty input is a case too */
  c.rows = 3;
  CHECK(rejects(&c, NULL, "rows: 3 is out of range for sum (allowed: 0; only the row ops "
                          "(softmax, logsumexp, logsoftmax) have rows and cols)"));
  c.rows = 0;
  c.op = RF_OP_ARGMAX;
  c.cols = 4;
  CHECK(rejects(&c, NULL, "cols: 4 is out of range for argmax (allowed: 0; only the row ops "
                          "(softmax, logsumexp, logsoftmax) have rows and cols)"));
  c.cols = 0;
  c.op = (rf_op)8;
  CHECK(rejects(&c, NULL, "op: 8 is out of range (allowed: sum, max, argmax, softmax, logsumexp, "
                          "logsoftmax, min, argmin)"));
}

static void test_validate_softmax(void) {
  rf_case c;
  rf_case_default(&c);
  const rf_limits lim = {1000, 5000, 100, 0};
  c.op = RF_OP_SOFTMAX;
  CHECK(rejects(&c, &lim, "n: 1027 is out of range for softmax (allowed: 0; softmax uses rows "
                          "and cols)"));
  c.n = 0;
  CHECK(accepts(&c, &lim)); /* 0 x 0: empty */
  c.rows = 50;
  c.cols = 100;
  CHECK(accepts(&c, &lim)); /* exactly max_elems and max_cols */
  c.cols = 101;
  CHECK(rejects(&c, &lim, "cols: 101 is out of range (allowed: 0..100)"));
  c.cols = 100;
  c.rows = 51;
  CHECK(rejects(&c, &lim, "rows*cols: 51*100 = 5100 is out of range (allowed: 0..5000)"));
  c.rows = 5000;
  c.cols = 0;
  CHECK(accepts(&c, &lim)); /* one side 0 is empty, but the other stays bounded */
  c.rows = 5001;
  CHECK(rejects(&c, &lim, "rows: 5001 is out of range (allowed: 0..5000)"));
  c.rows = 0;
  c.cols = 100;
  CHECK(accepts(&c, &lim));
  const rf_limits narrow = {1000, 64, 100, 0}; /* max_cols above max_elems: the smaller wins */
  CHECK(rejects(&c, &narrow, "cols: 100 is out of range (allowed: 0..64)"));
  /* built-in limits */
  c.rows = 4096;
  c.cols = 1u << 20;
  CHECK(accepts(&c, NULL));
  c.cols = (1u << 20) + 1;
  CHECK(rejects(&c, NULL, "cols: 1048577 is out of range (allowed: 0..1048576)"));
  c.rows = UINT32_MAX;
  c.cols = 2;
  CHECK(rejects(&c, NULL, "rows*cols: 4294967295*2 = 8589934590 is out of range (allowed: "
                          "0..4294967296)"));
}

static void test_validate_launch(void) {
  rf_case c;
  rf_case_default(&c);
  c.block = 1;
  CHECK(accepts(&c, NULL));
  c.block = 1024;
  CHECK(accepts(&c, NULL));
  c.block = 1025;
  CHECK(rejects(&c, NULL, "block: 1025 is out of range (allowed: 0..1024)"));
  c.block = 2000;
  CHECK(rejects(&c, NULL, "block: 2000 is out of range (allowed: 0..1024)"));
  c.block = 0;
  c.grid = INT32_MAX;
  CHECK(accepts(&c, NULL));
  c.grid = (uint32_t)INT32_MAX + 1;
  CHECK(rejects(&c, NULL, "grid: 2147483648 is out of range (allowed: 0..2147483647)"));
  c.grid = 0;
  c.items = 64;
  CHECK(accepts(&c, NULL));
  c.items = 65;
  CHECK(rejects(&c, NULL, "items: 65 is out of range (allowed: 0..64)"));
  c.items = 0;
  c.wave = 64;
  CHECK(accepts(&c, NULL));
  c.wave = 16;
  CHECK(rejects(&c, NULL, "wave: 16 is out of range (allowed: 32 or 64)"));
  c.wave = 0;
  CHECK(rejects(&c, NULL, "wave: 0 is out of range (allowed: 32 or 64)"));
  c.wave = 32;
  c.sched = (rf_sched)4;
  CHECK(rejects(&c, NULL, "schedule: 4 is out of range (allowed: in-order, reverse, "
                          "random, wave-skew)"));
  c.sched = RF_SCHED_WAVE_SKEW;
  c.dist = RF_DIST_COUNT;
  {
    char want[1024];
    snprintf(want, sizeof want, "dist: %d is out of range (allowed: %s)", (int)RF_DIST_COUNT,
             rf_dist_list());
    CHECK(rejects(&c, NULL, want));
  }
  c.dist = RF_DIST_SORTED;
  CHECK(accepts(&c, NULL));
}

static void test_validate_variant(void) {
  rf_case c;
  rf_case_default(&c);
  strcpy(c.variant, "sum/two-stage-wave");
  CHECK(accepts(&c, NULL));
  /* 63 characters: the longest name that fits with its terminator */
  memset(c.variant, 'a', 63);
  memcpy(c.variant, "sum/", 4);
  c.variant[63] = '\0';
  CHECK(accepts(&c, NULL));
  memset(c.variant, 'a', 64); /* no terminator inside the array */
  memcpy(c.variant, "sum/", 4);
  CHECK(rf_case_validate(&c, NULL, msg, sizeof msg) == -1 && strncmp(msg, "variant: ", 9) == 0);

  const char *allowed = " is not a valid name (allowed: \"\" = every variant, or "
                        "\"sum/<name>\", at most 63 printable characters without spaces or "
                        "'#')";
  static const char *bad[] = {"max/lds", "sum", "sum/", "/lds", "summ/lds", "sum/a b",
                              "sum/a#b", "sum/\x01"};
  static const char *shown[] = {"max/lds", "sum", "sum/", "/lds", "summ/lds", "sum/a b",
                                "sum/a#b", "sum/\\x01"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char want[300];
    memset(c.variant, 0, sizeof c.variant);
    strcpy(c.variant, bad[i]);
    snprintf(want, sizeof want, "variant: '%s'%s", shown[i], allowed);
    CHECK_MSG(rejects(&c, NULL, want), "variant '%s'", shown[i]);
  }
  c.op = RF_OP_SOFTMAX;
  c.n = 0;
  strcpy(c.variant, "softmax/fused");
  CHECK(accepts(&c, NULL));
}

static void test_validate_err_buffer(void) {
  rf_case c;
  rf_case_default(&c);
  c.block = 5000;
  char small[8];
  CHECK(rf_case_validate(&c, NULL, small, sizeof small) == -1 && strcmp(small, "block: ") == 0);
  CHECK(rf_case_validate(&c, NULL, NULL, 0) == -1); /* no buffer: still the verdict */
}

/* rf_case_past_dense asks the question rf_case_validate answers for a dense case: a dense
 * case is accepted exactly when it is not past the dense shapes; a sparse one may go past. */
static void test_past_dense(void) {
  const rf_limits lim = {1000, 5000, 100, 0};
  const uint32_t sides[] = {0, 1, 49, 50, 51, 99, 100, 101, 4999, 5000};
  const uint64_t ns[] = {0, 1, 999, 1000, 1001, 5000};
  rf_case c;
  for (int sparse = 0; sparse < 2; sparse++) {
    rf_case_default(&c);
    c.dist = sparse ? RF_DIST_MARKERS : RF_DIST_ONES;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
      c.n = ns[i];
      CHECK(rf_case_past_dense(&c, &lim) == (ns[i] > 1000));
      CHECK(rf_limits_n_past_dense(&lim, ns[i]) == (ns[i] > 1000));
      CHECK(accepts(&c, &lim) == (sparse || ns[i] <= 1000));
    }
    c.n = 0;
    c.op = RF_OP_LOGSUMEXP;
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++)
      for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
        c.rows = sides[i];
        c.cols = sides[k];
        const int past = (uint64_t)c.rows * c.cols > 5000 || c.cols > 100;
        CHECK(rf_case_past_dense(&c, &lim) == past);
        CHECK(rf_limits_shape_past_dense(&lim, c.rows, c.cols) == past);
        CHECK(accepts(&c, &lim) == (sparse || !past));
      }
  }
}

int main(void) {
  test_names();
  test_default_and_elems();
  test_equal();
  test_validate_1d();
  test_validate_softmax();
  test_past_dense();
  test_validate_launch();
  test_validate_variant();
  test_validate_err_buffer();
  return rf_test_done();
}
