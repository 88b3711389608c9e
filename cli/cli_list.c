/* redfuzz list: the variants, their plans (for a given size) and constraints. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run/case_outputs.h"
#include "kernels/huge_mutants.h"
#include "model/dtype.h"
#include "run/report.h"
#include "run/contain.h"

#define RF_FLAGS_DEF "flags_list.def"
#include "flags_table.h"
#include "kernels/harness/device.h"

static const char help[] =
  "usage: redfuzz list [options]\n"
  "\n"
  "Lists every variant (mutants are marked) with whether it is deterministic, its launch\n"
  "constraints, and its plan — the combining tree whose longest addition chain h gives the\n"
  "error bound — resolved for the given size and the variant's default launch parameters.\n"
  "A variant that reads f16 or bf16 says so: it runs only on cases of that dtype.\n"
  "Each 1-D variant and each softmax shows its contract (include/redfuzz/plugin.h,\n"
  "docs/ORACLE.md): sum signed-zero (a sum of only -0 must be -0) or any-zero (either zero);\n"
  "max, argmax, min and argmin nan-ignored (as fmaxf) or nan-propagates (as torch.max); argmax\n"
  "and argmin tie-first or tie-any; softmax masked-row-nan (a row of only -inf gives NaN, as\n"
  "torch.softmax) or masked-row-zero (it gives 0s, as attention kernels).\n"
  "A variant whose configure or plan crashes (exits, aborts or faults: plugin code) shows\n"
  "'crash: ...' as its plan, and the exit status is 1.\n"
  "\n";

/* The CU count plans and default grids are shown for: the device's (the simulator always has
 * one), else 64, said in the header (a GPU build on a machine without its GPU). */
static int list_cus_assumed;
static unsigned list_cus(void) {
  char msg[256];
  rf_device_info d;
  if (!rf_dev_require(msg, sizeof msg) && !rf_dev_info(&d) && d.num_cus) return d.num_cus;
  list_cus_assumed = 1;
  return 64;
}

int rf_cmd_list(int argc, char **argv) {
  rf_flag_val val[RF_FLAG_COUNT];
  int p = rf_flags_parse("list", rf_flags, RF_FLAG_COUNT, argc, argv, val, NULL, 0, NULL, help,
                         NULL);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  if (val[F_DISTS].given) {
    /* --dists lists the distributions instead of the variants: every other flag would do
     * nothing (refused, never ignored). */
    for (size_t f = 0; f < RF_FLAG_COUNT; f++)
      if (f != F_DISTS && val[f].given) {
        fprintf(stderr, "redfuzz list: %s does nothing with --dists, which lists the "
                "distributions only (allowed: --dists alone, or %s without it)\n",
                rf_flags[f].name, rf_flags[f].name);
        rf_flags_free(val, RF_FLAG_COUNT);
        return RF_EXIT_USAGE;
      }
    rf_flags_free(val, RF_FLAG_COUNT);
    for (unsigned d = 0; d < RF_DIST_COUNT; d++)
      printf("%-16s %s\n", rf_dist_name((rf_dist)d), rf_dist_meaning((rf_dist)d));
    return 0;
  }
  int json = val[F_JSON].given != 0, have_op = val[F_OP].given != 0;
  const int have_dtype = val[F_DTYPE].given != 0;
  const rf_op op = (rf_op)val[F_OP].num;
  const rf_dtype dtype = (rf_dtype)val[F_DTYPE].num;
  rf_launch_cfg base = {.n = val[F_N].num, .rows = (uint32_t)val[F_SHAPE].list[0],
                        .cols = (uint32_t)val[F_SHAPE].list[1], .block = (uint32_t)val[F_BLOCK].num,
                        .wave = (uint32_t)val[F_WAVE].num, .num_cus = list_cus()};
  rf_flags_free(val, RF_FLAG_COUNT);
  if (have_op && rf_op_has_rows(op) && val[F_N].given) {
    char ops1[128];   /* the 1-D ops, from the op table */
    rf_flag_error("list", &rf_flags[F_N], val[F_N].text, "applies to %s only (allowed for %s: "
                  "--shape RxC)", rf_op_list_of(0, " and ", ops1, sizeof ops1), rf_op_name(op));
    return RF_EXIT_USAGE;
  }
  if (have_op && !rf_op_has_rows(op) && val[F_SHAPE].given) {
    rf_flag_error("list", &rf_flags[F_SHAPE], val[F_SHAPE].text, "applies to softmax, logsumexp "
                  "and logsoftmax only "
                  "(allowed for %s: --n N)", rf_op_name(op));
    return RF_EXIT_USAGE;
  }
  if (!json)
    printf("%-28s %-5s %-6s plan at the given size (%u CUs%s) | constraints\n", "variant", "det",
           "mutant", base.num_cus, list_cus_assumed ? " assumed: no device" : "");
  int crashed = 0;   /* a variant's configure or plan crashed: exit 1 */
  for (size_t i = 0; i < rf_variant_count() && !rf_cli_out_check("list"); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (have_op && v->op != op) continue;
    if (have_dtype && v->in_dtype != dtype) continue;
    rf_launch_cfg cfg = base;
    if (!rf_op_has_rows(v->op)) cfg.rows = cfg.cols = 0;
    else cfg.n = 0;
    char plan[160] = "";
    char reason[160];   /* a plugin's text: escaped to one safe line */
    const char *why = NULL;
    rf_plan pl = {0};
    char ended[140];   /* the variant's code ended the call: its crash (run/contain.h) */
    if (rf_contained_configure(v, &cfg, &why, ended, sizeof ended) ||
        (!why && rf_contained_plan(v, &cfg, &pl, ended, sizeof ended))) {
      snprintf(plan, sizeof plan, "crash: %s", ended);
      why = NULL;
      crashed = 1;
    } else if (why) {
      rf_text_escape(why, reason, sizeof reason);
      why = reason;
    } else {
      char bad[120];
      if (rf_plan_check(&pl, bad, sizeof bad))   /* a plugin's bug: say which rule */
        snprintf(plan, sizeof plan, "invalid plan: %s", bad);
      else
        rf_plan_format(&pl, plan, sizeof plan);
    }
    char contract[64];
    rf_contract_describe(v->op, v->contract, contract, sizeof contract);
    if (json) {
      printf("{\"variant\":");
      rf_json_string(stdout, v->name);
      printf(",\"op\":\"%s\",\"deterministic\":%s,\"mutant\":%s,\"huge_only\":%s,\"block\":%u,"
             "\"grid\":%u,\"plan\":", rf_op_name(v->op), v->deterministic ? "true" : "false",
             v->is_mutant ? "true" : "false", rf_variant_huge_only(v) ? "true" : "false",
             cfg.block, cfg.grid);
      rf_json_string(stdout, why ? "" : plan);
      printf(",\"unsupported\":");
      rf_json_string(stdout, why ? why : "");
      printf(",\"summary\":");
      rf_json_string(stdout, v->summary);
      printf(",\"constraints\":");
      rf_json_string(stdout, v->constraints);
      printf(",\"fuzz_max_n\":%llu,\"in_dtype\":\"%s\",\"out_dtype\":\"%s\",\"contract\":",
             (unsigned long long)v->fuzz_max_n, rf_dtype_name(v->in_dtype),
             rf_dtype_name(v->out_dtype));
      rf_json_string(stdout, contract);
      /* argmax, argmin: the index width the output holds (32 for 0: rf_argmax_out) */
      if (rf_op_shape_of(v->op).pair) printf(",\"index_bits\":%u", v->index_bits == 64 ? 64u : 32u);
      printf("}\n");
    } else {
      printf("%-28s %-5s %-6s %s\n", v->name, v->deterministic ? "yes" : "no",
             v->is_mutant ? "yes" : "", why ? why : plan);
      printf("%-28s %-5s %-6s block %u grid %u | %s\n", "", "", "", cfg.block, cfg.grid,
             v->constraints);
      printf("%-28s %-5s %-6s %s\n", "", "", "", v->summary);
      if (v->in_dtype != RF_DTYPE_F32 || v->out_dtype != RF_DTYPE_F32)
        printf("%-28s %-5s %-6s reads %s, writes %s: runs on dtype=%s cases only\n", "", "", "",
               rf_dtype_name(v->in_dtype), rf_dtype_name(v->out_dtype),
               rf_dtype_name(v->in_dtype));
      if (contract[0]) printf("%-28s %-5s %-6s contract: %s\n", "", "", "", contract);
      if (rf_op_shape_of(v->op).pair)
        printf("%-28s %-5s %-6s %s\n", "", "", "",
               v->index_bits == 64 ? "index: 64-bit (rf_argmax_out64), any n"
                                   : "index: 32-bit (rf_argmax_out), n up to 2^31-1");
      if (v->fuzz_max_n)
        printf("%-28s %-5s %-6s fuzzed only up to %llu elements (slow beyond); swept at every size\n",
               "", "", "", (unsigned long long)v->fuzz_max_n);
    }
  }
  return crashed ? RF_EXIT_FAIL : RF_EXIT_OK;
}
