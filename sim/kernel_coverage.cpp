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
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
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
uint64_t coverage_reach_misses;
uint64_t coverage_whole_looks;

namespace {

uint8_t *counters;
size_t ncounters;
std::vector<uint8_t> peak;                // per counter: what the launch's end writes back
// The hot set: the counter ranges of the functions this launch has run so far, sorted,
// adjacent ones merged (a few: a kernel and the device functions it calls).
std::vector<std::pair<uint32_t, uint32_t>> hot_fns;
uint32_t last_heat = UINT32_MAX;  // the start of the function heat saw last
bool hot_changed;                 // hot_fns changed since the spans were made
// The hot set as the per-switch fold reads it: at most kMaxSpans spans, each its whole
// 32-byte blocks from cnt (in counters) and peak (in peak), then tail bytes (the section's
// last partial block; the reference's whole span).
struct Span {
  uint8_t *cnt, *peak;
  size_t blocks, tail;
};
constexpr unsigned kMaxSpans = 8;
Span spans[kMaxSpans];
unsigned nspans;
unsigned until_full;  // switches until the next full fold (1: the next one)
unsigned empty_looks;  // looks of this launch that found nothing, while none has found anything
bool reference_launch;  // coverage_reference_fold as the launch began
bool reach_launch;      // this launch's periodic folds read its reach (reach_ready, not reference)
unsigned until_whole;   // periodic folds until the next one that reads every counter
bool whole_folds;       // REDFUZZ_COVERAGE_FOLD=full: every periodic fold reads every counter

/* A switch that folds every counter after this many that fold only the hot set. */
constexpr unsigned kFullFoldEvery = 64;
/* Of those periodic folds, where the launch's reach is known (below), all but every
 * kWholeEvery-th read only the reach: the others read every counter, for a function reached
 * only through a pointer. */
constexpr unsigned kWholeEvery = 16;

/* The reach: the counters a launch's GPU threads can touch. A periodic fold looks for
 * functions the hot set does not hold yet; reading the whole section for that (23,411
 * counters in the fuzz target, mostly other variants' kernels, host code and device oracles
 * that never run on the simulator) was 10 % of a campaign's execution time
 * (docs/SIMULATOR.md, "The reach of a launch"). A kernel reaches only its own function and the
 * functions it calls, directly or through them: the reach is that closure, from the functions
 * the launch's first switch found touched (its kernel), over the direct calls and jumps in
 * their machine code (x86-64 rel32 call, jmp and jcc whose target is an instrumented
 * function's entry; a byte that only looks like one adds a function, which costs a read and
 * changes nothing). A function touched outside the reach (reached through a pointer) is found
 * by the next fold that reads every counter, and joins the reach with what it calls; until
 * then its counts sum over at most kFullFoldEvery * kWholeEvery stretches, once a launch. So
 * a direct callee is folded exactly as when every periodic fold read every counter
 * (REDFUZZ_COVERAGE_FOLD=full; the reference does so: tests/sim/coverage_fold.hip compares
 * them counter for counter). Where the machine code cannot be read (not x86-64, no PC table,
 * no executable segment found), every periodic fold reads every counter, as before. */
struct Fn {
  uintptr_t pc;                  // the entry (the PC table's entry PC: the function's address)
  uintptr_t code_end;            // where its machine code ends at the latest (next entry)
  uint32_t lo, hi;               // its counters
  bool scanned;                  // callees read
  std::vector<uint32_t> callees;  // functions its code calls or jumps to directly
};
std::vector<Fn> fns;                          // in counter order (one without a usable PC table)
std::vector<uint32_t> fn_of;                  // per counter: its function
std::vector<std::pair<uintptr_t, uint32_t>> by_pc;  // entries by address
bool reach_ready;                             // by_pc and each code_end were built
std::vector<uint32_t> reach_mark;             // per function: the launch number that reached it
uint32_t launch_no;
std::vector<uint32_t> reach_fns;              // the functions in this launch's reach
std::vector<std::pair<size_t, size_t>> reach_blocks;  // its counters, whole 32-byte blocks, merged
std::vector<uint32_t> touched;                // functions a fold found touched (when collecting)
bool collect;                                 // fold_touched_block records into touched

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

/* Folds the hot set at a switch: each span's whole blocks, each folded without testing
 * whether the stretch touched it (a clean block's fold changes nothing, and the test cost as
 * much as the fold: most of the hot set's few blocks are touched at most switches), then its
 * tail. The spans come from the periodic fold (hot_range_set), so a switch reads no vector. */
inline void fold_hot_tail(uint8_t *c, uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t v = c[i];
    p[i] = v > p[i] ? v : p[i];
    c[i] = 0;
  }
}

inline void fold_hot() {
  for (const Span *s = spans, *e = spans + nspans; s != e; s++) {
    uint8_t *c = s->cnt, *p = s->peak;
    for (size_t k = s->blocks; k; k--, c += 32, p += 32) fold_block(c, p);
    fold_hot_tail(c, p, s->tail);
  }
}

/* The same with one 32-byte load, max and two stores a block, where the CPU has AVX2 (the
 * hook itself is chosen at install: on_launch_avx2). */
#if defined(__x86_64__)
__attribute__((target("avx2"))) inline void fold_hot_avx2() {
  for (const Span *s = spans, *e = spans + nspans; s != e; s++) {
    uint8_t *c = s->cnt, *p = s->peak;
    for (size_t k = s->blocks; k; k--, c += 32, p += 32) {
      __m256i *cv = reinterpret_cast<__m256i *>(c), *pv = reinterpret_cast<__m256i *>(p);
      _mm256_storeu_si256(pv, _mm256_max_epu8(_mm256_loadu_si256(cv), _mm256_loadu_si256(pv)));
      _mm256_storeu_si256(cv, _mm256_setzero_si256());
    }
    fold_hot_tail(c, p, s->tail);
  }
}
#endif

/* Counter i ran: its function joins the hot set (kept sorted, touching ranges merged). The
 * function seen last, and then one already in the set, is the common case. */
void heat_new(uint32_t lo, uint32_t hi) {
  auto it = std::lower_bound(hot_fns.begin(), hot_fns.end(), std::make_pair(lo, uint32_t{0}));
  if (it != hot_fns.end() && it->first == lo && it->second >= hi) return;
  if (it != hot_fns.begin() && std::prev(it)->second >= hi) return;  // it starts before lo
  it = hot_fns.insert(it, std::make_pair(lo, hi));
  // Merge with the neighbours it touches or overlaps.
  while (it + 1 != hot_fns.end() && (it + 1)->first <= it->second) {
    it->second = std::max(it->second, (it + 1)->second);
    hot_fns.erase(it + 1);
  }
  if (it != hot_fns.begin() && std::prev(it)->second >= it->first) {
    std::prev(it)->second = std::max(std::prev(it)->second, it->second);
    hot_fns.erase(it);
  }
  hot_changed = true;
}

inline void heat(size_t i) {
  const Fn &f = fns[fn_of[i]];
  if (f.lo == last_heat) return;
  last_heat = f.lo;
  heat_new(f.lo, f.hi);
}

/* The functions of a block's nonzero counters (mask bit i: counter b + i) into touched. */
void note_touched(size_t b, uint32_t m) {
  for (uint32_t last = UINT32_MAX; m; m &= m - 1) {
    const uint32_t f = fn_of[b + static_cast<unsigned>(__builtin_ctz(m))];
    if (f != last) touched.push_back(last = f);
  }
}

/* A touched 32-byte block: its functions join the hot set, and it is folded. Functions are
 * consecutive counter ranges in index order, so the first and the last nonzero counter of the
 * block give the smallest start and the largest end of its touched functions (one between
 * them lies inside the block, which the spans fold whole). */
inline void fold_touched_block(size_t b) {
  uint32_t m = nonzero_mask(counters + b);
  if (!m) return;
  heat(b + static_cast<unsigned>(__builtin_ctz(m)));
  heat(b + 31 - static_cast<unsigned>(__builtin_clz(m)));
  if (collect) note_touched(b, m);
  fold_block(counters + b, peak.data() + b);
}

void hot_range_set();

/* Counters [b, e) one by one (the section's last partial block; the reference's whole
 * section): their functions join the hot set (and touched, when collecting); then folded. */
void fold_counters(size_t b, size_t e) {
  for (size_t i = b; i < e; i++)
    if (counters[i]) {
      heat(i);
      if (collect) touched.push_back(fn_of[i]);
    }
  fold_bytes(counters + b, peak.data() + b, e - b);
}

/* Counters [lo, hi) widened to whole 32-byte blocks of the section, never past its end. */
std::pair<size_t, size_t> whole_blocks(size_t lo, size_t hi) {
  return {lo & ~size_t{31}, std::min((hi + 31) & ~size_t{31}, ncounters)};
}

/* Every counter; the functions of those that changed join the hot set. Most of the
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
  fold_counters(b, ncounters);
  hot_range_set();
}

/* After a periodic fold: the spans the switches until the next one fold. */
void hot_range_set() {
  if (hot_fns.empty()) {
    // Nothing of this section has run: a plugin's kernel (its counters are its own, not
    // folded), or code that is not instrumented. The first switch of a launch leaves the
    // host, the second ends the first GPU thread's first stretch, where a kernel of this
    // section touches its entry: the first kEagerLooks looks come at every switch, the next
    // ones after 2, 4, 8, ... switches, at most kFullFoldEvery * kWholeEvery. A look at every
    // switch read all 23,411 counters each time, 52 % of a plugin campaign's time
    // (docs/SIMULATOR.md, "The reach of a launch").
    constexpr unsigned kEagerLooks = 4;
    empty_looks++;
    until_full = empty_looks <= kEagerLooks ? 1
                 : std::min(1u << std::min(empty_looks - kEagerLooks, 10u), kFullFoldEvery * kWholeEvery);
    return;
  }
  until_full = kFullFoldEvery;
  if (!hot_changed) return;
  hot_changed = false;
  // Each function range widened to whole 32-byte blocks of the section (never past its end),
  // touching ones merged; past kMaxSpans, the two closest spans become one (the counters
  // between them fold at every switch too). A kernel and a device function it calls can lie
  // thousands of counters apart (an inline function's one copy is in whichever file the
  // linker kept): one range over all of them folded 5.5 blocks a switch on average (9 to 64
  // at 17 % of the switches), the spans 3.5 (docs/SIMULATOR.md, "The reach of a launch"). Counters
  // folded beyond the functions belong to neighbours, folded now rather than at the next
  // periodic fold, which only shortens what their counts sum over.
  std::pair<size_t, size_t> b[kMaxSpans + 1];
  unsigned n = 0;
  for (const auto &f : hot_fns) {
    const auto w = whole_blocks(f.first, f.second);
    if (n && w.first <= b[n - 1].second) {
      b[n - 1].second = std::max(b[n - 1].second, w.second);
      continue;
    }
    b[n++] = w;
    if (n <= kMaxSpans) continue;
    unsigned k = 0;  // the closest pair: k and k + 1
    for (unsigned j = 1; j + 1 < n; j++)
      if (b[j + 1].first - b[j].second < b[k + 1].first - b[k].second) k = j;
    b[k].second = b[k + 1].second;
    for (unsigned j = k + 1; j + 1 < n; j++) b[j] = b[j + 1];
    n--;
  }
  nspans = n;
  for (unsigned k = 0; k < n; k++) {
    Span &s = spans[k];
    s.cnt = counters + b[k].first;
    s.peak = peak.data() + b[k].first;
    // The reference folds the whole span with the byte loop (as the tail).
    s.blocks = reference_launch ? 0 : (b[k].second - b[k].first) / 32;
    s.tail = b[k].second - b[k].first - 32 * s.blocks;
  }
}

/* The reach (above): building it and folding it. */

/* The functions f's machine code calls or jumps to directly (x86-64 rel32 forms), read once. */
void scan_callees(Fn &f) {
  f.scanned = true;
  const uint8_t *c = reinterpret_cast<const uint8_t *>(f.pc);
  const size_t len = f.code_end - f.pc;
  auto target = [&](size_t rel_at, size_t next) {
    int32_t rel;
    memcpy(&rel, c + rel_at, sizeof rel);
    const uintptr_t t = f.pc + next + static_cast<uintptr_t>(static_cast<intptr_t>(rel));
    auto it = std::lower_bound(by_pc.begin(), by_pc.end(), std::make_pair(t, uint32_t{0}));
    if (it != by_pc.end() && it->first == t &&
        std::find(f.callees.begin(), f.callees.end(), it->second) == f.callees.end())
      f.callees.push_back(it->second);
  };
  for (size_t i = 0; i < len; i++) {
    if ((c[i] == 0xE8 || c[i] == 0xE9) && i + 5 <= len) target(i + 1, i + 5);  // call, jmp
    else if (c[i] == 0x0F && i + 6 <= len && (c[i + 1] & 0xF0) == 0x80) target(i + 2, i + 6);  // jcc
  }
}

/* The touched functions not yet in this launch's reach join it with their closure. Once the
 * reach has been seeded (the launch's first look), each of them is a miss
 * (coverage_reach_misses): reached through a pointer, or a call the machine-code read missed;
 * found in a block the reach shares, or by a fold that reads every counter. */
void extend_reach() {
  static std::vector<uint32_t> todo;
  const bool seeded = !reach_fns.empty();
  for (uint32_t f : touched)
    if (reach_mark[f] != launch_no) {
      reach_mark[f] = launch_no;
      todo.push_back(f);
      coverage_reach_misses += seeded;
    }
  touched.clear();
  if (todo.empty()) return;
  while (!todo.empty()) {
    Fn &f = fns[todo.back()];
    reach_fns.push_back(todo.back());
    todo.pop_back();
    if (!f.scanned) scan_callees(f);
    for (uint32_t g : f.callees)
      if (reach_mark[g] != launch_no) reach_mark[g] = launch_no, todo.push_back(g);
  }
  std::sort(reach_fns.begin(), reach_fns.end(),
            [](uint32_t a, uint32_t b) { return fns[a].lo < fns[b].lo; });
  reach_blocks.clear();
  for (uint32_t g : reach_fns) {
    const auto w = whole_blocks(fns[g].lo, fns[g].hi);
    if (!reach_blocks.empty() && w.first <= reach_blocks.back().second)
      reach_blocks.back().second = std::max(reach_blocks.back().second, w.second);
    else
      reach_blocks.push_back(w);
  }
}

/* A periodic fold that reads the reach's counters only: what fold_all does there. A function
 * found touched outside the reach (a neighbour sharing a block) joins it. */
void fold_reach() {
  collect = true;
  for (const auto &r : reach_blocks) {
    size_t b = r.first;
    for (; b + 32 <= r.second; b += 32) fold_touched_block(b);
    fold_counters(b, r.second);  // the section's last partial block, if in the reach
  }
  collect = false;
  hot_range_set();
  extend_reach();
}

/* A stretch of one thread touches a few dozen counters of the kernel's own function (and of
 * any device function it calls without inlining). Most switches fold only the hot set (the
 * functions seen so far in this launch); every kFullFoldEvery-th switch looks for functions
 * outside it (in the reach, or every counter: above), which adds a newly reached function to
 * the hot set (its counts until then are summed over at most that many stretches, once).
 * Folding every counter at every switch measured 1.8x slower executions. */
/* A look for newly run functions (the count-down reached 0). It runs on the GPU thread's
 * fiber and its bookkeeping allocates and moves vectors: under ThreadSanitizer, whose fibers
 * are the GPU threads, those accesses are not recorded (they would be races between GPU
 * threads that the simulator's own code makes, not the kernel's). */
void look() {
  if (reach_launch && !reach_fns.empty() && --until_whole != 0) return fold_reach();
  until_whole = kWholeEvery;
  collect = reach_launch;
  coverage_whole_looks++;
  fold_all();
  collect = false;
  if (reach_launch) extend_reach();
}

/* Every call of the hook but a switch that only folds the hot set. */
void on_launch_rest(CoveragePhase phase) {
  if (phase == kCoverageSegment) {
    san::ignore_begin();
    look();
    san::ignore_end();
    return;
  }
  if (phase == kCoverageBegin) {
    // What host code counted so far (and earlier launches' maxima) is the floor.
    memcpy(peak.data(), counters, ncounters);
    memset(counters, 0, ncounters);
    hot_fns.clear();
    last_heat = UINT32_MAX;
    hot_changed = true;
    nspans = 0;
    until_full = 1;  // the first switch folds everything: no hot set yet
    empty_looks = 0;
    reference_launch = coverage_reference_fold;
    reach_launch = reach_ready && !reference_launch && !whole_folds;
    until_whole = kWholeEvery;
    reach_fns.clear();
    reach_blocks.clear();
    touched.clear();
    ++launch_no;
    return;
  }
  fold_all();  // kCoverageEnd
  memcpy(counters, peak.data(), ncounters);
}

/* The hook. A switch is its one frequent call (~70 instructions, half of them call and
 * bookkeeping, were 15.7 % of corpus/bench: docs/SIMULATOR.md "The fuzz campaign"); it comes
 * first and does no more than count down and fold the hot set. */
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

/* The executable segment holding pc: [lo, hi), or {0, 0}. */
struct Segment {
  uintptr_t pc, lo, hi;
};
int find_segment(struct dl_phdr_info *info, size_t, void *data) {
  Segment *s = static_cast<Segment *>(data);
  for (unsigned k = 0; k < info->dlpi_phnum; k++) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[k];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    const uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (s->pc >= lo && s->pc < hi) {
      s->lo = lo, s->hi = hi;
      return 1;
    }
  }
  return 0;
}

/* For the reach: the entries by address, and where each function's code can end. */
void index_reach() {
#if defined(__x86_64__)
  for (uint32_t k = 0; k < fns.size(); k++) by_pc.emplace_back(fns[k].pc, k);
  std::sort(by_pc.begin(), by_pc.end());
  Segment seg{by_pc.front().first, 0, 0};
  dl_iterate_phdr(find_segment, &seg);
  if (!seg.hi || by_pc.back().first >= seg.hi) return;
  for (size_t k = 0; k < by_pc.size(); k++) {
    const uintptr_t end = k + 1 < by_pc.size() ? by_pc[k + 1].first : seg.hi;
    fns[by_pc[k].second].code_end = std::min(end, by_pc[k].first + (uintptr_t{1} << 16));
  }
  reach_mark.assign(fns.size(), 0);
  reach_ready = true;
#endif
}

/* Functions from the PC table: one (PC, flags) pair per counter, in the same order, flags bit
 * 0 marking a function's entry block (its PC the function's address). Without a usable
 * table, one function over every counter, and no reach. */
void index_functions() {
  const uintptr_t *pcs = __start___sancov_pcs;
  const bool table = pcs && static_cast<size_t>(__stop___sancov_pcs - pcs) == 2 * ncounters;
  fn_of.assign(ncounters, 0);
  for (size_t i = 0; i < ncounters; i++) {
    if (i == 0 || (table && (pcs[2 * i + 1] & 1)))
      fns.push_back(Fn{table ? pcs[2 * i] : 0, 0, static_cast<uint32_t>(i), 0, false, {}});
    fn_of[i] = static_cast<uint32_t>(fns.size() - 1);
  }
  for (size_t k = 0; k < fns.size(); k++)
    fns[k].hi = static_cast<uint32_t>(k + 1 < fns.size() ? fns[k + 1].lo : ncounters);
  if (table && (pcs[1] & 1)) index_reach();  // counter 0 is an entry: every PC is a function's
}

/* The fold for the launches that follow (rf_sim_coverage_fold, from REDFUZZ_COVERAGE_FOLD):
 * OFF: plain wrapping counters (to measure what the folding buys); REFERENCE: the same folds
 * with the byte loops (to measure what the block folds buy); BASELINE: no AVX2 folds even
 * where the CPU has it (sim.coverage_fold.baseline); FULL: every periodic fold reads every
 * counter, not the launch's reach (to measure what the reach buys); BLOCKS, the default: AVX2
 * where it is, the reach where it can be read. */
void set_fold(int mode) {
  coverage_reference_fold = mode == RF_SIM_FOLD_REFERENCE;
  whole_folds = mode == RF_SIM_FOLD_FULL;
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
