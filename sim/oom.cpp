/* Out of memory inside the simulator (a small `ulimit -v`, a huge launch): an error exit with
 * a message, never SIGABRT. The simulator's own mappings (fiber stacks, the LDS arena, the
 * race detector's cells) call out_of_memory when mmap fails, and every operator new of the
 * simulator (and of the program it runs in: redfuzz's host code is C and installs no handler
 * of its own) reaches it through the new-handler instead of throwing std::bad_alloc into
 * code that cannot unwind it (a fiber's frames, the scheduler). Exit status 2: the case asks
 * for more memory than this process has (docs/CLI.md, "Exit status"). */
#include <new>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "engine.h"

namespace rf_sim {

[[noreturn]] void out_of_memory(const char *what) {
  char line[256];
  int n = snprintf(line, sizeof line,
                   "redfuzz: out of memory: %s (the simulator cannot go on; allow the process "
                   "more memory (ulimit -v) or run a smaller case)\n",
                   what);
  fflush(stdout);
  if (n > 0) {
    ssize_t w = write(2, line, static_cast<size_t>(n) < sizeof line ? static_cast<size_t>(n)
                                                                     : sizeof line - 1);
    (void)w;
  }
  _exit(2);
}

namespace {
[[noreturn]] void on_new_failure() { out_of_memory("operator new failed"); }
const bool installed = (std::set_new_handler(on_new_failure), true);
}  // namespace

}  // namespace rf_sim
