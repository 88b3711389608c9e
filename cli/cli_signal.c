/* Ctrl-C and SIGTERM: the handler only sets a flag (async-signal-safe); long commands check
 * it between cases, so no line is half-written and a partial summary still comes out. */
#include <signal.h>
#include <string.h>
#include "cli.h"

volatile sig_atomic_t rf_cli_interrupted;

static void on_signal(int sig) { rf_cli_interrupted = sig; }

void rf_cli_catch_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  /* A second Ctrl-C ends the process at once, for a case that takes too long. */
  sa.sa_flags = SA_RESETHAND | SA_RESTART;   /* SA_RESTART: no write cut short by EINTR */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}
