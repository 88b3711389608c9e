/* Device buffers with guard zones and poison, and growable host buffers (runner's memory). */
#ifndef RF_BUFFERS_H
#define RF_BUFFERS_H
#include <stddef.h>
#include <stdint.h>
#include "case.h"

#define RF_GUARD_BYTES 256
#define RF_POISON_BITS 0x7FBADBADu   /* a quiet NaN no kernel computes: "never written" */
#define RF_GUARD_BITS 0x7FA5A5A5u    /* guard zones around outputs and scratch */
/* Input guards hold FLT_MAX: a kernel that reads past its range adds or compares a value that
 * no generator produces, so the over-read shows up as a wrong or non-finite result. */
#define RF_INPUT_GUARD_BITS 0x7F7FFFFFu

typedef struct { void *p; size_t cap; } rf_host_buf;
/* Grows to at least bytes; returns the buffer (NULL on failure; NULL also for bytes 0 when
 * nothing was ever allocated, which callers treat as empty). */
void *rf_host_buf_get(rf_host_buf *b, size_t bytes);
void rf_host_buf_free(rf_host_buf *b);

typedef struct {
  unsigned char *base;     /* device allocation: guard | payload | guard */
  unsigned char *payload;
  size_t cap, used;
  rf_host_buf stage;       /* host image of guard | payload | guard */
} rf_guarded;

/* Ensures room for `bytes` of payload and makes it the current size. 0 or -1. */
int rf_guarded_reserve(rf_guarded *g, size_t bytes);
/* Fills the payload with RF_POISON_BITS and both guard zones with RF_GUARD_BITS. */
int rf_guarded_poison(rf_guarded *g);
/* NULL when both guards are intact, else "before the buffer" / "after the buffer". */
const char *rf_guarded_check(rf_guarded *g);
int rf_guarded_read(rf_guarded *g, void *host, size_t bytes);
void rf_guarded_free(rf_guarded *g);
/* Index of the first 32-bit word equal to RF_POISON_BITS, or (size_t)-1. */
size_t rf_find_poison(const void *host, size_t bytes);

/* The input: guard | `misalign` floats of guard | x | guard, where misalign = bits 62..63 of
 * the seed, so vector loads meet every alignment (docs/CASE_FORMAT.md). */
unsigned rf_input_misalign(const rf_case *c);
int rf_input_upload(rf_guarded *g, const rf_case *c, const float *x, uint64_t elems);
const float *rf_input_ptr(const rf_guarded *g, const rf_case *c);
#endif
