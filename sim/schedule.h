/* The runnable set of the running block and the schedule policies that pick from it. */
#ifndef RF_SIM_SCHEDULE_H
#define RF_SIM_SCHEDULE_H
#include <stdint.h>
#include "relaxed.h"
#if defined(__x86_64__)
#include <immintrin.h>
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
  void set_size(unsigned n) { words_ = (n + 63) / 64; }  // per launch, before any block
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
  }
  /* Returns what is left of i's word (the ordered arrivals' next thread is there). */
  uint64_t remove(unsigned i) {
    uint64_t v = word(i).get();
    if (!(v & bit(i))) return v;
    v &= ~bit(i);
    word(i).set(v);
    c_[i >> 6].set(static_cast<uint8_t>(c_[i >> 6].get() - 1));
    total_.set(total_.get() - 1);
    return v;
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
  /* The n-th runnable thread in ascending order. The word holding it is found from the
   * nearer end of [lo_, hi_): a draw in the upper half counts down from the top, where it is
   * the (total - 1 - n)-th from the highest (half the words passed on average, a quarter of
   * a 1024-thread block's 16). The same thread either way. */
  int nth(unsigned n) const {
    unsigned total = total_.get();
    if (n >= total) return -1;
    if (2 * n < total) {
      for (unsigned k = lo_.get();; k++) {
        unsigned c = c_[k].get();
        if (n < c) return static_cast<int>(k * 64 + select_bit(w_[k].get(), n));
        n -= c;
      }
    }
    unsigned m = total - 1 - n;  // members above the one sought
    for (unsigned k = hi_.get();;) {
      unsigned c = c_[--k].get();
      if (m < c) return static_cast<int>(k * 64 + select_bit(w_[k].get(), c - 1 - m));
      m -= c;
    }
  }

 private:
  Relaxed<uint64_t> &word(unsigned i) { return w_[i >> 6]; }
  static uint64_t bit(unsigned i) { return uint64_t{1} << (i & 63); }
  Relaxed<uint64_t> w_[kMaxBlockThreads / 64];
  Relaxed<uint8_t> c_[kMaxBlockThreads / 64];
  Relaxed<unsigned> total_;
  Relaxed<unsigned> lo_, hi_;  // every word outside [lo_, hi_) is empty
  unsigned words_ = 0;
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
