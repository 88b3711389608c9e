/* The float32 argmax and argmin kernels, written once over the direction D (reduce_prims.h:
 * rf_dir_max, rf_dir_min; issue 34; seed 000 §9.1 table: combine (value, index) pairs, ties
 * need a rule): the first extremum, i.e. the best value and, among equal values, the lowest
 * index. Both shapes are deterministic: the pair order is total, so any combining order gives
 * the same winner, and the cross-block atomic is an integer maximum on D's packed key. The
 * families (argmax.hip, argmin.hip) keep their variant tables and name their instances with
 * RF_ARGX_INSTANCES.
 *
 * Policy (oracle/exact.h): NaN inputs are ignored; -0 and +0 tie (IEEE ==); only NaN gives
 * {NaN, -1}; n = 0 gives {D::empty(), -1}. An empty slot is {D::empty(), RF_ARGX_NONE}: any
 * real element, D::empty() itself included, beats it by value or by its lower index, so
 * RF_ARGX_NONE surviving to the end means "no non-NaN element" (an argmin fold that started
 * from FLT_MAX instead would lose every +inf: the CUB ArgMin bug,
 * kernels/mutants/argmin_flt_max_start.hip). */
#ifndef RF_ARGEXT_H
#define RF_ARGEXT_H
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "reduce_prims.h"

#define RF_ARGX_MAX_BLOCK 1024u
#define RF_ARGX_MAX_WAVES 32u     /* 1024 threads / wave 32 */
#define RF_ARGX_NONE 0x7fffffff   /* index of an empty slot; real indices are smaller */

typedef unsigned long long rf_argx_u64;

/* This thread's grid-stride winner; NaN elements are skipped. */
template <class D>
static __device__ __forceinline__ void rf_argx_thread(const float *__restrict__ x, rf_argx_u64 n,
                                                      float *v, int *i) {
  const rf_argx_u64 stride = (rf_argx_u64)gridDim.x * blockDim.x;
  float bv = D::empty();
  int bi = RF_ARGX_NONE;
  for (rf_argx_u64 j = (rf_argx_u64)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
    const float xv = x[j];
    if (xv == xv && D::beats(xv, (int)j, bv, bi)) { bv = xv; bi = (int)j; }
  }
  *v = bv;
  *i = bi;
}

/* The output of a winner (v, i) of an input of n elements: {D::empty(), -1} for n = 0,
 * {NaN, -1} when no non-NaN element was seen (i = RF_ARGX_NONE). */
template <class D>
static __device__ __forceinline__ void rf_argx_write(rf_argx_u64 n, float v, int i,
                                                     rf_argmax_out *out) {
  const bool none = i == RF_ARGX_NONE;
  out->value = n == 0 ? D::empty() : none ? __int_as_float(0x7fc00000) : v;
  out->index = none ? -1 : i;
}

/* One thread decodes a packed key (rf_prim_arg_pack; 0 = none); the value is read back from
 * the input so that its bits (-0 included) are the element's own. */
template <class D>
static __device__ __forceinline__ void rf_argx_decode(const float *__restrict__ x,
                                                      unsigned long long k, rf_argx_u64 n,
                                                      rf_argmax_out *out) {
  if (k == 0) {
    rf_argx_write<D>(n, 0.0f, RF_ARGX_NONE, out);
  } else {
    const int i = rf_prim_arg_unpack_index(k);
    rf_argx_write<D>(n, x[i], i, out);
  }
}

/* This thread's winner of a block-stride pass over `count` per-block winners (the second
 * kernel of the two-kernel shapes). */
template <class D>
static __device__ __forceinline__ void rf_argx_fold_partials(
    const rf_argmax_out *__restrict__ partials, unsigned count, float *v, int *i) {
  float bv = D::empty();
  int bi = RF_ARGX_NONE;
  for (unsigned j = threadIdx.x; j < count; j += blockDim.x)
    if (D::beats(partials[j].value, partials[j].index, bv, bi)) {
      bv = partials[j].value;
      bi = partials[j].index;
    }
  *v = bv;
  *i = bi;
}

/* partials[blockIdx.x] = the block's winner (grid-stride, LDS tree). */
template <class D>
__global__ void rf_argx_lds_partials_kernel(const float *__restrict__ x, rf_argx_u64 n,
                                            rf_argmax_out *partials) {
  RF_SHARED(float, vals, RF_ARGX_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_ARGX_MAX_BLOCK);
  float v;
  int i;
  rf_argx_thread<D>(x, n, &v, &i);
  rf_prim_block_argmax_lds<D>(vals, idxs, v, i);
  if (threadIdx.x == 0) {
    partials[blockIdx.x].value = vals[0];
    partials[blockIdx.x].index = idxs[0];
  }
}

/* One block over `count` partials (grid-stride, LDS tree) into the output. n is the input
 * length, for the empty and only-NaN results. */
template <class D>
__global__ void rf_argx_lds_final_kernel(const rf_argmax_out *__restrict__ partials,
                                         unsigned count, rf_argx_u64 n, rf_argmax_out *out) {
  RF_SHARED(float, vals, RF_ARGX_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_ARGX_MAX_BLOCK);
  float v;
  int i;
  rf_argx_fold_partials<D>(partials, count, &v, &i);
  rf_prim_block_argmax_lds<D>(vals, idxs, v, i);
  if (threadIdx.x == 0) rf_argx_write<D>(n, vals[0], idxs[0], out);
}

/* Block winner by wave shuffles (wave winners through LDS, the first wave finishes), merged
 * into *key by one 64-bit atomicMax per block that saw a non-NaN element. */
template <class D>
__global__ void rf_argx_wave_atomic_kernel(const float *__restrict__ x, rf_argx_u64 n,
                                           rf_argx_u64 *key) {
  RF_SHARED(float, wave_vals, RF_ARGX_MAX_WAVES);
  RF_SHARED(int, wave_idxs, RF_ARGX_MAX_WAVES);
  float v;
  int i;
  rf_argx_thread<D>(x, n, &v, &i);
  rf_prim_block_argmax_waves<D>(wave_vals, wave_idxs, &v, &i, RF_ARGX_NONE);
  if (threadIdx.x == 0 && i != RF_ARGX_NONE) atomicMax(key, rf_prim_arg_pack<D>(v, i));
}

template <class D>
__global__ void rf_argx_decode_kernel(const float *__restrict__ x, const rf_argx_u64 *key,
                                      rf_argx_u64 n, rf_argmax_out *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) rf_argx_decode<D>(x, *key, n, out);
}

/* Every kernel of direction D, named so that a device-only compile (the gfx1201 check) emits
 * them: the launches that would otherwise instantiate them are host code. */
#define RF_ARGX_INSTANCES(D)                                                                   \
  template __global__ void rf_argx_lds_partials_kernel<D>(const float *__restrict__,           \
                                                          rf_argx_u64, rf_argmax_out *);       \
  template __global__ void rf_argx_lds_final_kernel<D>(const rf_argmax_out *__restrict__,      \
                                                       unsigned, rf_argx_u64, rf_argmax_out *); \
  template __global__ void rf_argx_wave_atomic_kernel<D>(const float *__restrict__,            \
                                                         rf_argx_u64, rf_argx_u64 *);          \
  template __global__ void rf_argx_decode_kernel<D>(const float *__restrict__,                 \
                                                    const rf_argx_u64 *, rf_argx_u64,          \
                                                    rf_argmax_out *);

#endif
