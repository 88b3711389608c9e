/* redfuzz run: one case, every correct variant of its op (or the one named), a verdict table. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run/report.h"
#define RF_FLAGS_DEF "flags_run.def"
#include "flags_table.h"

_Static_assert((int)F_SHAPE == (int)CF_SHAPE, "flags_run.def must start with the case flags");

static const char help[] =
  "usage: redfuzz run [options]\n"
  "\n"
  "Runs every correct variant of the case's op (mutants with --mutants; or only --variant) on\n"
  "the build's backend and prints one row per variant: verdict, error against the exact\n"
  "oracle, the derived bound, error/bound, time and the variant's plan (its combining tree,\n"
  "from which the bound follows). Unset fields take the defaults of a text case.\n"
  "Ops: sum, max, argmax, min, argmin (--n) and the row ops softmax, logsumexp, logsoftmax\n"
  "(--shape).\n"
  "A failure's detail says what differs (argmax: both indices and values) and, where the\n"
  "variant's contract decides it (signed zero, NaN, ties: `redfuzz list`), which rule.\n"
  "\n";
static const char help_tail[] =
  "\nExit status: 0 every variant passed (or is unsupported), 1 a failure verdict, 2 bad usage\n"
  "or input.\n";

static int not_mutant(const rf_variant *v, void *ctx) { (void)ctx; return !v->is_mutant; }

int rf_cmd_run(int argc, char **argv) {
  rf_flag_val val[RF_FLAG_COUNT];
  int p = rf_flags_parse("run", rf_flags, RF_FLAG_COUNT, argc, argv, val, NULL, 0, NULL, help,
                         help_tail);
  if (p > 0) {   /* the defaults come from the case schema, not from the flag table */
    rf_case d;
    rf_case_default(&d);
    printf("Defaults (a case flag not given, a key missing from a text case): ");
    rf_report_case_line(stdout, &d);
    printf("(a row op, softmax, logsumexp or logsoftmax, without --shape: 4x33)\n");
  }
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  rf_runner *r = rf_cli_runner("run");
  if (!r) { rf_flags_free(val, RF_FLAG_COUNT); return RF_EXIT_FAIL; }
  rf_runner_set_serial(r, 1);   /* one case: per-variant times are worth a synchronisation */
  rf_limits lim = rf_runner_limits(r);
  rf_case c;
  int rc = rf_cli_case_build("run", rf_flags, val, &lim, &c);
  int json = val[F_JSON].given != 0;
  /* --variant (or a case file's variant=) runs the one variant named: with a correct one,
   * --mutants would add none (refused, never ignored); with a mutant it says what the name
   * says. */
  const rf_variant *named = c.variant[0] ? rf_variant_find(c.variant) : NULL;
  if (!rc && val[F_MUTANTS].given && named && !named->is_mutant) {
    fprintf(stderr, "redfuzz run: --mutants does nothing with the variant %s named (--variant, "
            "or the case's variant=), which runs alone and is no mutant (allowed: one of "
            "them)\n", c.variant);
    rc = -1;
  }
  /* Mutants fail by design: they run only when asked for, as in sweep. */
  if (!val[F_MUTANTS].given && !c.variant[0]) rf_runner_set_filter(r, not_mutant, NULL);
  rf_flags_free(val, RF_FLAG_COUNT);
  if (rc) { rf_runner_destroy(r); return RF_EXIT_USAGE; }

  /* Room for every variant of the registry (plugins included): a case never runs more. */
  const size_t max = rf_variant_count();
  rf_result *res = calloc(max ? max : 1, sizeof *res);
  char err[512];
  rf_cli_catch_signals();
  int n = res ? rf_runner_run(r, &c, res, max, err, sizeof err) : -1;
  if (rf_cli_interrupted) {   /* the case was cut short: none of its results is a verdict */
    fprintf(stderr, "redfuzz run: interrupted (signal %d) before the case finished: no result\n",
            (int)rf_cli_interrupted);
    free(res);
    rf_runner_destroy(r);
    return 128 + (int)rf_cli_interrupted;
  }
  if (!res) snprintf(err, sizeof err, "out of host memory for %zu results", max);
  if (n < 0) {
    fprintf(stderr, "redfuzz run: %s\n", err);
    free(res);
    rf_runner_destroy(r);
    return RF_EXIT_USAGE;
  }
  int failed = 0;
  for (int i = 0; i < n; i++) failed |= rf_verdict_is_failure(res[i].verdict);
  if (json) {
    rf_report_json(stdout, &c, res, (size_t)n);
  } else {
    const rf_device_info *d = rf_runner_device(r);
    printf("device: %s (%s backend, wave %u, %u CUs)\ncase:   ", d->name, d->backend, d->wave,
           d->num_cus);
    rf_report_case_line(stdout, &c);
    rf_report_table(stdout, &c, res, (size_t)n);
    if (n == 0) printf("(no variant matches)\n");
  }
  free(res);
  rf_runner_destroy(r);
  return failed ? RF_EXIT_FAIL : RF_EXIT_OK;
}
