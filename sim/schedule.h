/* The runnable set of the running block and the schedule policies that pick from it. */
#ifndef RF_SIM_SCHEDULE_H
#define RF_SIM_SCHEDULE_H
#include <stdint.h>
#include "relaxed.h"

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

/* One bit per thread of the block: set while the thread can run. Inline: the schedule
 * runs at every switch. */
class RunSet {
 public:
  void set_size(unsigned n) { words_ = (n + 63) / 64; }  // per launch, before any block
  void fill(unsigned n) {                                // threads [0, n) runnable
    for (unsigned k = 0; k < words_; k++) {
      unsigned lo = k * 64;
      w_[k].set(n >= lo + 64 ? ~uint64_t{0} : (n > lo ? (uint64_t{1} << (n - lo)) - 1 : 0));
    }
  }
  void add(unsigned i) { word(i).set(word(i).get() | bit(i)); }
  void remove(unsigned i) { word(i).set(word(i).get() & ~bit(i)); }
  int lowest() const {  // -1 when empty
    for (unsigned k = 0; k < words_; k++)
      if (uint64_t v = w_[k].get()) return static_cast<int>(k * 64 + __builtin_ctzll(v));
    return -1;
  }
  int highest() const {
    for (unsigned k = words_; k-- > 0;)
      if (uint64_t v = w_[k].get()) return static_cast<int>(k * 64 + 63 - __builtin_clzll(v));
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
  unsigned count() const {
    unsigned c = 0;
    for (unsigned k = 0; k < words_; k++)
      c += static_cast<unsigned>(__builtin_popcountll(w_[k].get()));
    return c;
  }
  int nth(unsigned n) const {  // the n-th runnable thread in ascending order
    for (unsigned k = 0; k < words_; k++) {
      uint64_t v = w_[k].get();
      unsigned c = static_cast<unsigned>(__builtin_popcountll(v));
      if (n >= c) {
        n -= c;
        continue;
      }
      while (n--) v &= v - 1;  // drop the n lowest set bits
      return static_cast<int>(k * 64 + __builtin_ctzll(v));
    }
    return -1;
  }

 private:
  Relaxed<uint64_t> &word(unsigned i) { return w_[i >> 6]; }
  static uint64_t bit(unsigned i) { return uint64_t{1} << (i & 63); }
  Relaxed<uint64_t> w_[kMaxBlockThreads / 64];
  unsigned words_ = 0;
};

/* Next thread to run under `schedule` (RF_SIM_SCHED_*), or -1 when none is runnable.
 * wave-skew runs the lanes of skew_wave first (they run ahead to their next barrier or
 * exit), then the rest in order. */
inline int pick_next(const RunSet &run, int schedule, Prng &rng, unsigned skew_wave, unsigned wave,
                     unsigned nthreads) {
  switch (schedule) {
    case 1:  // reverse
      return run.highest();
    case 2: {  // random
      unsigned c = run.count();
      return c ? run.nth(rng.below(c)) : -1;
    }
    case 3: {  // wave-skew
      unsigned lo = skew_wave * wave, hi = lo + wave < nthreads ? lo + wave : nthreads;
      int i = run.lowest_in(lo, hi);
      return i >= 0 ? i : run.lowest();
    }
    default:  // in-order
      return run.lowest();
  }
}

}  // namespace rf_sim
#endif
