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
