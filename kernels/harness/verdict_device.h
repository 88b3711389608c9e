/* Device-side pieces of the verdicts (issue 12): guard zones written on the device, so that
 * buffers the device fills itself (inputs made by rf_gen_launch) need no upload at all; and
 * verdict records, so that a batch of 1-D cases is judged without reading back its buffers
 * (run/dev_verdicts.c says how the host uses them). */
#ifndef RF_VERDICT_DEVICE_H
#define RF_VERDICT_DEVICE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Enqueues, on stream (NULL = default), p[0 .. lead) = bits and
 * p[lead + skip .. lead + skip + tail) = bits: the guard zones around a payload of `skip`
 * words that something else fills. 0 or the launch error. */
int rf_vd_guards_launch(uint32_t *p, size_t lead, size_t skip, size_t tail, uint32_t bits,
                        void *stream);

/* Enqueues, on stream (NULL = default), the guard and poison pattern of one arena slot
 * (run/arena.h): bytes [from, off) and [off + bytes, end) of base get guard_bits, bytes
 * [off, off + bytes) poison_bits, each pattern tiled from base (byte i = byte i % 4 of the
 * little-endian word), as the arena's host image would hold them; from and end multiples of 4.
 * For big buffers: nothing then crosses the bus. 0 or the launch error. */
int rf_vd_fill_launch(void *base, uint64_t from, uint64_t off, uint64_t bytes, uint64_t end,
                      uint32_t guard_bits, uint32_t poison_bits, void *stream);

/* What to compare run 0's output with on the device (the device oracle's answer): its maximum
 * (and the index: ARGMAX) or its minimum (MIN, ARGMIN). */
enum { RF_VD_CHECK_NONE = 0, RF_VD_CHECK_MAX = 1, RF_VD_CHECK_ARGMAX = 2, RF_VD_CHECK_MIN = 3,
       RF_VD_CHECK_ARGMIN = 4 };

/* One variant of a batch, as laid out in the runner's arena (run/arena.h): offsets in bytes
 * from the arena's base. A slot's leading guard is the RF_GUARD_BYTES before its payload, its
 * trailing guard runs from the payload's end to *_end; every guard byte i (counted from the
 * base) must be byte i % 4 of the little-endian word guard_bits, every poisoned output word
 * that is still poison_bits was never written. */
typedef struct {
  uint64_t out_off[2], out_end[2];          /* run k's output (k = 1: the repeat) */
  uint64_t scratch_off[2], scratch_end[2];  /* run k's scratch (when scratch_bytes > 0) */
  int64_t oracle_off;                       /* the device oracle's record (rf_oracle_dev_out), or -1 */
  uint32_t out_bytes, scratch_bytes;
  uint32_t runs;                            /* 1, or 2 for a deterministic variant */
  uint32_t check;                           /* RF_VD_CHECK_* */
  uint32_t contract;                        /* the variant's RF_CONTRACT_* bits (variant.h):
                                               NaN propagates (want NaN at the first NaN),
                                               any tie (an index other than the first is
                                               left undecided: the host reads the element) */
  uint32_t index_bits;                      /* ARGMAX, ARGMIN: the variant's index_bits
                                               (variant.h): 64 reads rf_argmax_out64's index
                                               (got[2], got[3]), else rf_argmax_out's (got[1]) */
} rf_vd_item;

#define RF_VD_GUARD_OUT_BEFORE 1u
#define RF_VD_GUARD_OUT_AFTER 2u
#define RF_VD_GUARD_SCRATCH_BEFORE 4u
#define RF_VD_GUARD_SCRATCH_AFTER 8u
#define RF_VD_UNDECIDED 0u    /* no comparison on the device (sum, no device answer, or
                                 another index of a tie-any argmax's value) */
#define RF_VD_EQUAL 1u        /* run 0's output is the device oracle's answer (max, argmax) */
#define RF_VD_DIFFERENT 2u

/* What the device found for one variant: everything the host needs to give its verdict
 * without the buffers, as long as nothing failed. */
typedef struct {
  uint32_t got[4];     /* the first 16 bytes of run 0's output (a float, rf_argmax_out or
                          rf_argmax_out64) */
  uint32_t guard[2];   /* run k: RF_VD_GUARD_* bits of the guard zones found overwritten */
  int32_t poison[2];   /* run k: first output word still holding the poison, or -1 */
  uint32_t differ;     /* runs == 2: run 1's output bits differ from run 0's */
  uint32_t decided;    /* RF_VD_UNDECIDED, RF_VD_EQUAL or RF_VD_DIFFERENT */
} rf_vd_record;

/* Enqueues on stream (NULL = the default stream, which on GPUs waits for every earlier launch
 * of the runner's streams) the checks of items[0..n) (a device pointer into the arena that
 * starts at `arena`), writing records[0..n) (device memory). plant != 0: a test hook that
 * flips bit 0 of every record's got[0] after the checks (a device verdict that is wrong in a
 * way no guard shows), which the host's re-checks must catch. max_out_bytes: the largest
 * out_bytes among the items (big outputs get bigger blocks). 0 or the launch error. */
int rf_vd_check_launch(const void *arena, const rf_vd_item *items, uint32_t n,
                       rf_vd_record *records, uint32_t guard_bits, uint32_t poison_bits,
                       uint32_t plant, size_t max_out_bytes, void *stream);
#ifdef __cplusplus
}
#endif
#endif
