/* A plugin whose variant list has the defect named by RF_TEST_PLUGIN_DEFECT (name, op, space,
 * hash, newline, long, null-launch, dtype, contract, twice; anything else: two good variants), so each of the loader's checks is
 * shown to refuse it. Nothing here is ever launched. */
#include <stdlib.h>
#include <string.h>
#include "redfuzz/plugin.h"

static const char *never_configure(rf_launch_cfg *cfg) { (void)cfg; return "never run"; }
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void no_plan(const rf_launch_cfg *cfg, rf_plan *p) { (void)cfg; (void)p; }
static int never_launch(const rf_launch_args *a) { (void)a; return 1; }

#define FNS never_configure, no_scratch, no_plan
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

int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }

const rf_variant *const *rf_plugin_variants(size_t *count) {
  static const rf_variant *list[2];
  const char *d = getenv("RF_TEST_PLUGIN_DEFECT");
  d = d ? d : "";
  list[0] = &ok;
  list[1] = strcmp(d, "name") == 0 ? &no_slash : strcmp(d, "op") == 0 ? &op_mismatch
          : strcmp(d, "space") == 0 ? &with_space : strcmp(d, "hash") == 0 ? &with_hash
          : strcmp(d, "newline") == 0 ? &with_newline : strcmp(d, "long") == 0 ? &too_long
          : strcmp(d, "null-launch") == 0 ? &no_launch : strcmp(d, "dtype") == 0 ? &bad_dtype
          : strcmp(d, "contract") == 0 ? &bad_contract : strcmp(d, "twice") == 0 ? &ok : &ok2;
  *count = 2;
  return list;
}
