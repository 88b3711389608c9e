#include <stdlib.h>
#include <string.h>
#include "buffers.h"
#include "model/oom.h"

void *rf_host_buf_get(rf_host_buf *b, size_t bytes) {
  if (bytes > b->cap) {
    void *p = realloc(b->p, bytes);
    if (!p) rf_oom_exit("a host buffer of the runner", bytes);
    b->p = p;
    b->cap = bytes;
  }
  return b->p;
}

void rf_host_buf_free(rf_host_buf *b) {
  free(b->p);
  b->p = NULL;
  b->cap = 0;
}

size_t rf_find_poison(const void *host, size_t bytes) {
  const unsigned char *p = host;
  size_t words = bytes / 4;
  /* Almost every output is clean: first a branch-free count the compiler vectorises, then
   * the position only when there is one. */
  size_t hits = 0;
  for (size_t i = 0; i < words; i++) {
    uint32_t w;
    memcpy(&w, p + 4 * i, 4);
    hits += w == RF_POISON_BITS;
  }
  for (size_t i = 0; hits && i < words; i++) {
    uint32_t w;
    memcpy(&w, p + 4 * i, 4);
    if (w == RF_POISON_BITS) return i;
  }
  return (size_t)-1;
}

unsigned rf_input_misalign(const rf_case *c) { return c->misalign; }


size_t rf_find_poison_half(const void *host, size_t bytes) {
  /* 16-bit elements: the high half of the poison word (0x7FBA, a NaN in f16 and bf16) at an
   * odd element is poison left; the low half (0xDBAD) is an ordinary number in both types, so
   * an even element left unwritten is judged by its value (it is wrong unless the answer
   * happens to be that very number). */
  const unsigned char *p = host;
  const uint16_t hi = (uint16_t)(RF_POISON_BITS >> 16);
  for (size_t i = 1; 2 * i + 2 <= bytes; i += 2) {
    uint16_t h;
    memcpy(&h, p + 2 * i, 2);
    if (h == hi) return i;
  }
  return (size_t)-1;
}
