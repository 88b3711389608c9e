/* A plain HIP logsumexp with one wave a row: each lane folds a strided part of the row, the row's
 * max and then its sum of exp(x - max) by __shfl_xor_sync butterflies (every lane ends with
 * the row's value), lane 0 writes max + logf(sum). An element equal to the max adds exactly 1,
 * so a row whose max is +inf gives +inf and a row of only -inf gives -inf (the logsumexp
 * rules); a NaN gives NaN through its exp.
 *   logsumexp/plain-lse-xor         correct: HIP's 64-bit full mask, right on waves of 32 and 64
 *   logsumexp/plain-lse-xor-mask32  planted porting bug: CUDA's full mask 0xffffffff, cast to
 *                                   the 64 bits HIP's _sync functions require (a 32-bit mask
 *                                   does not compile with ROCm 6.2 and later), which still names
 *                                   lanes 0..31 only: right on a wave of 32; on a wave of 64 the
 *                                   simulator reports the mask (divergent-barrier naming the
 *                                   lane, the mask and the line) */
#include <hip/hip_runtime.h>
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

__global__ void lse_xor_kernel(const float *__restrict__ x, unsigned rows, unsigned cols,
                               float *__restrict__ out, unsigned long long mask) {
  const unsigned lane = threadIdx.x % warpSize;
  const unsigned rows_per_block = blockDim.x / warpSize;
  for (unsigned r = blockIdx.x * rows_per_block + threadIdx.x / warpSize; r < rows;
       r += gridDim.x * rows_per_block) {
    const float *xr = x + (size_t)r * cols;
    float m = -INFINITY;
    for (unsigned c = lane; c < cols; c += warpSize) m = fmaxf(m, xr[c]);
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
      m = fmaxf(m, __shfl_xor_sync(mask, m, offset));
    float s = 0.0f;
    for (unsigned c = lane; c < cols; c += warpSize) s += xr[c] == m ? 1.0f : expf(xr[c] - m);
    for (int offset = warpSize / 2; offset > 0; offset /= 2) s += __shfl_xor_sync(mask, s, offset);
    if (lane == 0) out[r] = m + logf(s);
  }
}

/* Host code only from here (plugin.h, HOST-CODE GUARD). */
#if !defined(__HIP_DEVICE_COMPILE__)

static const char *lse_xor_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, 256, cfg->wave, 1024, 1);
  if (why) return why;
  cfg->items = 0;
  const uint64_t need = rf_div_ceil(cfg->rows, cfg->block / cfg->wave);
  if (cfg->grid == 0) cfg->grid = (uint32_t)(need == 0 ? 1 : need < 65535 ? need : 65535);
  else if (cfg->grid > 65535)
    return rf_reason("grid %u is not supported (allowed: 1..65535)", cfg->grid);
  return NULL;
}

static size_t lse_xor_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* The exp sum: a lane's columns, then the wave's butterfly. */
static void lse_xor_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->exp = RF_EXP_ACCURATE;
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->cols, cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
}

template <unsigned long long kMask>
static int lse_xor_launch(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0) return 0;
  lse_xor_kernel<<<c->grid, c->block, 0, (hipStream_t)a->stream>>>(a->x, c->rows, c->cols,
                                                                   (float *)a->out, kMask);
  return (int)hipGetLastError();
}

#define LSE_XOR_CONSTRAINTS "wave 32 or 64; block power of two, wave..1024 (a row a wave)"
static const rf_variant lse_xor = {
    "logsumexp/plain-lse-xor", RF_OP_LOGSUMEXP, 1, 0,
    "plain HIP: a row a wave, __shfl_xor_sync butterflies for max and sum (64-bit mask)",
    LSE_XOR_CONSTRAINTS, lse_xor_configure, lse_xor_scratch, lse_xor_plan,
    lse_xor_launch<0xffffffffffffffffull>, 0};
static const rf_variant lse_xor_mask32 = {
    "logsumexp/plain-lse-xor-mask32", RF_OP_LOGSUMEXP, 1, 1,
    "plain HIP, planted porting bug: CUDA's full mask 0xffffffff, which misses lanes 32..63",
    LSE_XOR_CONSTRAINTS, lse_xor_configure, lse_xor_scratch, lse_xor_plan,
    lse_xor_launch<(unsigned long long)0xffffffffu>, 0};
static const rf_variant *const variants[] = {&lse_xor, &lse_xor_mask32};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof variants / sizeof variants[0];
  return variants;
}
#endif
