/* One variant's launch for one case, resolved (launch_prep.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "run/launch_prep.h"
#include "run/backend.h"
#include "run/case_outputs.h"
#include "run/contain.h"
#include "model/dtype.h"
#include "kernels/plugin_loader.h"

/* The simulator runs every GPU thread as a fiber: a launch of many millions of (mostly idle)
 * threads would take minutes and end as a timeout that says nothing about the kernel. The cap
 * is REDFUZZ_SIM_MAX_THREADS; its default, 2^22, is the largest launch of a row variant past
 * its grid cap at one wave a block (65535 x 64: seconds, the fuzzer's short-rows class,
 * run/fuzz_select.h); a huge run raises it to reach n. */
#define SIM_MAX_THREADS_DEFAULT (UINT64_C(1) << 22)
static uint64_t g_sim_max_threads = SIM_MAX_THREADS_DEFAULT;

void rf_launch_set_sim_max_threads(uint64_t threads) {
  g_sim_max_threads = threads ? threads : SIM_MAX_THREADS_DEFAULT;
}
#define MAX_SCRATCH_BYTES RF_LAUNCH_MAX_SCRATCH_BYTES

int rf_launch_prepare(const rf_variant *v, const rf_case *c, const rf_device_info *dev,
                      rf_launch_cfg *cfg, rf_plan *plan, size_t *scratch, rf_result *res) {
  *cfg = (rf_launch_cfg){
    .n = c->n, .rows = c->rows, .cols = c->cols, .block = c->block, .grid = c->grid,
    .items = c->items, .num_cus = dev->num_cus,
    .wave = rf_backend.is_sim ? c->wave : dev->wave,
  };
  /* A 32-bit argmax index (rf_argmax_out: index_bits 0 or 32, variant.h) cannot hold an
   * index past 2^31 - 1: the variant is not run there, whatever its configure says (a plugin
   * of ABI 4 or older never said). */
  if (rf_op_shape_of(c->op).pair && c->n > rf_argmax_max_n(v->index_bits)) {
    res->verdict = RF_V_UNSUPPORTED;
    snprintf(res->detail, sizeof res->detail, "writes a 32-bit index (index_bits %u): n %llu is "
             "past 2^31-1", (unsigned)v->index_bits, (unsigned long long)c->n);
    return -1;
  }
  /* The variant's own code from here: contained (run/contain.h), an exit or a fault in it is
   * its `crash`, naming the function. */
  const char *why = NULL;
  if (rf_contained_configure(v, cfg, &why, res->detail, sizeof res->detail)) {
    res->verdict = RF_V_CRASH;
    return -1;
  }
  if (why) {
    res->verdict = RF_V_UNSUPPORTED;
    rf_text_escape(why, res->detail, sizeof res->detail);   /* a plugin's text: one safe line */
    return -1;
  }
  if (rf_backend.is_sim && (uint64_t)cfg->grid * cfg->block > g_sim_max_threads) {
    res->verdict = RF_V_UNSUPPORTED;
    snprintf(res->detail, sizeof res->detail,
             "grid %u x block %u is more than the simulator runs (at most %llu threads a launch; "
             "REDFUZZ_SIM_MAX_THREADS)", cfg->grid, cfg->block,
             (unsigned long long)g_sim_max_threads);
    return -1;
  }
  if (rf_contained_scratch_bytes(v, cfg, scratch, res->detail, sizeof res->detail)) {
    res->verdict = RF_V_CRASH;
    return -1;
  }
  /* A launch whose scratch alone is gigabytes (grid 2^31 with a partial per block) would need
   * as much poisoned host memory: refuse it, as the variant refuses what it cannot run. */
  if (*scratch > MAX_SCRATCH_BYTES) {
    res->verdict = RF_V_UNSUPPORTED;
    snprintf(res->detail, sizeof res->detail,
             "scratch of %zu bytes for grid %u is more than the runner provides (at most %u MiB "
             "a launch)", *scratch, cfg->grid, (unsigned)(MAX_SCRATCH_BYTES >> 20));
    return -1;
  }
  if (rf_contained_plan(v, cfg, plan, res->detail, sizeof res->detail)) {
    res->verdict = RF_V_CRASH;
    return -1;
  }
  /* A plan that breaks the rules (a plugin's bug) gives no bound: the variant is not launched
   * and its result says which rule it broke, instead of a verdict judged against nonsense
   * (an infinite bound would let every result pass). */
  char broken[160];
  if (rf_plan_check(plan, broken, sizeof broken)) {
    const char *lib = rf_plugin_of(v);
    res->verdict = RF_V_LAUNCH_ERROR;
    snprintf(res->detail, sizeof res->detail, "not launched: %s%s%s%s's plan breaks the plan "
             "contract (include/redfuzz/plugin.h, PLAN LEVELS): %s", lib ? "plugin " : "",
             lib ? lib : "", lib ? ": variant " : "", v->name, broken);
    snprintf(res->plan, sizeof res->plan, "invalid");
    return -1;
  }
  rf_plan_format(plan, res->plan, sizeof res->plan);
  res->depth = rf_plan_depth(plan);
  return 0;
}

rf_verdict rf_launch_status_verdict(int st) {
  return st == RF_DEV_STATUS_DIVERGENT_BARRIER ? RF_V_DIVERGENT_BARRIER
       : st == RF_DEV_STATUS_RACE ? RF_V_RACE
       : st == RF_DEV_STATUS_TIMEOUT ? RF_V_TIMEOUT
       : st == RF_DEV_STATUS_OOB ? RF_V_OOB
       : st == RF_DEV_STATUS_CRASH ? RF_V_CRASH
       : st == RF_DEV_STATUS_LAUNCH_CONTRACT ? RF_V_LAUNCH_CONTRACT
       : st == RF_DEV_STATUS_INPUT_WRITTEN ? RF_V_INPUT_WRITTEN : RF_V_LAUNCH_ERROR;
}
