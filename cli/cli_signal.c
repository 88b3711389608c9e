/* Ctrl-C and SIGTERM: the handler only sets flags (async-signal-safe); long commands check
 * them between cases, so no line is half-written and a partial summary still comes out. The
 * device layer's flag (rf_dev_interrupt) ends the case now running as well: the simulator's
 * watchdog stops the launch at its next tick, a kernel spinning without a barrier included,
 * and a GPU's wait returns; so one signal stops any command within a second or so, wherever
 * it is (issue 47), and the case it cut short is left out of the results. */
#include <signal.h>
#include <string.h>
#include "cli.h"
#include "kernels/harness/device.h"

volatile sig_atomic_t rf_cli_interrupted;

static void on_signal(int sig) {
  rf_cli_interrupted = sig;
  rf_dev_interrupt();
}

void rf_cli_catch_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  /* A second Ctrl-C ends the process at once, for a case that takes too long. */
  /* SA_RESTART: no write cut short by EINTR. It also restarts a blocking open() or read()
   * after the handler, so the flag would never be seen while one blocks: that is how a FIFO
   * in a regressions folder once made replay ignore the SIGTERM of `timeout`. So nothing
   * that reads input may block: rf_cli_read_file opens with O_NONBLOCK and refuses FIFOs. */
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}
