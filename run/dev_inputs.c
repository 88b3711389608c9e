/* The batch's inputs on the device (dev_inputs.h). */
#include <stdio.h>
#include "dev_inputs.h"
#include "sparse_input.h"
#include "harness_check.h"
#include "model/dtype.h"
#include "model/gen.h"
#include "kernels/harness/gen_device.h"
#include "kernels/harness/verdict_device.h"

static size_t round256(size_t v) { return (v + RF_GUARD_BYTES - 1) / RF_GUARD_BYTES * RF_GUARD_BYTES; }

/* After the commit: where each case's input lives on the device (bc->dev_x, what the
 * variants and the oracle read), and for inputs made on the device, their buffer laid out
 * as the arena lays out an input (guard | misalignment gap | payload | guard, guards of
 * FLT_MAX, buffers.h) with the guards and the payload written on the device. A 16-bit
 * payload (2 bytes an element, misaligned by whole elements) may start or end inside a
 * 32-bit word: the guard words then cover that word, and the generator, ordered after them
 * on the default stream, writes the payload's half of it. */
const char *rf_dev_inputs_place(rf_dev_inputs *di, batch_case *bcs, size_t nc,
                                const rf_arena *inputs) {
  size_t total = 0;
  for (size_t i = 0; i < nc; i++) {
    const size_t esz = rf_dtype_bytes(bcs[i].c->dtype), pad = rf_input_misalign(bcs[i].c) * esz;
    if (!bcs[i].dev_gen) {
      bcs[i].dev_x = (const float *)((const char *)rf_arena_dev(inputs, bcs[i].in_slot) + pad);
      continue;
    }
    if (bcs[i].sparse) {   /* run alone (route.c): its own buffer */
      const char *why = rf_sparse_input_make(&di->sparse, di->msg, sizeof di->msg, &bcs[i]);
      if (why) return why;
      di->sparse_made++;
      continue;
    }
    total = round256(total + RF_GUARD_BYTES + pad + bcs[i].elems * esz) + RF_GUARD_BYTES;
  }
  if (!total) return NULL;
  /* The simulator allocates exactly, as its input arena does (AddressSanitizer then bounds
   * the last guard). */
  if (total > di->gen_cap || (inputs->exact && total != di->gen_cap)) {
    void *p = NULL;
    if (rf_dev_alloc(&p, total)) return "cannot allocate the device buffer for inputs";
    rf_dev_free(di->gen);
    di->gen = p;
    di->gen_cap = total;
  }
  size_t off = 0;
  for (size_t i = 0; i < nc; i++) {
    if (!bcs[i].dev_gen || bcs[i].sparse) continue;
    const size_t esz = rf_dtype_bytes(bcs[i].c->dtype), pad = rf_input_misalign(bcs[i].c) * esz;
    const size_t bytes = bcs[i].elems * esz;
    const size_t end = round256(off + RF_GUARD_BYTES + pad + bytes) + RF_GUARD_BYTES;
    unsigned char *base = (unsigned char *)di->gen + off;
    void *x = base + RF_GUARD_BYTES + pad;
    /* guard words: up to the word holding the payload's first byte (included when the payload
     * starts inside it), and from the word holding its last byte (the same) */
    const size_t lead = (RF_GUARD_BYTES + pad + 3) / 4, words = (end - off) / 4;
    size_t tail_from = (RF_GUARD_BYTES + pad + bytes) / 4;
    if (tail_from < lead) tail_from = lead;   /* an empty payload */
    rf_harness_check_begin();
    int e = rf_vd_guards_launch((uint32_t *)base, lead, tail_from - lead, words - tail_from,
                                RF_INPUT_GUARD_BITS, NULL);
    if (!e) e = rf_gen_launch(bcs[i].c, x, NULL);
    const char *fail = rf_harness_check_end(
        e, "harness failure: the device input generator's launch failed", di->msg, sizeof di->msg);
    if (fail) return fail;
    bcs[i].dev_x = x;
    di->made++;
    off = end;
  }
  return NULL;
}

void rf_dev_inputs_free(rf_dev_inputs *di) {
  rf_dev_free(di->gen);
  di->gen = NULL;
  di->gen_cap = 0;
  rf_sparse_input_free(&di->sparse);
}
