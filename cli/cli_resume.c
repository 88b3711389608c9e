/* Fault and resume, for commands that run numbered units (a sweep's cases, a replay's files)
 * in worker processes (cli_worker.c): a GPU fault leaves the device unusable for the rest of
 * the worker's process (kernels/harness/device.h), so the worker records where it stood in memory
 * shared with the parent and ends; a new worker goes on from there. One protocol for every
 * such command:
 *   - a fault found at a batched synchronisation names no variant: the new worker re-runs the
 *     units of that batch one launch per synchronisation (rf_cli_resume_serial);
 *   - a fault found in serial mode names its variant: that variant's `crash` result is kept
 *     for the unit, and the new worker runs the unit's other variants (rf_cli_resume_keeps,
 *     rf_cli_resume_take) and goes on;
 *   - a device lost in serial mode with no variant to name (a copy or an allocation failed):
 *     the unit is counted as an error and the new worker goes on after it. */
#include <unistd.h>
#include "cli.h"
#include "run/backend.h"

void rf_cli_resume_init(rf_cli_resume *rs) {
  /* GPUs: a worker process, since a kernel's fault ends the process's use of the device. */
  rs->supervised = !rf_backend.is_sim || rf_cli_settings.sim_fault_loses_device;
}

int rf_cli_resume_serial(const rf_cli_resume *rs, long unit) {
  return unit < rs->serial_until || rf_cli_settings.serial;
}

int rf_cli_resume_keeps(const rf_cli_resume *rs, const rf_variant *v) {
  for (int i = 0; i < rs->n_crashed; i++)
    if (rs->crashed[i].variant == v) return 0;
  return 1;
}

int rf_cli_resume_pending(const rf_cli_resume *rs, long unit) {
  return rs->n_crashed && unit == rs->next;
}

int rf_cli_resume_take(rf_cli_resume *rs, rf_result *res, int n) {
  for (int i = 0; i < rs->n_crashed; i++) res[n++] = rs->crashed[i];
  rs->n_crashed = 0;
  return n;
}

void rf_cli_resume_lost(rf_cli_resume *rs, const rf_runner *r, const char *cmd,
                        const char *unit_name, long unit, long batch_end, int serial,
                        const rf_result *res, int n) {
  const rf_variant *lv = rf_runner_lost(r, NULL);
  rs->faults++;
  rs->next = unit;
  if (lv && rs->n_crashed < RF_CLI_RESUME_MAX_CRASHED) {
    for (int i = 0; i < n && rs->n_crashed < RF_CLI_RESUME_MAX_CRASHED; i++)
      if (res[i].variant == lv) rs->crashed[rs->n_crashed++] = res[i];
    fprintf(stderr, "%s: %s faulted on the device; a new worker process runs the %s's other "
            "variants and goes on\n", cmd, lv->name, unit_name);
  } else if (serial) {
    fprintf(stderr, "redfuzz %s: the device was lost outside any kernel on a %s; it is counted "
            "as an error and a new worker process goes on\n", cmd, unit_name);
    rs->errors++;
    rs->next = unit + 1;
    rs->n_crashed = 0;
  } else {
    rs->serial_until = batch_end;
    fprintf(stderr, "%s: a kernel faulted in a batch of %ld %ss; a new worker process re-runs "
            "them one launch at a time to name it\n", cmd, batch_end - unit, unit_name);
  }
  fflush(stdout);
  fflush(stderr);
  _exit(RF_EXIT_RESTART);
}

int rf_cli_resume_run(const char *cmd, rf_cli_resume *rs, int (*work)(void *ctx),
                      void (*summary)(void *ctx, int interrupted), void *ctx) {
  if (!rs->supervised) return work(ctx);
  int rc = rf_cli_supervise(cmd, work, ctx, &rs->restarts);
  if (rc >= 0) return rc;
  /* The worker died of a signal (or none started): the summary still comes. */
  int sig = -rc;
  if (rc != -1) fprintf(stderr, "redfuzz %s: the worker process died of signal %d\n", cmd, sig);
  int stop = sig == SIGINT || sig == SIGTERM;
  summary(ctx, stop ? sig : 0);
  return stop ? 128 + sig : RF_EXIT_FAIL;
}
