#include <stdlib.h>
#include <string.h>
#include "fuzz_select.h"
#include "backend.h"
#include "device_scope.h"

static int name_in_list(const char *name, const char *list) {
  size_t len = strlen(name);
  for (const char *p = list; *p;) {
    const char *comma = strchr(p, ',');
    size_t l = comma ? (size_t)(comma - p) : strlen(p);
    if (l == len && strncmp(p, name, l) == 0) return 1;
    p += l + (comma ? 1 : 0);
  }
  return 0;
}

int rf_only_keeps(const char *only, const rf_variant *v) {
  if (!only || !only[0]) return !v->is_mutant;
  if (name_in_list(v->name, only)) return 1;
  return !v->is_mutant && name_in_list(rf_op_name(v->op), only);
}

int rf_only_single_op(const char *only) {
  int ops = 0, op = -2;
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (!rf_only_keeps(only, v)) continue;
    ops |= 1 << v->op;
    op = v->op;
  }
  return (ops & (ops - 1)) ? -1 : op;
}

void rf_force_op(rf_case *c, int op, const rf_limits *lim) {
  if (op < 0 || (int)c->op == op) return;
  uint64_t elems = rf_case_elems(c);
  c->op = (rf_op)op;
  if (rf_op_has_rows(c->op)) {
    c->cols = (uint32_t)(elems % ((uint64_t)lim->max_cols + 1));
    c->rows = c->cols ? (uint32_t)(1 + c->seed % 8) : 1;
    if ((uint64_t)c->rows * c->cols > lim->max_elems) c->rows = 1;
    c->n = 0;
  } else {
    c->n = elems > lim->max_n ? lim->max_n : elems;
    c->rows = c->cols = 0;
  }
}

/* The simulator's cost is its GPU threads times their barriers, not its elements: a case
 * asking for more than lim->max_threads threads (blocks times block size; a block size left
 * to the variant counted as RF_FUZZ_DEFAULT_BLOCK) folds its grid, and a row op its rows
 * (block-per-row variants launch a block per row, and a smaller grid strides over the same
 * rows), into 1..max_threads/block, as the grid folds below RF_FUZZ_MAX_GRID. Small values
 * are unchanged, so mutations of these fields still count. */
static void cap_thread_cost(rf_case *c, uint64_t max_threads) {
  if (!max_threads) return;
  const uint64_t block = c->block ? c->block : RF_FUZZ_DEFAULT_BLOCK;
  const uint64_t blocks = max_threads / block ? max_threads / block : 1;
  if (c->grid > blocks) c->grid = (uint32_t)(1 + (c->grid - 1) % blocks);
  if (rf_op_has_rows(c->op) && c->rows > blocks) c->rows = (uint32_t)(1 + (c->rows - 1) % blocks);
}

int rf_fuzz_host_path(const rf_case *c) {
  /* Outside the device path's scope (device_scope.h): no op of every type today (16-bit
   * log ops joined it, issue 12); an op added outside it is capped here. */
  return !rf_device_scope_covers(c);
}

/* A case made and judged on the host costs that host tens of nanoseconds per element and
 * variant (on the H200's host, logsoftmax 256x4096: input 5.4 ms, double oracle 10.6 ms,
 * upload 4.6 ms, judge 23.5 ms; docs/RESULTS.md), so one case of 2^22 elements takes a GPU
 * campaign a good part of a second while the GPU waits. The fuzz target keeps such cases to
 * RF_FUZZ_HOST_MAX_ELEMS elements: a row op fewer rows, then fewer columns (the columns stay
 * when they fit), a 1-D case folded below it. 2^16 still reaches what the narrow types get
 * wrong by length (an f16 sum of ones stalls at 2048 and overflows past 65504, bf16 stalls
 * at 256). Sweeps, `run` and replays take every size; on the simulator the element cap
 * (2^12) is lower anyway. */
static void cap_host_cost(rf_case *c) {
  if (!rf_fuzz_host_path(c) || rf_case_elems(c) <= RF_FUZZ_HOST_MAX_ELEMS) return;
  if (!rf_op_has_rows(c->op)) {
    c->n %= (uint64_t)RF_FUZZ_HOST_MAX_ELEMS + 1;
    return;
  }
  if (c->cols > RF_FUZZ_HOST_MAX_ELEMS) c->cols = RF_FUZZ_HOST_MAX_ELEMS;
  if ((uint64_t)c->rows * c->cols > RF_FUZZ_HOST_MAX_ELEMS)
    c->rows = c->cols ? RF_FUZZ_HOST_MAX_ELEMS / c->cols : 1;
}

int rf_fuzz_decode_like_target(const uint8_t *data, size_t size, const rf_limits *lim,
                               const char *only, rf_case *c) {
  rf_case_decode(data, size, lim, c);
  rf_force_op(c, rf_only_single_op(only), lim);
  cap_host_cost(c);
  if (c->grid > RF_FUZZ_MAX_GRID) c->grid = 1 + (c->grid - 1) % RF_FUZZ_MAX_GRID;
  cap_thread_cost(c, lim->max_threads);
  return 0;
}

rf_limits rf_fuzz_limits(const rf_settings *set) {
  rf_limits l = rf_backend.limits;
  uint64_t cap = set && set->max_elems ? set->max_elems : rf_backend.fuzz_max_elems;
  if (l.max_n > cap) l.max_n = cap;
  if (l.max_elems > cap) l.max_elems = cap;
  if (l.max_cols > cap) l.max_cols = (uint32_t)cap;
  l.max_threads = set && set->max_threads ? set->max_threads : rf_backend.fuzz_max_threads;
  return l;
}

int rf_fuzz_within_cost(const rf_variant *v, const rf_case *c) {
  return !v->fuzz_max_n || rf_case_elems(c) <= v->fuzz_max_n;
}
