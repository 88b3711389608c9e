/* The input check on the device (run/input_check.c, the GPUs' way): whether a variant changed
 * its input, found without reading anything back and put right before the next variant on
 * its stream. Before the variants, the input (as 32-bit words) is copied aside and hashed
 * chunk by chunk; after each variant's launch, on the same stream, a check kernel hashes the
 * input again, and in a chunk whose hash differs compares every word with the copy, notes the
 * first changed word and the count in the run's record, and writes the copy's words back.
 * An unchanged input costs one read of it a run. Written apart from every variant, integer
 * operations only, like the verdict kernels (verdict_device.h). */
#ifndef RF_INPUT_CHECK_DEVICE_H
#define RF_INPUT_CHECK_DEVICE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Words a block hashes: one hash each. */
#define RF_IC_CHUNK_WORDS 2048u

/* One run's record, zero before the run. first_inv: the largest ~w over the changed words w
 * (so ~first_inv is the first changed word; 0: none changed), changed: how many words
 * changed. */
typedef struct {
  unsigned long long first_inv;
  unsigned long long changed;
} rf_ic_record;

/* Chunks of `words` words: the hashes a check needs. */
static inline size_t rf_ic_chunks(size_t words) {
  return (words + RF_IC_CHUNK_WORDS - 1) / RF_IC_CHUNK_WORDS;
}

/* Enqueues, on stream (NULL = default): hashes[c] = the hash of words
 * [c * RF_IC_CHUNK_WORDS, (c + 1) * RF_IC_CHUNK_WORDS) of x (the last chunk shorter). 0 or the
 * launch error. */
int rf_ic_hash_launch(const uint32_t *x, size_t words, uint64_t *hashes, void *stream);
/* Enqueues, on stream: the check of x against its hashes; every word of a chunk whose hash
 * differs is compared with pristine, counted in rec when it differs and written back from
 * pristine. 0 or the launch error. */
int rf_ic_check_launch(uint32_t *x, const uint32_t *pristine, size_t words,
                       const uint64_t *hashes, rf_ic_record *rec, void *stream);

#ifdef __cplusplus
}
#endif
#endif
