/* The argmax variants (seed 000 §9.1 table: combine (value, index) pairs; ties need a rule):
 * the first maximum, i.e. the largest value and, among equal values, the lowest index. Both
 * variants are deterministic: the pair order is total, so any combining order gives the same
 * winner, and the cross-block atomic is an integer maximum.
 *
 * Policy (oracle/exact.h): NaN inputs are ignored; -0 and +0 tie (IEEE ==); only NaN gives
 * {NaN, -1}; n = 0 gives {-inf, -1}. An empty slot is {-inf, RF_ARGMAX_NONE}: any real element,
 * -inf included, beats it by value or by its lower index, so RF_ARGMAX_NONE surviving to the end
 * means "no non-NaN element". */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "reduce_prims.h"

#define RF_ARGMAX_MAX_BLOCK 1024u
#define RF_ARGMAX_MAX_WAVES 32u     /* 1024 threads / wave 32 */
#define RF_ARGMAX_NONE 0x7fffffff   /* index of an empty slot; real indices are smaller */

typedef unsigned long long rf_argmax_u64;

/* ---- device building blocks ---------------------------------------------------------------- */

/* This thread's grid-stride winner; NaN elements are skipped. */
static __device__ __forceinline__ void rf_argmax_thread(const float *__restrict__ x,
                                                        rf_argmax_u64 n, float *v, int *i) {
  const rf_argmax_u64 stride = (rf_argmax_u64)gridDim.x * blockDim.x;
  float bv = -INFINITY;
  int bi = RF_ARGMAX_NONE;
  for (rf_argmax_u64 j = (rf_argmax_u64)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
    const float xv = x[j];
    if (xv == xv && rf_prim_first_max::beats(xv, (int)j, bv, bi)) { bv = xv; bi = (int)j; }
  }
  *v = bv;
  *i = bi;
}

/* ---- kernels ------------------------------------------------------------------------------- */

/* partials[blockIdx.x] = the block's winner (grid-stride, LDS tree). */
__global__ void rf_argmax_lds_partials_kernel(const float *__restrict__ x, rf_argmax_u64 n,
                                              rf_argmax_out *partials) {
  RF_SHARED(float, vals, RF_ARGMAX_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_ARGMAX_MAX_BLOCK);
  float v;
  int i;
  rf_argmax_thread(x, n, &v, &i);
  rf_prim_block_argmax_lds<rf_prim_first_max>(vals, idxs, v, i);
  if (threadIdx.x == 0) {
    partials[blockIdx.x].value = vals[0];
    partials[blockIdx.x].index = idxs[0];
  }
}

/* One block over `count` partials (grid-stride, LDS tree) into the output. n is the input
 * length, for the empty and only-NaN results. */
__global__ void rf_argmax_lds_final_kernel(const rf_argmax_out *__restrict__ partials,
                                           unsigned count, rf_argmax_u64 n, rf_argmax_out *out) {
  RF_SHARED(float, vals, RF_ARGMAX_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_ARGMAX_MAX_BLOCK);
  float v = -INFINITY;
  int i = RF_ARGMAX_NONE;
  for (unsigned j = threadIdx.x; j < count; j += blockDim.x)
    if (rf_prim_first_max::beats(partials[j].value, partials[j].index, v, i)) {
      v = partials[j].value;
      i = partials[j].index;
    }
  rf_prim_block_argmax_lds<rf_prim_first_max>(vals, idxs, v, i);
  if (threadIdx.x == 0) {
    const bool none = idxs[0] == RF_ARGMAX_NONE;
    out->value = n == 0 ? -INFINITY : none ? __int_as_float(0x7fc00000) : vals[0];
    out->index = none ? -1 : idxs[0];
  }
}

/* Block winner by wave shuffles (wave winners through LDS, the first wave finishes), merged
 * into *key by one 64-bit atomicMax per block that saw a non-NaN element. */
__global__ void rf_argmax_wave_atomic_kernel(const float *__restrict__ x, rf_argmax_u64 n,
                                             rf_argmax_u64 *key) {
  RF_SHARED(float, wave_vals, RF_ARGMAX_MAX_WAVES);
  RF_SHARED(int, wave_idxs, RF_ARGMAX_MAX_WAVES);
  float v;
  int i;
  rf_argmax_thread(x, n, &v, &i);
  rf_prim_block_argmax_waves<rf_prim_first_max>(wave_vals, wave_idxs, &v, &i, RF_ARGMAX_NONE);
  if (threadIdx.x == 0 && i != RF_ARGMAX_NONE) atomicMax(key, rf_prim_argmax_pack(v, i));
}

/* One thread decodes the key; the value is read back from the input so that its bits (-0
 * included) are the element's own. */
__global__ void rf_argmax_decode_kernel(const float *__restrict__ x, const rf_argmax_u64 *key,
                                        rf_argmax_u64 n, rf_argmax_out *out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const rf_argmax_u64 k = *key;
  if (k == 0) {
    out->value = n == 0 ? -INFINITY : __int_as_float(0x7fc00000);
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

#include "argext_host.h"   /* configure, scratch and plans, shared with argmin.hip */
static_assert(RF_ARGMAX_NONE == RF_ARGX_NONE, "configure keeps n below the empty-slot index");

/* ---- host: launch -------------------------------------------------------------------------- */

/* Partials into scratch, then one block over them; n = 0 runs only the second (0 partials). */
static int rf_argmax_launch_lds(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_argmax_out *partials = (rf_argmax_out *)a->scratch;
  unsigned count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argmax_lds_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, (rf_argmax_u64)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_argmax_lds_final_kernel, dim3(1), dim3(a->cfg.block), 0, st,
                     (const rf_argmax_out *)partials, count, (rf_argmax_u64)a->cfg.n,
                     (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

/* Key zeroed ("none"), blocks merge into it, one thread decodes it into the output. */
static int rf_argmax_launch_wave(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_argmax_u64 *key = (rf_argmax_u64 *)a->scratch;
  int err = (int)hipMemsetAsync(key, 0, sizeof(rf_argmax_u64), st);
  if (err) return err;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argmax_wave_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       st, a->x, (rf_argmax_u64)a->cfg.n, key);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_argmax_decode_kernel, dim3(1), dim3(1), 0, st, a->x,
                     (const rf_argmax_u64 *)key, (rf_argmax_u64)a->cfg.n,
                     (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_argmax_lds_variant = {
    .name = "argmax/lds",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride (value, index) winner, LDS tree of pairs into per-block partials; one "
        "block does the same over the partials",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); n < 2^31; no items",
    .configure = rf_argx_configure_lds,
    .scratch_bytes = rf_argx_partials_scratch,
    .plan = rf_argx_plan_lds,
    .launch = rf_argmax_launch_lds};

static const rf_variant rf_argmax_wave_variant = {
    .name = "argmax/wave",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride (value, index) winner, wave shuffle of pairs, wave winners via LDS, "
        "first wave finishes, one 64-bit atomicMax per block on (ordered value, inverted index)",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); n < 2^31; no items",
    .configure = rf_argx_configure_wave,
    .scratch_bytes = rf_argx_key_scratch,
    .plan = rf_argx_plan_wave,
    .launch = rf_argmax_launch_wave};

extern "C" const rf_variant *const rf_family_argmax[] = {&rf_argmax_lds_variant,
                                                         &rf_argmax_wave_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
