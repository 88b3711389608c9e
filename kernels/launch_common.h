/* Host-side helpers shared by the variant files: launch-parameter checks with readable
 * reasons, and default grids. Plain C/C++ (no device code), usable from any backend. */
#ifndef RF_LAUNCH_COMMON_H
#define RF_LAUNCH_COMMON_H
#include <stdarg.h>
#include <stdio.h>
#include "redfuzz/variant.h"

#ifdef __cplusplus
#define RF_THREAD_LOCAL static thread_local
#else
#define RF_THREAD_LOCAL static _Thread_local
#endif

/* fuzz_max_n of the row-per-thread variants (the 3kernel ones): one thread walks a whole row,
 * serially, so their time grows with the row length whatever the GPU: on an H200 at 1x4096
 * softmax/3kernel takes 0.48 ms, logsumexp/3kernel 0.53 ms, against 0.02-0.05 ms for the
 * block-per-row variants (`redfuzz run --shape 1x4096`, docs/RESULTS.md), and a 1x65536 row
 * takes milliseconds: the GPU time of such cases set a fuzz campaign's pace. A campaign runs
 * them up to 4096 elements (rows up to 4096 long: every column loop and tail of theirs);
 * sweeps, `run` and replays run them at every size. */
#define RF_ROW_PER_THREAD_FUZZ_MAX (UINT64_C(1) << 12)

/* Formats an `unsupported` reason into a per-thread buffer that lives until the next call. */
static inline const char *rf_reason(const char *fmt, ...) {
  RF_THREAD_LOCAL char buf[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

/* Block must be a power of two in [lo, hi] and a multiple of the wave size when `whole_waves`.
 * A request of 0 picks `def`. */
static inline const char *rf_pick_block_pow2(rf_launch_cfg *cfg, uint32_t def, uint32_t lo,
                                             uint32_t hi, int whole_waves) {
  if (cfg->block == 0) cfg->block = def;
  uint32_t b = cfg->block;
  if (b < lo || b > hi || (b & (b - 1)))
    return rf_reason("block %u is not supported (allowed: power of two in %u..%u)", b, lo, hi);
  if (whole_waves && b % cfg->wave)
    return rf_reason("block %u is not a multiple of the wave size %u", b, cfg->wave);
  return NULL;
}
#endif
