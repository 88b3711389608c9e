#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include "oom.h"

_Noreturn void rf_oom_exit(const char *what, size_t bytes) {
  /* No stdio buffer of its own (none may be had): one write(2) of a line built on the stack. */
  char line[320];
  int n = snprintf(line, sizeof line,
                   "redfuzz: out of memory: %s (%zu bytes; allow the process more memory "
                   "(ulimit -v) or run a smaller case)\n",
                   what, bytes);
  fflush(stdout);
  if (n > 0) {
    ssize_t w = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
  }
  _exit(2);
}
