#include "lds.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <atomic>
#include "engine.h"
#include "sanitizer_hooks.h"

namespace rf_sim {

/* Sanitizer builds: room for the 64 KiB limit plus red zones between up to 128
 * declarations. */
static constexpr size_t kRedzone = san::asan ? 64 : 0;
static constexpr size_t kArenaBytes = kLdsLimit + 128 * 64;
/* Plain build: a slot per declaration, 64 KiB of data then a 64 KiB guard (an overrun of
 * up to 64 KiB faults; ThreadSanitizer's signal handling must not meet a fault, and
 * AddressSanitizer bounds declarations itself, so they keep the arena). */
static constexpr bool kGuarded = !san::asan && !san::tsan;
static constexpr size_t kSlotData = kLdsLimit;
static constexpr size_t kSlotBytes = 2 * kLdsLimit;
static constexpr unsigned kSlots = 129;
static constexpr size_t kMapBytes = kGuarded ? kSlots * kSlotBytes : kArenaBytes;

static size_t align_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }
static size_t align_down(size_t v, size_t a) { return v & ~(a - 1); }

static char *map_arena(char *at) {
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0) | (kGuarded ? MAP_NORESERVE : 0);
  void *p = mmap(at, kMapBytes, kGuarded ? PROT_NONE : PROT_READ | PROT_WRITE, flags, -1, 0);
  if (p == MAP_FAILED) out_of_memory("mapping the LDS arena");
  char *base = static_cast<char *>(p);
  for (unsigned k = 0; kGuarded && k < kSlots; k++)
    if (mprotect(base + k * kSlotBytes, kSlotData, PROT_READ | PROT_WRITE))
      out_of_memory("mapping the LDS arena");
  return base;
}

void Lds::begin_launch(size_t dynamic_bytes) {
  if (!arena_) arena_ = map_arena(nullptr);
  dynamic_ = dynamic_bytes;
  high_water_ = 0;
  // Plain build: the dynamic LDS ends at slot 0's guard (16-byte aligned, as HIP gives it).
  dynamic_base_ = kGuarded ? arena_ + align_down(kSlotData - dynamic_bytes, 16) : arena_;
}

bool Lds::guard_hit(const void *addr, LdsHit *hit) const {
  if (!kGuarded || !arena_) return false;
  uintptr_t a = reinterpret_cast<uintptr_t>(addr), b = reinterpret_cast<uintptr_t>(arena_);
  if (a < b || a >= b + kMapBytes) return false;
  size_t rel = a - b, k = rel / kSlotBytes;
  if (rel % kSlotBytes < kSlotData) return false;
  *hit = LdsHit{nullptr, 0, 0, 0, k == 0};
  if (k == 0) {
    hit->bytes = dynamic_;
    hit->past = rel - static_cast<size_t>(dynamic_base_ - arena_) - dynamic_;
  } else if (k < placed_count_.get()) {
    const Placed &p = placed_[k];
    hit->file = p.file;
    hit->line = p.line;
    hit->bytes = p.bytes;
    hit->past = rel - p.start - p.bytes;
  }
  return true;
}

void Lds::begin_block() {
  static std::atomic<uint64_t> serial{0};  // unique across launches and workers
  serial_.set(serial.fetch_add(1, std::memory_order_relaxed) + 1);
  if (kGuarded) {
    size_t start = static_cast<size_t>(dynamic_base_ - arena_);
    fill_poison(start, start + dynamic_);
    placed_count_.set(1);
    logical_.set(dynamic_);
    return;
  }
  // Under ThreadSanitizer the previous block's accesses must not meet this block's: mapping
  // fresh pages resets their shadow, with no happens-before edge between the two blocks.
  if (san::tsan) map_arena(arena_);
  size_t first = align_up(dynamic_ + kRedzone, 16);
  size_t fill = high_water_ > first ? high_water_ : first;
  san::unpoison(arena_, kArenaBytes);
  fill_poison(0, fill);
  san::poison(arena_, kArenaBytes);
  san::unpoison(arena_, dynamic_);
  filled_.set(fill);
  top_.set(dynamic_);
  logical_.set(dynamic_);
}

bool Lds::contains(const void *p) const {
  const char *c = static_cast<const char *>(p);
  return arena_ && c >= arena_ && c < arena_ + kMapBytes;
}

void Lds::end_block() {
  size_t top = top_.get();
  if (top > high_water_) high_water_ = top;
}

void Lds::fill_poison(size_t from, size_t to) {
  // Byte k of the arena holds byte (k mod 4) of the little-endian poison word, so every
  // 4-byte-aligned float or int reads as kPoisonBits.
  unsigned char pattern[4];
  memcpy(pattern, &kPoisonBits, 4);
  size_t k = from;
  for (; k < to && (k & 3); k++) arena_[k] = static_cast<char>(pattern[k & 3]);
  uint32_t *w = reinterpret_cast<uint32_t *>(arena_ + k);
  for (; k + 4 <= to; k += 4) *w++ = kPoisonBits;
  for (; k < to; k++) arena_[k] = static_cast<char>(pattern[k & 3]);
}

/* The first thread of this block to reach the declaration places it (place, lds.h, for the
 * others). */
void *Lds::place_first(LdsSite *shared, size_t bytes, size_t align, const char *file, int line,
                       SyncCells &cells) {
  uint64_t serial = serial_.get();
  LdsSite::PerWorker *site = &shared->worker[worker_];
  size_t a = align < 16 ? 16 : align;
  size_t logical = align_up(logical_.get(), align) + bytes;
  if (logical > kLdsLimit)
    abandon_in_fiber(RF_SIM_LAUNCH_ERROR,
                     "LDS limit: the declaration at %s:%d (%zu bytes) brings the block to "
                     "%zu bytes (dynamic %zu), above %zu",
                     short_path(file), line, bytes, logical, dynamic_, kLdsLimit);
  if (kGuarded) {
    // The declaration ends where its slot's data does: the first byte past it is the guard.
    unsigned k = placed_count_.get();
    if (k >= kSlots)
      abandon_in_fiber(RF_SIM_LAUNCH_ERROR,
                       "LDS: too many declarations for the simulator's arena at %s:%d",
                       short_path(file), line);
    size_t start = k * kSlotBytes + align_down(kSlotData - bytes, align ? align : 1);
    placed_[k] = Placed{file, line, bytes, start};
    placed_count_.set(k + 1);
    logical_.set(logical);
    fill_poison(start, start + bytes);
    uintptr_t sync = cells.take();
    san::release(sync);
    site->sync.store(sync, std::memory_order_relaxed);
    site->offset.store(static_cast<uint32_t>(start), std::memory_order_relaxed);
    site->block_serial.store(serial, std::memory_order_relaxed);
    return arena_ + start;
  }
  size_t off = align_up(top_.get() + kRedzone, a);
  if (off + bytes + kRedzone > kArenaBytes)
    abandon_in_fiber(RF_SIM_LAUNCH_ERROR,
                     "LDS: too many declarations for the simulator's arena at %s:%d",
                     short_path(file), line);
  top_.set(off + bytes);
  logical_.set(logical);
  san::unpoison(arena_ + off, bytes);
  size_t filled = filled_.get();
  if (off + bytes > filled) {
    fill_poison(off > filled ? off : filled, off + bytes);
    filled_.set(off + bytes);
  }
  // Threads that reach the declaration later see the poison written above.
  uintptr_t sync = cells.take();
  san::release(sync);
  site->sync.store(sync, std::memory_order_relaxed);
  site->offset.store(static_cast<uint32_t>(off), std::memory_order_relaxed);
  site->block_serial.store(serial, std::memory_order_relaxed);
  san::acquire(site->sync.load(std::memory_order_relaxed));
  return arena_ + site->offset.load(std::memory_order_relaxed);
}

}  // namespace rf_sim
