/* run/harness_check.h: a harness launch's failure names its cause (the backend's error, or
 * the simulator's status: here its watchdog), and a launch that went well is no failure. */
#include <string.h>
#include "rf_test.h"
#include "run/harness_check.h"
#include "kernels/harness/device.h"
#include "kernels/harness/verdict_device.h"

int main(void) {
  char buf[320];
  const size_t words = (size_t)1 << 22;   /* 16 MiB of guard words */
  void *p = NULL;
  CHECK(rf_dev_alloc(&p, words * 4) == 0);

  /* A launch that goes well: no failure. */
  rf_harness_check_begin();
  int e = rf_vd_guards_launch((uint32_t *)p, 64, 0, 0, 0x5a5a5a5au, NULL);
  CHECK(rf_harness_check_end(e, "the guards' launch failed", buf, sizeof buf) == NULL);

  /* The launch's own error, named. */
  const char *f = rf_harness_check_end(RF_DEV_OUT_OF_MEMORY, "the guards' launch failed", buf,
                                       sizeof buf);
  CHECK(f == buf && strncmp(buf, "the guards' launch failed (", 27) == 0);
  CHECK_MSG(strstr(buf, rf_dev_error_string(RF_DEV_OUT_OF_MEMORY)) != NULL, "%s", buf);

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
  /* A sanitizer build's watchdog stops a launch only at a thread switch (sim/watchdog.cpp),
   * and this kernel has none: its threads run to their end. */
  rf_dev_free(p);
  printf("watchdog check skipped: a sanitizer build\n");
  return rf_test_done();
#endif
  /* The simulator's watchdog ends a launch that cannot finish within 1 ms (2^22 words, one
   * simulated thread each): the detail says so rather than only "failed". Last: after a
   * timeout the device is lost to the process (the buffer is not freed). */
  rf_dev_set_launch_timeout_ms(1);
  rf_harness_check_begin();
  e = rf_vd_guards_launch((uint32_t *)p, words, 0, 0, 0x5a5a5a5au, NULL);
  f = rf_harness_check_end(e, "the guards' launch failed", buf, sizeof buf);
  CHECK_MSG(f != NULL && strstr(buf, "time") != NULL, "%s", f ? f : "(no failure)");
  printf("%s\n", f ? f : "(no failure)");
  return rf_test_done();
}
