/* Stack limits (stack_limit.h). */
#define _GNU_SOURCE   /* pthread_setattr_default_np */
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include "run/stack_limit.h"

int rf_stack_ensure(char *err, size_t len) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) || rl.rlim_cur == RLIM_INFINITY) return 0;
  const rlim_t want = (rlim_t)RF_STACK_WANT_KIB << 10;
  if (rl.rlim_cur >= want) return 0;
  const rlim_t was = rl.rlim_cur;
  /* The main thread's stack grows on demand up to the soft limit of the moment (the kernel
   * leaves at least 128 MiB below it for that), so raising the limit now is enough for it. */
  rlim_t now = rl.rlim_cur;
  if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > now) {
    struct rlimit up = {rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max,
                        rl.rlim_max};
    if (setrlimit(RLIMIT_STACK, &up) == 0) now = up.rlim_cur;
  }
  if (now != was) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) == 0) {
      if (pthread_attr_setstacksize(&attr, (size_t)now) == 0) pthread_setattr_default_np(&attr);
      pthread_attr_destroy(&attr);
    }
  }
  if (now >= (rlim_t)RF_STACK_MIN_KIB << 10) return 0;
  snprintf(err, len, "the stack limit of %llu KiB (ulimit -s) is too small: redfuzz needs at "
           "least %d KiB (its threads get the same size; its frames hold settings, cases and "
           "MPFR's temporaries), and the hard limit (%llu KiB) does not allow raising it; run "
           "it with ulimit -s %d or more", (unsigned long long)(was >> 10), RF_STACK_MIN_KIB,
           (unsigned long long)(rl.rlim_max >> 10), RF_STACK_WANT_KIB);
  return -1;
}
