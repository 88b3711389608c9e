/* The fuzz inputs' size budget (run/fuzz_select.h): decoding many random inputs as the fuzz
 * target does, each size class is drawn at its share (within 6 standard deviations), every
 * case stays within its class's caps, the share of cases beyond the cheap caps stays small,
 * and the classes reach what the cheap caps cannot: 1-D cases past 32,768 elements up to the
 * backend's largest n, and row cases with more rows than a row variant's grid has blocks (on
 * the simulator at the default grid and one wave a block: within its launch cap).
 * Same bytes, same case. REDFUZZ_SIZE_CLASSES=1 and REDFUZZ_MAX_ELEMS keep the old hard caps.
 * Class 4 (a derived boundary: tests/cli/test_fuzz_boundary.c checks what it reaches) is drawn
 * at its share, less the inputs whose op has no boundary within its caps, which fall to class
 * 0; its case names the variant whose boundary it is, within the class's elements. */
#include <math.h>
#include <string.h>
#include "rf_test.h"
#include "run/backend.h"
#include "run/fuzz_select.h"

#define INPUTS 400000
#define LEN 41

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_u64(void) {   /* splitmix64: the same inputs on every run */
  uint64_t z = (rng += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}
static void random_input(uint8_t *buf) {
  for (int i = 0; i < LEN; i++) buf[i] = (uint8_t)next_u64();
}

static uint64_t threads_of(const rf_case *c) {
  const uint64_t block = c->block ? c->block : RF_FUZZ_DEFAULT_BLOCK;
  return c->grid ? (uint64_t)c->grid * block : 0;
}

static void shares_and_reach(void) {
  rf_settings set;
  rf_settings_default(&set);
  const rf_fuzz_budget b = rf_fuzz_budget_of(&set);
  CHECK(b.classes == RF_FUZZ_CLASSES);
  const rf_limits *cheap = &b.lim[0];
  unsigned long long drawn[RF_FUZZ_CLASSES] = {0}, beyond_cheap = 0, past_32k = 0,
                     past_grid = 0, short_rows = 0, short_past = 0;
  uint64_t max_n = 0, max_rows = 0;
  uint8_t buf[LEN];
  for (int i = 0; i < INPUTS; i++) {
    random_input(buf);
    rf_case c, again;
    const unsigned k = rf_fuzz_decode_budget(buf, LEN, &b, "", &c);
    CHECK(k < b.classes);
    drawn[k]++;
    if (i < 1000) {   /* same bytes, same class, same case */
      CHECK(rf_fuzz_decode_budget(buf, LEN, &b, "", &again) == k);
      CHECK(again.n == c.n && again.rows == c.rows && again.cols == c.cols &&
            again.seed == c.seed && again.block == c.block && again.grid == c.grid);
    }
    const rf_limits *l = &b.lim[k];
    /* class 3 is the short-rows class: every case of it a row op's (no only-list here) */
    if (k == 3) CHECK_MSG(rf_op_has_rows(c.op), "class 3 case of op %d", (int)c.op);
    const uint64_t elems = rf_case_elems(&c);
    CHECK_MSG((k == RF_FUZZ_BOUNDARY_CLASS) == (c.variant[0] != 0), "class %u variant '%s'", k,
              c.variant);
    if (k == RF_FUZZ_BOUNDARY_CLASS) {   /* its own variant's launch: test_fuzz_boundary.c */
      CHECK_MSG(elems <= l->max_elems && (rf_op_has_rows(c.op) || c.n <= l->max_n),
                "class 4 %s n %llu %ux%u", c.variant, (unsigned long long)c.n, c.rows, c.cols);
      beyond_cheap += elems > cheap->max_elems;
      continue;
    }
    if (rf_op_has_rows(c.op)) {
      CHECK_MSG(c.cols <= l->max_cols && elems <= l->max_elems, "class %u %ux%u", k, c.rows,
                c.cols);
      /* rows fold below the class's thread cap (a block per row, at the case's block) */
      const uint64_t block = c.block ? c.block : RF_FUZZ_DEFAULT_BLOCK;
      CHECK_MSG(c.rows <= (l->max_threads / block ? l->max_threads / block : 1) ||
                    c.rows <= 1,
                "class %u rows %u block %llu", k, c.rows, (unsigned long long)block);
      if (c.rows > max_rows) max_rows = c.rows;
      /* the simulator's short rows: a launch it runs (at most 65535 blocks of one wave) */
      if (k == 3 && rf_backend.is_sim && c.rows >= RF_FUZZ_ROW_GRID_CAP - 15) {
        CHECK_MSG(c.grid == 0 && c.block == c.wave, "class 3 grid %u block %u wave %u", c.grid,
                  c.block, c.wave);
        CHECK_MSG(c.rows <= RF_FUZZ_ROW_GRID_CAP - 15 + RF_FUZZ_SIM_ROW_SPAN,
                  "class 3 rows %u cols %u: past the simulator's span", c.rows, c.cols);
      }
      past_grid += c.rows > RF_FUZZ_ROW_GRID_CAP;
      short_rows += k == 3;
      short_past += k == 3 && c.rows > RF_FUZZ_ROW_GRID_CAP;
    } else {
      CHECK_MSG(c.n <= l->max_n, "class %u n %llu", k, (unsigned long long)c.n);
      if (c.n > max_n) max_n = c.n;
      past_32k += c.n > 32768;
    }
    CHECK_MSG(threads_of(&c) <= l->max_threads || c.grid <= 1, "class %u grid %u block %u", k,
              c.grid, c.block);
    beyond_cheap += elems > cheap->max_elems;
  }
  printf("classes drawn:");
  for (unsigned k = 0; k < b.classes; k++) printf(" %u: %llu", k, drawn[k]);
  printf("\nbeyond the cheap caps: %llu of %d; 1-D past 32768: %llu (largest n %llu); rows "
         "past %u: %llu (largest %llu)\n", beyond_cheap, INPUTS, past_32k,
         (unsigned long long)max_n, RF_FUZZ_ROW_GRID_CAP, past_grid,
         (unsigned long long)max_rows);
  for (unsigned k = 1; k < b.classes; k++) {
    if (!b.one_in[k]) {
      CHECK_MSG(drawn[k] == 0, "class %u is not drawn on this backend", k);
      continue;
    }
    const double p = 1.0 / b.one_in[k], want = INPUTS * p, sd = sqrt(INPUTS * p * (1 - p));
    /* class 4 gives to class 0 the inputs of an op without a boundary within its caps */
    const double low = k == RF_FUZZ_BOUNDARY_CLASS ? 0.8 * want : want;
    CHECK_MSG((double)drawn[k] >= low - 6 * sd && (double)drawn[k] <= want + 6 * sd,
              "class %u drawn %llu times, want %.0f", k, drawn[k], want);
  }
  /* The budget: at most 1 input in 6 beyond the cheap caps (classes 1..4 together draw
   * 1/16 + 1/128 + 1/2048 + 1/16 of the inputs, some of them small; class 4's boundaries are
   * mostly past the cheap caps). */
  CHECK_MSG(beyond_cheap * 6 <= INPUTS, "%llu beyond the cheap caps", beyond_cheap);
  /* The reach: past 32,768 elements up to the backend's largest n (on the simulator 2^18),
   * and rows past every row variant's grid cap (where the backend's limits allow them). */
  CHECK_MSG(past_32k >= 20, "%llu 1-D cases past 32768", past_32k);
  CHECK_MSG(max_n == b.lim[2].max_n, "largest n %llu, class 2 allows %llu",
            (unsigned long long)max_n, (unsigned long long)b.lim[2].max_n);
  CHECK(b.one_in[3] != 0);   /* every backend, the simulator too */
  if (rf_backend.limits.max_elems > RF_FUZZ_ROW_GRID_CAP) {
    CHECK_MSG(past_grid >= 5, "%llu row cases past %u rows", past_grid, RF_FUZZ_ROW_GRID_CAP);
    /* most short-rows cases stride, the simulator's 2^18 elements included (4 columns there
     * end at 65,536 rows: lift_rows narrows them) */
    CHECK_MSG(short_past * 3 >= short_rows * 2, "%llu of %llu short-rows cases past %u rows",
              short_past, short_rows, RF_FUZZ_ROW_GRID_CAP);
  }
}

/* REDFUZZ_SIZE_CLASSES=1: the cheap caps only, as before the budget; REDFUZZ_SHORT_ROWS=0: no
 * class 3, the other classes as they were; REDFUZZ_MAX_ELEMS: a hard cap on every class. */
static void hard_caps(void) {
  rf_settings set;
  rf_settings_default(&set);
  set.size_classes = 1;
  rf_fuzz_budget b = rf_fuzz_budget_of(&set);
  const rf_limits cheap = rf_fuzz_limits(&set);
  uint8_t buf[LEN];
  for (int i = 0; i < 20000; i++) {
    random_input(buf);
    rf_case c;
    CHECK(rf_fuzz_decode_budget(buf, LEN, &b, "", &c) == 0);
    CHECK(rf_case_elems(&c) <= cheap.max_elems);
  }
  /* REDFUZZ_SHORT_ROWS=0: no input draws class 3, and an input that draws another class
   * with it on draws the same one with it off (class 3's slice goes to class 0 alone). */
  rf_settings_default(&set);
  const rf_fuzz_budget on = rf_fuzz_budget_of(&set);
  set.short_rows = 0;
  const rf_fuzz_budget off = rf_fuzz_budget_of(&set);
  CHECK(on.one_in[3] != 0 && off.one_in[3] == 0);
  unsigned long long was3 = 0;
  for (int i = 0; i < 200000; i++) {
    random_input(buf);
    const unsigned k_on = rf_fuzz_class_of(buf, LEN, &on), k_off = rf_fuzz_class_of(buf, LEN, &off);
    CHECK(k_off != 3);
    if (k_on == 3) was3++;
    else CHECK_MSG(k_off == k_on, "input %d: class %u with short rows, %u without", i, k_on, k_off);
  }
  CHECK_MSG(was3 > 0, "no input of 200000 drew class 3 with short rows on");
  rf_settings_default(&set);
  set.max_elems = 1000;
  set.max_elems_set = 1;
  b = rf_fuzz_budget_of(&set);
  for (unsigned k = 0; k < b.classes; k++)
    CHECK_MSG(b.lim[k].max_elems <= 1000 && b.lim[k].max_n <= 1000, "class %u", k);
}

/* Class 3's fold: fuzz inputs decode to small row counts (a campaign's class-3 cases had rows
 * in the tens), and a plain `rows % span` left every one of them below the cap. Small and
 * random counts alike: at least 3 in 4 past the cap, some at and below it, none outside
 * [cap - 15, hi]. */
static void short_rows_fold(void) {
  const uint64_t lo = RF_FUZZ_ROW_GRID_CAP - 15, his[] = {lo + RF_FUZZ_SIM_ROW_SPAN, 1u << 18,
                                                          UINT32_MAX, lo + 20};
  for (size_t h = 0; h < sizeof his / sizeof his[0]; h++) {
    unsigned past = 0, at_or_below = 0;
    const unsigned count = 4096;
    for (uint32_t d = 0; d < count; d++) {
      const uint32_t small = d, big = (uint32_t)next_u64();
      const uint32_t draws[2] = {rf_fuzz_short_rows(small, his[h]), rf_fuzz_short_rows(big, his[h])};
      for (int k = 0; k < 2; k++) {
        CHECK_MSG(draws[k] >= lo && draws[k] <= his[h], "rows %u outside [%llu, %llu]", draws[k],
                  (unsigned long long)lo, (unsigned long long)his[h]);
        past += draws[k] > RF_FUZZ_ROW_GRID_CAP;
        at_or_below += draws[k] <= RF_FUZZ_ROW_GRID_CAP;
      }
    }
    if (his[h] > lo + 64) {
      CHECK_MSG(past * 4 >= 3 * 2 * count, "hi %llu: %u of %u past the cap",
                (unsigned long long)his[h], past, 2 * count);
      CHECK_MSG(at_or_below > 0, "hi %llu: none at or below the cap", (unsigned long long)his[h]);
    }
  }
}

int main(void) {
  short_rows_fold();
  shares_and_reach();
  hard_caps();
  return rf_test_done();
}
