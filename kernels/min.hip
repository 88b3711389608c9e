/* The min variants, the max family mirrored (kernels/max.hip; issue 34's second op of the op
 * table): grid-stride local minima, then an LDS tree or wave shuffles inside a block, then a
 * cross-block merge by an integer atomicMax on an order-REVERSING key or by a second kernel.
 * All are deterministic: a min is exact and order-independent, and the atomics are integer
 * maxima.
 *
 * NaN policy (oracle/exact.h, rf_oracle_argmin): NaN inputs are ignored; an input of only NaN
 * gives NaN; n = 0 gives +inf. fminf ignores a NaN operand, so the fold identity is NaN itself,
 * not +inf: an all-NaN input stays NaN. Self-contained until the shared kernel primitives
 * take its wave and block folds. */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"

#define RF_MIN_MAX_BLOCK 1024u
#define RF_MIN_MAX_WAVES 32u      /* 1024 threads / wave 32 */

typedef unsigned long long rf_min_u64;

/* ---- device building blocks ---------------------------------------------------------------- */

static __device__ __forceinline__ float rf_min_identity() { return __int_as_float(0x7fc00000); }

/* Order-reversing key: for non-NaN floats, a < b exactly when key(a) > key(b) as unsigned
 * (with -0 < +0): the order-preserving key (non-negative floats get the sign bit set,
 * negative ones are inverted) inverted, so the integer maximum is the float minimum. Key 0
 * comes only from the NaN 0x7fffffff, which is never encoded, so 0 means "nothing seen". */
static __device__ __forceinline__ unsigned rf_min_key(float v) {
  const unsigned b = __float_as_uint(v);
  return ~((b & 0x80000000u) ? ~b : (b | 0x80000000u));
}
static __device__ __forceinline__ float rf_min_unkey(unsigned k) {
  k = ~k;
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

/* This thread's grid-stride minimum (NaN when it saw no non-NaN element). */
static __device__ __forceinline__ float rf_min_thread(const float *__restrict__ x, rf_min_u64 n) {
  const rf_min_u64 stride = (rf_min_u64)gridDim.x * blockDim.x;
  float m = rf_min_identity();
  for (rf_min_u64 i = (rf_min_u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    m = fminf(m, x[i]);
  return m;
}

/* Sequential-addressing LDS tree over blockDim.x (a power of two) values; every thread must
 * call it. The result is read after the last barrier, so every thread gets it; a caller that
 * wrote `lds` again would need a reader barrier first (none here does). */
static __device__ __forceinline__ float rf_min_block_lds(float *lds, float v) {
  const unsigned t = threadIdx.x;
  lds[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) lds[t] = fminf(lds[t], lds[t + s]);
    __syncthreads();
  }
  return lds[0];
}

/* Butterfly over `lanes` (a power of two <= warpSize): every lane ends with the minimum of its
 * group. The whole wave must call it. */
static __device__ __forceinline__ float rf_min_wave(float v, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor(v, (int)o));
  return v;
}

/* Thread 0 ends with the block minimum: each wave shuffles, the wave minima go through LDS,
 * then the first wave shuffles them (over the waves that exist only). Every thread must call
 * it (it holds a barrier). */
static __device__ __forceinline__ float rf_min_block_waves(float *wave_min, float v) {
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  v = rf_min_wave(v, warpSize);
  if (lane == 0) wave_min[wave] = v;
  __syncthreads();
  float m = rf_min_identity();
  if (wave == 0) m = rf_min_wave(lane < waves ? wave_min[lane] : rf_min_identity(), waves);
  return m;
}

/* ---- kernels ------------------------------------------------------------------------------- */

/* Block minimum by LDS tree, merged into *key by one integer atomicMax per block. A block that
 * saw only NaN (or nothing) contributes nothing. */
__global__ void rf_min_lds_atomic_kernel(const float *__restrict__ x, rf_min_u64 n,
                                         unsigned *key) {
  RF_SHARED(float, lds, RF_MIN_MAX_BLOCK);
  const float m = rf_min_block_lds(lds, rf_min_thread(x, n));
  if (threadIdx.x == 0 && m == m) atomicMax(key, rf_min_key(m));
}

/* The same with wave shuffles inside the block. */
__global__ void rf_min_wave_atomic_kernel(const float *__restrict__ x, rf_min_u64 n,
                                          unsigned *key) {
  RF_SHARED(float, wave_min, RF_MIN_MAX_WAVES);
  const float m = rf_min_block_waves(wave_min, rf_min_thread(x, n));
  if (threadIdx.x == 0 && m == m) atomicMax(key, rf_min_key(m));
}

/* One thread turns the key into the output: +inf for n = 0, NaN when only NaN was seen. */
__global__ void rf_min_decode_kernel(const unsigned *key, rf_min_u64 n, float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    out[0] = n == 0 ? INFINITY : k == 0 ? rf_min_identity() : rf_min_unkey(k);
  }
}

/* out[blockIdx.x] = the block's minimum (grid-stride, wave shuffles, LDS of wave minima). Run
 * once over the input into partials, then as one block over the partials (any count): an
 * empty block's NaN partial is ignored there like a NaN input. count = 0 writes +inf. */
__global__ void rf_min_partials_wave_kernel(const float *__restrict__ x, rf_min_u64 count,
                                            float *out) {
  RF_SHARED(float, wave_min, RF_MIN_MAX_WAVES);
  const float m = rf_min_block_waves(wave_min, rf_min_thread(x, count));
  if (threadIdx.x == 0) out[blockIdx.x] = count == 0 ? INFINITY : m;
}

/* Everything below is host code: kept out of clang's HIP device pass, which would otherwise
 * emit the variant tables and miss the host functions they point to (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */

#include "extremum_host.h"   /* configure, scratch, plans and launchers, shared with max.hip */

/* ---- host: launch -------------------------------------------------------------------------- */

static int rf_min_launch_lds(const rf_launch_args *a) {
  return rf_ext_launch_keyed(a, rf_min_lds_atomic_kernel, rf_min_decode_kernel);
}
static int rf_min_launch_wave(const rf_launch_args *a) {
  return rf_ext_launch_keyed(a, rf_min_wave_atomic_kernel, rf_min_decode_kernel);
}
static int rf_min_launch_two_stage(const rf_launch_args *a) {
  return rf_ext_launch_two_stage(a, rf_min_partials_wave_kernel);
}

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_min_lds_variant = {
    "min/lds", RF_OP_MIN, 1, 0,
    "grid-stride fminf, LDS tree, one integer atomicMax per block on an order-reversing key, "
    "one thread decodes the key",
    "block power of two 1..1024; grid 1..65535 (default min(CUs*8, ceil(n/block))); no items",
    rf_ext_configure_lds, rf_ext_key_scratch, rf_ext_plan_lds, rf_min_launch_lds, 0};

static const rf_variant rf_min_wave_variant = {
    "min/wave", RF_OP_MIN, 1, 0,
    "grid-stride fminf, wave shuffle, wave minima via LDS, first wave finishes, one integer "
    "atomicMax per block on an order-reversing key, one thread decodes the key",
    "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default min(CUs*8, "
    "ceil(n/block))); no items",
    rf_ext_configure_waves, rf_ext_key_scratch, rf_ext_plan_wave, rf_min_launch_wave, 0};

static const rf_variant rf_min_two_stage_variant = {
    "min/two-stage", RF_OP_MIN, 1, 0,
    "grid-stride fminf, wave shuffle, wave minima via LDS into per-block partials; one block "
    "does the same over the partials",
    "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default min(CUs*8, "
    "ceil(n/block))); no items",
    rf_ext_configure_waves, rf_ext_partials_scratch, rf_ext_plan_two_stage,
    rf_min_launch_two_stage, 0};

extern "C" const rf_variant *const rf_family_min[] = {&rf_min_lds_variant, &rf_min_wave_variant,
                                                      &rf_min_two_stage_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
