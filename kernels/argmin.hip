/* The argmin variants, the argmax family mirrored (kernels/argmax.hip; issue 34): the first
 * minimum, i.e. the smallest value and, among equal values, the lowest index. Both variants
 * are deterministic: the pair order is total, so any combining order gives the same winner,
 * and the cross-block atomic is an integer maximum on (reversed value key, inverted index).
 *
 * Policy (oracle/exact.h, rf_oracle_argmin): NaN inputs are ignored; -0 and +0 tie (IEEE ==);
 * only NaN gives {NaN, -1}; n = 0 gives {+inf, -1}. An empty slot is {+inf, RF_ARGMIN_NONE}:
 * any real element, +inf included, beats it by value or by its lower index, so RF_ARGMIN_NONE
 * surviving to the end means "no non-NaN element" (a fold that started from FLT_MAX instead
 * would lose every +inf: the CUB ArgMin bug, kernels/mutants/argmin_flt_max_start.hip).
 * Self-contained until the shared kernel primitives take its pair folds. */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"

#define RF_ARGMIN_MAX_BLOCK 1024u
#define RF_ARGMIN_MAX_WAVES 32u     /* 1024 threads / wave 32 */
#define RF_ARGMIN_NONE 0x7fffffff   /* index of an empty slot; real indices are smaller */

typedef unsigned long long rf_argmin_u64;

/* ---- device building blocks ---------------------------------------------------------------- */

/* (av, ai) beats (bv, bi): smaller value, or equal value and lower index. */
static __device__ __forceinline__ bool rf_argmin_beats(float av, int ai, float bv, int bi) {
  return av < bv || (av == bv && ai < bi);
}

/* This thread's grid-stride winner; NaN elements are skipped. */
static __device__ __forceinline__ void rf_argmin_thread(const float *__restrict__ x,
                                                        rf_argmin_u64 n, float *v, int *i) {
  const rf_argmin_u64 stride = (rf_argmin_u64)gridDim.x * blockDim.x;
  float bv = INFINITY;
  int bi = RF_ARGMIN_NONE;
  for (rf_argmin_u64 j = (rf_argmin_u64)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
    const float xv = x[j];
    if (xv == xv && rf_argmin_beats(xv, (int)j, bv, bi)) { bv = xv; bi = (int)j; }
  }
  *v = bv;
  *i = bi;
}

/* Sequential-addressing LDS tree over blockDim.x (a power of two) pairs; every thread must
 * call it; the winner is in vals[0], idxs[0] after the last barrier. */
static __device__ __forceinline__ void rf_argmin_block_lds(float *vals, int *idxs, float v, int i) {
  const unsigned t = threadIdx.x;
  vals[t] = v;
  idxs[t] = i;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s && rf_argmin_beats(vals[t + s], idxs[t + s], vals[t], idxs[t])) {
      vals[t] = vals[t + s];
      idxs[t] = idxs[t + s];
    }
    __syncthreads();
  }
}

/* Butterfly over `lanes` (a power of two <= warpSize): every lane of a group ends with the same
 * winner (the order is total). The whole wave must call it. */
static __device__ __forceinline__ void rf_argmin_wave(float *v, int *i, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) {
    const float ov = __shfl_xor(*v, (int)o);
    const int oi = __shfl_xor(*i, (int)o);
    if (rf_argmin_beats(ov, oi, *v, *i)) { *v = ov; *i = oi; }
  }
}

/* Order-preserving key of a non-NaN float (unsigned compare = float compare, -0 < +0). */
static __device__ __forceinline__ unsigned rf_argmin_value_key(float v) {
  const unsigned b = __float_as_uint(v);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/* 64-bit key: the inverted value key high (the smallest value has the largest), inverted
 * index low, so the integer maximum is the first minimum. -0 is keyed as +0 so that the zeros
 * tie and the index decides, as with ==. Every real pair has a nonzero key (the inverted value
 * key of +inf is 0x007fffff), so 0 means "none". */
static __device__ __forceinline__ rf_argmin_u64 rf_argmin_pack(float v, int i) {
  const unsigned vk = ~rf_argmin_value_key(v == 0.0f ? 0.0f : v);
  return ((rf_argmin_u64)vk << 32) | (rf_argmin_u64)(0xffffffffu - (unsigned)i);
}

/* ---- kernels ------------------------------------------------------------------------------- */

/* partials[blockIdx.x] = the block's winner (grid-stride, LDS tree). */
__global__ void rf_argmin_lds_partials_kernel(const float *__restrict__ x, rf_argmin_u64 n,
                                              rf_argmax_out *partials) {
  RF_SHARED(float, vals, RF_ARGMIN_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_ARGMIN_MAX_BLOCK);
  float v;
  int i;
  rf_argmin_thread(x, n, &v, &i);
  rf_argmin_block_lds(vals, idxs, v, i);
  if (threadIdx.x == 0) {
    partials[blockIdx.x].value = vals[0];
    partials[blockIdx.x].index = idxs[0];
  }
}

/* One block over `count` partials (grid-stride, LDS tree) into the output. n is the input
 * length, for the empty and only-NaN results. */
__global__ void rf_argmin_lds_final_kernel(const rf_argmax_out *__restrict__ partials,
                                           unsigned count, rf_argmin_u64 n, rf_argmax_out *out) {
  RF_SHARED(float, vals, RF_ARGMIN_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_ARGMIN_MAX_BLOCK);
  float v = INFINITY;
  int i = RF_ARGMIN_NONE;
  for (unsigned j = threadIdx.x; j < count; j += blockDim.x)
    if (rf_argmin_beats(partials[j].value, partials[j].index, v, i)) {
      v = partials[j].value;
      i = partials[j].index;
    }
  rf_argmin_block_lds(vals, idxs, v, i);
  if (threadIdx.x == 0) {
    const bool none = idxs[0] == RF_ARGMIN_NONE;
    out->value = n == 0 ? INFINITY : none ? __int_as_float(0x7fc00000) : vals[0];
    out->index = none ? -1 : idxs[0];
  }
}

/* Block winner by wave shuffles (wave winners through LDS, the first wave finishes), merged
 * into *key by one 64-bit atomicMax per block that saw a non-NaN element. */
__global__ void rf_argmin_wave_atomic_kernel(const float *__restrict__ x, rf_argmin_u64 n,
                                             rf_argmin_u64 *key) {
  RF_SHARED(float, wave_vals, RF_ARGMIN_MAX_WAVES);
  RF_SHARED(int, wave_idxs, RF_ARGMIN_MAX_WAVES);
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  float v;
  int i;
  rf_argmin_thread(x, n, &v, &i);
  rf_argmin_wave(&v, &i, warpSize);
  if (lane == 0) {
    wave_vals[wave] = v;
    wave_idxs[wave] = i;
  }
  __syncthreads();
  if (wave == 0) {   /* the whole first wave: every lane takes part in the shuffles */
    v = lane < waves ? wave_vals[lane] : INFINITY;
    i = lane < waves ? wave_idxs[lane] : RF_ARGMIN_NONE;
    rf_argmin_wave(&v, &i, waves);
    if (lane == 0 && i != RF_ARGMIN_NONE) atomicMax(key, rf_argmin_pack(v, i));
  }
}

/* One thread decodes the key; the value is read back from the input so that its bits (-0
 * included) are the element's own. */
__global__ void rf_argmin_decode_kernel(const float *__restrict__ x, const rf_argmin_u64 *key,
                                        rf_argmin_u64 n, rf_argmax_out *out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const rf_argmin_u64 k = *key;
  if (k == 0) {
    out->value = n == 0 ? INFINITY : __int_as_float(0x7fc00000);
    out->index = -1;
  } else {
    const int i = (int)(0xffffffffu - (unsigned)(k & 0xffffffffu));
    out->value = x[i];
    out->index = i;
  }
}

/* Everything below is host code: kept out of clang's HIP device pass, which would otherwise
 * emit the variant tables and miss the host functions they point to (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */

#include "argext_host.h"   /* configure, scratch and plans, shared with argmax.hip */
static_assert(RF_ARGMIN_NONE == RF_ARGX_NONE, "configure keeps n below the empty-slot index");

/* ---- host: launch -------------------------------------------------------------------------- */

/* Partials into scratch, then one block over them; n = 0 runs only the second (0 partials). */
static int rf_argmin_launch_lds(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_argmax_out *partials = (rf_argmax_out *)a->scratch;
  unsigned count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argmin_lds_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, (rf_argmin_u64)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_argmin_lds_final_kernel, dim3(1), dim3(a->cfg.block), 0, st,
                     (const rf_argmax_out *)partials, count, (rf_argmin_u64)a->cfg.n,
                     (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

/* Key zeroed ("none"), blocks merge into it, one thread decodes it into the output. */
static int rf_argmin_launch_wave(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_argmin_u64 *key = (rf_argmin_u64 *)a->scratch;
  int err = (int)hipMemsetAsync(key, 0, sizeof(rf_argmin_u64), st);
  if (err) return err;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argmin_wave_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, (rf_argmin_u64)a->cfg.n, key);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_argmin_decode_kernel, dim3(1), dim3(1), 0, st, a->x,
                     (const rf_argmin_u64 *)key, (rf_argmin_u64)a->cfg.n,
                     (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_argmin_lds_variant = {
    "argmin/lds", RF_OP_ARGMIN, 1, 0,
    "grid-stride (value, index) winner, LDS tree of pairs into per-block partials; one block "
    "does the same over the partials",
    "block power of two 1..1024; grid 1..65535 (default min(CUs*8, ceil(n/block))); n < 2^31; "
    "no items",
    rf_argx_configure_lds, rf_argx_partials_scratch, rf_argx_plan_lds,
    rf_argmin_launch_lds, 0};

static const rf_variant rf_argmin_wave_variant = {
    "argmin/wave", RF_OP_ARGMIN, 1, 0,
    "grid-stride (value, index) winner, wave shuffle of pairs, wave winners via LDS, first wave "
    "finishes, one 64-bit atomicMax per block on (ordered value, inverted index)",
    "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default min(CUs*8, "
    "ceil(n/block))); n < 2^31; no items",
    rf_argx_configure_wave, rf_argx_key_scratch, rf_argx_plan_wave, rf_argmin_launch_wave, 0};

extern "C" const rf_variant *const rf_family_argmin[] = {&rf_argmin_lds_variant,
                                                         &rf_argmin_wave_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
