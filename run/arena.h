/* A device arena of guarded slots: every output (or scratch) buffer of one batch of launches
 * lives in one allocation, poisoned by one upload before the batch and read back by one
 * download after it. Layout per slot: guard | payload | guard (the trailing guard runs to
 * the next 256-byte boundary, so every payload starts 256-byte aligned). */
#ifndef RF_ARENA_H
#define RF_ARENA_H
#include <stddef.h>
#include <stdint.h>
#include "buffers.h"

/* off: the payload's offset. src: NULL for an output or scratch slot (poisoned), else the
 * input's bytes (guards then hold RF_INPUT_GUARD_BITS). fetch: read back after the batch. */
typedef struct { size_t off, bytes, pad; const void *src; int fetch; } rf_arena_slot;

typedef struct {
  unsigned char *dev;
  size_t dev_cap, used;
  int exact;               /* allocate exactly `used` bytes (simulator: a read or write past
                              the last slot's guard then hits AddressSanitizer's redzone) */
  unsigned char *image;    /* poison image before the batch, the device's bytes after fetch
                              (page-locked up to 64 MiB: one DMA each way, no staging copy) */
  size_t image_cap;
  int image_pinned;
  rf_arena_slot *slot;
  size_t n, slot_cap;
} rf_arena;

/* Forgets the slots (keeps the memory). */
void rf_arena_reset(rf_arena *a);
/* Adds a slot of `bytes` payload; returns its index, or -1 when out of host memory.
 * fetch: its payload is read back after the batch (outputs); otherwise only its guards
 * are (scratch). Add the fetched slots first: the read-back is one prefix of the arena. */
int rf_arena_add(rf_arena *a, size_t bytes, int fetch);
/* Adds an input slot: `pad` bytes of guard then the `bytes` at src (kept by the caller until
 * commit). Returns the slot index (its payload starts with the pad), or -1. */
int rf_arena_add_input(rf_arena *a, const void *src, size_t bytes, size_t pad);
/* Makes room on the device and uploads guards and poison for every slot. 0 or -1. */
int rf_arena_commit(rf_arena *a);
/* The same layout and contents, but the guards and poison of every output or scratch slot of
 * RF_ARENA_DEVICE_FILL_MIN bytes or more are written by a device kernel (enqueued on the
 * default stream, before anything launched later) instead of crossing the bus: for batches
 * whose big outputs are never read back whole (run/dev_verdicts.c). 0 or -1. */
#define RF_ARENA_DEVICE_FILL_MIN ((size_t)64 << 10)
int rf_arena_commit_device_fill(rf_arena *a);
void *rf_arena_dev(const rf_arena *a, int slot);
/* Downloads into the host image every fetched slot with its guards and the guard zones of
 * the others (a small arena comes back whole, in one copy). 0 or -1. */
int rf_arena_fetch(rf_arena *a);
/* Downloads into the host image slots first..last (consecutive), each with its guards, in one
 * copy: the few small slots a batch judged on the device needs (run/dev_verdicts.c). */
int rf_arena_fetch_range(rf_arena *a, int first, int last);
/* Where the trailing guard of a slot ends (the next slot's leading guard, or the arena's end),
 * in bytes from the arena's base; final once the next slot is added. */
size_t rf_arena_guard_end(const rf_arena *a, int slot);
/* An output or scratch slot made as the commit made it (guards, and `bits` tiled over the
 * payload where the commit wrote the poison), on the device: for a launch into it after the
 * batch, or scratch of another pattern (run/launch_checks.h). 0 or -1. */
int rf_arena_refill(rf_arena *a, int slot, uint32_t bits);
/* After a fetch: NULL when both guards of the slot are intact, else which one is not. */
const char *rf_arena_check(const rf_arena *a, int slot);
/* After a fetch, for a fetched slot: its bytes as the device left them. */
const void *rf_arena_host(const rf_arena *a, int slot);
void rf_arena_free(rf_arena *a);
#endif
