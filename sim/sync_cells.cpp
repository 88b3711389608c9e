#include "sync_cells.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "sanitizer_hooks.h"

namespace rf_sim {
[[noreturn]] void out_of_memory(const char *what);  // oom.cpp
}

namespace rf_sim {

/* 8 M cells of 8 bytes: reserved address space, never touched (PROT_NONE). A launch that
 * needs more wraps around, which can only add happens-before edges (missed races, never
 * false ones); docs/SIMULATOR.md lists it among the limitations. */
static constexpr size_t kCellBytes = 8, kCells = size_t{1} << 23;

uintptr_t SyncCells::take_cell() {
  if (!base_) {
    void *p = mmap(nullptr, kCells * kCellBytes, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) out_of_memory("reserving the race detector's sync objects");
    base_ = static_cast<char *>(p);
    count_ = kCells;
  }
  size_t i = next_.get();
  next_.set(i + 1);
  return reinterpret_cast<uintptr_t>(base_ + (i % count_) * kCellBytes);
}

}  // namespace rf_sim
