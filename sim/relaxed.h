/* Scheduler bookkeeping that several fibers touch. Relaxed atomics: under ThreadSanitizer
 * an atomic access never races and a relaxed one creates no happens-before edge, so the
 * simulator's own state neither produces false reports nor hides a race between GPU
 * threads. Outside the ThreadSanitizer build they ARE ordinary loads and stores: there an
 * engine's state is only ever touched by the one host thread that runs its blocks (parallel
 * workers have engines of their own, read by the launching thread only after a mutex), and
 * a relaxed atomic would still keep the compiler from merging or reusing loads across a
 * switch's bookkeeping (docs/SIMULATOR.md, "Performance": what that cost per switch).
 * The __atomic builtins (not std::atomic, whose members are not all always-inline) keep
 * every access inline: the race reporter reads engine state from inside ThreadSanitizer's
 * report hook, where an out-of-line call into instrumented code can hang the runtime (see
 * tsan_report.cpp; it matters when the simulator itself is built instrumented). */
#ifndef RF_SIM_RELAXED_H
#define RF_SIM_RELAXED_H

namespace rf_sim {

template <typename T>
class Relaxed {
 public:
  constexpr Relaxed(T v = T()) : v_(v) {}
  Relaxed(const Relaxed &) = delete;
  Relaxed &operator=(const Relaxed &) = delete;
#if defined(RF_TSAN) && RF_TSAN
  __attribute__((always_inline)) T get() const { return __atomic_load_n(&v_, __ATOMIC_RELAXED); }
  __attribute__((always_inline)) void set(T v) { __atomic_store_n(&v_, v, __ATOMIC_RELAXED); }
#else
  __attribute__((always_inline)) T get() const { return v_; }
  __attribute__((always_inline)) void set(T v) { v_ = v; }
#endif

 private:
  T v_;
};

}  // namespace rf_sim
#endif
