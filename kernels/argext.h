/* The float32 argmax and argmin kernels, written once over the direction D (reduce_prims.h:
 * rf_dir_max, rf_dir_min; issue 34; seed 000 §9.1 table: combine (value, index) pairs, ties
 * need a rule): the first extremum, i.e. the best value and, among equal values, the lowest
 * index. Both shapes are deterministic: the pair order is total, so any combining order gives
 * the same winner, and the cross-block atomic is an integer maximum on D's packed key. The
 * families (argmax.hip, argmin.hip) keep their variant tables and name their instances with
 * RF_ARGX_INSTANCES.
 *
 * Indices are 64-bit (issue 37; the variants' index_bits 64): they write rf_argmax_out64, so
 * an input past 2^31 or 2^32 elements has its index (cupy#8014: argmax gave negative indices
 * at n = 2^32). The keyed shape cannot pack a 32-bit value key and a 64-bit index into one
 * 64-bit atomic: each block owns a contiguous chunk of the input, writes its winner to
 * partials[block] and merges (value key, inverted block) into the key; since lower blocks own
 * lower indices, the lowest block among equal values holds the first extremum.
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
/* index of an empty slot; real indices (below 2^63) are smaller */
#define RF_ARGX_NONE 0x7fffffffffffffffLL

typedef unsigned long long rf_argx_u64;
typedef long long rf_argx_idx;   /* an element's index: 64-bit, whatever n */

/* Element j (value xv) joins the winner (bv, bi) by the pair rule; NaN is skipped. */
template <class D>
static __device__ __forceinline__ void rf_argx_take(float xv, rf_argx_idx j, float *bv,
                                                    rf_argx_idx *bi) {
  if (xv == xv && D::beats(xv, j, *bv, *bi)) { *bv = xv; *bi = j; }
}

/* The input as float32 (the element loader of the scans below; kernels/half/argext_half.h has
 * the 16-bit one): one scan for every element type. */
struct rf_argx_f32_in {
  const float *__restrict__ x;
  __device__ __forceinline__ float operator()(rf_argx_u64 j) const { return x[j]; }
};

/* The winner of elements from, from + step, ... below end; NaN elements are skipped. */
template <class D, class In>
static __device__ __forceinline__ void rf_argx_scan(In in, rf_argx_u64 from, rf_argx_u64 end,
                                                    rf_argx_u64 step, float *v, rf_argx_idx *i) {
  float bv = D::empty();
  rf_argx_idx bi = RF_ARGX_NONE;
  for (rf_argx_u64 j = from; j < end; j += step) rf_argx_take<D>(in(j), (rf_argx_idx)j, &bv, &bi);
  *v = bv;
  *i = bi;
}

/* This thread's grid-stride winner. */
template <class D, class In>
static __device__ __forceinline__ void rf_argx_grid_scan(In in, rf_argx_u64 n, float *v,
                                                         rf_argx_idx *i) {
  rf_argx_scan<D>(in, (rf_argx_u64)blockIdx.x * blockDim.x + threadIdx.x, n,
                  (rf_argx_u64)gridDim.x * blockDim.x, v, i);
}

/* The contiguous chunk [*lo, *hi) of `count` items that block b of `blocks` owns (the keyed
 * shapes): ceil(count / blocks) each, the last ones shorter or empty. */
static __device__ __forceinline__ void rf_argx_chunk(rf_argx_u64 count, unsigned b,
                                                     unsigned blocks, rf_argx_u64 *lo,
                                                     rf_argx_u64 *hi) {
  const rf_argx_u64 per = (count + blocks - 1) / blocks;
  *lo = per * b < count ? per * b : count;
  *hi = *lo + per < count ? *lo + per : count;
}

/* This thread's winner of its block's chunk (block-stride inside it). */
template <class D, class In>
static __device__ __forceinline__ void rf_argx_chunk_scan(In in, rf_argx_u64 n, float *v,
                                                          rf_argx_idx *i) {
  rf_argx_u64 lo, hi;
  rf_argx_chunk(n, blockIdx.x, gridDim.x, &lo, &hi);
  rf_argx_scan<D>(in, lo + threadIdx.x, hi, blockDim.x, v, i);
}

/* The output of a winner (v, i) of an input of n elements: {D::empty(), -1} for n = 0,
 * {NaN, -1} when no non-NaN element was seen (i = RF_ARGX_NONE). Every word written (the pad
 * too: a word left poisoned is `unwritten`). */
template <class D>
static __device__ __forceinline__ void rf_argx_write(rf_argx_u64 n, float v, rf_argx_idx i,
                                                     rf_argmax_out64 *out) {
  const bool none = i == RF_ARGX_NONE;
  out->value = n == 0 ? D::empty() : none ? __int_as_float(0x7fc00000) : v;
  out->pad = 0;
  out->index = none ? -1 : i;
}

/* A block's winner into partials[b] (every word). */
static __device__ __forceinline__ void rf_argx_put(rf_argmax_out64 *partials, unsigned b, float v,
                                                   rf_argx_idx i) {
  partials[b].value = v;
  partials[b].pad = 0;
  partials[b].index = i;
}

/* One thread decodes a block key (rf_prim_arg_block_key; 0 = none) into the output: the winner
 * is that block's partial, whose value bits (-0 included) are the element's own. */
template <class D>
static __device__ __forceinline__ void rf_argx_decode(const rf_argmax_out64 *__restrict__ partials,
                                                      unsigned long long k, rf_argx_u64 n,
                                                      rf_argmax_out64 *out) {
  if (k == 0) {
    rf_argx_write<D>(n, 0.0f, RF_ARGX_NONE, out);
  } else {
    const rf_argmax_out64 p = partials[rf_prim_arg_unpack_block(k)];
    rf_argx_write<D>(n, p.value, p.index, out);
  }
}

/* This thread's winner of a block-stride pass over `count` per-block winners (the second
 * kernel of the two-kernel shapes). */
template <class D>
static __device__ __forceinline__ void rf_argx_fold_partials(
    const rf_argmax_out64 *__restrict__ partials, unsigned count, float *v, rf_argx_idx *i) {
  float bv = D::empty();
  rf_argx_idx bi = RF_ARGX_NONE;
  for (unsigned j = threadIdx.x; j < count; j += blockDim.x)
    if (D::beats(partials[j].value, (rf_argx_idx)partials[j].index, bv, bi)) {
      bv = partials[j].value;
      bi = partials[j].index;
    }
  *v = bv;
  *i = bi;
}

/* partials[blockIdx.x] = the block's winner (grid-stride, LDS tree). */
template <class D>
__global__ void rf_argx_lds_partials_kernel(const float *__restrict__ x, rf_argx_u64 n,
                                            rf_argmax_out64 *partials) {
  RF_SHARED(float, vals, RF_ARGX_MAX_BLOCK);
  RF_SHARED(rf_argx_idx, idxs, RF_ARGX_MAX_BLOCK);
  float v;
  rf_argx_idx i;
  rf_argx_grid_scan<D>(rf_argx_f32_in{x}, n, &v, &i);
  rf_prim_block_argmax_lds<D>(vals, idxs, v, i);
  if (threadIdx.x == 0) rf_argx_put(partials, blockIdx.x, vals[0], idxs[0]);
}

/* One block over `count` partials (grid-stride, LDS tree) into the output. n is the input
 * length, for the empty and only-NaN results. */
template <class D>
__global__ void rf_argx_lds_final_kernel(const rf_argmax_out64 *__restrict__ partials,
                                         unsigned count, rf_argx_u64 n, rf_argmax_out64 *out) {
  RF_SHARED(float, vals, RF_ARGX_MAX_BLOCK);
  RF_SHARED(rf_argx_idx, idxs, RF_ARGX_MAX_BLOCK);
  float v;
  rf_argx_idx i;
  rf_argx_fold_partials<D>(partials, count, &v, &i);
  rf_prim_block_argmax_lds<D>(vals, idxs, v, i);
  if (threadIdx.x == 0) rf_argx_write<D>(n, vals[0], idxs[0], out);
}

/* The keyed scratch: the key (8 bytes, 8 more of padding), then one partial a block. */
#define RF_ARGX_KEYED_PARTIALS 16u
static __host__ __device__ __forceinline__ rf_argmax_out64 *rf_argx_keyed_partials(void *scratch) {
  return (rf_argmax_out64 *)((unsigned char *)scratch + RF_ARGX_KEYED_PARTIALS);
}

/* Block winner of its contiguous chunk by wave shuffles (wave winners through LDS, the first
 * wave finishes), written to partials[block] and merged into *key by one 64-bit atomicMax on
 * (value key, inverted block) per block that saw a non-NaN element. */
template <class D>
__global__ void rf_argx_wave_atomic_kernel(const float *__restrict__ x, rf_argx_u64 n,
                                           rf_argx_u64 *key, rf_argmax_out64 *partials) {
  RF_SHARED(float, wave_vals, RF_ARGX_MAX_WAVES);
  RF_SHARED(rf_argx_idx, wave_idxs, RF_ARGX_MAX_WAVES);
  float v;
  rf_argx_idx i;
  rf_argx_chunk_scan<D>(rf_argx_f32_in{x}, n, &v, &i);
  rf_prim_block_argmax_waves<D>(wave_vals, wave_idxs, &v, &i, (rf_argx_idx)RF_ARGX_NONE);
  if (threadIdx.x == 0 && i != RF_ARGX_NONE) {
    rf_argx_put(partials, blockIdx.x, v, i);
    atomicMax(key, rf_prim_arg_block_key<D>(v, blockIdx.x));
  }
}

template <class D>
__global__ void rf_argx_decode_kernel(const rf_argmax_out64 *__restrict__ partials,
                                      const rf_argx_u64 *key, rf_argx_u64 n, rf_argmax_out64 *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) rf_argx_decode<D>(partials, *key, n, out);
}

/* Every kernel of direction D, named so that a device-only compile (the gfx1201 check) emits
 * them: the launches that would otherwise instantiate them are host code. */
#define RF_ARGX_INSTANCES(D)                                                                   \
  template __global__ void rf_argx_lds_partials_kernel<D>(const float *__restrict__,           \
                                                          rf_argx_u64, rf_argmax_out64 *);     \
  template __global__ void rf_argx_lds_final_kernel<D>(const rf_argmax_out64 *__restrict__,    \
                                                       unsigned, rf_argx_u64,                  \
                                                       rf_argmax_out64 *);                     \
  template __global__ void rf_argx_wave_atomic_kernel<D>(const float *__restrict__,            \
                                                         rf_argx_u64, rf_argx_u64 *,           \
                                                         rf_argmax_out64 *);                   \
  template __global__ void rf_argx_decode_kernel<D>(const rf_argmax_out64 *__restrict__,       \
                                                    const rf_argx_u64 *, rf_argx_u64,          \
                                                    rf_argmax_out64 *);

#endif
