/* Fiber stacks, one per thread slot, allocated on first use and kept for the life of the
 * process (every block and launch reuses them). Each has an inaccessible guard page below
 * it, so an overflow faults instead of corrupting a neighbour. */
#ifndef RF_SIM_FIBER_STACKS_H
#define RF_SIM_FIBER_STACKS_H
#include <stddef.h>
#include <vector>

namespace rf_sim {

class FiberStacks {
 public:
  ~FiberStacks();
  /* The usable stack of slot i: [*lo, *lo + *size). */
  void get(unsigned i, char **lo, size_t *size);

 private:
  std::vector<char *> maps_;
};

}  // namespace rf_sim
#endif
