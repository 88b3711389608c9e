/* Fiber stacks, numbered, allocated on first use and kept for the life of the process
 * (every block and launch reuses them). Each has an inaccessible guard page below it, so an
 * overflow faults instead of corrupting a neighbour. A fixed table, no allocation: stacks of
 * the pool are made inside fibers too, where a heap allocation would be a race between GPU
 * threads in the ThreadSanitizer build's eyes. */
#ifndef RF_SIM_FIBER_STACKS_H
#define RF_SIM_FIBER_STACKS_H
#include <stddef.h>

namespace rf_sim {

class FiberStacks {
 public:
  ~FiberStacks();
  static constexpr unsigned kCount = 8192;  // 8 workers (or two TSan sets) of 1024 threads
  /* The usable stack number i (< kCount): [*lo, *lo + *size). */
  void get(unsigned i, char **lo, size_t *size);

 private:
  char *maps_[kCount] = {};
};

}  // namespace rf_sim
#endif
