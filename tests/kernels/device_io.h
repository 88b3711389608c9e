/* Shared by the C kernel tests of the device oracles and judges: a device allocation that
 * ends the test on failure, and a read-back after a launch. Include after rf_test.h (CHECK)
 * and kernels/harness/device.h. */
#ifndef RF_TESTS_DEVICE_IO_H
#define RF_TESTS_DEVICE_IO_H
#include <stdio.h>
#include <stdlib.h>

static inline void *dev_alloc(size_t bytes) {
  void *p = NULL;
  if (rf_dev_alloc(&p, bytes ? bytes : 1)) {
    fprintf(stderr, "device allocation failed\n");
    exit(2);
  }
  return p;
}

/* After a launch: synchronised, the simulator's status clean, bytes read back. */
static inline void fetch(void *host, const void *dev, size_t bytes) {
  char msg[256];
  CHECK(rf_dev_sync() == 0);
  CHECK_MSG(rf_dev_sim_take_status(msg, sizeof msg) == 0, "simulator: %s", msg);
  CHECK(rf_dev_download(host, dev, bytes) == 0);
}
#endif
