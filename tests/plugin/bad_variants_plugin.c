/* A plugin whose variant list has the defect named by RF_TEST_PLUGIN_DEFECT (name, op, space,
 * hash, newline, long, null-launch, twice, dtype, contract, index-bits, index-bits-sum;
 * count-max, empty, comma,
 * null-entry; and, for the rules checked every time a plan is made, plan-levels, plan-kind,
 * plan-adds; reason: a configure reason with a newline and an escape sequence; anything else:
 * two good variants), so each of the loader's and the runner's checks is shown to refuse it.
 * Nothing here is ever launched: a plan defect must stop the launch (never_launch would give a
 * launch-error of its own, without the rule). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "redfuzz/plugin.h"

static const char *never_configure(rf_launch_cfg *cfg) { (void)cfg; return "never run"; }
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void no_plan(const rf_launch_cfg *cfg, rf_plan *p) { (void)cfg; (void)p; }
static int never_launch(const rf_launch_args *a) { (void)a; return 1; }

#define FNS never_configure, no_scratch, no_plan

/* Configures (one thread), then plans as RF_TEST_PLUGIN_DEFECT says. */
static const char *configure_ok(rf_launch_cfg *cfg) {
  const char *d = getenv("RF_TEST_PLUGIN_DEFECT");
  if (d && strcmp(d, "reason") == 0) return "line one\nFAIL forged line \x1b[31mred\x1b[0m";
  cfg->block = cfg->grid = 1;
  return NULL;
}
static void bad_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  (void)cfg;
  const char *d = getenv("RF_TEST_PLUGIN_DEFECT");
  d = d ? d : "";
  memset(p, 0, sizeof *p);
  p->n_levels = 1;
  p->level[0].kind = RF_LEVEL_CHAIN;
  p->level[0].adds = 4;
  if (strcmp(d, "plan-levels") == 0) p->n_levels = 1000;
  if (strcmp(d, "plan-kind") == 0) p->level[0].kind = (rf_level_kind)77;
  if (strcmp(d, "plan-adds") == 0) p->level[0].adds = UINT64_MAX;
}
static const rf_variant planned = {"max/test-plan", RF_OP_MAX, 1, 0, "s", "c", configure_ok,
                                   no_scratch, bad_plan, never_launch, 0};
static const rf_variant empty_name = {"", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
static const rf_variant with_comma = {"max/test,x", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch,
                                      0};
static const rf_variant ok = {"max/test-ok", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
static const rf_variant no_slash = {"max-test", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
static const rf_variant op_mismatch = {"sum/test-op", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
static const rf_variant ok2 = {"max/test-ok2", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
static const rf_variant with_space = {"max/test ok", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
static const rf_variant with_hash = {"max/test#1", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
static const rf_variant with_newline = {"max/test\nok", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch, 0};
/* 254 characters: longer than any name the case, the text form or a regression file holds. */
#define X10 "xxxxxxxxxx"
#define X50 X10 X10 X10 X10 X10
static const rf_variant too_long = {"max/" X50 X50 X50 X50 X50, RF_OP_MAX, 1, 0, "s", "c", FNS,
                                    never_launch, 0};
static const rf_variant no_launch = {"max/test-null", RF_OP_MAX, 1, 0, "s", "c", FNS, NULL, 0};
/* f16 in, bf16 out: the output must be the input type or f32 */
static const rf_variant bad_dtype = {"max/test-dtype", RF_OP_MAX, 1, 0, "s", "c", FNS, never_launch,
                                     0, RF_DTYPE_F16, RF_DTYPE_BF16};
/* a contract bit of another op: max has no zero-sign rule */
static const rf_variant bad_contract = {"max/test-contract", RF_OP_MAX, 1, 0, "s", "c", FNS,
                                        never_launch, 0, RF_DTYPE_F32, RF_DTYPE_F32,
                                        RF_CONTRACT_SIGNED_ZERO};

/* an index width no layout has, and an index width on an op without an index */
static const rf_variant bad_index_bits = {"argmax/test-index-bits", RF_OP_ARGMAX, 1, 0, "s", "c",
                                          FNS, never_launch, 0, RF_DTYPE_F32, RF_DTYPE_F32, 0,
                                          48};
static const rf_variant sum_index_bits = {"sum/test-index-bits", RF_OP_SUM, 1, 0, "s", "c", FNS,
                                          never_launch, 0, RF_DTYPE_F32, RF_DTYPE_F32, 0, 64};

int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }

const rf_variant *const *rf_plugin_variants(size_t *count) {
  static const rf_variant *list[2];
  const char *d = getenv("RF_TEST_PLUGIN_DEFECT");
  d = d ? d : "";
  list[0] = &ok;
  *count = 2;
  if (strcmp(d, "count-max") == 0) { *count = SIZE_MAX; return list; }
  if (strncmp(d, "plan-", 5) == 0 || strcmp(d, "reason") == 0) { list[1] = &planned; return list; }
  if (strcmp(d, "empty") == 0) { list[1] = &empty_name; return list; }
  if (strcmp(d, "comma") == 0) { list[1] = &with_comma; return list; }
  if (strcmp(d, "null-entry") == 0) { list[1] = NULL; return list; }
  list[1] = strcmp(d, "name") == 0 ? &no_slash : strcmp(d, "op") == 0 ? &op_mismatch
          : strcmp(d, "space") == 0 ? &with_space : strcmp(d, "hash") == 0 ? &with_hash
          : strcmp(d, "newline") == 0 ? &with_newline : strcmp(d, "long") == 0 ? &too_long
          : strcmp(d, "null-launch") == 0 ? &no_launch : strcmp(d, "dtype") == 0 ? &bad_dtype
          : strcmp(d, "contract") == 0 ? &bad_contract
          : strcmp(d, "index-bits") == 0 ? &bad_index_bits
          : strcmp(d, "index-bits-sum") == 0 ? &sum_index_bits
          : strcmp(d, "twice") == 0 ? &ok : &ok2;
  *count = 2;
  return list;
}
