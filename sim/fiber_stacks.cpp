#include "fiber_stacks.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sanitizer_hooks.h"

namespace rf_sim {
[[noreturn]] void out_of_memory(const char *what);  // oom.cpp
}

namespace rf_sim {

/* 64 KiB is plenty for reduction kernels; sanitizer builds use more stack per frame and
 * run the sanitizer's report machinery on the fiber stack. */
static constexpr size_t kStackBytes = (san::tsan || san::asan) ? 512 * 1024 : 64 * 1024;
/* Stack tops at a multiple of 64 KiB would all fall into the same L1 and L2 cache sets, and
 * every switch to a fiber would miss: each slot's top is moved down by a different number
 * of cache lines (up to 32 KiB; the mapping is larger by that much). */
static constexpr size_t kStaggerBytes = 32 * 1024;
static size_t stagger(unsigned i) { return (i * 17u * 64u) % kStaggerBytes; }

static size_t page_bytes() {
  static size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

FiberStacks::~FiberStacks() {
  for (char *m : maps_)
    if (m) munmap(m, kStackBytes + kStaggerBytes + page_bytes());
}

void FiberStacks::get(unsigned i, char **lo, size_t *size) {
  if (i >= kCount) {
    fprintf(stderr, "rf-sim: fiber stack %u of at most %u\n", i, kCount);
    abort();
  }
  if (!maps_[i]) {
    size_t guard = page_bytes();
    void *p = mmap(nullptr, kStackBytes + kStaggerBytes + guard, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) out_of_memory("mapping a GPU thread's fiber stack");
    mprotect(p, guard, PROT_NONE);
    maps_[i] = static_cast<char *>(p);
  }
  *lo = maps_[i] + page_bytes();
  *size = kStackBytes + kStaggerBytes - stagger(i);
}

}  // namespace rf_sim
