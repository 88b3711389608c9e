/* The max variants (seed 000 §9.1 table, seed 002 v1/v2, seed 003 §7): grid-stride local
 * maxima, then an LDS tree or wave shuffles inside a block, then a cross-block merge by an
 * integer atomicMax on an order-preserving key or by a second kernel. All are deterministic:
 * a max is exact and order-independent, and the atomics are integer maxima.
 *
 * NaN policy (oracle/exact.h): NaN inputs are ignored; an input of only NaN gives NaN; n = 0
 * gives -inf. fmaxf already ignores a NaN operand, so the fold identity is NaN itself, not -inf:
 * fmaxf(NaN, v) = v for every v, and an all-NaN input stays NaN (with -inf padding it would come
 * out as -inf). For an input with any non-NaN element the two identities give the same result. */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "reduce_prims.h"

#define RF_MAX_MAX_BLOCK 1024u
#define RF_MAX_MAX_WAVES 32u      /* 1024 threads / wave 32 */

typedef unsigned long long rf_max_u64;

/* ---- device building blocks ---------------------------------------------------------------- */

/* This thread's grid-stride maximum (NaN when it saw no non-NaN element). */
static __device__ __forceinline__ float rf_max_thread(const float *__restrict__ x, rf_max_u64 n) {
  const rf_max_u64 stride = (rf_max_u64)gridDim.x * blockDim.x;
  float m = rf_prim_max_identity();
  for (rf_max_u64 i = (rf_max_u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    m = fmaxf(m, x[i]);
  return m;
}

/* ---- kernels ------------------------------------------------------------------------------- */

/* Block maximum by LDS tree, merged into *key by one integer atomicMax per block. A block that
 * saw only NaN (or nothing) contributes nothing. */
__global__ void rf_max_lds_atomic_kernel(const float *__restrict__ x, rf_max_u64 n,
                                         unsigned *key) {
  RF_SHARED(float, lds, RF_MAX_MAX_BLOCK);
  const float m = rf_prim_block_max_lds(lds, rf_max_thread(x, n));
  if (threadIdx.x == 0 && m == m) atomicMax(key, rf_prim_max_key(m));
}

/* The same with wave shuffles inside the block. */
__global__ void rf_max_wave_atomic_kernel(const float *__restrict__ x, rf_max_u64 n,
                                          unsigned *key) {
  RF_SHARED(float, wave_max, RF_MAX_MAX_WAVES);
  const float m = rf_prim_block_max_waves(wave_max, rf_max_thread(x, n));
  if (threadIdx.x == 0 && m == m) atomicMax(key, rf_prim_max_key(m));
}

/* One thread turns the key into the output: -inf for n = 0, NaN when only NaN was seen. */
__global__ void rf_max_decode_kernel(const unsigned *key, rf_max_u64 n, float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    out[0] = n == 0 ? -INFINITY : k == 0 ? rf_prim_max_identity() : rf_prim_max_unkey(k);
  }
}

/* out[blockIdx.x] = the block's maximum (grid-stride, wave shuffles, LDS of wave maxima). Run
 * once over the input into partials, then as one block over the partials (any count): an
 * empty block's NaN partial is ignored there like a NaN input. count = 0 writes -inf. */
__global__ void rf_max_partials_wave_kernel(const float *__restrict__ x, rf_max_u64 count,
                                            float *out) {
  RF_SHARED(float, wave_max, RF_MAX_MAX_WAVES);
  const float m = rf_prim_block_max_waves(wave_max, rf_max_thread(x, count));
  if (threadIdx.x == 0) out[blockIdx.x] = count == 0 ? -INFINITY : m;
}

/* Everything below is host code: kept out of clang's HIP device pass, which would otherwise
 * emit the variant tables and miss the host functions they point to (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */

#include "extremum_host.h"   /* configure, scratch, plans and launchers, shared with min.hip */

/* ---- host: launch -------------------------------------------------------------------------- */

static int rf_max_launch_lds(const rf_launch_args *a) {
  return rf_ext_launch_keyed(a, rf_max_lds_atomic_kernel, rf_max_decode_kernel);
}
static int rf_max_launch_wave(const rf_launch_args *a) {
  return rf_ext_launch_keyed(a, rf_max_wave_atomic_kernel, rf_max_decode_kernel);
}
static int rf_max_launch_two_stage(const rf_launch_args *a) {
  return rf_ext_launch_two_stage(a, rf_max_partials_wave_kernel);
}

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_max_lds_variant = {
    .name = "max/lds",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fmaxf, LDS tree, one integer atomicMax per block on an "
        "order-preserving key, one thread decodes the key",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); no items",
    .configure = rf_ext_configure_lds,
    .scratch_bytes = rf_ext_key_scratch,
    .plan = rf_ext_plan_lds,
    .launch = rf_max_launch_lds};

static const rf_variant rf_max_wave_variant = {
    .name = "max/wave",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fmaxf, wave shuffle, wave maxima via LDS, first wave finishes, one "
        "integer atomicMax per block on an order-preserving key, one thread decodes the key",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); no items",
    .configure = rf_ext_configure_waves,
    .scratch_bytes = rf_ext_key_scratch,
    .plan = rf_ext_plan_wave,
    .launch = rf_max_launch_wave};

static const rf_variant rf_max_two_stage_variant = {
    .name = "max/two-stage",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride fmaxf, wave shuffle, wave maxima via LDS into per-block partials; one "
        "block does the same over the partials",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*8, ceil(n/block))); no items",
    .configure = rf_ext_configure_waves,
    .scratch_bytes = rf_ext_partials_scratch,
    .plan = rf_ext_plan_two_stage,
    .launch = rf_max_launch_two_stage};

extern "C" const rf_variant *const rf_family_max[] = {&rf_max_lds_variant, &rf_max_wave_variant,
                                                      &rf_max_two_stage_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
