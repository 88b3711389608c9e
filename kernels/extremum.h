/* The float32 max and min kernels, written once over the direction D (reduce_prims.h:
 * rf_dir_max, rf_dir_min; issue 34): grid-stride local extrema, then an LDS tree or wave
 * shuffles inside a block, then a cross-block merge by an integer atomicMax on D's key or by a
 * second kernel. All are deterministic: an extremum is exact and order-independent, and the
 * atomics are integer maxima. The families (max.hip, min.hip) keep their variant tables and
 * name their instances with RF_EXT_INSTANCES.
 *
 * NaN policy (oracle/exact.h): NaN inputs are ignored; an input of only NaN gives NaN; n = 0
 * gives D::empty() (-inf for max, +inf for min). fmaxf and fminf ignore a NaN operand, so the
 * fold identity is NaN itself: an all-NaN input stays NaN (with -inf padding a max would come
 * out as -inf: kernels/mutants/max_all_nan_neg_inf.hip). For an input with any non-NaN element
 * the two identities give the same result. */
#ifndef RF_EXTREMUM_H
#define RF_EXTREMUM_H
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "reduce_prims.h"

#define RF_EXT_MAX_BLOCK 1024u
#define RF_EXT_MAX_WAVES 32u      /* 1024 threads / wave 32 */

typedef unsigned long long rf_ext_u64;

/* This thread's grid-stride extremum (NaN when it saw no non-NaN element). */
template <class D>
static __device__ __forceinline__ float rf_ext_thread(const float *__restrict__ x, rf_ext_u64 n) {
  const rf_ext_u64 stride = (rf_ext_u64)gridDim.x * blockDim.x;
  float m = rf_prim_max_identity();
  for (rf_ext_u64 i = (rf_ext_u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    m = D::fold(m, x[i]);
  return m;
}

/* Block extremum by LDS tree, merged into *key by one integer atomicMax per block. A block
 * that saw only NaN (or nothing) contributes nothing. */
template <class D>
__global__ void rf_ext_lds_atomic_kernel(const float *__restrict__ x, rf_ext_u64 n,
                                         unsigned *key) {
  RF_SHARED(float, lds, RF_EXT_MAX_BLOCK);
  const float m = rf_prim_block_ext_lds<D>(lds, rf_ext_thread<D>(x, n));
  if (threadIdx.x == 0 && m == m) atomicMax(key, D::key(m));
}

/* The same with wave shuffles inside the block. */
template <class D>
__global__ void rf_ext_wave_atomic_kernel(const float *__restrict__ x, rf_ext_u64 n,
                                          unsigned *key) {
  RF_SHARED(float, wave_part, RF_EXT_MAX_WAVES);
  const float m = rf_prim_block_ext_waves<D>(wave_part, rf_ext_thread<D>(x, n));
  if (threadIdx.x == 0 && m == m) atomicMax(key, D::key(m));
}

/* One thread turns the key into the output: D::empty() for n = 0, NaN when only NaN was
 * seen. */
template <class D>
__global__ void rf_ext_decode_kernel(const unsigned *key, rf_ext_u64 n, float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    out[0] = n == 0 ? D::empty() : k == 0 ? rf_prim_max_identity() : D::unkey(k);
  }
}

/* out[blockIdx.x] = the block's extremum (grid-stride, wave shuffles, LDS of wave extrema).
 * Run once over the input into partials, then as one block over the partials (any count): an
 * empty block's NaN partial is ignored there like a NaN input. count = 0 writes D::empty(). */
template <class D>
__global__ void rf_ext_partials_wave_kernel(const float *__restrict__ x, rf_ext_u64 count,
                                            float *out) {
  RF_SHARED(float, wave_part, RF_EXT_MAX_WAVES);
  const float m = rf_prim_block_ext_waves<D>(wave_part, rf_ext_thread<D>(x, count));
  if (threadIdx.x == 0) out[blockIdx.x] = count == 0 ? D::empty() : m;
}

/* Every kernel of direction D, named so that a device-only compile (the gfx1201 check) emits
 * them: the launches that would otherwise instantiate them are host code. */
#define RF_EXT_INSTANCES(D)                                                                    \
  template __global__ void rf_ext_lds_atomic_kernel<D>(const float *__restrict__, rf_ext_u64,  \
                                                       unsigned *);                            \
  template __global__ void rf_ext_wave_atomic_kernel<D>(const float *__restrict__, rf_ext_u64, \
                                                        unsigned *);                           \
  template __global__ void rf_ext_decode_kernel<D>(const unsigned *, rf_ext_u64, float *);    \
  template __global__ void rf_ext_partials_wave_kernel<D>(const float *__restrict__,           \
                                                          rf_ext_u64, float *);

#endif
