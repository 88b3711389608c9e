/* Every output stream checked: standard output is flushed and tested after each record a
 * long command prints and once more at exit (main), so a full disk (/dev/full), a closed
 * pipe (EPIPE with SIGPIPE ignored) or any other write error ends the command with exit
 * status 2 and no further work, instead of a silent 0 (docs/CLI.md, "Exit status"). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

volatile int rf_cli_out_failed;

int rf_cli_out_check(const char *cmd) {
  if (rf_cli_out_failed) return -1;
  /* A write that failed inside printf left its errno; fflush's own, if it fails, is newer. */
  int saved = errno;
  int bad = fflush(stdout) != 0;
  if (bad) saved = errno;
  if (!bad && !ferror(stdout)) return 0;
  rf_cli_out_failed = 1;
  fprintf(stderr, "redfuzz %s: standard output: write error: %s (the output is incomplete; "
          "stopped)\n", cmd, saved ? strerror(saved) : "an earlier write failed");
  return -1;
}

void rf_cli_line(FILE *f, const char *fmt, ...) {
  char small[1024], *buf = small;
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (len < 0) return;
  if ((size_t)len >= sizeof small) {   /* a long path: the whole line, from the heap */
    buf = malloc((size_t)len + 1);
    if (!buf) { fputs("(a line too long for the memory left)\n", f); return; }
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)len + 1, fmt, ap);
    va_end(ap);
  }
  for (int i = 0; i < len; i++) {
    const unsigned char ch = (unsigned char)buf[i];
    if (ch == '\n' && i == len - 1) fputc('\n', f);
    else if (ch == '\n') fputs("\\n", f);
    else if (ch == '\t') fputs("\\t", f);
    else if (ch == '\r') fputs("\\r", f);
    else if (ch < 0x20 || ch == 0x7f) fprintf(f, "\\x%02x", ch);
    else fputc(ch, f);
  }
  if (buf != small) free(buf);
}

int rf_cli_out_finish(const char *cmd, int rc) {
  return rf_cli_out_check(cmd) ? RF_EXIT_USAGE : rc;
}
