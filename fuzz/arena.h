/* A device arena of guarded slots: every output (or scratch) buffer of one batch of launches
 * lives in one allocation, poisoned by one upload before the batch and read back by one
 * download after it. Layout per slot: guard | payload | guard (the trailing guard runs to
 * the next 256-byte boundary, so every payload starts 256-byte aligned). */
#ifndef RF_ARENA_H
#define RF_ARENA_H
#include <stddef.h>
#include "buffers.h"

typedef struct { size_t off, bytes; } rf_arena_slot;   /* off: the payload's offset */

typedef struct {
  unsigned char *dev;
  size_t dev_cap, used;
  rf_host_buf image;       /* poison image before the batch, the device's bytes after fetch */
  rf_arena_slot *slot;
  size_t n, slot_cap;
} rf_arena;

/* Forgets the slots (keeps the memory). */
void rf_arena_reset(rf_arena *a);
/* Adds a slot of `bytes` payload; returns its index, or -1 when out of host memory. */
int rf_arena_add(rf_arena *a, size_t bytes);
/* Makes room on the device and uploads guards and poison for every slot. 0 or -1. */
int rf_arena_commit(rf_arena *a);
void *rf_arena_dev(const rf_arena *a, int slot);
/* Downloads the arena into the host image: all of it, or, when the payloads are not needed
 * (scratch) and the arena is large, only the guard zones. 0 or -1. */
int rf_arena_fetch(rf_arena *a, int payloads);
/* After a fetch: NULL when both guards of the slot are intact, else which one is not. */
const char *rf_arena_check(const rf_arena *a, int slot);
/* After a fetch with payloads: the slot's bytes as the device left them. */
const void *rf_arena_host(const rf_arena *a, int slot);
void rf_arena_free(rf_arena *a);
#endif
