/* redfuzz list: the variants, their plans (for a given size) and constraints. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "report.h"

static const char help[] =
  "usage: redfuzz list [--op OP] [--n N | --rows R --cols C] [--block B] [--wave W] [--json]\n"
  "\n"
  "Lists every variant (mutants are marked) with whether it is deterministic, its launch\n"
  "constraints, and its plan — the combining tree whose longest addition chain h gives the\n"
  "error bound — resolved for the given size (default n = 1048576, softmax 4096x1024) and\n"
  "the variant's default launch parameters.\n";

int rf_cmd_list(int argc, char **argv) {
  int json = 0, have_op = 0;
  rf_op op = RF_OP_SUM;
  rf_launch_cfg base = {.n = 1u << 20, .rows = 4096, .cols = 1024, .wave = 32, .num_cus = 64};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(help, stdout); return 0; }
    if (strcmp(a, "--json") == 0) { json = 1; continue; }
    if (i + 1 >= argc) {
      fprintf(stderr, "redfuzz list: unknown option or missing value: '%s'\n", a);
      return RF_EXIT_USAGE;
    }
    const char *v = argv[++i];
    char *end;
    unsigned long long u = strtoull(v, &end, 0);
    int num = *v && *v != '-' && !*end;
    if (strcmp(a, "--op") == 0) {
      if (rf_op_parse(v, &op)) {
        fprintf(stderr, "redfuzz list: --op: '%s' is not valid (allowed: sum, max, argmax, softmax)\n", v);
        return RF_EXIT_USAGE;
      }
      have_op = 1;
    } else if (!num) {
      fprintf(stderr, "redfuzz list: %s: '%s' is not valid (allowed: a non-negative integer)\n", a, v);
      return RF_EXIT_USAGE;
    } else if (strcmp(a, "--n") == 0) base.n = u;
    else if (strcmp(a, "--rows") == 0) base.rows = (uint32_t)u;
    else if (strcmp(a, "--cols") == 0) base.cols = (uint32_t)u;
    else if (strcmp(a, "--block") == 0) base.block = (uint32_t)u;
    else if (strcmp(a, "--wave") == 0) base.wave = (uint32_t)u;
    else {
      fprintf(stderr, "redfuzz list: unknown option '%s' (see redfuzz list --help)\n", a);
      return RF_EXIT_USAGE;
    }
  }
  if (!json)
    printf("%-28s %-5s %-6s %s\n", "variant", "det", "mutant", "plan at the given size | constraints");
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (have_op && v->op != op) continue;
    rf_launch_cfg cfg = base;
    if (v->op != RF_OP_SOFTMAX) cfg.rows = cfg.cols = 0;
    else cfg.n = 0;
    char plan[160] = "";
    const char *why = v->configure(&cfg);
    if (!why) {
      rf_plan p = {0};
      v->plan(&cfg, &p);
      rf_plan_format(&p, plan, sizeof plan);
    }
    if (json) {
      printf("{\"variant\":");
      rf_json_string(stdout, v->name);
      printf(",\"op\":\"%s\",\"deterministic\":%s,\"mutant\":%s,\"block\":%u,\"grid\":%u,\"plan\":",
             rf_op_name(v->op), v->deterministic ? "true" : "false",
             v->is_mutant ? "true" : "false", cfg.block, cfg.grid);
      rf_json_string(stdout, why ? "" : plan);
      printf(",\"unsupported\":");
      rf_json_string(stdout, why ? why : "");
      printf(",\"summary\":");
      rf_json_string(stdout, v->summary);
      printf(",\"constraints\":");
      rf_json_string(stdout, v->constraints);
      printf(",\"fuzz_max_n\":%llu}\n", (unsigned long long)v->fuzz_max_n);
    } else {
      printf("%-28s %-5s %-6s %s\n", v->name, v->deterministic ? "yes" : "no",
             v->is_mutant ? "yes" : "", why ? why : plan);
      printf("%-28s %-5s %-6s block %u grid %u | %s\n", "", "", "", cfg.block, cfg.grid,
             v->constraints);
      printf("%-28s %-5s %-6s %s\n", "", "", "", v->summary);
      if (v->fuzz_max_n)
        printf("%-28s %-5s %-6s fuzzed only up to %llu elements (slow beyond); swept at every size\n",
               "", "", "", (unsigned long long)v->fuzz_max_n);
    }
  }
  return 0;
}
