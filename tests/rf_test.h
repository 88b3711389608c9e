/* Minimal test support: CHECK records a failure and goes on; rf_test_done prints
 * "N passed, N failed" and gives the exit status. One executable per test file. */
#ifndef RF_TEST_H
#define RF_TEST_H
#include <stdio.h>

static int rf_test_pass_, rf_test_fail_;

#define CHECK(cond) do { \
    if (cond) { rf_test_pass_++; } \
    else { rf_test_fail_++; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } \
  } while (0)
#define CHECK_MSG(cond, ...) do { \
    if (cond) { rf_test_pass_++; } \
    else { rf_test_fail_++; fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
           fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
  } while (0)

static inline int rf_test_done(void) {
  printf("%d passed, %d failed\n", rf_test_pass_, rf_test_fail_);
  return rf_test_fail_ ? 1 : 0;
}
#endif
