#include <stdlib.h>
#include <string.h>
#include "buffers.h"

void *rf_host_buf_get(rf_host_buf *b, size_t bytes) {
  if (bytes > b->cap) {
    void *p = realloc(b->p, bytes);
    if (!p) return NULL;
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
  for (size_t i = 0; i + 4 <= bytes; i += 4) {
    uint32_t w;
    memcpy(&w, p + i, 4);
    if (w == RF_POISON_BITS) return i / 4;
  }
  return (size_t)-1;
}

unsigned rf_input_misalign(const rf_case *c) { return (unsigned)(c->seed >> 62); }

