/* The divergent-barrier message: which threads wait where, and which have ended, in a
 * block where no thread can run (or whose barrier/wave operation was reached from
 * different call sites). */
#include <stdio.h>
#include <string.h>
#include "engine.h"

namespace rf_sim {

namespace {
struct Group {
  uint8_t wait;
  const char *file;
  int line;
  unsigned count, first;
};
}  // namespace

static void describe_groups(const char *title, unsigned lo, unsigned hi, char *msg, size_t len) {
  Engine &e = engine();
  Group groups[8];
  unsigned ngroups = 0, more = 0;
  for (unsigned i = lo; i < hi; i++) {
    const Fiber &f = e.fiber(i);
    uint8_t w = f.wait.get();
    const char *file = w == kDone ? "" : f.site_file.get();
    int line = w == kDone ? 0 : f.site_line.get();
    if (w == kRunning) file = "", line = 0;
    unsigned g = 0;
    while (g < ngroups &&
           !(groups[g].wait == w && groups[g].line == line && strcmp(groups[g].file, file) == 0))
      g++;
    if (g == ngroups) {
      if (ngroups == 8) {
        more++;
        continue;
      }
      groups[ngroups++] = Group{w, file, line, 0, i};
    }
    groups[g].count++;
  }
  size_t n = static_cast<size_t>(snprintf(msg, len, "%s", title));
  for (unsigned g = 0; g < ngroups && n < len; g++) {
    const Group &gr = groups[g];
    rf_sim_uint3 t = thread_index_of(gr.first);
    char where[256] = "";
    if (gr.wait == kAtBarrier || gr.wait == kAtWave)
      snprintf(where, sizeof where, " %s:%d", short_path(gr.file), gr.line);
    const char *what = gr.wait == kAtBarrier ? "wait at __syncthreads()"
                       : gr.wait == kAtWave  ? "wait at the wave operation at"
                       : gr.wait == kDone    ? "exited"
                                             : "are running";
    n += static_cast<size_t>(
        snprintf(msg + n, len - n, "%s %u thread%s %s%s (first thread (%u,%u,%u))", g ? ";" : "",
                 gr.count, gr.count == 1 ? "" : "s", what, where, t.x, t.y, t.z));
  }
  if (more && n < len) snprintf(msg + n, len - n, "; %u more threads elsewhere", more);
}

void describe_stuck_block(char *msg, size_t len) {
  Engine &e = engine();
  char title[160];
  unsigned bx = e.block_x.get(), by = e.block_y.get(), bz = e.block_z.get();
  // A wave with some lanes inside a collective is the narrower problem: report that wave.
  for (unsigned w = 0; w < e.nwaves; w++) {
    if (e.waves[w].arrived.get() == 0) continue;
    unsigned lo = w * e.wave, hi = lo + e.wave < e.nthreads ? lo + e.wave : e.nthreads;
    snprintf(title, sizeof title,
             "divergent wave operation: block (%u,%u,%u) wave %u (threads %u..%u):", bx, by, bz, w,
             lo, hi - 1);
    describe_groups(title, lo, hi, msg, len);
    return;
  }
  snprintf(title, sizeof title, "divergent barrier: block (%u,%u,%u):", bx, by, bz);
  describe_groups(title, 0, e.nthreads, msg, len);
}

__attribute__((noinline)) void abandon_divergent() {
  char msg[480];
  describe_stuck_block(msg, sizeof msg);
  abandon_in_fiber(RF_SIM_DIVERGENT_BARRIER, "%s", msg);
}

}  // namespace rf_sim
