/* redfuzz run: one case, every variant of its op, a verdict table. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run/report.h"

static const char help[] =
  "usage: redfuzz run [case flags] [--json]\n"
  "\n"
  "Runs every variant of the case's op (or --variant) on the build's backend and prints one\n"
  "row per variant: verdict, error against the exact oracle, the derived bound, error/bound,\n"
  "time and the variant's plan (its combining tree, from which the bound follows).\n"
  "\n"
  "  --json             one JSON object per variant instead of the table\n"
  "\n";

int rf_cmd_run(int argc, char **argv) {
  rf_cli_case cc;
  rf_cli_case_init(&cc);
  int json = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(help, stdout);
      fputs(RF_CLI_CASE_FLAGS_HELP, stdout);
      return RF_EXIT_OK;
    }
    if (strcmp(argv[i], "--json") == 0) { json = 1; continue; }
    int k = rf_cli_case_flag("run", argc, argv, &i, &cc);
    if (k < 0) return RF_EXIT_USAGE;
    if (k == 0) {
      fprintf(stderr, "redfuzz run: unknown option '%s' (see redfuzz run --help)\n", argv[i]);
      return RF_EXIT_USAGE;
    }
  }
  rf_runner *r = rf_cli_runner("run");
  if (!r) return RF_EXIT_FAIL;
  rf_runner_set_serial(r, 1);   /* one case: per-variant times are worth a synchronisation */
  rf_limits lim = rf_runner_limits(r);
  if (rf_cli_case_finish("run", &cc, &lim)) { rf_runner_destroy(r); return RF_EXIT_USAGE; }

  rf_result res[64];
  char err[512];
  int n = rf_runner_run(r, &cc.c, res, 64, err, sizeof err);
  if (n < 0) {
    fprintf(stderr, "redfuzz run: %s\n", err);
    rf_runner_destroy(r);
    return RF_EXIT_USAGE;
  }
  int failed = 0;
  for (int i = 0; i < n; i++) failed |= rf_verdict_is_failure(res[i].verdict);
  if (json) {
    rf_report_json(stdout, &cc.c, res, (size_t)n);
  } else {
    const rf_device_info *d = rf_runner_device(r);
    printf("device: %s (%s backend, wave %u, %u CUs)\ncase:   ", d->name, d->backend, d->wave,
           d->num_cus);
    rf_report_case_line(stdout, &cc.c);
    rf_report_table(stdout, &cc.c, res, (size_t)n);
    if (n == 0) printf("(no variant matches)\n");
  }
  rf_runner_destroy(r);
  return failed ? RF_EXIT_FAIL : RF_EXIT_OK;
}
