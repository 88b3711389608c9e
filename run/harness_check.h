/* After a harness launch (the device input generator, oracle or judges): whether it failed,
 * and a detail that says why. The simulator's status names what stopped it (its watchdog's
 * timeout, a race or a bounds report in the harness kernel, with the source line); the
 * backend's error is named by rf_dev_error_string. A result's detail without it ("the device
 * softmax judge's launch failed") left a TSan CI failure undiagnosable (stop 43). */
#ifndef RF_HARNESS_CHECK_H
#define RF_HARNESS_CHECK_H
#include <stddef.h>

/* Clears the backend's last error and the simulator's status before a harness launch. */
void rf_harness_check_begin(void);
/* err: the launch's own return. NULL when it and the backend's last error are 0 and the
 * simulator saw nothing; else "WHAT (why)" written into buf (len bytes), returned. */
const char *rf_harness_check_end(int err, const char *what, char *buf, size_t len);
#endif
