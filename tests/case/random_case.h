/* Random valid cases for the round-trip tests: every field drawn over its whole valid range,
 * with the range ends (and the limits themselves) picked often. Test-only helper. */
#ifndef RF_TEST_RANDOM_CASE_H
#define RF_TEST_RANDOM_CASE_H
#include "model/case.h"
#include "model/gen.h"

/* 0, 1, hi, hi-1 or uniform in 0..hi (uniform ignores the tiny modulo bias). */
static inline uint64_t rc_pick(uint64_t *s, uint64_t hi) {
  uint64_t w = rf_splitmix64(s);
  switch (w % 8) {
  case 0: return 0;
  case 1: return hi ? 1 : 0;
  case 2: return hi;
  case 3: return hi ? hi - 1 : 0;
  default: return hi == UINT64_MAX ? w : rf_splitmix64(s) % (hi + 1);
  }
}

static inline uint64_t rc_min(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* A case valid under lim (NULL = the built-in limits), variant "" unless names is given. */
static inline void random_valid_case(uint64_t *s, const rf_limits *lim, rf_case *c) {
  static const rf_limits builtin = {UINT64_C(1) << 32, UINT64_C(1) << 32, 1u << 20, 0};
  if (!lim) lim = &builtin;
  rf_case_default(c);
  c->op = (rf_op)(rf_splitmix64(s) % RF_OP_COUNT);
  if (rf_op_has_rows(c->op)) {
    c->n = 0;
    uint64_t max_cols = rc_min(rc_min(lim->max_cols, lim->max_elems), UINT32_MAX);
    c->cols = (uint32_t)rc_pick(s, max_cols);
    uint64_t max_rows = rc_min(UINT32_MAX, c->cols ? lim->max_elems / c->cols : lim->max_elems);
    c->rows = (uint32_t)rc_pick(s, max_rows);
  } else {
    c->n = rc_pick(s, lim->max_n);
  }
  c->seed = rf_splitmix64(s);
  c->dist = (rf_dist)(rf_splitmix64(s) % RF_DIST_COUNT);
  c->block = (uint32_t)rc_pick(s, 1024);
  c->grid = (uint32_t)rc_pick(s, INT32_MAX);
  c->items = (uint32_t)rc_pick(s, 64);
  c->sched = (rf_sched)(rf_splitmix64(s) % RF_SCHED_COUNT);
  c->wave = rf_splitmix64(s) % 2 ? 64 : 32;
  c->misalign = (uint32_t)(rf_splitmix64(s) % (rf_case_misalign_max(c->dtype) + 1));
}
#endif
