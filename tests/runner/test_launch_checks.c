/* The launch of another shape made before the simulator's repeat (run/launch_checks.h,
 * rf_checks_pick_other): exact picks for test variants of known launch logic, none for a
 * variant whose grid cannot change, and one for every built-in variant on the default sweep's
 * kind of cases (so each of them gets the state-across-launches check), always of another grid
 * (not a multiple of the case's), another size, and small. No device needed. */
#include <string.h>
#include "rf_test.h"
#include "run/launch_checks.h"
#include "run/launch_prep.h"
#include "kernels/launch_common.h"

/* A grid-stride variant: block a power of two 32..1024 (default 256), a requested grid taken,
 * else ceil(n / block). */
static const char *cfg_stride(rf_launch_cfg *c) {
  const char *why = rf_pick_block_pow2(c, 256, 32, 1024, 0);
  if (why) return why;
  if (!c->grid) c->grid = c->n ? (uint32_t)rf_div_ceil(c->n, c->block) : 1;
  return NULL;
}
/* One element a thread: a requested grid ignored. */
static const char *cfg_one(rf_launch_cfg *c) {
  const char *why = rf_pick_block_pow2(c, 256, 32, 1024, 0);
  if (why) return why;
  c->grid = c->n ? (uint32_t)rf_div_ceil(c->n, c->block) : 1;
  return NULL;
}
/* One block, whatever the case: no other grid exists. */
static const char *cfg_single(rf_launch_cfg *c) { c->block = 64; c->grid = 1; return NULL; }
/* A block a row. */
static const char *cfg_rows(rf_launch_cfg *c) {
  const char *why = rf_pick_block_pow2(c, 128, 32, 1024, 0);
  if (why) return why;
  c->grid = c->rows ? c->rows : 1;
  return NULL;
}
static size_t no_scratch(const rf_launch_cfg *c) { (void)c; return 0; }
static void plan_chain(const rf_launch_cfg *c, rf_plan *p) {
  memset(p, 0, sizeof *p);
  if (c->n) rf_plan_add(p, RF_LEVEL_CHAIN, c->n);
}
static void plan_row(const rf_launch_cfg *c, rf_plan *p) {
  memset(p, 0, sizeof *p);
  if (c->cols) rf_plan_add(p, RF_LEVEL_CHAIN, c->cols);
}
static int no_launch(const rf_launch_args *a) { (void)a; return 0; }

#define T_VARIANT(var, name, op, det, cfg, plan)                                               \
  static const rf_variant var = {name, op, det, 0, "t", "t", cfg, no_scratch, plan, no_launch, 0, \
                                 RF_DTYPE_F32, RF_DTYPE_F32, 0, 0}
T_VARIANT(v_stride, "sum/t-stride", RF_OP_SUM, 1, cfg_stride, plan_chain);
T_VARIANT(v_one, "sum/t-one", RF_OP_SUM, 0, cfg_one, plan_chain);
T_VARIANT(v_single, "sum/t-single", RF_OP_SUM, 1, cfg_single, plan_chain);
T_VARIANT(v_rows, "softmax/t-rows", RF_OP_SOFTMAX, 1, cfg_rows, plan_row);

static const rf_device_info dev = {"test", 8, 32, "sim"};

/* The other shape of v for a case of (n or rows x cols, block): 0 and *o, or -1. Checks the
 * rules every pick keeps. */
static int pick(const rf_variant *v, rf_op op, uint64_t n, uint32_t rows, uint32_t cols,
                uint32_t block, rf_dtype dtype, rf_other_launch *o, int *prepared) {
  rf_case c;
  rf_case_default(&c);
  c.op = op;
  c.n = n;
  c.rows = rows;
  c.cols = cols;
  c.block = block;
  c.dtype = dtype;
  rf_launch_cfg cfg;
  rf_plan plan;
  size_t sb;
  rf_result res;
  memset(&res, 0, sizeof res);
  *prepared = rf_launch_prepare(v, &c, &dev, &cfg, &plan, &sb, &res) == 0;
  if (!*prepared) return -1;
  int rc = rf_checks_pick_other(v, &c, &cfg, &dev, o);
  if (rc) {
    CHECK_MSG(!o->ok, "%s: a failed pick is not ok", v->name);
    return rc;
  }
  CHECK_MSG(o->ok && o->out_slot == -1 && o->scratch_slot == -1, "%s: pick state", v->name);
  CHECK_MSG(o->cfg.grid != cfg.grid && (cfg.grid < 2 || o->cfg.grid % cfg.grid != 0),
            "%s: grid %u for a case of grid %u", v->name, o->cfg.grid, cfg.grid);
  if (rf_op_has_rows(op))
    CHECK_MSG(o->cfg.rows != cfg.rows, "%s: rows %u as the case's", v->name, o->cfg.rows);
  else
    CHECK_MSG(o->cfg.n != cfg.n, "%s: n %llu as the case's", v->name, (unsigned long long)o->cfg.n);
  CHECK_MSG((uint64_t)o->cfg.grid * o->cfg.block <= RF_OTHER_MAX_THREADS &&
                rf_case_elems(&o->c) <= RF_OTHER_MAX_ELEMS,
            "%s: not small: grid %u x block %u, %llu elements", v->name, o->cfg.grid,
            o->cfg.block, (unsigned long long)rf_case_elems(&o->c));
  CHECK_MSG(o->ob == rf_runner_output_bytes(&o->c, v->out_dtype, v->index_bits),
            "%s: output bytes", v->name);
  return 0;
}

static void expect(const rf_variant *v, rf_op op, uint64_t n, uint32_t rows, uint32_t cols,
                   uint32_t block, uint64_t want_n, uint32_t want_rows, uint32_t want_cols,
                   uint32_t want_grid, uint32_t want_block) {
  rf_other_launch o;
  int prepared;
  const int rc = pick(v, op, n, rows, cols, block, RF_DTYPE_F32, &o, &prepared);
  CHECK_MSG(prepared && rc == 0, "%s: no pick for n %llu, %ux%u", v->name,
            (unsigned long long)n, rows, cols);
  if (rc) return;
  CHECK_MSG(o.cfg.n == want_n && o.cfg.rows == want_rows && o.cfg.cols == want_cols &&
                o.cfg.grid == want_grid && o.cfg.block == want_block,
            "%s: picked n=%llu %ux%u grid %u x block %u, want n=%llu %ux%u grid %u x block %u",
            v->name, (unsigned long long)o.cfg.n, o.cfg.rows, o.cfg.cols, o.cfg.grid,
            o.cfg.block, (unsigned long long)want_n, want_rows, want_cols, want_grid,
            want_block);
}

int main(void) {
  /* The grid-stride variant takes 2 blocks of a wave: n = 2*32 + 3. A case of grid 2 gets 3. */
  expect(&v_stride, RF_OP_SUM, 1027, 0, 0, 0, 67, 0, 0, 2, 32);
  expect(&v_stride, RF_OP_SUM, 300, 0, 0, 0, 99, 0, 0, 3, 32);
  /* One element a thread: n = 67 makes 3 blocks of 32 (the case: 5). A case of 2 blocks: 99
   * would make 4, a multiple of 2 (a counter modulo 2 would land at the same residue), so
   * 195 elements, 7 blocks. */
  expect(&v_one, RF_OP_SUM, 1027, 0, 0, 0, 67, 0, 0, 3, 32);
  expect(&v_one, RF_OP_SUM, 64, 0, 0, 32, 195, 0, 0, 7, 32);
  /* n = 67 would be the case's own size: the next candidate. */
  expect(&v_stride, RF_OP_SUM, 67, 0, 0, 0, 131, 0, 0, 2, 32);
  /* A block a row: 2 rows of 31 columns (the case has 33), 2 blocks of a wave. */
  expect(&v_rows, RF_OP_SOFTMAX, 0, 4, 33, 0, 0, 2, 31, 2, 32);
  expect(&v_rows, RF_OP_SOFTMAX, 0, 2, 5, 0, 0, 3, 33, 3, 32);
  /* No grid but 1: nothing to pick, the repeat follows run 0 directly. */
  {
    rf_other_launch o;
    int prepared;
    CHECK(pick(&v_single, RF_OP_SUM, 1027, 0, 0, 0, RF_DTYPE_F32, &o, &prepared) == -1 &&
          prepared && !o.ok);
  }

  /* Every built-in variant (mutants aside) gets another shape on the kinds of case the
   * default sweep runs: the sizes, both blocks, each variant's input type. */
  static const uint64_t ns[] = {1, 33, 257, 1027, 65537};
  static const uint32_t shapes[][2] = {{1, 1}, {2, 31}, {4, 33}, {3, 257}, {8, 1024}};
  static const uint32_t blocks[] = {0, 1024};
  unsigned picked = 0, cases = 0;
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (v->is_mutant) continue;
    const int rows = rf_op_has_rows(v->op);
    const size_t sizes = rows ? sizeof shapes / sizeof shapes[0] : sizeof ns / sizeof ns[0];
    for (size_t s = 0; s < sizes; s++)
      for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        rf_other_launch o;
        int prepared;
        const int rc = rows ? pick(v, v->op, 0, shapes[s][0], shapes[s][1], blocks[b],
                                   v->in_dtype, &o, &prepared)
                            : pick(v, v->op, ns[s], 0, 0, blocks[b], v->in_dtype, &o, &prepared);
        if (!prepared) continue;   /* the case itself is unsupported */
        cases++;
        picked += rc == 0;
        CHECK_MSG(rc == 0, "%s: no other shape for %s %llu, block %u", v->name,
                  rows ? "rows" : "n", rows ? (unsigned long long)shapes[s][0]
                                            : (unsigned long long)ns[s], blocks[b]);
      }
  }
  printf("built-in variants: another shape for %u of %u cases\n", picked, cases);
  CHECK(cases > 100);
  return rf_test_done();
}
