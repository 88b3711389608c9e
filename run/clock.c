/* The runner's clock (clock.h). */
#include <time.h>
#include "clock.h"

double rf_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
