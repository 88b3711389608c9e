#include "harness_check.h"
#include <stdio.h>
#include "kernels/harness/device.h"

void rf_harness_check_begin(void) {
  char msg[8];
  rf_dev_last_error();
  rf_dev_sim_take_status(msg, sizeof msg);
}

const char *rf_harness_check_end(int err, const char *what, char *buf, size_t len) {
  char msg[256] = "";
  if (!err) err = rf_dev_last_error();
  /* Taken even after an error: it is the launch's, and the next check must not see it. */
  const int status = rf_dev_sim_take_status(msg, sizeof msg);
  if (!err && !status) return NULL;
  snprintf(buf, len, "%s (%s)", what, msg[0] ? msg : err ? rf_dev_error_string(err)
                                                          : "the simulator stopped it");
  return buf;
}
