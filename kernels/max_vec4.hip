/* The vectorised max variants (issue 17: max as fast as cub::DeviceReduce::Max). The scalar
 * variants in max.hip issue one 4-byte load per element and reach ~55% of copy bandwidth at
 * 2^24..2^26 on an H200; these load float4 quads (vec4_split.h: scalar head to the first 16-byte
 * boundary, quads, scalar tail), keep four independent fmaxf chains per thread (one per quad
 * component) and put RF_MAXV_UNROLL quads in flight per grid-stride step, as sum/vec4 does for
 * the sum. Both are deterministic: a max is exact and order-independent, and the cross-block
 * merge is either a second kernel or an integer atomicMax.
 *
 * NaN policy as max.hip (oracle/exact.h): NaN inputs are ignored, an input of only NaN gives
 * NaN, n = 0 gives -inf. The fold identity is NaN, which fmaxf ignores. */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "vec4_split.h"
#include "reduce_prims.h"

#define RF_MAXV_MAX_BLOCK 1024u
#define RF_MAXV_MAX_WAVES 32u       /* 1024 threads / wave 32 */
#define RF_MAXV_MAX_GRID 65535u
#define RF_MAXV_DEFAULT_BLOCK 256u
#define RF_MAXV_UNROLL 4            /* quads loaded before any is folded: 64 bytes per thread */
#define RF_MAXV_CU_THREADS 2048u    /* default grid: this many threads per CU (H100/H200 max) */
#define RF_MAXV_DEFAULT_ITEMS 4u
#define RF_MAXV_MAX_ITEMS 65536u

/* ---- device building blocks ---------------------------------------------------------------- */

static __device__ __forceinline__ void rf_maxv_fold4(float4 *m, float4 v) {
  m->x = fmaxf(m->x, v.x);
  m->y = fmaxf(m->y, v.y);
  m->z = fmaxf(m->z, v.z);
  m->w = fmaxf(m->w, v.w);
}

/* This thread's maximum (NaN when it saw no non-NaN element). The main loop loads
 * RF_MAXV_UNROLL quads, all in range, before folding any, so that many 16-byte loads are in
 * flight; the remainder loop takes the last quads one by one. Every quad index j < quads is
 * visited by exactly one thread (j = g + k*stride), the head by threads g < head, the tail by
 * threads g < n - tail_start. */
static __device__ __forceinline__ float rf_maxv_thread(const float *__restrict__ x, rf_vec4_u64 n) {
  const rf_vec4_split s = rf_vec4_split_of(x, n);
  const float4 *__restrict__ x4 = reinterpret_cast<const float4 *>(x + s.head);
  const rf_vec4_u64 g = (rf_vec4_u64)blockIdx.x * blockDim.x + threadIdx.x;
  const rf_vec4_u64 stride = (rf_vec4_u64)gridDim.x * blockDim.x;
  const float id = rf_prim_max_identity();
  float4 m = make_float4(id, id, id, id);
  rf_vec4_u64 j = g;
  for (; j + (RF_MAXV_UNROLL - 1) * stride < s.quads; j += RF_MAXV_UNROLL * stride) {
    float4 v[RF_MAXV_UNROLL];
#pragma unroll
    for (int u = 0; u < RF_MAXV_UNROLL; u++) v[u] = x4[j + u * stride];
#pragma unroll
    for (int u = 0; u < RF_MAXV_UNROLL; u++) rf_maxv_fold4(&m, v[u]);
  }
  for (; j < s.quads; j += stride) rf_maxv_fold4(&m, x4[j]);
  float r = fmaxf(fmaxf(m.x, m.y), fmaxf(m.z, m.w));
  if (g < s.head) r = fmaxf(r, x[g]);
  if (g < n - s.tail_start) r = fmaxf(r, x[s.tail_start + g]);
  return r;
}

/* ---- kernels ------------------------------------------------------------------------------- */

/* out[blockIdx.x] = the block's maximum over `count` floats. Run over the input into partials,
 * then as one block over the partials (they are floats too, so the same float4 path reads
 * them): an empty block's NaN partial is ignored there like a NaN input. count = 0 writes
 * -inf. __launch_bounds__: every block the configure step allows (up to 1024) must launch. */
__global__ void __launch_bounds__(RF_MAXV_MAX_BLOCK)
    rf_maxv_partials_kernel(const float *__restrict__ x, rf_vec4_u64 count, float *out) {
  RF_SHARED(float, wave_max, RF_MAXV_MAX_WAVES);
  const float m = rf_prim_block_max_waves(wave_max, rf_maxv_thread(x, count));
  if (threadIdx.x == 0) out[blockIdx.x] = count == 0 ? -INFINITY : m;
}

/* Block maximum merged into *key by one integer atomicMax per block that saw a non-NaN. */
__global__ void __launch_bounds__(RF_MAXV_MAX_BLOCK)
    rf_maxv_keyed_kernel(const float *__restrict__ x, rf_vec4_u64 n, unsigned *key) {
  RF_SHARED(float, wave_max, RF_MAXV_MAX_WAVES);
  const float m = rf_prim_block_max_waves(wave_max, rf_maxv_thread(x, n));
  if (threadIdx.x == 0 && m == m) atomicMax(key, rf_prim_max_key(m));
}

/* One thread turns the key into the output: -inf for n = 0, NaN when only NaN was seen. */
__global__ void rf_maxv_decode_kernel(const unsigned *key, rf_vec4_u64 n, float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned k = *key;
    out[0] = n == 0 ? -INFINITY : k == 0 ? rf_prim_max_identity() : rf_prim_max_unkey(k);
  }
}

/* Everything below is host code: kept out of clang's HIP device pass (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */

/* Whole waves of 32 or 64 lanes (the LDS holds up to 32 wave maxima), block a power of two. */
static const char *rf_maxv_pick_block(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  return rf_pick_block_pow2(cfg, RF_MAXV_DEFAULT_BLOCK, cfg->wave, RF_MAXV_MAX_BLOCK, 1);
}

/* A requested grid wins (1..65535); otherwise `want` blocks, at most one quad per thread's
 * worth of blocks (ceil(n / (4*block))), at least 1. */
static const char *rf_maxv_pick_grid(rf_launch_cfg *cfg, uint64_t want) {
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n, 4 * (uint64_t)cfg->block);
    if (g > want) g = want;
    if (g > RF_MAXV_MAX_GRID) g = RF_MAXV_MAX_GRID;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > RF_MAXV_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_MAXV_MAX_GRID);
  }
  return NULL;
}

/* Two-stage: the default grid fills every CU with RF_MAXV_CU_THREADS threads (CUs x 2048/block
 * blocks: 8 blocks of 256 per SM on an H200, 1056 partials), so the first kernel runs in one
 * round and the one-block second kernel reads a few partials per thread. No items knob. */
static const char *rf_maxv_configure_two_stage(rf_launch_cfg *cfg) {
  const char *why = rf_maxv_pick_block(cfg);
  if (why) return why;
  cfg->items = 0;
  const uint64_t cus = cfg->num_cus ? cfg->num_cus : 1;
  const uint64_t per_cu = cfg->block >= RF_MAXV_CU_THREADS ? 1 : RF_MAXV_CU_THREADS / cfg->block;
  return rf_maxv_pick_grid(cfg, cus * per_cu);
}

/* Keyed: sum/vec4's sizing, `items` quads per thread (default 4): many short blocks, each
 * merging with one atomic, so the grid does not depend on the CU count. */
static const char *rf_maxv_configure_keyed(rf_launch_cfg *cfg) {
  const char *why = rf_maxv_pick_block(cfg);
  if (why) return why;
  if (cfg->items == 0) cfg->items = RF_MAXV_DEFAULT_ITEMS;
  if (cfg->items > RF_MAXV_MAX_ITEMS)
    return rf_reason("items %u is not supported (allowed: 1..%u)", cfg->items, RF_MAXV_MAX_ITEMS);
  return rf_maxv_pick_grid(cfg, rf_div_ceil(cfg->n, 4 * (uint64_t)cfg->block * cfg->items));
}

static size_t rf_maxv_partials_scratch(const rf_launch_cfg *cfg) {
  return cfg->n ? (size_t)cfg->grid * sizeof(float) : 0;
}

static size_t rf_maxv_key_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(unsigned); }

/* ---- host: plans (comparisons on the longest path; informative, max is exact) -------------- */

/* fmaxf steps from the identity to a thread's result, for `count` floats over `threads`: an
 * element of a thread's first quad passes its component's k4 folds (k4 = ceil(floor(count/4) /
 * threads), the most quads a thread can get: the head length depends on the pointer, so assume
 * head 0), the two-level merge of the four components, and the head and tail folds: k4 + 4.
 * With no quad, a head element passes the head and tail folds: 2. */
static uint64_t rf_maxv_chain(uint64_t count, uint64_t threads) {
  const uint64_t k4 = rf_div_ceil(count / 4, threads);
  return k4 ? k4 + 4 : 2;
}

static void rf_maxv_plan_two_stage(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t in_wave = rf_ceil_log2(cfg->wave), across = rf_ceil_log2(cfg->block / cfg->wave);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_maxv_chain(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_maxv_chain(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
}

static void rf_maxv_plan_keyed(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_maxv_chain(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* ---- host: launch -------------------------------------------------------------------------- */

/* Partials into scratch, then one block over them; n = 0 runs only the second (it writes -inf). */
static int rf_maxv_launch_two_stage(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  const float *in = a->x;
  rf_vec4_u64 count = a->cfg.n;
  if (count) {
    float *partials = (float *)a->scratch;
    hipLaunchKernelGGL(rf_maxv_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st,
                       a->x, count, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    in = partials;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_maxv_partials_kernel, dim3(1), dim3(a->cfg.block), 0, st, in, count,
                     (float *)a->out);
  return (int)hipGetLastError();
}

/* Key zeroed ("nothing seen"), blocks merge into it, one thread decodes it into the output. */
static int rf_maxv_launch_keyed(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  unsigned *key = (unsigned *)a->scratch;
  int err = (int)hipMemsetAsync(key, 0, sizeof(unsigned), st);
  if (err) return err;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_maxv_keyed_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                       (rf_vec4_u64)a->cfg.n, key);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_maxv_decode_kernel, dim3(1), dim3(1), 0, st, (const unsigned *)key,
                     (rf_vec4_u64)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_maxv_vec4_variant = {
    .name = "max/vec4",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "scalar head to 16-byte alignment, grid-stride float4 quads (4 in flight, one "
        "fmaxf chain per component), scalar tail, wave shuffle + LDS into per-block partials; one "
        "block does the same over the partials",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*2048/block, ceil(n/(4*block)))); no items; any alignment",
    .configure = rf_maxv_configure_two_stage,
    .scratch_bytes = rf_maxv_partials_scratch,
    .plan = rf_maxv_plan_two_stage,
    .launch = rf_maxv_launch_two_stage};

static const rf_variant rf_maxv_vec4_keyed_variant = {
    .name = "max/vec4-keyed",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "the max/vec4 thread loop and block reduction, merged across blocks by one integer "
        "atomicMax per block on an order-preserving key, one thread decodes the key",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "ceil(n/(4*block*items))); items 1..65536 float4 per thread (default 4; only sets the "
        "default grid); any alignment",
    .configure = rf_maxv_configure_keyed,
    .scratch_bytes = rf_maxv_key_scratch,
    .plan = rf_maxv_plan_keyed,
    .launch = rf_maxv_launch_keyed};

extern "C" const rf_variant *const rf_family_max_vec4[] = {&rf_maxv_vec4_variant,
                                                           &rf_maxv_vec4_keyed_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
