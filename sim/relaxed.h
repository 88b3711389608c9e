/* Scheduler bookkeeping that several fibers touch. Relaxed atomics: under ThreadSanitizer
 * an atomic access never races and a relaxed one creates no happens-before edge, so the
 * simulator's own state neither produces false reports nor hides a race between GPU
 * threads. In plain builds they compile to ordinary loads and stores. */
#ifndef RF_SIM_RELAXED_H
#define RF_SIM_RELAXED_H
#include <atomic>

namespace rf_sim {

template <typename T>
class Relaxed {
 public:
  constexpr Relaxed(T v = T()) : v_(v) {}
  Relaxed(const Relaxed &) = delete;
  Relaxed &operator=(const Relaxed &) = delete;
  T get() const { return v_.load(std::memory_order_relaxed); }
  void set(T v) { v_.store(v, std::memory_order_relaxed); }

 private:
  std::atomic<T> v_;
};

}  // namespace rf_sim
#endif
