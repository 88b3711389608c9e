/* Derived boundaries (run/boundaries.h): the probing finds exactly the boundaries a variant's
 * launch logic has, and none it does not.
 *  - known: a variant (configure, plan and scratch in plain C: probing never launches) whose
 *    every boundary is computed here by hand, case for case;
 *  - fixed: one that ignores every request and keeps one grid: no block, saturation, idle-grid
 *    or grid-level case is invented for it;
 *  - twisted: a configure that changes a requested block (asked 96, gives 128) and a plan that
 *    breaks the plan rules past some n: neither counts as accepted;
 *  - rows: a row op whose grid caps at 1000 rows and whose default block grows with the row;
 *  - built-in variants: the facts their constraints state (sum/two-pass saturates at 1024
 *    blocks, its second stage takes a second partial at grid 257; sum/atomic takes every
 *    block; softmax/row-reg changes its block with the row);
 *  - the same variant and environment give the same cases, within the probe budget. */
#include <string.h>
#include "rf_test.h"
#include "run/boundaries.h"

/* The simulator's limits (run/backend.c), with the sweep's thread cap: the tests do not depend
 * on the build's backend. */
static const rf_boundary_env env32 = {.wave = 32, .num_cus = 8,
                                      .lim = {1u << 18, 1u << 18, 8192, 0},
                                      .max_threads = 1u << 19};

static int launch_none(const rf_launch_args *a) { (void)a; return 1; }
static size_t no_scratch(const rf_launch_cfg *c) { (void)c; return 0; }

/* ---- known: blocks 48..512 in steps of 16, default 64; a requested grid up to 100000, the
 * default min(ceil(n/block), 48); n up to 2^20; a second stage of 64 threads ---------------- */
static const char *known_configure(rf_launch_cfg *c) {
  if (c->n > (1u << 20)) return "n";
  if (!c->block) c->block = 64;
  if (c->block % 16 || c->block < 48 || c->block > 512) return "block";
  if (!c->grid) {
    uint64_t g = (c->n + c->block - 1) / c->block;
    c->grid = g > 48 ? 48 : g ? (uint32_t)g : 1;
  } else if (c->grid > 100000) {
    return "grid";
  }
  c->items = 0;
  return NULL;
}
static void known_plan(const rf_launch_cfg *c, rf_plan *p) {
  memset(p, 0, sizeof *p);
  if (!c->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(c->n, (uint64_t)c->grid * c->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(c->block));
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(c->grid, 64));
  rf_plan_add(p, RF_LEVEL_LDS, 6);
}
static const rf_variant known = {.name = "sum/test-known", .op = RF_OP_SUM, .summary = "",
                                 .constraints = "", .configure = known_configure,
                                 .scratch_bytes = no_scratch, .plan = known_plan,
                                 .launch = launch_none};

typedef struct {
  uint32_t kinds;
  uint64_t n;
  uint32_t block, grid;
  int refused, sparse;
} want;
#define K(k) (1u << RF_BK_##k)

static void check_list(const char *name, const rf_boundary *b, size_t nb, const want *w,
                       size_t nw) {
  CHECK_MSG(nb == nw, "%s: %zu cases, want %zu", name, nb, nw);
  for (size_t i = 0; i < nb && i < nw; i++)
    CHECK_MSG(b[i].kinds == w[i].kinds && b[i].n == w[i].n && b[i].block == w[i].block &&
                  b[i].grid == w[i].grid && b[i].items == 0 && b[i].refused == w[i].refused &&
                  b[i].sparse == w[i].sparse,
              "%s case %zu: kinds 0x%x n %llu block %u grid %u refused %d sparse %d (%s); want "
              "kinds 0x%x n %llu block %u grid %u refused %d sparse %d", name, i, b[i].kinds,
              (unsigned long long)b[i].n, b[i].block, b[i].grid, b[i].refused, b[i].sparse,
              b[i].reason, w[i].kinds, (unsigned long long)w[i].n, w[i].block, w[i].grid,
              w[i].refused, w[i].sparse);
}

static void known_variant(void) {
  rf_boundary b[RF_BOUNDARY_MAX], again[RF_BOUNDARY_MAX];
  rf_boundary_stats st;
  const size_t nb = rf_boundaries_derive(&known, &env32, b, RF_BOUNDARY_MAX, &st);
  /* By hand. Blocks: a block's case is 2.5 blocks and one (the grid grows with n/block).
   * Whole-wave blocks that are not powers of two: 96..480, 11 of them, so those at 3, 5, 7, 9
   * and 15 waves (and the first and last, 96 and 480). Partial waves: 48 and 496. Refused: 47,
   * 49 (no refused multiple of 32 lies between 48 and 512), 513. Saturation: grid 48 from
   * n = 47 * 64 + 1 = 3009; 48 * 64 = 3072 threads: 3073 and 3072 + 1536 + 33. Idle: n = 161
   * (3 blocks): grids 4 and 16. The chain's first step at n = 3073 (the same case). The second
   * stage (ceil(grid / 64)) takes a second partial at grid 65: n = 65 * 64 + 33. Index widths:
   * 2^15 +- 1, 2^16 +- 1, and the declared 2^20 (past the dense 2^18: sparse) and one past. */
  const want w[] = {
      {K(BLOCK_SMALLEST) | K(BLOCK_PARTIAL), 121, 48, 0, 0, 0},
      {K(BLOCK_LARGEST), 1281, 512, 0, 0, 0},
      {K(BLOCK_NPOT), 241, 96, 0, 0, 0},
      {K(BLOCK_NPOT), 401, 160, 0, 0, 0},
      {K(BLOCK_NPOT), 561, 224, 0, 0, 0},
      {K(BLOCK_NPOT), 721, 288, 0, 0, 0},
      {K(BLOCK_NPOT), 1201, 480, 0, 0, 0},
      {K(BLOCK_PARTIAL), 1241, 496, 0, 0, 0},
      {K(BLOCK_REFUSED), 4099, 47, 0, 1, 0},
      {K(BLOCK_REFUSED), 4099, 49, 0, 1, 0},
      {K(BLOCK_REFUSED), 4099, 513, 0, 1, 0},
      {K(SATURATION), 3009, 0, 0, 0, 0},
      {K(SATURATION) | K(PLAN_LEVEL), 3073, 0, 0, 0, 0},
      {K(SATURATION), 4641, 0, 0, 0, 0},
      {K(IDLE_GRID), 161, 0, 4, 0, 0},
      {K(IDLE_GRID), 161, 0, 16, 0, 0},
      {K(PLAN_LEVEL), 4193, 0, 65, 0, 0},
      /* 257 and 1025 blocks of the smallest whole-wave block (64, the default too), each
       * with work: 257 * 64 + 33 and 1025 * 64 + 33 */
      {K(PARTIALS), 16481, 64, 257, 0, 0},
      {K(PARTIALS), 65633, 64, 1025, 0, 0},
      {K(INDEX_WIDTH), 32767, 0, 0, 0, 0},
      {K(INDEX_WIDTH), 32769, 0, 0, 0, 0},
      {K(INDEX_WIDTH), 65535, 0, 0, 0, 0},
      {K(INDEX_WIDTH), 65537, 0, 0, 0, 0},
      {K(INDEX_WIDTH), 1u << 20, 0, 0, 0, 1},
      {K(INDEX_WIDTH), (1u << 20) + 1, 0, 0, 1, 1},
  };
  check_list("known", b, nb, w, sizeof w / sizeof w[0]);
  CHECK(!st.capped && st.probes <= RF_BOUNDARY_MAX_PROBES && st.over_cost == 0);
  /* the reasons say what and where */
  CHECK(strstr(b[2].reason, "block 96: accepted, not a power of two (3 waves of 32)") != NULL);
  CHECK(strstr(b[11].reason, "default grid saturates at n=3009: grid 48 x block 64") != NULL);
  CHECK(strstr(b[16].reason, "plan level 3 (second-kernel) 1 -> 2 at grid 65") != NULL);
  CHECK(strstr(b[17].reason, "257 blocks of 64 (requested grid): more partials than a "
                             "256-thread stage holds") != NULL);
  /* deterministic */
  rf_boundary_stats st2;
  CHECK(rf_boundaries_derive(&known, &env32, again, RF_BOUNDARY_MAX, &st2) == nb);
  CHECK(memcmp(b, again, nb * sizeof *b) == 0 && st2.probes == st.probes);
  /* a thread cap leaves out what is past it, and says how many */
  rf_boundary_env tight = env32;
  tight.max_threads = 2048;   /* the saturated grid (48 x 64 = 3072 threads) is past it */
  rf_boundaries_derive(&known, &tight, again, RF_BOUNDARY_MAX, &st2);
  CHECK_MSG(st2.over_cost >= 3, "%u left out", st2.over_cost);
  /* a case cap keeps the first ones and counts the rest */
  CHECK(rf_boundaries_derive(&known, &env32, again, 5, &st2) == 5 && st2.dropped > 0);
  CHECK(memcmp(b, again, 5 * sizeof *b) == 0);
}

/* ---- fixed: block 128 and grid 8 whatever is asked, no items ------------------------------ */
static const char *fixed_configure(rf_launch_cfg *c) {
  c->block = 128;
  c->grid = 8;
  c->items = 0;
  return NULL;
}
static void fixed_plan(const rf_launch_cfg *c, rf_plan *p) {
  memset(p, 0, sizeof *p);
  if (!c->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(c->n, 1024));
  rf_plan_add(p, RF_LEVEL_LDS, 7);
  rf_plan_add(p, RF_LEVEL_ATOMIC, 8);
}
static const rf_variant fixed = {.name = "sum/test-fixed", .op = RF_OP_SUM, .summary = "",
                                 .constraints = "", .configure = fixed_configure,
                                 .scratch_bytes = no_scratch, .plan = fixed_plan,
                                 .launch = launch_none};

static void fixed_variant(void) {
  rf_boundary b[RF_BOUNDARY_MAX];
  rf_boundary_stats st;
  const size_t nb = rf_boundaries_derive(&fixed, &env32, b, RF_BOUNDARY_MAX, &st);
  /* no block it keeps, a grid that never moves: only the chain's first step and the widths */
  const want w[] = {
      {K(PLAN_LEVEL), 1025, 0, 0, 0, 0},   /* a thread's chain takes a second element */
      {K(INDEX_WIDTH), 32767, 0, 0, 0, 0},
      {K(INDEX_WIDTH), 32769, 0, 0, 0, 0},
      {K(INDEX_WIDTH), 65535, 0, 0, 0, 0},
      {K(INDEX_WIDTH), 65537, 0, 0, 0, 0},
  };
  check_list("fixed", b, nb, w, sizeof w / sizeof w[0]);
  CHECK(strstr(st.note, "takes no block request") != NULL);
}

static const rf_boundary *find(const rf_boundary *b, size_t nb, uint32_t kind, uint64_t n,
                               uint32_t block, uint32_t grid) {
  for (size_t i = 0; i < nb; i++)
    if ((b[i].kinds & kind) && b[i].n == n && b[i].block == block && b[i].grid == grid)
      return &b[i];
  return NULL;
}

/* ---- twisted: asked 96, configures 128; the plan breaks the rules past n = 10^6 ----------- */
static const char *twisted_configure(rf_launch_cfg *c) {
  if (!c->block) c->block = 64;
  if (c->block == 96) c->block = 128;   /* a request changed: not accepted as asked */
  if (c->block > 256 || (c->block & (c->block - 1))) return "block";
  c->grid = (uint32_t)((c->n + c->block - 1) / c->block);
  if (!c->grid) c->grid = 1;
  return NULL;
}
static void twisted_plan(const rf_launch_cfg *c, rf_plan *p) {
  memset(p, 0, sizeof *p);
  if (!c->n) return;
  /* past 10^6, an add count past the rules' 2^34: a broken plan, refused like configure's no */
  rf_plan_add(p, RF_LEVEL_ATOMIC, c->n > 1000000 ? (UINT64_C(1) << 35) : c->grid);
}
static const rf_variant twisted = {.name = "sum/test-twisted", .op = RF_OP_SUM, .summary = "",
                                   .constraints = "", .configure = twisted_configure,
                                   .scratch_bytes = no_scratch, .plan = twisted_plan,
                                   .launch = launch_none};

static void twisted_variant(void) {
  rf_boundary b[RF_BOUNDARY_MAX];
  rf_boundary_stats st;
  rf_boundary_env uncapped = env32;
  uncapped.max_threads = 0;
  const size_t nb = rf_boundaries_derive(&twisted, &uncapped, b, RF_BOUNDARY_MAX, &st);
  int saw_96 = 0, largest = 0, past = 0, refused_96 = 0;
  for (size_t i = 0; i < nb; i++) {
    saw_96 |= b[i].block == 96;
    largest |= (b[i].kinds & K(INDEX_WIDTH)) && b[i].n == 1000000 && !b[i].refused;
    /* past it the plan breaks the rules: the runner's launch-error, not unsupported */
    past |= (b[i].kinds & K(INDEX_WIDTH)) && b[i].n == 1000001 && !b[i].refused &&
            strstr(b[i].reason, "breaks the rules");
    refused_96 |= b[i].refused && b[i].block == 96;
  }
  CHECK_MSG(!saw_96, "block 96 was configured as 128: no case of it (not accepted, not refused)");
  CHECK(!refused_96);
  CHECK_MSG(largest && past, "the broken plan past n = 10^6 bounds what it accepts");
  /* powers of two to 256: 1 and 256; refused: 257 above, and between them the first refused
   * whole-wave block, 160 (96 is not refused: it runs as 128) */
  CHECK(find(b, nb, K(BLOCK_SMALLEST), 3, 1, 0) && find(b, nb, K(BLOCK_LARGEST), 641, 256, 0));
  CHECK(find(b, nb, K(BLOCK_REFUSED), 4099, 160, 0) && find(b, nb, K(BLOCK_REFUSED), 4099, 257, 0));
}

/* ---- rows: a block a row (default: the row's next power of two, 32..1024), the grid capped
 * at 1000 rows ---------------------------------------------------------------------------- */
static const char *rows_configure(rf_launch_cfg *c) {
  if (!c->block) {
    c->block = 32;
    while (c->block < c->cols && c->block < 1024) c->block *= 2;
  }
  if (c->block < 32 || c->block > 1024 || (c->block & (c->block - 1))) return "block";
  c->grid = c->rows > 1000 ? 1000 : c->rows ? c->rows : 1;
  c->items = 0;
  return NULL;
}
static void rows_plan(const rf_launch_cfg *c, rf_plan *p) {
  memset(p, 0, sizeof *p);
  if (!c->rows || !c->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(c->cols, c->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(c->block));
}
static const rf_variant rows = {.name = "softmax/test-rows", .op = RF_OP_SOFTMAX, .summary = "",
                                .constraints = "", .configure = rows_configure,
                                .scratch_bytes = no_scratch, .plan = rows_plan,
                                .launch = launch_none};

static int has(const rf_boundary *b, size_t nb, uint32_t kind, uint32_t r, uint32_t c,
               uint32_t block) {
  for (size_t i = 0; i < nb; i++)
    if ((b[i].kinds & kind) && b[i].rows == r && b[i].cols == c && b[i].block == block)
      return 1;
  return 0;
}

static void rows_variant(void) {
  rf_boundary b[RF_BOUNDARY_MAX];
  rf_boundary_stats st;
  const size_t nb = rf_boundaries_derive(&rows, &env32, b, RF_BOUNDARY_MAX, &st);
  /* the grid saturates at 1000 rows (of 2 columns, block 32); past it a block takes a second
   * row: 1001 and 1000 + 500 + 1 */
  CHECK(has(b, nb, K(SATURATION), 1000, 2, 0));
  CHECK(has(b, nb, K(SATURATION), 1001, 2, 0));
  CHECK(has(b, nb, K(SATURATION), 1501, 2, 0));
  /* the default block doubles past each power of two of the row: 33, 65, ..., 513 columns */
  for (uint32_t c = 33; c <= 513; c = 2 * c - 1)
    CHECK_MSG(has(b, nb, K(STRATEGY), 3, c, 0), "no strategy case at 3x%u", c);
  /* blocks: 32 and 1024, and no refused block between (every power of two is taken) */
  CHECK(has(b, nb, K(BLOCK_SMALLEST), 3, 81, 32));
  CHECK(has(b, nb, K(BLOCK_LARGEST), 3, 2561, 1024));
  CHECK(has(b, nb, K(BLOCK_REFUSED), 3, 1027, 31));
  CHECK(has(b, nb, K(BLOCK_REFUSED), 3, 1027, 96));   /* the first refused whole-wave block */
  /* rows past 16 bits, at two columns */
  CHECK(has(b, nb, K(INDEX_WIDTH), 65537, 2, 0));
}

/* ---- built-in variants -------------------------------------------------------------------- */
static void builtin_variants(void) {
  rf_boundary b[RF_BOUNDARY_MAX];
  rf_boundary_stats st;
  const rf_variant *v = rf_variant_find("sum/two-pass");
  CHECK(v != NULL);
  size_t nb = rf_boundaries_derive(v, &env32, b, RF_BOUNDARY_MAX, &st);
  /* min(ceil(n/256), 1024): 1024 blocks from n = 1023 * 256 + 1; past: 2^18 + 1 (sparse) */
  CHECK(find(b, nb, K(SATURATION), 261889, 0, 0) != NULL);
  const rf_boundary *p = find(b, nb, K(SATURATION), 262145, 0, 0);
  CHECK(p && p->sparse);
  CHECK(find(b, nb, K(PLAN_LEVEL), 65537, 0, 0) != NULL);      /* 257 partials by default */
  CHECK(find(b, nb, K(PLAN_LEVEL), 257 * 256 + 129, 0, 257) != NULL);
  CHECK(find(b, nb, K(BLOCK_REFUSED), 4099, 96, 0) != NULL);   /* powers of two only */
  for (size_t i = 0; i < nb; i++) CHECK(!(b[i].kinds & K(BLOCK_NPOT)));
  CHECK(find(b, nb, K(IDLE_GRID), 641, 0, 4) && find(b, nb, K(IDLE_GRID), 641, 0, 16));

  v = rf_variant_find("sum/atomic");
  nb = rf_boundaries_derive(v, &env32, b, RF_BOUNDARY_MAX, &st);
  static const uint32_t npot[] = {96, 160, 224, 288, 480, 544, 992};
  for (size_t i = 0; i < sizeof npot / sizeof npot[0]; i++)
    CHECK_MSG(find(b, nb, K(BLOCK_NPOT), 2ull * npot[i] + npot[i] / 2 + 1, npot[i], 0),
              "sum/atomic block %u", npot[i]);
  CHECK(find(b, nb, K(BLOCK_PARTIAL), 83, 33, 0) && find(b, nb, K(BLOCK_PARTIAL), 2558, 1023, 0));
  for (size_t i = 0; i < nb; i++)   /* one element a thread, no grid knob */
    CHECK(!(b[i].kinds & (K(SATURATION) | K(IDLE_GRID) | K(BLOCK_REFUSED))));

  v = rf_variant_find("sum/two-stage-wave");
  nb = rf_boundaries_derive(v, &env32, b, RF_BOUNDARY_MAX, &st);
  CHECK(find(b, nb, K(SATURATION), 16129, 0, 0) && find(b, nb, K(SATURATION), 16385, 0, 0));
  CHECK(find(b, nb, K(BLOCK_SMALLEST), 81, 32, 0) && find(b, nb, K(BLOCK_REFUSED), 4099, 31, 0));
  /* at wave 64 its smallest block is 64, and CUs x 8 blocks of 256 saturate as before */
  rf_boundary_env env64 = env32;
  env64.wave = 64;
  nb = rf_boundaries_derive(v, &env64, b, RF_BOUNDARY_MAX, &st);
  CHECK(find(b, nb, K(BLOCK_SMALLEST), 161, 64, 0) && find(b, nb, K(BLOCK_REFUSED), 4099, 63, 0));

  v = rf_variant_find("softmax/row-reg");
  nb = rf_boundaries_derive(v, &env32, b, RF_BOUNDARY_MAX, &st);
  static const uint32_t cols[] = {1028, 2052, 4100};
  for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
    CHECK_MSG(has(b, nb, K(STRATEGY), 3, cols[i], 0), "softmax/row-reg 3x%u", cols[i]);
  /* its 65,535-block grid at 256 threads (16.7 M) is past the cap: left out, and counted */
  CHECK(st.over_cost > 0);
}

int main(void) {
  known_variant();
  fixed_variant();
  twisted_variant();
  rows_variant();
  builtin_variants();
  return rf_test_done();
}
