/* AddressSanitizer integration: a report raised while a kernel runs becomes the status
 * RF_SIM_OOB naming the kind and the kernel line. It only matters when execution can go on
 * after a report (kernels built with -fsanitize-recover=address, ASAN_OPTIONS=
 * halt_on_error=0); by default ASan aborts right after its report. Compiled to nothing
 * outside the AddressSanitizer build. */
#include "engine.h"

#if defined(RF_ASAN) && RF_ASAN
#include <stdio.h>
#include <string.h>
#include "status.h"

extern "C" void __asan_set_error_report_callback(void (*callback)(const char *));

namespace rf_sim {
namespace {

/* Copies the text after `key` up to a space or newline. */
void word_after(const char *text, const char *key, char *out, size_t len) {
  out[0] = '\0';
  const char *p = strstr(text, key);
  if (!p) return;
  p += strlen(key);
  size_t n = 0;
  while (p[n] && p[n] != ' ' && p[n] != '\n' && n + 1 < len) {
    out[n] = p[n];
    n++;
  }
  out[n] = '\0';
}

/* "file:line" of frame #0: the last word of its line, without the column. */
void first_frame(const char *text, char *out, size_t len) {
  out[0] = '\0';
  const char *p = strstr(text, "    #0 ");
  if (!p) return;
  const char *end = strchr(p, '\n');
  if (!end) end = p + strlen(p);
  const char *word = end;
  while (word > p && word[-1] != ' ') word--;
  char loc[512];
  size_t n = static_cast<size_t>(end - word) < sizeof loc - 1 ? static_cast<size_t>(end - word)
                                                              : sizeof loc - 1;
  memcpy(loc, word, n);
  loc[n] = '\0';
  char *last = strrchr(loc, ':');
  if (last && strchr(loc, ':') != last) *last = '\0';  // file:line:column -> file:line
  snprintf(out, len, "%s", short_path(loc));
}

void on_asan_report(const char *report) {
  Engine &e = engine();
  Fiber *cur = e.current.get();
  if (!e.in_launch || !cur || cur == &e.host) return;
  char kind[64], where[256];
  word_after(report, "AddressSanitizer: ", kind, sizeof kind);
  first_frame(report, where, sizeof where);
  const ThreadView &v = cur->view;
  char text[480];
  snprintf(text, sizeof text, "oob: %s at %s (block (%u,%u,%u) thread (%u,%u,%u))", kind, where,
           v.block_idx.x, v.block_idx.y, v.block_idx.z, v.thread_idx.x, v.thread_idx.y,
           v.thread_idx.z);
  status_report_text(RF_SIM_OOB, text);
}

}  // namespace

void install_oob_reporting() {
  static bool installed;
  if (installed) return;
  installed = true;
  __asan_set_error_report_callback(on_asan_report);
}

}  // namespace rf_sim
#else
void rf_sim::install_oob_reporting() {}
#endif
