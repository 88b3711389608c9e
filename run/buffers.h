/* Guard and poison patterns (arena.h lays them out), and growable host buffers. */
#ifndef RF_BUFFERS_H
#define RF_BUFFERS_H
#include <stddef.h>
#include <stdint.h>
#include "model/case.h"

#define RF_GUARD_BYTES 256
/* A signalling NaN: arithmetic on it gives a quiet NaN, so only a word no kernel wrote keeps
 * these bits ("unwritten"). */
#define RF_POISON_BITS 0x7FBADBADu
#define RF_GUARD_BITS 0x7FA5A5A5u    /* guard zones around outputs and scratch */
/* Input guards hold FLT_MAX: a kernel that reads past its range adds or compares a value that
 * no generator produces, so the over-read shows up as a wrong or non-finite result. */
#define RF_INPUT_GUARD_BITS 0x7F7FFFFFu

typedef struct { void *p; size_t cap; } rf_host_buf;
/* Grows to at least bytes; returns the buffer (NULL for bytes 0 when nothing was ever
 * allocated, which callers treat as empty). Out of memory ends the process (model/oom.h). */
void *rf_host_buf_get(rf_host_buf *b, size_t bytes);
void rf_host_buf_free(rf_host_buf *b);

/* Index of the first 32-bit word equal to RF_POISON_BITS, or (size_t)-1. */
size_t rf_find_poison(const void *host, size_t bytes);
/* The same for an output of 16-bit elements: the index of the first element still holding
 * poison, as far as 16 bits can tell (buffers.c), or (size_t)-1. */
size_t rf_find_poison_half(const void *host, size_t bytes);

/* The input starts the case's `misalign` elements after a 256-byte boundary (the gap holds
 * guard values), so vector loads meet every alignment within 16 bytes (docs/CASE_FORMAT.md,
 * "Misaligned views"). */
unsigned rf_input_misalign(const rf_case *c);
#endif
