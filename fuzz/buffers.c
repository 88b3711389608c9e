#include <stdlib.h>
#include <string.h>
#include "buffers.h"
#include "../kernels/device.h"

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

static void fill_words(unsigned char *p, size_t bytes, uint32_t bits) {
  for (size_t i = 0; i + 4 <= bytes; i += 4) memcpy(p + i, &bits, 4);
}

int rf_guarded_reserve(rf_guarded *g, size_t bytes) {
  if (!g->base || bytes > g->cap) {
    size_t cap = bytes > 2 * g->cap ? bytes : 2 * g->cap;
    void *p = NULL;
    if (rf_dev_alloc(&p, cap + 2 * RF_GUARD_BYTES)) return -1;
    rf_dev_free(g->base);
    g->base = p;
    g->payload = g->base + RF_GUARD_BYTES;
    g->cap = cap;
  }
  g->used = bytes;
  return rf_host_buf_get(&g->stage, bytes + 2 * RF_GUARD_BYTES) ? 0 : -1;
}

int rf_guarded_poison(rf_guarded *g) {
  unsigned char *s = g->stage.p;
  size_t total = g->used + 2 * RF_GUARD_BYTES;
  fill_words(s, RF_GUARD_BYTES, RF_GUARD_BITS);
  fill_words(s + RF_GUARD_BYTES, g->used, RF_POISON_BITS);
  memset(s + RF_GUARD_BYTES + (g->used & ~(size_t)3), 0xAD, g->used & 3);
  fill_words(s + RF_GUARD_BYTES + g->used, RF_GUARD_BYTES, RF_GUARD_BITS);
  return rf_dev_upload(g->base, s, total);
}

static int guard_intact(const unsigned char *p) {
  for (size_t i = 0; i < RF_GUARD_BYTES; i += 4) {
    uint32_t w;
    memcpy(&w, p + i, 4);
    if (w != RF_GUARD_BITS) return 0;
  }
  return 1;
}

const char *rf_guarded_check(rf_guarded *g) {
  unsigned char z[RF_GUARD_BYTES];
  if (rf_dev_download(z, g->base, RF_GUARD_BYTES) || !guard_intact(z)) return "before the buffer";
  if (rf_dev_download(z, g->payload + g->used, RF_GUARD_BYTES) || !guard_intact(z))
    return "after the buffer";
  return NULL;
}

int rf_guarded_read(rf_guarded *g, void *host, size_t bytes) {
  return bytes ? rf_dev_download(host, g->payload, bytes) : 0;
}

void rf_guarded_free(rf_guarded *g) {
  rf_dev_free(g->base);
  rf_host_buf_free(&g->stage);
  memset(g, 0, sizeof *g);
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

int rf_input_upload(rf_guarded *g, const rf_case *c, const float *x, uint64_t elems) {
  size_t pad = rf_input_misalign(c) * sizeof(float);
  size_t bytes = pad + elems * sizeof(float);
  if (rf_guarded_reserve(g, bytes)) return -1;
  unsigned char *s = g->stage.p;
  fill_words(s, RF_GUARD_BYTES + pad, RF_INPUT_GUARD_BITS);
  if (elems) memcpy(s + RF_GUARD_BYTES + pad, x, elems * sizeof(float));
  fill_words(s + RF_GUARD_BYTES + bytes, RF_GUARD_BYTES, RF_INPUT_GUARD_BITS);
  return rf_dev_upload(g->base, s, bytes + 2 * RF_GUARD_BYTES);
}

const float *rf_input_ptr(const rf_guarded *g, const rf_case *c) {
  return (const float *)(g->payload + rf_input_misalign(c) * sizeof(float));
}
