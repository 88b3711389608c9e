#include <stdlib.h>
#include <string.h>
#include "fuzz_select.h"
#include "backend.h"
#include "kernels/plugin_loader.h"

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

int rf_select_in_list(const char *name, const char *list) { return name_in_list(name, list); }

int rf_select_load_env_plugins(const rf_settings *set, char *err, size_t errlen) {
  if (!set->plugins_set) return 0;
  char why[1024];
  if (rf_plugin_load_list(set->plugins_text, why, sizeof why) == 0) return 0;
  snprintf(err, errlen, "REDFUZZ_PLUGINS: %s", why);
  return -1;
}

int rf_select_check_list(const char *list, int ops, char *why, size_t whylen) {
  if (!list[0]) return 0;
  for (const char *p = list;;) {
    const char *comma = strchr(p, ',');
    size_t l = comma ? (size_t)(comma - p) : strlen(p);
    char item[RF_VARIANT_NAME_MAX + 1];
    const int fits = l < sizeof item;
    if (fits) { memcpy(item, p, l); item[l] = '\0'; }
    rf_op op;
    const char *allowed = ops ? "variant or op names from 'redfuzz list', comma-separated"
                              : "variant names from 'redfuzz list', comma-separated";
    if (l == 0) {
      char esc[160];
      rf_text_escape(list, esc, sizeof esc);
      snprintf(why, whylen, "'%s' has an empty item (allowed: %s, no empty item)", esc, allowed);
      return -1;
    }
    if (!fits || (!rf_variant_find(item) && !(ops && rf_op_parse(item, &op) == 0))) {
      char shown[80], esc[160];
      snprintf(shown, sizeof shown, "%.*s", (int)(l < 60 ? l : 60), p);
      rf_text_escape(shown, esc, sizeof esc);
      snprintf(why, whylen, "'%s' selects no variant (allowed: %s; it is not a name of this "
               "build)", esc, allowed);
      return -1;
    }
    if (!comma) return 0;
    p = comma + 1;
  }
}

int rf_select_check_variant_skip(const char *variant, const char *skip, char *why,
                                 size_t whylen) {
  if (!variant || !variant[0] || !name_in_list(variant, skip)) return 0;
  snprintf(why, whylen, "'%s' is also the --variant: the selection is empty (allowed: --skip "
           "without the --variant, or no --variant)", variant);
  return -1;
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

/* Class 3 (short rows): the rows of a row case fold into [RF_FUZZ_ROW_GRID_CAP - 15, the
 * most its columns allow]: one decoded row count in 8 into the 32 rows around the cap (both
 * sides of it), the others above it, spread by a multiplicative hash, so that most of these
 * cases stride (rows > grid) even at the variants' default grid. (A plain `rows % span`
 * left the small row counts fuzz inputs decode to below the cap: a 10-minute campaign drew
 * 19 class-3 cases, none past it.) On the simulator
 * the launch is the one it can afford: each variant's default grid (at most 65535 blocks)
 * and one wave a block, at most 2^22 threads (the default launch cap, run/launch_prep.c):
 * 2.5 to 5 s of CPU for every variant of an op at 70000 x 3. A smaller grid would stride
 * each block over thousands of rows, past the 60 s launch limit, and a wider block would be
 * past the cap (docs/log/2026-12-05-huge-sweep-cap.md). */
uint32_t rf_fuzz_short_rows(uint32_t decoded, uint64_t hi) {
  const uint64_t lo = RF_FUZZ_ROW_GRID_CAP - 15, r = decoded;
  const uint64_t edge = 32;   /* lo .. lo + 31: the cap - 15 .. the cap + 16 */
  if (hi > UINT32_MAX) hi = UINT32_MAX;
  if (hi <= lo) return (uint32_t)hi;
  if (hi > lo + edge && r % 8)
    return (uint32_t)(lo + edge + (r * UINT64_C(2654435761)) % (hi - lo - edge + 1));
  return (uint32_t)(lo + (r / 8) % (hi - lo + 1 < edge ? hi - lo + 1 : edge));
}

static void lift_rows(rf_case *c, const rf_limits *lim) {
  if (!rf_op_has_rows(c->op) || (!c->cols && !rf_backend.is_sim)) return;
  const uint64_t lo = RF_FUZZ_ROW_GRID_CAP - 15;
  /* Columns that leave no room past the cap (4 columns of the simulator's 2^18 elements end
   * at 65,536 rows) narrow, except in the rows' edge band, so that the fold can draw above it. */
  const uint64_t room = lo + 64;
  if (c->cols > 1 && lim->max_elems / c->cols < room && c->rows % 8 && lim->max_elems >= room)
    c->cols = (uint32_t)(lim->max_elems / room);
  uint64_t hi = c->cols ? lim->max_elems / c->cols : UINT32_MAX;
  /* The simulator: rows of 0 columns too, and at most RF_FUZZ_SIM_ROW_SPAN rows past the cap
   * (its step budget) */
  if (rf_backend.is_sim && hi > lo + RF_FUZZ_SIM_ROW_SPAN) hi = lo + RF_FUZZ_SIM_ROW_SPAN;
  if (hi > UINT32_MAX) hi = UINT32_MAX;
  if (hi > lo) c->rows = rf_fuzz_short_rows(c->rows, hi);
  if (rf_backend.is_sim) {
    c->grid = 0;
    c->block = c->wave;
  }
}

/* Class 3 is the short-rows class: a 1-D case it decodes becomes a case of a row op (one that
 * `only` keeps, from the seed), so that all of the class's share reaches past the grid cap;
 * a 1-D case of class 3 would be one of class 2. -1: no row op is kept. */
static int short_rows_op(const rf_case *c, const char *only) {
  rf_op row_ops[RF_OP_COUNT];   /* the row ops, from op.h's rf_op_has_rows */
  unsigned count = 0;
  for (int op = 0; op < RF_OP_COUNT; op++)
    if (rf_op_has_rows((rf_op)op)) row_ops[count++] = (rf_op)op;
  for (unsigned k = 0; k < count; k++) {
    const rf_op op = row_ops[(c->seed + k) % count];
    for (size_t i = 0; i < rf_variant_count(); i++)
      if (rf_variant_at(i)->op == op && rf_only_keeps(only, rf_variant_at(i))) return op;
  }
  return -1;
}

/* With `only` over several ops, a decoded case of an op it keeps no variant of would run
 * nothing (a campaign on a max, a sum and an argmin variant spent executions on row cases and
 * found in 180 s what one on the max variant alone found in 10: a blind test of 2026-12-06):
 * it becomes a case of a kept op, from the seed. -1: its op is kept (or `only` is empty:
 * every op has correct variants). */
static int kept_op(const rf_case *c, const char *only) {
  if (!only || !only[0]) return -1;
  int kept[RF_OP_COUNT] = {0}, count = 0;
  for (size_t i = 0; i < rf_variant_count(); i++)
    if (rf_only_keeps(only, rf_variant_at(i))) kept[rf_variant_at(i)->op] = 1;
  if (kept[c->op]) return -1;
  for (int op = 0; op < RF_OP_COUNT; op++) count += kept[op];
  for (int op = 0, k = count ? (int)(c->seed % (uint64_t)count) : -1; op < RF_OP_COUNT; op++)
    if (kept[op] && k-- == 0) return op;
  return -1;
}

static void decode_under(const uint8_t *data, size_t size, const rf_limits *lim, int short_rows,
                         const char *only, rf_case *c) {
  rf_case_decode(data, size, lim, c);
  const int single = rf_only_single_op(only);
  rf_force_op(c, single, lim);
  if (single == -1) rf_force_op(c, kept_op(c, only), lim);
  if (short_rows && single < 0 && !rf_op_has_rows(c->op)) {
    const uint64_t elems = rf_case_elems(c);
    rf_force_op(c, short_rows_op(c, only), lim);
    /* rf_force_op gives 1..8 rows; lift_rows folds any count, so draw it from more bits */
    if (rf_op_has_rows(c->op)) c->rows = (uint32_t)(c->seed ^ (elems << 3));
  }
  if (c->grid > RF_FUZZ_MAX_GRID) c->grid = 1 + (c->grid - 1) % RF_FUZZ_MAX_GRID;
  if (short_rows) lift_rows(c, lim);
  cap_thread_cost(c, lim->max_threads);
}

int rf_fuzz_decode_like_target(const uint8_t *data, size_t size, const rf_limits *lim,
                               const char *only, rf_case *c) {
  decode_under(data, size, lim, 0, only, c);
  return 0;
}

/* FNV-1a, 64 bits: every byte counts, so any mutation redraws the class. */
static uint64_t input_hash(const uint8_t *data, size_t size) {
  uint64_t h = UINT64_C(14695981039346656037);
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * UINT64_C(1099511628211);
  return h;
}

static uint64_t scaled(uint64_t v, unsigned shift, uint64_t max) {
  return v > (max >> shift) ? max : v << shift;
}

/* Class k > 0 owns a fixed slice of 2^32 / kSlice[k] hash values, whether it is drawn or
 * not: a class turned off (REDFUZZ_SIZE_CLASSES) gives its slice
 * to class 0, so the other inputs keep their class on every backend and setting. */
static const uint32_t kSlice[RF_FUZZ_CLASSES] = {0, 16, 128, 2048};

rf_fuzz_budget rf_fuzz_budget_of(const rf_settings *set) {
  static const unsigned elem_shift[RF_FUZZ_CLASSES] = {0, 3, 6, 6};
  static const unsigned thread_shift[RF_FUZZ_CLASSES] = {0, 3, 4, 14};
  rf_fuzz_budget b;
  const rf_limits top = rf_backend.limits;
  const rf_limits cheap = rf_fuzz_limits(set);
  for (int k = 0; k < RF_FUZZ_CLASSES; k++) {
    rf_limits l = cheap;
    if (k > 0) {
      const uint64_t elems = set && set->max_elems ? set->max_elems
                             : scaled(rf_backend.fuzz_max_elems, elem_shift[k], UINT64_MAX);
      l.max_n = elems < top.max_n ? elems : top.max_n;
      l.max_elems = elems < top.max_elems ? elems : top.max_elems;
      l.max_cols = elems < top.max_cols ? (uint32_t)elems : top.max_cols;
      if (k == 3 && l.max_cols > RF_FUZZ_SHORT_COLS) l.max_cols = RF_FUZZ_SHORT_COLS;
      l.max_threads = set && set->max_threads
                          ? set->max_threads
                          : scaled(rf_backend.fuzz_max_threads, thread_shift[k], UINT64_MAX);
    }
    b.lim[k] = l;
    /* Class 3 on the simulator: the launch lift_rows gives it (default grid, one wave a
     * block) costs 2.5 to 13 s of CPU, a thousand cheap executions: 1 input of its slice in
     * 4 draws it (1 in 8192), the others are class 0. */
    b.one_in[k] = k == 3 && rf_backend.is_sim ? kSlice[k] * 4 : kSlice[k];
  }
  b.classes = set && set->size_classes ? (unsigned)set->size_classes : RF_FUZZ_CLASSES;
  return b;
}

unsigned rf_fuzz_class_of(const uint8_t *data, size_t size, const rf_fuzz_budget *b) {
  const uint64_t h = input_hash(data, size), u = h >> 32;   /* the high 32 bits: a uniform draw */
  uint64_t edge = 0;
  for (unsigned k = RF_FUZZ_CLASSES; k-- > 1;) {
    edge += (UINT64_C(1) << 32) / kSlice[k];
    if (u < edge) {
      if (k >= b->classes || !b->one_in[k]) return 0;
      /* a class drawn more rarely than its slice: the low bits thin the slice out */
      const uint32_t thin = b->one_in[k] / kSlice[k];
      return thin <= 1 || (uint32_t)h % thin == 0 ? k : 0;
    }
  }
  return 0;
}

unsigned rf_fuzz_decode_budget(const uint8_t *data, size_t size, const rf_fuzz_budget *b,
                               const char *only, rf_case *c) {
  const unsigned k = rf_fuzz_class_of(data, size, b);
  decode_under(data, size, &b->lim[k], k == 3, only, c);
  return k;
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
