/* Kernel coverage counters that stay meaningful when every GPU thread runs the same code.
 * Linked into the simulator's libFuzzer target only (cmake/coverage.cmake), where the kernels
 * are compiled with -fsanitize-coverage=inline-8bit-counters,pc-table.
 *
 * The problem: clang's inline 8-bit counters are plain wrapping increments, and libFuzzer
 * turns each counter into one feature per hit-count bucket (1, 2, 3, 4-7, 8-15, 16-31,
 * 32-127, 128-255). A kernel body that every thread of a 256-thread block runs once adds 256
 * per block: the counter wraps to 0 and the edge looks never reached, for every input. Any
 * other total only says how many threads ran, not what the kernel did.
 *
 * What the counters mean here instead: during a launch, a kernel counter holds the largest
 * number of times one GPU thread ran that edge between two scheduling points (barrier, wave
 * operation, end), over the launches of the input. The simulator calls the hook at each
 * switch between GPU threads (sim/engine.h, coverage_hook): the counts of the stretch that
 * just ran are folded into a per-counter maximum and cleared, and the maximum is written
 * back when the launch ends. So an edge that ran is never 0, a block of 1024 threads counts
 * like a block of 32, and the buckets follow per-thread trip counts (grid-stride
 * iterations, items per thread). Host code in the kernel files (the launch functions:
 * second stages, level loops) runs outside launches and keeps ordinary counts.
 *
 * Not covered: a thread running one edge 256 times or more without a scheduling point wraps
 * as before (a serial loop over >= 256 elements); counters of plugins loaded with dlopen
 * live in the plugin's own section and are not folded (they wrap as plain counters do).
 *
 * This file is simulator code: it is not instrumented for coverage, and not for
 * ThreadSanitizer either (it runs on every GPU thread's fiber and would order them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "engine.h"

extern "C" {
// Defined by the linker around the executable's counters and PC table (absent: no counters).
extern uint8_t __start___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t __start___sancov_pcs[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t __stop___sancov_pcs[] __attribute__((weak, visibility("hidden")));
}

namespace rf_sim {
namespace {

uint8_t *counters;
size_t ncounters;
std::vector<uint8_t> peak;                // per counter: what the launch's end writes back
std::vector<uint32_t> func_lo, func_hi;   // per counter: its function's counters [lo, hi)
size_t hot_lo, hot_hi;                    // the functions this launch has run so far
unsigned since_full;

/* A switch that folds every counter after this many that fold only the hot range. */
constexpr unsigned kFullFoldEvery = 64;

/* Counters and peaks never overlap: restrict lets the compiler fold 32 bytes per vector
 * instruction (the byte loop was a sixth of a fuzz execution's time). */
void fold_bytes(uint8_t *__restrict__ c, uint8_t *__restrict__ p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t v = c[i];
    p[i] = v > p[i] ? v : p[i];
    c[i] = 0;
  }
}

/* Folds counters [lo, hi), skipping clean 32-byte blocks with four word loads. The range is
 * widened to whole 32-byte blocks of the section (never past its end): a hot range is a few
 * dozen counters at any offset, and its unaligned ends went through the byte loop, a tenth
 * of a fuzz execution's time. The extra counters belong to neighbouring functions, folded
 * now rather than at the next full fold, which only shortens what their counts sum over. */
void fold_range(size_t lo, size_t hi) {
  uint8_t *c = counters, *p = peak.data();
  lo &= ~size_t{31};
  hi = (hi + 31) & ~size_t{31};
  if (hi > ncounters) hi = ncounters;
  size_t i = lo;
  for (; i + 32 <= hi; i += 32) {
    uint64_t w[4];
    memcpy(w, c + i, sizeof w);
    if ((w[0] | w[1] | w[2] | w[3]) == 0) continue;
    fold_bytes(c + i, p + i, 32);
  }
  fold_bytes(c + i, p + i, hi - i);
}

/* Every counter; the functions of those that changed join the hot range. */
void fold_all() {
  for (size_t b = 0; b < ncounters; b += 32) {
    size_t e = b + 32 < ncounters ? b + 32 : ncounters;
    if (e - b == 32) {
      uint64_t w[4];
      memcpy(w, counters + b, sizeof w);
      if ((w[0] | w[1] | w[2] | w[3]) == 0) continue;
    }
    for (size_t i = b; i < e; i++) {
      if (!counters[i]) continue;
      if (hot_lo >= hot_hi) hot_lo = func_lo[i], hot_hi = func_hi[i];
      if (func_lo[i] < hot_lo) hot_lo = func_lo[i];
      if (func_hi[i] > hot_hi) hot_hi = func_hi[i];
    }
    fold_bytes(counters + b, peak.data() + b, e - b);
  }
  since_full = 0;
}

/* A stretch of one thread touches a few dozen counters of the kernel's own function (and of
 * any device function it calls without inlining). Most switches fold only the hot range (the
 * functions seen so far in this launch); every kFullFoldEvery-th switch folds all counters,
 * which adds a newly reached function to the hot range (its counts until then are summed
 * over at most that many stretches, once).
 * Folding every counter at every switch measured 1.8x slower executions. */
void fold_segment() {
  if (hot_lo >= hot_hi || ++since_full >= kFullFoldEvery)
    fold_all();
  else
    fold_range(hot_lo, hot_hi);
}

void on_launch(CoveragePhase phase) {
  switch (phase) {
    case kCoverageBegin:
      // What host code counted so far (and earlier launches' maxima) is the floor.
      memcpy(peak.data(), counters, ncounters);
      memset(counters, 0, ncounters);
      hot_lo = hot_hi = 0;
      since_full = 0;
      break;
    case kCoverageSegment:
      fold_segment();
      break;
    case kCoverageEnd:
      fold_all();
      memcpy(counters, peak.data(), ncounters);
      break;
  }
}

/* Function ranges from the PC table: one (PC, flags) pair per counter, in the same order,
 * flags bit 0 marking a function's entry block. Without a usable table, one range. */
void index_functions() {
  func_lo.assign(ncounters, 0);
  func_hi.assign(ncounters, static_cast<uint32_t>(ncounters));
  const uintptr_t *pcs = __start___sancov_pcs;
  if (!pcs || static_cast<size_t>(__stop___sancov_pcs - pcs) != 2 * ncounters) return;
  size_t start = 0;
  for (size_t i = 1; i <= ncounters; i++) {
    if (i < ncounters && !(pcs[2 * i + 1] & 1)) continue;
    for (size_t k = start; k < i; k++) {
      func_lo[k] = static_cast<uint32_t>(start);
      func_hi[k] = static_cast<uint32_t>(i);
    }
    start = i;
  }
}

struct Install {
  Install() {
    // REDFUZZ_COVERAGE_FOLD=0: plain wrapping counters (to measure what the folding buys).
    if (!__start___sancov_cntrs || __stop___sancov_cntrs <= __start___sancov_cntrs) return;
    coverage_counters = true;  // folded or not, they are global: blocks stay sequential
    const char *fold = getenv("REDFUZZ_COVERAGE_FOLD");
    if (fold && strcmp(fold, "0") == 0) return;
    counters = __start___sancov_cntrs;
    ncounters = static_cast<size_t>(__stop___sancov_cntrs - __start___sancov_cntrs);
    peak.assign(ncounters, 0);
    index_functions();
    coverage_hook = on_launch;
  }
} install;

}  // namespace
}  // namespace rf_sim
