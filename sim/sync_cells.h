/* Addresses used only as ThreadSanitizer sync objects: one per barrier generation, per wave
 * collective, per LDS declaration of a block. Each gets a fresh address within a launch, so
 * a release/acquire pair orders exactly the GPU threads that met there (one shared object
 * would order everything after its first use and hide races). Reused from the start of the
 * region at the next launch: everything of the previous launch happens before it anyway. */
#ifndef RF_SIM_SYNC_CELLS_H
#define RF_SIM_SYNC_CELLS_H
#include <stddef.h>
#include <stdint.h>
#include "relaxed.h"
#include "sanitizer_hooks.h"

namespace rf_sim {

class SyncCells {
 public:
  // Host, at the start of a launch: also reserves the region there, so that its address is
  // written before any fiber reads it (the host's release before each block orders it).
  void reset() {
    if (san::tsan && !base_) take_cell();
    next_.set(0);
  }
  uintptr_t take() { return san::tsan ? take_cell() : 0; }  // 0 without race detection

 private:
  uintptr_t take_cell();
  char *base_ = nullptr;
  size_t count_ = 0;
  Relaxed<size_t> next_;
};

}  // namespace rf_sim
#endif
