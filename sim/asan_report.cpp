/* AddressSanitizer integration: a report raised while a kernel runs becomes the status
 * RF_SIM_OOB naming the kind and the kernel line, and ends the launch (as the plain build's
 * guard-page fault does, faults.cpp), so a sweep or campaign gets a verdict and goes on.
 * That needs kernels built recoverable (-fsanitize-recover=address: rf_hip_sources adds it
 * in this build) and halt_on_error=0 (the default options below). The harness's own code is
 * not recoverable, and a report outside a kernel (an intercepted call on a bad range) ends
 * the process. Compiled to nothing outside the AddressSanitizer build. */
#include "engine.h"

#if defined(RF_ASAN) && RF_ASAN
#include <stdio.h>
#include <stdlib.h>
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
  if (!e.in_launch || !cur || cur == &e.host) {
    // A bug of the harness, not a verdict: end the process as ASan would have (abort, not
    // exit, so a fuzzer's crash handler keeps the input).
    fprintf(stderr, "rf-sim: AddressSanitizer report outside a kernel: the process ends\n");
    abort();
  }
  char kind[64], where[256];
  word_after(report, "AddressSanitizer: ", kind, sizeof kind);
  first_frame(report, where, sizeof where);
  const ThreadView &v = cur->view;
  char text[480];
  snprintf(text, sizeof text, "oob: %s at %s (block (%u,%u,%u) thread (%u,%u,%u))", kind, where,
           v.block_idx.x, v.block_idx.y, v.block_idx.z, v.thread_idx.x, v.thread_idx.y,
           v.thread_idx.z);
  // Ends the launch at the thread's next scheduling point (engine.cpp, check_abandoned):
  // one report per launch, as a GPU fault ends its kernel.
  abandon_from_host(RF_SIM_OOB, "%s", text);
}

}  // namespace

void install_oob_reporting() {
  static bool installed;
  if (installed) return;
  installed = true;
  __asan_set_error_report_callback(on_asan_report);
}

}  // namespace rf_sim

/* halt_on_error=0: a recoverable (kernel) report returns to the kernel, which the callback
 * has marked abandoned. suppress_equal_pcs=0: the same kernel line reports again at every
 * launch, so every bad case gets `oob`, not only the first one in the process (with it at 1,
 * a sweep saw 2 of 42 bad cases). ASAN_OPTIONS still overrides these (docs/SIMULATOR.md,
 * "AddressSanitizer build"). */
extern "C" const char *__asan_default_options() {
  return "halt_on_error=0:suppress_equal_pcs=0";
}
#else
void rf_sim::install_oob_reporting() {}
#endif
