/* 64-bit argmax indices (issue 37; include/redfuzz/variant.h, index_bits): the host judge reads
 * a variant's output in its own layout, so an index past 2^32 is judged whole (2^32 + 2 passes
 * where 2^32 + 2 is due; 2, whose low 32 bits are the same, fails; and the 8-byte layout of a
 * 32-bit variant is still read as such); and the runner leaves a variant that writes a 32-bit
 * index out of cases past 2^31 - 1 (`unsupported`, naming the figure) while running it at
 * 2^31 - 1 and below. No device needed: nothing is launched. */
#include <stdio.h>
#include <string.h>
#include "rf_test.h"
#include "run/case_outputs.h"
#include "run/launch_prep.h"
#include "run/op_table.h"

static const char *configure_one(rf_launch_cfg *cfg) {
  cfg->block = cfg->grid = 1;
  return NULL;
}
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void chain_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  memset(p, 0, sizeof *p);
  if (cfg->n) rf_plan_add(p, RF_LEVEL_CHAIN, cfg->n);
}
static int never_launch(const rf_launch_args *a) { (void)a; return 1; }

static rf_variant variant(rf_op op, uint32_t index_bits) {
  rf_variant v;
  memset(&v, 0, sizeof v);
  v.name = op == RF_OP_SUM ? "sum/test" : "argmax/test";
  v.op = op;
  v.summary = v.constraints = "test";
  v.configure = configure_one;
  v.scratch_bytes = no_scratch;
  v.plan = chain_plan;
  v.launch = never_launch;
  v.index_bits = index_bits;
  return v;
}

/* The verdict of the argmax judge (op table) on `got`, as a variant of index_bits wrote it,
 * for an input whose maximum 5 is at want_index. */
static rf_verdict judge(uint32_t index_bits, const void *got, int64_t want_index,
                        rf_result *res) {
  rf_variant v = variant(RF_OP_ARGMAX, index_bits);
  rf_case c;
  rf_case_default(&c);
  c.op = RF_OP_ARGMAX;
  c.n = ((uint64_t)1 << 32) + 3;
  oracle_answer o;
  memset(&o, 0, sizeof o);
  o.max_value = 5.0f;
  o.argmax_index = want_index;
  o.first_nan = -1;
  batch_case bc;
  memset(&bc, 0, sizeof bc);
  bc.c = &c;
  bc.o = &o;
  pending p;
  memset(&p, 0, sizeof p);
  p.v = &v;
  p.bc = &bc;
  p.res = res;
  memset(res, 0, sizeof *res);
  rf_op_row_of(RF_OP_ARGMAX)->judge(NULL, &p, got, res);
  return res->verdict;
}

static void test_judge(void) {
  const int64_t past = ((int64_t)1 << 32) + 2;
  rf_result res;
  rf_argmax_out64 w = {5.0f, 0, past};
  CHECK(rf_runner_output_bytes(&(rf_case){.op = RF_OP_ARGMAX}, RF_DTYPE_F32, 64) == 16);
  CHECK(rf_runner_output_bytes(&(rf_case){.op = RF_OP_ARGMAX}, RF_DTYPE_F32, 0) == 8);
  CHECK_MSG(judge(64, &w, past, &res) == RF_V_PASS, "%s", res.detail);
  CHECK(res.got_index == past && res.want_index == past);
  w.index = 2;   /* the low 32 bits of the index due */
  CHECK(judge(64, &w, past, &res) == RF_V_WRONG);
  CHECK_MSG(strstr(res.detail, "got index 2 value 5, want index 4294967298 value 5") != NULL,
            "%s", res.detail);
  w.index = past;   /* the wrong index the other way */
  CHECK(judge(64, &w, 2, &res) == RF_V_WRONG);
  /* the 8-byte layout of a variant of index_bits 0 or 32: the index at offset 4 */
  rf_argmax_out a = {5.0f, 2};
  CHECK(judge(0, &a, 2, &res) == RF_V_PASS);
  CHECK(judge(32, &a, 2, &res) == RF_V_PASS);
  CHECK(judge(0, &a, past, &res) == RF_V_WRONG);
  a.index = -1;   /* "none" stays -1 once widened */
  CHECK(judge(32, &a, 2, &res) == RF_V_WRONG);
  CHECK(res.got_index == -1);   /* sign-extended, not 2^32 - 1 */
}

/* rf_launch_prepare's verdict for v at n (0: prepared). */
static int prepare(const rf_variant *v, uint64_t n, rf_result *res) {
  rf_case c;
  rf_case_default(&c);
  c.op = v->op;
  c.n = n;
  rf_device_info dev;
  memset(&dev, 0, sizeof dev);
  dev.num_cus = 1;
  dev.wave = 32;
  rf_launch_cfg cfg;
  rf_plan plan;
  size_t sb = 0;
  memset(res, 0, sizeof *res);
  return rf_launch_prepare(v, &c, &dev, &cfg, &plan, &sb, res);
}

static void test_refusal(void) {
  const uint64_t max32 = ((uint64_t)1 << 31) - 1;
  rf_result res;
  for (uint32_t bits = 0; bits <= 32; bits += 32) {
    const rf_variant v = variant(RF_OP_ARGMAX, bits);
    CHECK_MSG(prepare(&v, max32, &res) == 0, "index_bits %u at 2^31-1: %s", bits, res.detail);
    CHECK(prepare(&v, 33, &res) == 0);
    CHECK(prepare(&v, max32 + 1, &res) == -1 && res.verdict == RF_V_UNSUPPORTED);
    CHECK(prepare(&v, max32 + 6, &res) == -1 && res.verdict == RF_V_UNSUPPORTED);
    char want[128];
    snprintf(want, sizeof want, "writes a 32-bit index (index_bits %u): n 2147483653 is past "
             "2^31-1", bits);
    CHECK_MSG(strcmp(res.detail, want) == 0, "detail '%s'", res.detail);
  }
  const rf_variant wide = variant(RF_OP_ARGMAX, 64), sum = variant(RF_OP_SUM, 0);
  CHECK_MSG(prepare(&wide, ((uint64_t)1 << 32) + 3, &res) == 0, "%s", res.detail);
  CHECK_MSG(prepare(&sum, ((uint64_t)1 << 32) + 3, &res) == 0, "%s", res.detail);   /* no index */
}

int main(void) {
  test_judge();
  test_refusal();
  return rf_test_done();
}
