/* Every output stream checked: standard output is flushed and tested after each record a
 * long command prints and once more at exit (main), so a full disk (/dev/full), a closed
 * pipe (EPIPE with SIGPIPE ignored) or any other write error ends the command with exit
 * status 2 and no further work, instead of a silent 0 (docs/CLI.md, "Exit status"). */
#include <errno.h>
#include <string.h>
#include "cli.h"

volatile int rf_cli_out_failed;

int rf_cli_out_check(const char *cmd) {
  if (rf_cli_out_failed) return -1;
  /* A write that failed inside printf left its errno; fflush's own, if it fails, is newer. */
  int saved = errno;
  int bad = fflush(stdout) != 0;
  if (bad) saved = errno;
  if (!bad && !ferror(stdout)) return 0;
  rf_cli_out_failed = 1;
  fprintf(stderr, "redfuzz %s: standard output: write error: %s (the output is incomplete; "
          "stopped)\n", cmd, saved ? strerror(saved) : "an earlier write failed");
  return -1;
}

int rf_cli_out_finish(const char *cmd, int rc) {
  return rf_cli_out_check(cmd) ? RF_EXIT_USAGE : rc;
}
