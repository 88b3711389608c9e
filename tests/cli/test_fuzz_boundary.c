/* The fuzz inputs' boundary class (class 4, run/fuzz_select.h): drawn from the hash of inputs
 * of codec version 8 on, it takes one of the selected variants' derived boundaries
 * (run/boundaries.h) and a small step of its size.
 *  - from a few thousand random inputs on two variants it reaches every kind they have within
 *    the class's caps (non-power-of-two blocks, idle-block grids, the saturation size, a second
 *    stage's chain, index widths, the smallest and largest blocks), each case naming its
 *    variant with a boundary's launch and its size within 3 of the boundary's;
 *  - same bytes, same case;
 *  - an input of version 7 or older never draws it and decodes as it did before the class
 *    existed (REDFUZZ_SIZE_CLASSES=4 decodes every input as then), and a version-8 input that
 *    does not draw it decodes as the same bytes of version 7. */
#include <string.h>
#include "rf_test.h"
#include "run/backend.h"
#include "run/boundaries.h"
#include "run/fuzz_select.h"

#define LEN 41

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t next_u64(void) {   /* splitmix64: the same inputs on every run */
  uint64_t z = (rng += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}
static void random_input(uint8_t *buf, uint8_t version) {
  for (int i = 0; i < LEN; i++) buf[i] = (uint8_t)next_u64();
  buf[0] = version;
}

static int same_case(const rf_case *a, const rf_case *b) {
  return rf_case_equal(a, b) && strcmp(a->variant, b->variant) == 0;
}

/* Is c within 3 of one of v's boundaries, at its launch? */
static int near_a_boundary(const rf_variant *v, const rf_case *c, const rf_limits *lim) {
  rf_boundary bs[RF_BOUNDARY_MAX];
  const rf_boundary_env env = {.wave = c->wave, .num_cus = 8, .lim = rf_backend.limits,
                               .max_threads = lim->max_threads};
  const size_t nb = rf_boundaries_derive(v, &env, bs, RF_BOUNDARY_MAX, NULL);
  for (size_t i = 0; i < nb; i++) {
    const rf_boundary *b = &bs[i];
    if (b->block != c->block || b->grid != c->grid || b->items != c->items) continue;
    const int64_t d = (int64_t)c->n - (int64_t)b->n;
    if (d >= -3 && d <= 3) return 1;
  }
  return 0;
}

static void reaches_every_kind(void) {
  static const char only[] = "sum/two-stage-wave,sum/mut-npot-waves";
  rf_settings set;
  rf_settings_default(&set);
  const rf_fuzz_budget b = rf_fuzz_budget_of(&set);
  CHECK(b.classes == RF_FUZZ_CLASSES && b.one_in[RF_FUZZ_BOUNDARY_CLASS] == 16);
  unsigned long long kinds[RF_BK_COUNT] = {0}, drawn = 0;
  uint8_t buf[LEN];
  const int inputs = 3000;
  for (int i = 0; i < inputs; i++) {
    random_input(buf, 8);
    rf_case c, again;
    uint32_t k = 0;
    const unsigned cls = rf_fuzz_decode_budget_kinds(buf, LEN, &b, only, &c, &k);
    CHECK(rf_fuzz_decode_budget(buf, LEN, &b, only, &again) == cls && same_case(&c, &again));
    if (cls != RF_FUZZ_BOUNDARY_CLASS) {
      CHECK(k == 0 && c.variant[0] == 0);
      continue;
    }
    drawn++;
    const rf_variant *v = rf_variant_find(c.variant);
    CHECK_MSG(v && rf_select_in_list(v->name, only), "class 4 case of '%s'", c.variant);
    char err[256];
    CHECK_MSG(!rf_case_validate(&c, &b.lim[RF_FUZZ_BOUNDARY_CLASS], err, sizeof err), "%s", err);
    CHECK_MSG(k != 0 && v && near_a_boundary(v, &c, &b.lim[RF_FUZZ_BOUNDARY_CLASS]),
              "%s n %llu block %u grid %u is no boundary's", c.variant,
              (unsigned long long)c.n, c.block, c.grid);
    for (int j = 0; j < RF_BK_COUNT; j++) kinds[j] += (k >> j) & 1u;
  }
  printf("class 4: %llu of %d inputs;", drawn, inputs);
  for (int j = 0; j < RF_BK_COUNT; j++)
    printf(" %s %llu", rf_boundary_kind_name((rf_boundary_kind)j), kinds[j]);
  printf("\n");
  static const rf_boundary_kind must[] = {RF_BK_BLOCK_SMALLEST, RF_BK_BLOCK_LARGEST,
                                          RF_BK_BLOCK_NPOT, RF_BK_SATURATION, RF_BK_IDLE_GRID,
                                          RF_BK_PLAN_LEVEL, RF_BK_INDEX_WIDTH};
  for (size_t j = 0; j < sizeof must / sizeof must[0]; j++)
    CHECK_MSG(kinds[must[j]] > 0, "kind %s never reached", rf_boundary_kind_name(must[j]));
  /* a refusal expects unsupported, which a fuzz case never asks for */
  CHECK(kinds[RF_BK_BLOCK_REFUSED] == 0);
}

static void old_inputs_unchanged(void) {
  rf_settings set;
  rf_settings_default(&set);
  const rf_fuzz_budget b = rf_fuzz_budget_of(&set);
  set.size_classes = RF_FUZZ_BOUNDARY_CLASS;   /* classes 0..3: the decoding before class 4 */
  const rf_fuzz_budget before = rf_fuzz_budget_of(&set);
  uint8_t buf[LEN];
  unsigned long long v8_class4 = 0;
  for (int i = 0; i < 20000; i++) {
    for (uint8_t version = 1; version <= 7; version += 6) {   /* versions 1 and 7 */
      random_input(buf, version);
      rf_case now, then;
      CHECK(rf_fuzz_decode_budget(buf, LEN, &b, "", &now) != RF_FUZZ_BOUNDARY_CLASS);
      rf_fuzz_decode_budget(buf, LEN, &before, "", &then);
      CHECK(same_case(&now, &then));
    }
    /* version 8 and 7 share the layout: the same bytes decode alike, but for the classes
     * (the version byte is hashed) */
    random_input(buf, 8);
    rf_case v8, v7;
    const unsigned k8 = rf_fuzz_decode_budget(buf, LEN, &before, "", &v8);
    v8_class4 += rf_fuzz_class_of(buf, LEN, &b) == RF_FUZZ_BOUNDARY_CLASS;
    buf[0] = 7;
    if (k8 == 0 && rf_fuzz_class_of(buf, LEN, &before) == 0) {
      rf_fuzz_decode_budget(buf, LEN, &before, "", &v7);
      CHECK(same_case(&v8, &v7));
    }
  }
  CHECK_MSG(v8_class4 > 20000 / 32, "version 8 drew class 4 %llu times in 20000", v8_class4);
}

int main(void) {
  reaches_every_kind();
  old_inputs_unchanged();
  return rf_test_done();
}
