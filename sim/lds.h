/* The LDS of the running block, poisoned with NaN (kPoisonBits) as a block starts using it.
 * Plain build: each declaration (the launch's dynamic LDS, then the RF_SHARED declarations
 * in the order threads first reach them) has its own 64 KiB slot and ends where the slot
 * does, at a 64 KiB inaccessible guard, so an access past its end faults and the fault
 * handler (faults.cpp) reports `oob` naming the declaration (docs/SIMULATOR.md, "LDS
 * bounds"). Sanitizer builds: one contiguous arena; under AddressSanitizer every declaration
 * is fenced by poisoned red zones, so an overrun is reported at the line that makes it. */
#ifndef RF_SIM_LDS_H
#define RF_SIM_LDS_H
#include <stddef.h>
#include <stdint.h>
#include "relaxed.h"
#include "sanitizer_hooks.h"
#include "sim_port.h"

namespace rf_sim {

struct LdsSite;
class SyncCells;

/* Where a faulting address lies relative to the block's LDS declarations (plain build). */
struct LdsHit {
  const char *file;    // the declaration's file and line; null for the dynamic LDS or a
  int line;            // guard after no declaration
  size_t bytes;        // its size
  size_t past;         // byte offset of the address past its end
  bool dynamic;        // the launch's dynamic LDS (RF_DYN_SHARED)
};

class Lds {
 public:
  /* Host, before a launch. */
  void begin_launch(size_t dynamic_bytes);
  /* Host, before each block: a fresh poisoned arena for a new block serial. */
  void begin_block();
  /* Host, after each block. */
  void end_block();
  void *dynamic_base() const { return dynamic_base_; }
  /* Async-signal-safe: true when addr is in a guard after one of this block's declarations. */
  bool guard_hit(const void *addr, LdsHit *hit) const;
  /* The worker host thread whose blocks use this arena (its slot in every LdsSite). */
  void set_worker(unsigned w) { worker_ = w; }
  /* Whether p points into this arena (an LDS atomic concerns the block alone). */
  bool contains(const void *p) const;
  /* In a fiber: the declaration's memory in this block; abandons the launch when the block
   * would exceed 64 KiB. */
  void *place(LdsSite *site, size_t bytes, size_t align, const char *file, int line,
              SyncCells &cells) {
    // Inline for every thread after the block's first at the declaration (all but one).
    LdsSite::PerWorker &w = site->worker[worker_];
    if (__builtin_expect(w.block_serial.load(std::memory_order_relaxed) != serial_.get(), 0))
      return place_first(site, bytes, align, file, line, cells);
    san::acquire(w.sync.load(std::memory_order_relaxed));
    return arena_ + w.offset.load(std::memory_order_relaxed);
  }

 private:
  void *place_first(LdsSite *site, size_t bytes, size_t align, const char *file, int line,
                    SyncCells &cells);
  void fill_poison(size_t from, size_t to);
  struct Placed {
    const char *file;
    int line;
    size_t bytes, start;   // start: offset in the arena
  };
  static constexpr unsigned kMaxPlaced = 129;   // the dynamic LDS and 128 declarations
  char *arena_ = nullptr;
  char *dynamic_base_ = nullptr;
  Relaxed<unsigned> placed_count_;   // plain build: slots in use by this block
  Placed placed_[kMaxPlaced];
  unsigned worker_ = 0;
  size_t dynamic_ = 0;
  size_t high_water_ = 0;     // largest arena extent of a block of this launch
  Relaxed<uint64_t> serial_;  // which block the arena belongs to
  Relaxed<size_t> top_;       // end of the last placed declaration
  Relaxed<size_t> logical_;   // bytes in use as a GPU would count them
  Relaxed<size_t> filled_;    // [0, filled_) holds poison or data of this block
};

}  // namespace rf_sim
#endif
