/* The correct float4 max / argmax design the vec4 max mutants depart from (like max/vec4-keyed
 * and argmax/vec4-keyed): the mut_vec4.h split (scalar head to 16 bytes, float4 quads on a
 * grid-stride loop, scalar tail), per-thread result, LDS tree per block, one integer atomicMax
 * per block on an order-preserving key zeroed inside the launch, one thread decodes the key.
 * The mutant files hold the thread loop, where each one's bug is. */
#ifndef RF_MUT_VEC4_MAX_H
#define RF_MUT_VEC4_MAX_H
#include "mut_vec4.h"

/* max: -inf for n = 0, NaN when only NaN was seen, else the keyed value. */
__global__ static __attribute__((unused)) void rf_mut_max_decode_kernel(const unsigned *key,
                                                                        rf_mut_u64 n, float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    out[0] = n == 0   ? -INFINITY
             : k == 0 ? __int_as_float(0x7fc00000)
                      : __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
  }
}

/* argmax: {-inf, -1} for n = 0, {NaN, -1} when only NaN was seen, else the element's own bits. */
__global__ static __attribute__((unused)) void rf_mut_argmax_decode_kernel(
    const float *__restrict__ x, const rf_mut_u64 *key, rf_mut_u64 n, rf_argmax_out *out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const rf_mut_u64 k = *key;
  if (k == 0) {
    out->value = n == 0 ? -INFINITY : __int_as_float(0x7fc00000);
    out->index = -1;
  } else {
    const int i = (int)(0xffffffffu - (unsigned)(k & 0xffffffffu));
    out->value = x[i];
    out->index = i;
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Comparisons on the longest path, an upper bound (informative: max and argmax are exact): a chain of
 * k4 quads (k4 = ceil(floor(n/4) / threads)), the component merges, head and tail (k4 + 4; 2
 * with no quad), the LDS tree, the atomics. */
static inline void rf_mut_vec4_max_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint64_t k4 = rf_mut_chain(cfg->n / 4, cfg->grid, cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, k4 ? k4 + 4 : 2);
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

static inline size_t rf_mut_max_key_scratch(const rf_launch_cfg *cfg) {
  (void)cfg;
  return sizeof(unsigned);
}
static inline size_t rf_mut_argmax_key_scratch(const rf_launch_cfg *cfg) {
  (void)cfg;
  return sizeof(rf_mut_u64);
}

typedef void (*rf_mut_max_keyed_kernel)(const float *, rf_mut_u64, unsigned *);
typedef void (*rf_mut_argmax_keyed_kernel)(const float *, rf_mut_u64, rf_mut_u64 *);

/* Key zeroed inside the launch, the blocks merge into it, one thread decodes it. */
static inline int rf_mut_launch_max_keyed(const rf_launch_args *a, rf_mut_max_keyed_kernel k) {
  const hipStream_t st = (hipStream_t)a->stream;
  unsigned *key = (unsigned *)a->scratch;
  int err = (int)hipMemsetAsync(key, 0, sizeof(unsigned), st);
  if (err) return err;
  if (a->cfg.n) {
    hipLaunchKernelGGL(k, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                       (rf_mut_u64)a->cfg.n, key);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_mut_max_decode_kernel, dim3(1), dim3(1), 0, st, (const unsigned *)key,
                     (rf_mut_u64)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static inline int rf_mut_launch_argmax_keyed(const rf_launch_args *a,
                                             rf_mut_argmax_keyed_kernel k) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_mut_u64 *key = (rf_mut_u64 *)a->scratch;
  int err = (int)hipMemsetAsync(key, 0, sizeof(rf_mut_u64), st);
  if (err) return err;
  if (a->cfg.n) {
    hipLaunchKernelGGL(k, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                       (rf_mut_u64)a->cfg.n, key);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_mut_argmax_decode_kernel, dim3(1), dim3(1), 0, st, a->x,
                     (const rf_mut_u64 *)key, (rf_mut_u64)a->cfg.n, (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}
#endif
#endif
