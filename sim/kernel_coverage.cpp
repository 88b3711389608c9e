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
#include "sim_control.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

extern "C" {
// Defined by the linker around the executable's counters and PC table (absent: no counters).
extern uint8_t __start___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t __start___sancov_pcs[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t __stop___sancov_pcs[] __attribute__((weak, visibility("hidden")));
}

namespace rf_sim {

bool coverage_reference_fold;

namespace {

uint8_t *counters;
size_t ncounters;
std::vector<uint8_t> peak;                // per counter: what the launch's end writes back
std::vector<uint32_t> func_lo, func_hi;   // per counter: its function's counters [lo, hi)
size_t hot_lo, hot_hi;                    // the functions this launch has run so far
size_t hot_blo, hot_bhi;                  // the same, widened to whole 32-byte blocks
// The hot range as the per-switch fold reads it: its whole 32-byte blocks from hot_cnt (in
// counters) and hot_peak (in peak), then hot_tail bytes of the section's last partial block.
uint8_t *hot_cnt, *hot_peak;
size_t hot_blocks, hot_tail;
unsigned until_full;  // switches until the next full fold (1: the next one)
bool reference_launch;  // coverage_reference_fold as the launch began

/* A switch that folds every counter after this many that fold only the hot range. */
constexpr unsigned kFullFoldEvery = 64;

/* The plain byte loop: the reference the block folds below must equal (REDFUZZ_COVERAGE_FOLD=
 * reference, tests/sim/coverage_fold.hip), and the section's last partial block. */
void fold_bytes(uint8_t *c, uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t v = c[i];
    p[i] = v > p[i] ? v : p[i];
    c[i] = 0;
  }
}

/* One whole 32-byte block: a mask of its nonzero counters (bit i: counter i), and the fold of
 * a block with explicit vector loads and stores. The byte loop above, compiled, is vectorised
 * behind run-time overlap and length checks for every call, and the full fold looked at each
 * byte of a touched block for the hot range: together ~155 instructions per switch, 30 % of
 * an execution (callgrind, docs/SIMULATOR.md "The fuzz campaign"). */
#if defined(__SSE2__)
inline uint32_t nonzero_mask(const uint8_t *c) {
  const __m128i z = _mm_setzero_si128();
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(c));
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(c + 16));
  uint32_t lo = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a, z)));
  uint32_t hi = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(b, z)));
  return ~(lo | hi << 16);
}

/* Whether 64 bytes are all zero: the full fold's test for the clean majority of the section. */
inline bool clean64(const uint8_t *c) {
  const __m128i *v = reinterpret_cast<const __m128i *>(c);
  __m128i a = _mm_or_si128(_mm_loadu_si128(v), _mm_loadu_si128(v + 1));
  __m128i b = _mm_or_si128(_mm_loadu_si128(v + 2), _mm_loadu_si128(v + 3));
  return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(a, b), _mm_setzero_si128())) == 0xffff;
}

inline void fold_block(uint8_t *__restrict__ c, uint8_t *__restrict__ p) {
  __m128i *cv = reinterpret_cast<__m128i *>(c), *pv = reinterpret_cast<__m128i *>(p);
  __m128i a = _mm_loadu_si128(cv), b = _mm_loadu_si128(cv + 1);
  _mm_storeu_si128(pv, _mm_max_epu8(a, _mm_loadu_si128(pv)));
  _mm_storeu_si128(pv + 1, _mm_max_epu8(b, _mm_loadu_si128(pv + 1)));
  _mm_storeu_si128(cv, _mm_setzero_si128());
  _mm_storeu_si128(cv + 1, _mm_setzero_si128());
}
#else
inline uint32_t nonzero_mask(const uint8_t *c) {
  uint32_t m = 0;
  for (unsigned i = 0; i < 32; i++) m |= uint32_t{c[i] != 0} << i;
  return m;
}

inline bool clean64(const uint8_t *c) {
  uint64_t w[8];
  memcpy(w, c, sizeof w);
  return (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) == 0;
}

inline void fold_block(uint8_t *c, uint8_t *p) { fold_bytes(c, p, 32); }
#endif

/* The first 64-byte chunk at or after b (both multiples of 64) holding a nonzero counter, or
 * end: the full fold's pass over the clean majority of the section (~6000 counters here). */
size_t dirty_from_baseline(const uint8_t *c, size_t b, size_t end) {
  while (b < end && clean64(c + b)) b += 64;
  return b;
}

/* The same with AVX2 where the CPU has it (chosen at install): two 32-byte loads and one test
 * per chunk instead of four 16-byte loads, three ors and a byte compare; the pass was most of
 * fold_all's ~2000 instructions, every 64th switch (docs/SIMULATOR.md "The fuzz campaign"). */
#if defined(__x86_64__)
__attribute__((target("avx2"))) size_t dirty_from_avx2(const uint8_t *c, size_t b, size_t end) {
  for (; b < end; b += 64) {
    __m256i v = _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(c + b)),
                                _mm256_loadu_si256(reinterpret_cast<const __m256i *>(c + b + 32)));
    if (!_mm256_testz_si256(v, v)) break;
  }
  return b;
}
#endif
size_t (*dirty_from)(const uint8_t *, size_t, size_t) = dirty_from_baseline;

/* Folds the hot range at a switch: its whole blocks, each folded without testing whether the
 * stretch touched it (a clean block's fold changes nothing, and the test cost as much as the
 * fold: most of the hot range's ~2 blocks are touched at most switches), then the tail. The
 * pointers and counts come from fold_all, so a switch reads no vector and no flag. */
inline void fold_hot_tail(uint8_t *c, uint8_t *p) {
  for (size_t i = 0; i < hot_tail; i++) {
    uint8_t v = c[i];
    p[i] = v > p[i] ? v : p[i];
    c[i] = 0;
  }
}

inline void fold_hot() {
  uint8_t *c = hot_cnt, *p = hot_peak;
  for (size_t k = hot_blocks; k; k--, c += 32, p += 32) fold_block(c, p);
  fold_hot_tail(c, p);
}

/* The same with one 32-byte load, max and two stores a block, where the CPU has AVX2 (the
 * hook itself is chosen at install: on_launch_avx2). */
#if defined(__x86_64__)
__attribute__((target("avx2"))) inline void fold_hot_avx2() {
  uint8_t *c = hot_cnt, *p = hot_peak;
  for (size_t k = hot_blocks; k; k--, c += 32, p += 32) {
    __m256i *cv = reinterpret_cast<__m256i *>(c), *pv = reinterpret_cast<__m256i *>(p);
    _mm256_storeu_si256(pv, _mm256_max_epu8(_mm256_loadu_si256(cv), _mm256_loadu_si256(pv)));
    _mm256_storeu_si256(cv, _mm256_setzero_si256());
  }
  fold_hot_tail(c, p);
}
#endif

/* Counter i ran: its function joins the hot range. */
inline void heat(size_t i) {
  if (hot_lo >= hot_hi) hot_lo = func_lo[i], hot_hi = func_hi[i];
  if (func_lo[i] < hot_lo) hot_lo = func_lo[i];
  if (func_hi[i] > hot_hi) hot_hi = func_hi[i];
}

/* A touched 32-byte block: its functions join the hot range, and it is folded. Functions are
 * consecutive counter ranges in index order, so the first and the last nonzero counter of the
 * block give the smallest start and the largest end of its touched functions. */
inline void fold_touched_block(size_t b) {
  uint32_t m = nonzero_mask(counters + b);
  if (!m) return;
  heat(b + static_cast<unsigned>(__builtin_ctz(m)));
  heat(b + 31 - static_cast<unsigned>(__builtin_clz(m)));
  fold_block(counters + b, peak.data() + b);
}

/* Every counter; the functions of those that changed join the hot range. Most of the
 * section is clean at any switch: it is tested 64 bytes at a time. */
void fold_all() {
  size_t b = 0;
  if (!coverage_reference_fold) {
    const size_t chunks_end = ncounters & ~size_t{63};
    for (; (b = dirty_from(counters, b, chunks_end)) < chunks_end; b += 64) {
      fold_touched_block(b);
      fold_touched_block(b + 32);
    }
    if (b + 32 <= ncounters) fold_touched_block(b), b += 32;
  }
  for (size_t i = b; i < ncounters; i++)
    if (counters[i]) heat(i);
  fold_bytes(counters + b, peak.data() + b, ncounters - b);
  if (hot_lo >= hot_hi) {  // nothing has run yet: the next switch folds everything again
    until_full = 1;
    return;
  }
  until_full = kFullFoldEvery;
  // The switches until the next full fold fold the hot range widened to whole 32-byte blocks
  // of the section (never past its end): a hot range is a few dozen counters at any offset.
  // The extra counters belong to neighbouring functions, folded now rather than at the next
  // full fold, which only shortens what their counts sum over.
  hot_blo = hot_lo & ~size_t{31};
  hot_bhi = (hot_hi + 31) & ~size_t{31};
  if (hot_bhi > ncounters) hot_bhi = ncounters;
  hot_cnt = counters + hot_blo;
  hot_peak = peak.data() + hot_blo;
  // The reference folds the whole hot range with the byte loop (as the tail).
  hot_blocks = reference_launch ? 0 : (hot_bhi - hot_blo) / 32;
  hot_tail = hot_bhi - hot_blo - 32 * hot_blocks;
}

/* A stretch of one thread touches a few dozen counters of the kernel's own function (and of
 * any device function it calls without inlining). Most switches fold only the hot range (the
 * functions seen so far in this launch); every kFullFoldEvery-th switch folds all counters,
 * which adds a newly reached function to the hot range (its counts until then are summed
 * over at most that many stretches, once).
 * Folding every counter at every switch measured 1.8x slower executions. */
/* Every call of the hook but a switch that only folds the hot range. */
void on_launch_rest(CoveragePhase phase) {
  if (phase == kCoverageSegment) return fold_all();  // the count-down reached 0
  if (phase == kCoverageBegin) {
    // What host code counted so far (and earlier launches' maxima) is the floor.
    memcpy(peak.data(), counters, ncounters);
    memset(counters, 0, ncounters);
    hot_lo = hot_hi = 0;
    until_full = 1;  // the first switch folds everything: no hot range yet
    reference_launch = coverage_reference_fold;
    return;
  }
  fold_all();  // kCoverageEnd
  memcpy(counters, peak.data(), ncounters);
}

/* The hook. A switch is its one frequent call (~70 instructions, half of them call and
 * bookkeeping, were 15.7 % of corpus/bench: docs/SIMULATOR.md "The fuzz campaign"); it comes
 * first and does no more than count down and fold the hot range. */
void on_launch(CoveragePhase phase) {
  if (__builtin_expect(phase == kCoverageSegment && --until_full != 0, 1)) return fold_hot();
  on_launch_rest(phase);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void on_launch_avx2(CoveragePhase phase) {
  if (__builtin_expect(phase == kCoverageSegment && --until_full != 0, 1)) return fold_hot_avx2();
  on_launch_rest(phase);
}
#endif

/* A stretch of launches that adds no coverage (the determinism repeat: run/runner.c): the
 * counters are kept aside and the hook is removed, so the launches run as in a build without
 * coverage (their switches fold nothing); at its end the counters are put back, which drops
 * whatever the stretch counted (kernel edges and the launch functions' host code alike). */
std::vector<uint8_t> kept;
void (*kept_hook)(CoveragePhase);
bool quiet;

void set_quiet(bool on) {
  if (on == quiet) return;
  quiet = on;
  if (on) {
    kept.assign(counters, counters + ncounters);
    kept_hook = coverage_hook;
    coverage_hook = nullptr;
  } else {
    memcpy(counters, kept.data(), ncounters);
    coverage_hook = kept_hook;
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

/* The fold for the launches that follow (rf_sim_coverage_fold, from REDFUZZ_COVERAGE_FOLD):
 * OFF: plain wrapping counters (to measure what the folding buys); REFERENCE: the same folds
 * with the byte loops (to measure what the block folds buy); BASELINE: no AVX2 folds even
 * where the CPU has it (sim.coverage_fold.baseline); BLOCKS, the default: AVX2 where it is. */
void set_fold(int mode) {
  coverage_reference_fold = mode == RF_SIM_FOLD_REFERENCE;
  dirty_from = dirty_from_baseline;
  void (*hook)(CoveragePhase) = mode == RF_SIM_FOLD_OFF ? nullptr : on_launch;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (hook && mode != RF_SIM_FOLD_BASELINE && __builtin_cpu_supports("avx2"))
    dirty_from = dirty_from_avx2, hook = on_launch_avx2;
#endif
  if (quiet) kept_hook = hook;   // quiet keeps the hook aside until it ends
  else coverage_hook = hook;
}

struct Install {
  Install() {
    if (!__start___sancov_cntrs || __stop___sancov_cntrs <= __start___sancov_cntrs) return;
    coverage_counters = true;  // folded or not, they are global: blocks stay sequential
    counters = __start___sancov_cntrs;
    ncounters = static_cast<size_t>(__stop___sancov_cntrs - __start___sancov_cntrs);
    coverage_quiet = set_quiet;
    coverage_fold_mode = set_fold;
    peak.assign(ncounters, 0);
    index_functions();
    set_fold(RF_SIM_FOLD_BLOCKS);
  }
} install;

}  // namespace
}  // namespace rf_sim
