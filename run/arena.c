#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "kernels/harness/device.h"
#include "kernels/harness/verdict_device.h"
#include "model/oom.h"

/* Below this size a whole-arena download is cheaper than one small copy per guard zone. */
#define RF_ARENA_WHOLE_FETCH (4u << 20)

/* Larger host images are ordinary memory (arena.h). */
#define RF_ARENA_PINNED_MAX (64u << 20)

static void free_image(rf_arena *a) {
  if (a->image_pinned) rf_dev_host_free(a->image);
  else free(a->image);
  a->image = NULL;
  a->image_cap = 0;
}

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

void rf_arena_reset(rf_arena *a) {
  a->n = 0;
  a->used = 0;
}

static int add_slot(rf_arena *a, size_t bytes, const void *src, int fetch) {
  if (a->n == a->slot_cap) {
    size_t cap = a->slot_cap ? 2 * a->slot_cap : 32;
    rf_arena_slot *s = realloc(a->slot, cap * sizeof *s);
    if (!s) return -1;
    a->slot = s;
    a->slot_cap = cap;
  }
  size_t off = a->used + RF_GUARD_BYTES;
  a->slot[a->n] = (rf_arena_slot){off, bytes, 0, src, fetch};
  a->used = round_up(off + bytes + RF_GUARD_BYTES, RF_GUARD_BYTES);
  return (int)a->n++;
}

int rf_arena_add(rf_arena *a, size_t bytes, int fetch) { return add_slot(a, bytes, NULL, fetch); }

int rf_arena_add_input(rf_arena *a, const void *src, size_t bytes, size_t pad) {
  int i = add_slot(a, pad + bytes, src, 0);
  if (i >= 0) a->slot[i].pad = pad;
  return i;
}

/* The trailing guard of slot i: from the end of its payload to the next slot's leading guard
 * (or the end of the arena). */
static size_t guard_after_end(const rf_arena *a, size_t i) {
  return i + 1 < a->n ? a->slot[i + 1].off - RF_GUARD_BYTES : a->used;
}

/* The 32-bit pattern `bits` as if tiled from offset 0 of the image, over [from, to): a zone may
 * start or end mid-word (a payload need not be a multiple of 4 bytes). */
static void fill_tiled(unsigned char *img, size_t from, size_t to, uint32_t bits) {
  const unsigned char *b = (const unsigned char *)&bits;
  size_t i = from;
  for (; i < to && i % 4; i++) img[i] = b[i % 4];
  for (; i + 4 <= to; i += 4) memcpy(img + i, &bits, 4);
  for (; i < to; i++) img[i] = b[i % 4];
}

static int is_tiled(const unsigned char *img, size_t from, size_t to, uint32_t bits) {
  const unsigned char *b = (const unsigned char *)&bits;
  size_t i = from;
  for (; i < to && i % 4; i++)
    if (img[i] != b[i % 4]) return 0;
  for (; i + 4 <= to; i += 4)
    if (memcmp(img + i, &bits, 4) != 0) return 0;
  for (; i < to; i++)
    if (img[i] != b[i % 4]) return 0;
  return 1;
}

/* Makes room on the device and in the host image for `used` bytes. 0 or -1. */
static int make_room(rf_arena *a) {
  if (a->used > a->dev_cap || (a->exact && a->used != a->dev_cap)) {
    size_t cap = a->exact || a->used > 2 * a->dev_cap ? a->used : 2 * a->dev_cap;
    void *p = NULL;
    /* Out of memory is the case's size, not the variant's doing (scratch is capped: runner.c
     * prepare): no verdict to blame on a variant, the process cannot run this case. */
    int e = rf_dev_alloc(&p, cap);
    if (e == RF_DEV_OUT_OF_MEMORY) rf_oom_exit("device memory for a batch's buffers", cap);
    if (e) return -1;
    rf_dev_free(a->dev);
    a->dev = p;
    a->dev_cap = cap;
  }
  if (a->used > a->image_cap) {
    size_t cap = a->used > 2 * a->image_cap ? a->used : 2 * a->image_cap;
    void *p = NULL;
    /* Page-locked up to RF_ARENA_PINNED_MAX (it cannot be swapped: several fuzz jobs hold
     * one each); bigger cases are slow anyway and use ordinary memory. */
    int pinned = cap <= RF_ARENA_PINNED_MAX;
    int e = pinned ? rf_dev_host_alloc(&p, cap) : (p = malloc(cap)) ? 0 : RF_DEV_OUT_OF_MEMORY;
    if (e == RF_DEV_OUT_OF_MEMORY) rf_oom_exit("host memory for a batch's input image", cap);
    if (e) return -1;
    free_image(a);
    a->image = p;
    a->image_cap = cap;
    a->image_pinned = pinned;
  }
  return 0;
}

/* Slot i's guards and payload in the host image. Input guards hold FLT_MAX (buffers.h): an
 * over-read shows up in the result. */
static void fill_slot(rf_arena *a, size_t i) {
  unsigned char *img = a->image;
  const rf_arena_slot *s = &a->slot[i];
  const uint32_t guard = s->src ? RF_INPUT_GUARD_BITS : RF_GUARD_BITS;
  const size_t tail = s->off + s->bytes;
  fill_tiled(img, s->off - RF_GUARD_BYTES, s->off + s->pad, guard);
  if (s->src) memcpy(img + s->off + s->pad, s->src, s->bytes - s->pad);
  else fill_tiled(img, s->off, tail, RF_POISON_BITS);
  fill_tiled(img, tail, guard_after_end(a, i), guard);
}

int rf_arena_commit(rf_arena *a) {
  if (a->used == 0) return 0;
  if (make_room(a)) return -1;
  /* Slots are contiguous, so their guards, payloads and trailing guards cover the image:
   * each byte is written once. */
  for (size_t i = 0; i < a->n; i++) fill_slot(a, i);
  return rf_dev_upload(a->dev, a->image, a->used);
}

int rf_arena_commit_device_fill(rf_arena *a) {
  if (a->used == 0) return 0;
  if (make_room(a)) return -1;
  /* Runs of small slots go up from the image; each big output or scratch slot, guards and
   * all, is written on the device. */
  size_t start = 0;
  for (size_t i = 0; i < a->n; i++) {
    const rf_arena_slot *s = &a->slot[i];
    const size_t from = s->off - RF_GUARD_BYTES, end = guard_after_end(a, i);
    if (s->src || s->bytes < RF_ARENA_DEVICE_FILL_MIN) {
      fill_slot(a, i);
      continue;
    }
    if (from > start && rf_dev_upload(a->dev + start, a->image + start, from - start)) return -1;
    if (rf_vd_fill_launch(a->dev, from, s->off, s->bytes, end, RF_GUARD_BITS, RF_POISON_BITS,
                          NULL))
      return -1;
    start = end;
  }
  return a->used > start ? rf_dev_upload(a->dev + start, a->image + start, a->used - start) : 0;
}

void *rf_arena_dev(const rf_arena *a, int slot) { return a->dev + a->slot[slot].off; }

int rf_arena_fetch(rf_arena *a) {
  if (a->used == 0) return 0;
  unsigned char *img = a->image;
  if (a->used <= RF_ARENA_WHOLE_FETCH) return rf_dev_download(img, a->dev, a->used);
  /* The fetched slots form a prefix: one copy up to the end of the last one's guard. */
  size_t prefix = 0, i = 0;
  while (i < a->n && a->slot[i].fetch) prefix = guard_after_end(a, i++);
  if (prefix && rf_dev_download(img, a->dev, prefix)) return -1;
  for (; i < a->n; i++) {
    const rf_arena_slot *s = &a->slot[i];
    if (s->fetch) return -1;   /* not a prefix: a caller bug */
    if (s->src) continue;      /* the input: nothing to check */
    size_t lead = s->off - RF_GUARD_BYTES, tail = s->off + s->bytes;
    if (rf_dev_download(img + lead, a->dev + lead, RF_GUARD_BYTES) ||
        rf_dev_download(img + tail, a->dev + tail, guard_after_end(a, i) - tail))
      return -1;
  }
  return 0;
}

size_t rf_arena_guard_end(const rf_arena *a, int slot) { return guard_after_end(a, (size_t)slot); }

int rf_arena_fetch_range(rf_arena *a, int first, int last) {
  if (first < 0 || last < first || (size_t)last >= a->n) return -1;
  size_t from = a->slot[first].off - RF_GUARD_BYTES, to = guard_after_end(a, (size_t)last);
  return rf_dev_download(a->image + from, a->dev + from, to - from);
}

int rf_arena_refill(rf_arena *a, int slot, uint32_t bits) {
  if (slot < 0 || (size_t)slot >= a->n || a->slot[slot].src) return -1;
  const rf_arena_slot *s = &a->slot[slot];
  const size_t from = s->off - RF_GUARD_BYTES, tail = s->off + s->bytes,
               end = guard_after_end(a, (size_t)slot);
  fill_tiled(a->image, from, s->off, RF_GUARD_BITS);
  fill_tiled(a->image, s->off, tail, bits);
  fill_tiled(a->image, tail, end, RF_GUARD_BITS);
  return rf_dev_upload(a->dev + from, a->image + from, end - from);
}

const char *rf_arena_check(const rf_arena *a, int slot) {
  const unsigned char *img = a->image;
  const rf_arena_slot *s = &a->slot[slot];
  if (!is_tiled(img, s->off - RF_GUARD_BYTES, s->off, RF_GUARD_BITS)) return "before the buffer";
  if (!is_tiled(img, s->off + s->bytes, guard_after_end(a, (size_t)slot), RF_GUARD_BITS))
    return "after the buffer";
  return NULL;
}

const void *rf_arena_host(const rf_arena *a, int slot) {
  return a->image + a->slot[slot].off;
}

void rf_arena_free(rf_arena *a) {
  rf_dev_free(a->dev);
  free_image(a);
  free(a->slot);
  memset(a, 0, sizeof *a);
}
