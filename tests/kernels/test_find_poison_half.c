/* The unwritten check of 16-bit outputs (rf_find_poison_half, run/buffers.c): an element of a
 * poisoned output left as it was is found where 16 bits can tell it (the NaN half of the
 * poison word, at odd elements), and a fully written output shows none. */
#include <stdint.h>
#include <string.h>
#include "rf_test.h"
#include "run/buffers.h"

int main(void) {
  uint32_t words[8];
  for (int i = 0; i < 8; i++) words[i] = RF_POISON_BITS;
  uint16_t *h = (uint16_t *)words;
  /* nothing written: element 1 (the first odd one) still holds poison */
  CHECK(rf_find_poison_half(words, sizeof words) == 1);
  /* every element written (planted: then one odd element left) */
  for (int i = 0; i < 16; i++) h[i] = (uint16_t)(0x3C00u + i);
  CHECK(rf_find_poison_half(words, sizeof words) == (size_t)-1);
  h[7] = (uint16_t)(RF_POISON_BITS >> 16);
  CHECK(rf_find_poison_half(words, sizeof words) == 7);
  /* a one-element output (a 16-bit sum): only its value can tell, it is judged by it */
  CHECK(rf_find_poison_half(words, 2) == (size_t)-1);
  return rf_test_done();
}
