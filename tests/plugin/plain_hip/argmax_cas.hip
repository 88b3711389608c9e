/* A plain HIP argmax that packs (value, index) into one 64-bit key and merges keys with an
 * atomicCAS loop, as argmax kernels without a 64-bit atomicMax of their own are written:
 *   key = orderable(value) << 32 | (0xFFFFFFFF - index)
 * so the larger key has the larger value, and on a tie the lower index. orderable() maps a
 * float's bits onto unsigned order (negatives' bits inverted, positives' sign bit set), with
 * -0 taken as +0 (they tie, and the lowest index of the two wins); NaN is skipped (the default
 * contract: nan-ignored, tie-first); 0 is "no element yet", below every real key. Each wave
 * merges its lanes' keys by 64-bit __shfl_xor_sync, lane 0 merges into the global key; the
 * last kernel decodes it into rf_argmax_out, reading the value back from x.
 *   argmax/plain-argmax-cas   correct (32-bit index: n up to 2^31 - 1) */
#include <hip/hip_runtime.h>
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

typedef unsigned long long u64;

__device__ u64 make_key(float v, unsigned index) {
  if (isnan(v)) return 0;
  if (v == 0.0f) v = 0.0f;   /* -0 ties +0 */
  const unsigned bits = __float_as_uint(v);
  const unsigned order = (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
  return ((u64)order << 32) | (0xFFFFFFFFu - index);
}

__global__ void argmax_keys(const float *__restrict__ x, unsigned n, u64 *best) {
  const unsigned stride = gridDim.x * blockDim.x;
  u64 key = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const u64 k = make_key(x[i], i);
    if (k > key) key = k;
  }
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    const u64 other = __shfl_xor_sync(0xffffffffffffffffull, key, offset);
    if (other > key) key = other;
  }
  if (threadIdx.x % warpSize == 0 && key != 0) {
    u64 seen = 0;   /* a guess: the start value; each failed CAS tells the current one */
    while (key > seen) {
      const u64 prev = atomicCAS(best, seen, key);
      if (prev == seen) break;
      seen = prev;
    }
  }
}

__global__ void argmax_decode(const float *__restrict__ x, unsigned n, const u64 *best,
                              rf_argmax_out *out) {
  const u64 key = best[0];
  if (key == 0) {   /* no element, or only NaN */
    out->value = n == 0 ? -INFINITY : NAN;
    out->index = -1;
    return;
  }
  const unsigned index = 0xFFFFFFFFu - (unsigned)(key & 0xFFFFFFFFu);
  out->value = x[index];
  out->index = (int)index;
}

/* Host code only from here (plugin.h, HOST-CODE GUARD). */
#if !defined(__HIP_DEVICE_COMPILE__)

static const char *argmax_cas_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, 256, cfg->wave, 1024, 1);
  if (why) return why;
  cfg->items = 0;
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n, cfg->block), cap = 8ull * (cfg->num_cus ? cfg->num_cus : 1);
    cfg->grid = (uint32_t)(g == 0 ? 1 : g < cap ? g : cap);
  } else if (cfg->grid > 65535) {
    return rf_reason("grid %u is not supported (allowed: 1..65535)", cfg->grid);
  }
  return NULL;
}

static size_t argmax_cas_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(u64); }

/* Comparisons on the longest path: a thread's elements, the wave's butterfly, one CAS merge
 * a wave (max and argmax are judged exactly; the plan is what `list` shows). */
static void argmax_cas_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, (uint64_t)cfg->grid * (cfg->block / cfg->wave));
}

static int argmax_cas_launch(const rf_launch_args *a) {
  hipStream_t stream = (hipStream_t)a->stream;
  u64 *best = (u64 *)a->scratch;
  const unsigned n = (unsigned)a->cfg.n;   /* index_bits 32: the runner keeps n < 2^31 */
  int err = (int)hipMemsetAsync(best, 0, sizeof(u64), stream);
  if (err) return err;
  if (n) {
    argmax_keys<<<a->cfg.grid, a->cfg.block, 0, stream>>>(a->x, n, best);
    if ((err = (int)hipGetLastError())) return err;
  }
  argmax_decode<<<1, 1, 0, stream>>>(a->x, n, best, (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant argmax_cas = {
    "argmax/plain-argmax-cas", RF_OP_ARGMAX, 1, 0,
    "plain HIP: (value, index) packed in 64 bits, 64-bit wave shuffles, an atomicCAS loop a wave",
    "wave 32 or 64; block power of two, wave..1024; grid <= 65535; n < 2^31",
    argmax_cas_configure, argmax_cas_scratch, argmax_cas_plan, argmax_cas_launch, 0,
    RF_DTYPE_F32, RF_DTYPE_F32, 0, 32};
static const rf_variant *const variants[] = {&argmax_cas};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof variants / sizeof variants[0];
  return variants;
}
#endif
