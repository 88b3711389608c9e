#include <stdlib.h>
#include <string.h>
#include "fuzz_select.h"
#include "backend.h"
#include "kernels/plugin_loader.h"
#include "kernels/harness/device.h"
#include "run/boundaries.h"

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
static const uint32_t kSlice[RF_FUZZ_CLASSES] = {0, 16, 128, 2048, 16};

rf_fuzz_budget rf_fuzz_budget_of(const rf_settings *set) {
  static const unsigned elem_shift[RF_FUZZ_CLASSES] = {0, 3, 6, 6, 6};
  static const unsigned thread_shift[RF_FUZZ_CLASSES] = {0, 3, 4, 14, 4};
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
  /* REDFUZZ_SHORT_ROWS=0: class 3's slice goes to class 0 (one_in 0: never), the other
   * inputs keep their class. */
  if (set && !set->short_rows) b.one_in[3] = 0;
  b.classes = set && set->size_classes ? (unsigned)set->size_classes : RF_FUZZ_CLASSES;
  return b;
}

/* The slices in the order they were cut (classes 3, 2, 1, then 4), so that a class added later
 * takes hash values from class 0 only: every other input keeps its class. */
static const unsigned kSliceOrder[RF_FUZZ_CLASSES - 1] = {3, 2, 1, RF_FUZZ_BOUNDARY_CLASS};

unsigned rf_fuzz_class_of(const uint8_t *data, size_t size, const rf_fuzz_budget *b) {
  const uint64_t h = input_hash(data, size), u = h >> 32;   /* the high 32 bits: a uniform draw */
  uint64_t edge = 0;
  for (unsigned i = 0; i < RF_FUZZ_CLASSES - 1; i++) {
    const unsigned k = kSliceOrder[i];
    edge += (UINT64_C(1) << 32) / kSlice[k];
    if (u < edge) {
      if (k >= b->classes || !b->one_in[k]) return 0;
      /* the boundary class: inputs of codec version 8 on only (fuzz_select.h) */
      if (k == RF_FUZZ_BOUNDARY_CLASS && rf_codec_version_of(data, size) < 8) return 0;
      /* a class drawn more rarely than its slice: the low bits thin the slice out */
      const uint32_t thin = b->one_in[k] / kSlice[k];
      return thin <= 1 || (uint32_t)h % thin == 0 ? k : 0;
    }
  }
  return 0;
}

/* ---- class 4: a derived boundary ----------------------------------------------------------- */

/* The device facts the boundaries are derived with: the simulator's own (no device is opened:
 * it is the program), on a GPU the device's, asked once, when an input first draws the class
 * (64 CUs and wave 32 when there is none, as `redfuzz list` assumes). */
static void boundary_device(uint32_t *num_cus, uint32_t *wave) {
  static int known;
  static uint32_t cus = 64, dev_wave = 32;
  if (!known) {
    known = 1;
    char msg[256];
    rf_device_info d;
    if (!rf_dev_require(msg, sizeof msg) && !rf_dev_info(&d) && d.num_cus && d.wave) {
      cus = d.num_cus;
      dev_wave = d.wave;
    }
  }
  *num_cus = cus;
  *wave = dev_wave;
}

/* Each variant's boundaries at a wave size (32, 64), derived once and kept (again when asked
 * under another thread cap: a process decodes under one budget, a test under several). */
typedef struct {
  int done;
  uint64_t max_threads;
  size_t count;
  rf_boundary b[RF_BOUNDARY_MAX];
} boundary_cache;
static boundary_cache *cache[RF_VARIANT_CAPACITY][2];

static const boundary_cache *boundaries_of(size_t vi, uint32_t wave, const rf_limits *lim) {
  const int w = wave == 64;
  if (!cache[vi][w]) {
    cache[vi][w] = calloc(1, sizeof *cache[vi][w]);
    if (!cache[vi][w]) return NULL;
  }
  boundary_cache *bc = cache[vi][w];
  if (!bc->done || bc->max_threads != lim->max_threads) {
    uint32_t cus, dev_wave;
    boundary_device(&cus, &dev_wave);
    const rf_boundary_env env = {.wave = wave, .num_cus = cus, .lim = rf_backend.limits,
                                 .max_threads = lim->max_threads};
    bc->count = rf_boundaries_derive(rf_variant_at(vi), &env, bc->b, RF_BOUNDARY_MAX, NULL);
    bc->max_threads = lim->max_threads;
    bc->done = 1;
  }
  return bc;
}

/* A boundary the class may draw for c: one that runs (not a refusal), dense, within lim's
 * elements and threads. */
static int boundary_fits(const rf_boundary *bd, const rf_case *c, const rf_limits *lim) {
  if (bd->refused || bd->sparse || bd->huge) return 0;
  const uint64_t elems = rf_op_has_rows(c->op) ? (uint64_t)bd->rows * bd->cols : bd->n;
  if (elems > lim->max_elems || (!rf_op_has_rows(c->op) && bd->n > lim->max_n)) return 0;
  if (rf_op_has_rows(c->op) && bd->cols > lim->max_cols) return 0;
  const uint64_t threads = (uint64_t)bd->threads_grid * bd->threads_block;
  return !lim->max_threads || threads <= lim->max_threads;
}

/* splitmix64's finaliser: the draws below from the input's hash, independent of the class's. */
static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* c decoded under lim; the boundary picked from the selected variants of c's op (of c's type
 * when one is, else of any), its size changed by a small step. 0 and *kinds set, or -1 when
 * no boundary fits (c is left as decoded). */
static int pick_boundary(const uint8_t *data, size_t size, const rf_limits *lim,
                         const char *only, rf_case *c, uint32_t *kinds) {
  size_t vs[RF_VARIANT_CAPACITY], nv = 0;
  for (int typed = 1; typed >= 0 && !nv; typed--)
    for (size_t i = 0; i < rf_variant_count(); i++) {
      const rf_variant *v = rf_variant_at(i);
      if (v->op == c->op && rf_only_keeps(only, v) && (!typed || v->in_dtype == c->dtype))
        vs[nv++] = i;
    }
  if (!nv) return -1;
  uint64_t h = mix(input_hash(data, size));
  const size_t vi = vs[h % nv];
  const rf_variant *v = rf_variant_at(vi);
  /* GPUs run at the device's wave whatever the case says */
  uint32_t cus, dev_wave;
  if (!rf_backend.is_sim) boundary_device(&cus, &dev_wave);
  const uint32_t wave = rf_backend.is_sim ? c->wave : dev_wave;
  const boundary_cache *bc = boundaries_of(vi, wave, lim);
  if (!bc) return -1;
  size_t fit[RF_BOUNDARY_MAX], nf = 0;
  for (size_t i = 0; i < bc->count; i++) {
    const rf_boundary *bd = &bc->b[i];
    const uint64_t elems = rf_op_has_rows(c->op) ? (uint64_t)bd->rows * bd->cols : bd->n;
    /* the fuzz target's cost cap of the variant (fuzz_max_n): it would not run there */
    if (boundary_fits(bd, c, lim) && (!v->fuzz_max_n || elems + 3 <= v->fuzz_max_n))
      fit[nf++] = i;
  }
  if (!nf) return -1;
  h = mix(h);
  const rf_boundary *bd = &bc->b[fit[h % nf]];
  c->dtype = v->in_dtype;
  if (c->misalign > rf_case_misalign_max(c->dtype)) c->misalign %= rf_case_misalign_max(c->dtype) + 1;
  rf_boundary_apply(bd, c);
  /* the boundary is this variant's: the case runs it alone (another variant's launch at this
   * block, grid or size may cost what the class's caps keep out: a block a row at 65,537 rows) */
  snprintf(c->variant, sizeof c->variant, "%s", v->name);
  /* a small step of the size: none in half the draws, else +-1, +-2, +-3 (n, or the axis the
   * boundary lies on: rows for a shape of many rows, else cols) */
  static const int steps[8] = {0, 0, 0, 0, 1, -1, 2, -3};
  h = mix(h);
  int step = steps[h % 8];
  if (rf_op_has_rows(c->op)) {
    uint32_t *axis = c->rows > 3 ? &c->rows : &c->cols;
    const uint64_t moved = (uint64_t)((int64_t)*axis + step);
    if (step && *axis + (int64_t)step >= 1 && moved <= UINT32_MAX) {
      const uint32_t keep = *axis;
      *axis = (uint32_t)moved;
      if ((uint64_t)c->rows * c->cols > lim->max_elems || c->cols > lim->max_cols) *axis = keep;
    }
  } else if (step && (int64_t)c->n + step >= 1 && c->n + (uint64_t)(int64_t)step <= lim->max_n) {
    c->n = (uint64_t)((int64_t)c->n + step);
  }
  *kinds = bd->kinds;
  return 0;
}

unsigned rf_fuzz_decode_budget_kinds(const uint8_t *data, size_t size, const rf_fuzz_budget *b,
                                     const char *only, rf_case *c, uint32_t *kinds) {
  unsigned k = rf_fuzz_class_of(data, size, b);
  *kinds = 0;
  decode_under(data, size, &b->lim[k], k == 3, only, c);
  if (k == RF_FUZZ_BOUNDARY_CLASS && pick_boundary(data, size, &b->lim[k], only, c, kinds)) {
    k = 0;   /* no boundary for this op: the input's class-0 case */
    decode_under(data, size, &b->lim[0], 0, only, c);
  }
  return k;
}

unsigned rf_fuzz_decode_budget(const uint8_t *data, size_t size, const rf_fuzz_budget *b,
                               const char *only, rf_case *c) {
  uint32_t kinds;
  return rf_fuzz_decode_budget_kinds(data, size, b, only, c, &kinds);
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
