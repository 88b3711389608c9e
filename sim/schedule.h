/* The runnable set of the running block and the schedule policies that pick from it. */
#ifndef RF_SIM_SCHEDULE_H
#define RF_SIM_SCHEDULE_H
#include <stdint.h>
#include "relaxed.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif
/* The runnable set keeps its counts' prefix sums in vectors where SSE2 is, except under
 * ThreadSanitizer, where the set's fields are atomics and a vector access is not one. */
#if defined(__SSE2__) && !(defined(RF_TSAN) && RF_TSAN)
#include <emmintrin.h>
#define RF_SIM_RUNSET_PREFIX 1
#else
#define RF_SIM_RUNSET_PREFIX 0
#endif

namespace rf_sim {

constexpr unsigned kMaxBlockThreads = 1024;

/* splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): a full-period 64-bit generator, enough to make schedules reproducible. */
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Prng {
 public:
  void seed(uint64_t s) { state_.set(s); }
  uint64_t next() {
    uint64_t s = state_.get() + 0x9e3779b97f4a7c15ull;
    state_.set(s);
    return mix64(s);
  }
  /* Uniform in [0, n), n > 0 (multiply-shift; the tiny bias is irrelevant here). */
  uint32_t below(uint32_t n) {
    return static_cast<uint32_t>(((next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }

 private:
  Relaxed<uint64_t> state_;
};

/* The position of the n-th lowest set bit of v (n < popcount(v)), without a loop over the
 * bits and without the popcnt instruction (the baseline x86-64 target lacks it, and a loop
 * of `v &= v - 1` under the random schedule was a quarter of a fuzz execution's time): byte
 * counts by SWAR, their prefix sums by one multiplication, the byte found by a broadword
 * comparison, the bit inside it from a table. */
struct SelectTable {
  uint8_t pos[256][8];  // pos[b][n]: position of the n-th set bit of byte b
  constexpr SelectTable() : pos() {
    for (unsigned b = 0; b < 256; b++)
      for (unsigned i = 0, n = 0; i < 8; i++)
        if (b >> i & 1) pos[b][n++] = static_cast<uint8_t>(i);
  }
};
inline constexpr SelectTable kSelectTable{};

inline unsigned select_bit_swar(uint64_t v, unsigned n) {
  constexpr uint64_t k1 = 0x0101010101010101ull, k80 = 0x8080808080808080ull;
  uint64_t s = v - ((v >> 1) & 0x5555555555555555ull);
  s = (s & 0x3333333333333333ull) + ((s >> 2) & 0x3333333333333333ull);
  s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0full;  // byte i: set bits in byte i
  uint64_t prefix = s * k1;                     // byte i: set bits in bytes 0..i (<= 64)
  // High bit of byte i set where prefix_i <= n: those bytes lie below the one sought.
  uint64_t below = ((n * k1) | k80) - prefix;
  below &= k80;
  unsigned byte = static_cast<unsigned>(((below >> 7) * k1) >> 56);
  unsigned before = byte ? static_cast<unsigned>(prefix >> (8 * byte - 8) & 0xff) : 0;
  return 8 * byte + kSelectTable.pos[v >> (8 * byte) & 0xff][n - before];
}

/* The same position with BMI2's pdep, where the CPU has it: the n-th set bit of v is where
 * pdep deposits bit n of a one-bit mask (~3 instructions against select_bit_swar's ~25, at
 * every switch of a random schedule: pick_next was 14 % of corpus/bench's instructions,
 * docs/SIMULATOR.md "The fuzz campaign"). Chosen once per process (kSelectPdep); the result
 * is the same bit either way, so schedules do not depend on the CPU (sim.test_runset checks
 * both against a reference). Not inlined into the baseline target's code: it is a call. */
#if defined(__x86_64__)
__attribute__((target("bmi2"))) inline unsigned select_bit_pdep(uint64_t v, unsigned n) {
  return static_cast<unsigned>(__builtin_ctzll(_pdep_u64(uint64_t{1} << n, v)));
}
inline bool cpu_has_bmi2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("bmi2");
}
inline const bool kSelectPdep = cpu_has_bmi2();
#endif

inline unsigned select_bit(uint64_t v, unsigned n) {
#if defined(__x86_64__)
  if (kSelectPdep) return select_bit_pdep(v, n);
#endif
  return select_bit_swar(v, n);
}

/* One bit per thread of the block: set while the thread can run, with the number of set
 * bits kept per word and in all (the random schedule draws among them at every switch).
 * Inline: the schedule runs at every switch.
 * The words outside [lo_, hi_) are empty: a phase's threads leave the set from the bottom
 * (in-order) or the top (reverse) as they reach the barrier, and the searches start from
 * where the last one found its thread instead of word 0 (or the last word): the same thread,
 * without a pass over the emptied words at every switch (a block of 1024 threads has 16). */
class RunSet {
 public:
  /* Per launch, before any block. ranked: nth will be asked (the random schedule's draws),
   * so the counts' prefix sums are kept; the other schedules never pay for them. */
  void set_size(unsigned n, bool ranked) {
    words_ = (n + 63) / 64;
    ranked_ = RF_SIM_RUNSET_PREFIX && ranked;
  }
  void fill(unsigned n) {                                // threads [0, n) runnable
    for (unsigned k = 0; k < words_; k++) {
      unsigned lo = k * 64;
      unsigned bits = n >= lo + 64 ? 64 : n > lo ? n - lo : 0;
      w_[k].set(bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
      c_[k].set(static_cast<uint8_t>(bits));
    }
    total_.set(n < words_ * 64 ? n : words_ * 64);
    lo_.set(0);
    hi_.set(words_);
#if RF_SIM_RUNSET_PREFIX
    if (!ranked_) return;
    // Lanes past the launch's words hold the total: a count change below moves them too.
    alignas(16) uint16_t through[16];
    for (unsigned k = 0, sum = 0; k < 16; k++) {
      if (k < words_) sum += c_[k].get();
      through[k] = static_cast<uint16_t>(sum);
    }
    prefix_[0] = _mm_load_si128(reinterpret_cast<const __m128i *>(through));
    prefix_[1] = _mm_load_si128(reinterpret_cast<const __m128i *>(through + 8));
#endif
  }
  void add(unsigned i) {
    uint64_t v = word(i).get();
    if (v & bit(i)) return;
    word(i).set(v | bit(i));
    unsigned k = i >> 6;
    if (k < lo_.get()) lo_.set(k);
    if (k >= hi_.get()) hi_.set(k + 1);
    c_[i >> 6].set(static_cast<uint8_t>(c_[i >> 6].get() + 1));
    total_.set(total_.get() + 1);
    if (ranked_) prefix_add(k, 1);
  }
  /* Adds [i, i + n), which lies inside one word (a wave's lanes: 32 or 64 from a multiple of
   * the wave size), with one update of the word and its counts: a completing wave re-adds
   * all its lanes at once instead of one add() per lane. The same set as n add() calls. */
  void add_span(unsigned i, unsigned n) {
    unsigned k = i >> 6;
    uint64_t span = (n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << (i & 63);
    uint64_t v = w_[k].get(), added = span & ~v;
    if (!added) return;
    unsigned c = static_cast<unsigned>(__builtin_popcountll(added));
    w_[k].set(v | added);
    if (k < lo_.get()) lo_.set(k);
    if (k >= hi_.get()) hi_.set(k + 1);
    c_[k].set(static_cast<uint8_t>(c_[k].get() + c));
    total_.set(total_.get() + c);
    if (ranked_) prefix_add(k, static_cast<int>(c));
  }
  /* Returns what is left of i's word (the ordered arrivals' next thread is there). */
  uint64_t remove(unsigned i) {
    uint64_t v = word(i).get();
    if (!(v & bit(i))) return v;
    if (ranked_) prefix_add(i >> 6, -1);
    return remove_member(i, v);
  }
  /* remove() in a set that is not ranked (the in-order and reverse schedules' arrivals, the
   * hottest path there is): no test of `ranked`. */
  uint64_t remove_unranked(unsigned i) {
    uint64_t v = word(i).get();
    return v & bit(i) ? remove_member(i, v) : v;
  }
  int lowest() {  // -1 when empty
    for (unsigned k = lo_.get(), end = hi_.get(); k < end; k++)
      if (uint64_t v = w_[k].get()) {
        lo_.set(k);
        return static_cast<int>(k * 64 + __builtin_ctzll(v));
      }
    lo_.set(hi_.get());
    return -1;
  }
  int highest() {
    for (unsigned k = hi_.get(), end = lo_.get(); k-- > end;)
      if (uint64_t v = w_[k].get()) {
        hi_.set(k + 1);
        return static_cast<int>(k * 64 + 63 - __builtin_clzll(v));
      }
    hi_.set(lo_.get());
    return -1;
  }
  int lowest_in(unsigned lo, unsigned hi) const {  // in [lo, hi)
    for (unsigned k = lo / 64; k < words_ && k * 64 < hi; k++) {
      uint64_t v = w_[k].get();
      if (k * 64 < lo) v &= ~uint64_t{0} << (lo - k * 64);
      if (hi < k * 64 + 64) v &= (uint64_t{1} << (hi - k * 64)) - 1;
      if (v) return static_cast<int>(k * 64 + __builtin_ctzll(v));
    }
    return -1;
  }
  unsigned count() const { return total_.get(); }
  /* The n-th runnable thread in ascending order (-1 past the end): the word holding it, then
   * the bit inside the word. */
  int nth(unsigned n) const {
    if (n >= total_.get()) return -1;
    unsigned k = word_of(&n);
    return static_cast<int>(k * 64 + select_bit(w_[k].get(), n));
  }
  /* The word holding the n-th member, *n made its rank inside that word: the first word
   * whose prefix sum exceeds n, one compare of the two prefix vectors (branch-free). The
   * scan below stops after a number of words that changes at every draw of the random
   * schedule; its mispredicted exits made nth 32 % of bench_sim's random-schedule softmax
   * at block 1024 and 8.6 % of a campaign's time (perf; docs/SIMULATOR.md "The fuzz
   * campaign"). Without `ranked` (set_size), the scan. Computing the prefix sums at the draw
   * instead measured no faster: their load waited for the count the arrival had just stored. */
  unsigned word_of(unsigned *n) const {
#if RF_SIM_RUNSET_PREFIX
    if (!ranked_) return word_of_scan(n);
    const __m128i want = _mm_set1_epi16(static_cast<short>(*n));
    unsigned above = static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(
        _mm_cmpgt_epi16(prefix_[0], want), _mm_cmpgt_epi16(prefix_[1], want))));
    unsigned k = static_cast<unsigned>(__builtin_ctz(above));
    // Members before word k: its prefix sum less its own count.
    *n -= reinterpret_cast<const uint16_t *>(prefix_)[k] - c_[k].get();
    return k;
#else
    return word_of_scan(n);
#endif
  }
  /* The same word by a scan from the nearer end of [lo_, hi_): a draw in the upper half
   * counts down from the top, where it is the (total - 1 - n)-th from the highest. The
   * ThreadSanitizer build's search, and the reference the vector one is tested against. */
  unsigned word_of_scan(unsigned *n) const {
    unsigned total = total_.get();
    if (2 * *n < total) {
      for (unsigned k = lo_.get();; k++) {
        unsigned c = c_[k].get();
        if (*n < c) return k;
        *n -= c;
      }
    }
    unsigned m = total - 1 - *n;  // members above the one sought
    for (unsigned k = hi_.get();;) {
      unsigned c = c_[--k].get();
      if (m < c) {
        *n = c - 1 - m;
        return k;
      }
      m -= c;
    }
  }

 private:
  Relaxed<uint64_t> &word(unsigned i) { return w_[i >> 6]; }
  static uint64_t bit(unsigned i) { return uint64_t{1} << (i & 63); }
  uint64_t remove_member(unsigned i, uint64_t v) {
    v &= ~bit(i);
    word(i).set(v);
    c_[i >> 6].set(static_cast<uint8_t>(c_[i >> 6].get() - 1));
    total_.set(total_.get() - 1);
    return v;
  }
  /* The prefix sums gain `delta` from word k on (lanes k..15). */
  void prefix_add(unsigned k, int delta) {
#if RF_SIM_RUNSET_PREFIX
    const __m128i from = _mm_set1_epi16(static_cast<short>(k) - 1);
    const __m128i d = _mm_set1_epi16(static_cast<short>(delta));
    const __m128i lanes0 = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    const __m128i lanes1 = _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15);
    prefix_[0] = _mm_add_epi16(prefix_[0], _mm_and_si128(_mm_cmpgt_epi16(lanes0, from), d));
    prefix_[1] = _mm_add_epi16(prefix_[1], _mm_and_si128(_mm_cmpgt_epi16(lanes1, from), d));
#else
    (void)k, (void)delta;
#endif
  }
  static_assert(kMaxBlockThreads / 64 == 16, "the prefix sums are two vectors of 8 words");
  Relaxed<uint64_t> w_[kMaxBlockThreads / 64];
  Relaxed<uint8_t> c_[kMaxBlockThreads / 64];
  Relaxed<unsigned> total_;
  Relaxed<unsigned> lo_, hi_;  // every word outside [lo_, hi_) is empty
  unsigned words_ = 0;
  bool ranked_ = false;
#if RF_SIM_RUNSET_PREFIX
  // Last: the other fields keep their places (and cache lines) in the engine.
  __m128i prefix_[2] = {};  // 16-bit lanes: the members of words 0..k, k = 0-7 and 8-15
#endif
};

/* The random schedule's pick: a uniform draw among the runnable threads. */
__attribute__((noinline)) inline int pick_random(RunSet &run, Prng &rng) {
  unsigned c = run.count();
  return c ? run.nth(rng.below(c)) : -1;
}

/* wave-skew runs the lanes of skew_wave first (they run ahead to their next barrier or
 * exit), then the rest in order. */
__attribute__((noinline)) inline int pick_wave_skew(RunSet &run, unsigned skew_wave, unsigned wave,
                                                    unsigned nthreads) {
  unsigned lo = skew_wave * wave, hi = lo + wave < nthreads ? lo + wave : nthreads;
  int i = run.lowest_in(lo, hi);
  return i >= 0 ? i : run.lowest();
}

/* Next thread to run under `schedule` (RF_SIM_SCHED_*), or -1 when none is runnable.
 * Inlined into the switch, with the random and wave-skew picks out of line (in-order and
 * reverse then need no saved registers): as a call of its own it was ~15 of in-order's ~22
 * instructions per switch (argument set-up, saved registers; docs/SIMULATOR.md "The fuzz
 * campaign"). */
__attribute__((always_inline)) inline int pick_next(RunSet &run, int schedule, Prng &rng,
                                                    unsigned skew_wave, unsigned wave,
                                                    unsigned nthreads) {
  switch (schedule) {
    case 1:  // reverse
      return run.highest();
    case 2:  // random
      return pick_random(run, rng);
    case 3:
      return pick_wave_skew(run, skew_wave, wave, nthreads);
    default:  // in-order
      return run.lowest();
  }
}

}  // namespace rf_sim
#endif
