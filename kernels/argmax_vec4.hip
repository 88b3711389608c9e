/* The vectorised argmax variants (issue 17: argmax as fast as cub::DeviceReduce::ArgMax): the
 * float4 thread loop of max_vec4.hip (vec4_split.h: scalar head, aligned quads, scalar tail;
 * RF_ARGV_UNROLL quads in flight per grid-stride step) with a (value, index) winner per quad
 * component, then the pair reductions of argmax.hip.
 *
 * Ties: the first maximum (largest value, then lowest index). A component's chain sees its
 * indices in increasing order (quad j before quad j + stride, the unrolled quads in order), so
 * inside a chain a later element wins only by a strictly larger value; everywhere else (the
 * four components of a thread, head, tail, lanes, waves, blocks) pairs are compared by value
 * then index, a total order, so any combining order gives the first maximum: the components'
 * indices interleave (x holds head + 4j, y head + 4j + 1, ...), and breaking a tie by component
 * order instead of index would give a later index (kernels/mutants/argmax_vec4_lane_ties.hip).
 *
 * Policy (oracle/exact.h, as argmax.hip): NaN inputs are ignored; -0 and +0 tie (IEEE ==); only
 * NaN gives {NaN, -1}; n = 0 gives {-inf, -1}. An empty slot is {-inf, RF_ARGV_NONE}: any real
 * element, -inf included, beats it by value or by its lower index. */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "vec4_split.h"
#include "argext.h"          /* the pair rule, the output write and the key decode */

#define RF_ARGV_MAX_BLOCK 1024u
#define RF_ARGV_MAX_WAVES 32u       /* 1024 threads / wave 32 */
#define RF_ARGV_MAX_GRID 65535u
#define RF_ARGV_DEFAULT_BLOCK 256u
#define RF_ARGV_UNROLL 4            /* quads loaded before any is compared */
#define RF_ARGV_CU_THREADS 2048u    /* default grid: this many threads per CU (H100/H200 max) */
#define RF_ARGV_DEFAULT_ITEMS 4u
#define RF_ARGV_MAX_ITEMS 65536u
#define RF_ARGV_NONE RF_ARGX_NONE   /* index of an empty slot; real indices are smaller */

/* ---- device building blocks ---------------------------------------------------------------- */

/* Next element of one component's chain, whose indices only grow: it wins by a larger value,
 * or as the chain's first non-NaN element (which may be -inf, equal to the empty slot's value).
 * NaN fails both tests. Indices are 64-bit (rf_argx_idx): n may pass 2^31 and 2^32. */
static __device__ __forceinline__ void rf_argv_take_next(float xv, rf_argx_idx xi, float *bv,
                                                         rf_argx_idx *bi) {
  if (xv > *bv || (xv == *bv && *bi == RF_ARGV_NONE)) { *bv = xv; *bi = xi; }
}

/* A pair from anywhere (another component, the head, the tail, another lane): full order. */
static __device__ __forceinline__ void rf_argv_merge(float ov, rf_argx_idx oi, float *bv,
                                                     rf_argx_idx *bi) {
  if (rf_dir_max::beats(ov, oi, *bv, *bi)) { *bv = ov; *bi = oi; }
}

/* The four component chains' indices (the port has float4 only). */
typedef struct { rf_argx_idx x, y, z, w; } rf_argv_idx4;

/* One quad at index `first` into the four component chains. */
static __device__ __forceinline__ void rf_argv_take4(float4 v, rf_argx_idx first, float4 *bv,
                                                     rf_argv_idx4 *bi) {
  rf_argv_take_next(v.x, first, &bv->x, &bi->x);
  rf_argv_take_next(v.y, first + 1, &bv->y, &bi->y);
  rf_argv_take_next(v.z, first + 2, &bv->z, &bi->z);
  rf_argv_take_next(v.w, first + 3, &bv->w, &bi->w);
}

/* This thread's winner (the empty slot when it saw no non-NaN element) over the quads
 * j, j + stride, ... below end, the head element h (when h < head) and the tail element t
 * (when t < the tail's length). */
static __device__ __forceinline__ void rf_argv_thread(const float *__restrict__ x, rf_vec4_u64 n,
                                                      rf_vec4_u64 j, rf_vec4_u64 end,
                                                      rf_vec4_u64 stride, rf_vec4_u64 h,
                                                      rf_vec4_u64 t, float *v, rf_argx_idx *i) {
  const rf_vec4_split s = rf_vec4_split_of(x, n);
  const float4 *__restrict__ x4 = reinterpret_cast<const float4 *>(x + s.head);
  const rf_argx_idx head = (rf_argx_idx)s.head;
  float4 bv = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  rf_argv_idx4 bi = {RF_ARGV_NONE, RF_ARGV_NONE, RF_ARGV_NONE, RF_ARGV_NONE};
  for (; j + (RF_ARGV_UNROLL - 1) * stride < end; j += RF_ARGV_UNROLL * stride) {
    float4 q[RF_ARGV_UNROLL];
#pragma unroll
    for (int u = 0; u < RF_ARGV_UNROLL; u++) q[u] = x4[j + u * stride];
#pragma unroll
    for (int u = 0; u < RF_ARGV_UNROLL; u++)
      rf_argv_take4(q[u], head + 4 * (rf_argx_idx)(j + u * stride), &bv, &bi);
  }
  for (; j < end; j += stride) rf_argv_take4(x4[j], head + 4 * (rf_argx_idx)j, &bv, &bi);
  rf_argv_merge(bv.y, bi.y, &bv.x, &bi.x);
  rf_argv_merge(bv.w, bi.w, &bv.z, &bi.z);
  rf_argv_merge(bv.z, bi.z, &bv.x, &bi.x);
  if (h < s.head) {
    const float e = x[h];
    if (e == e) rf_argv_merge(e, (rf_argx_idx)h, &bv.x, &bi.x);
  }
  if (t < n - s.tail_start) {
    const float e = x[s.tail_start + t];
    if (e == e) rf_argv_merge(e, (rf_argx_idx)(s.tail_start + t), &bv.x, &bi.x);
  }
  *v = bv.x;
  *i = bi.x;
}

/* Grid-stride over every quad; threads 0..2 of the grid take the head and the tail. */
static __device__ __forceinline__ void rf_argv_grid_thread(const float *__restrict__ x,
                                                           rf_vec4_u64 n, float *v,
                                                           rf_argx_idx *i) {
  const rf_vec4_u64 g = (rf_vec4_u64)blockIdx.x * blockDim.x + threadIdx.x;
  rf_argv_thread(x, n, g, rf_vec4_split_of(x, n).quads, (rf_vec4_u64)gridDim.x * blockDim.x, g,
                 g, v, i);
}

/* The block's contiguous chunk of quads (kernels/argext.h, rf_argx_chunk), block-stride inside
 * it; the head (the lowest indices) goes to block 0, the tail (the highest) to the last block,
 * so lower blocks still own lower indices. */
static __device__ __forceinline__ void rf_argv_chunk_thread(const float *__restrict__ x,
                                                            rf_vec4_u64 n, float *v,
                                                            rf_argx_idx *i) {
  const rf_vec4_u64 none = ~(rf_vec4_u64)0;
  rf_argx_u64 lo, hi;
  rf_argx_chunk(rf_vec4_split_of(x, n).quads, blockIdx.x, gridDim.x, &lo, &hi);
  rf_argv_thread(x, n, lo + threadIdx.x, hi, blockDim.x,
                 blockIdx.x == 0 ? threadIdx.x : none,
                 blockIdx.x == gridDim.x - 1 ? threadIdx.x : none, v, i);
}

/* ---- kernels ------------------------------------------------------------------------------- */

/* partials[blockIdx.x] = the block's winner. __launch_bounds__: blocks up to 1024 must launch. */
__global__ void __launch_bounds__(RF_ARGV_MAX_BLOCK)
    rf_argv_partials_kernel(const float *__restrict__ x, rf_vec4_u64 n,
                            rf_argmax_out64 *partials) {
  RF_SHARED(float, wave_vals, RF_ARGV_MAX_WAVES);
  RF_SHARED(rf_argx_idx, wave_idxs, RF_ARGV_MAX_WAVES);
  float v;
  rf_argx_idx i;
  rf_argv_grid_thread(x, n, &v, &i);
  rf_prim_block_argmax_waves<rf_dir_max>(wave_vals, wave_idxs, &v, &i, RF_ARGV_NONE);
  if (threadIdx.x == 0) rf_argx_put(partials, blockIdx.x, v, i);
}

/* One block over `count` partials into the output; n is the input length, for the empty and
 * only-NaN results. */
__global__ void __launch_bounds__(RF_ARGV_MAX_BLOCK)
    rf_argv_final_kernel(const rf_argmax_out64 *__restrict__ partials, unsigned count,
                         rf_vec4_u64 n, rf_argmax_out64 *out) {
  RF_SHARED(float, wave_vals, RF_ARGV_MAX_WAVES);
  RF_SHARED(rf_argx_idx, wave_idxs, RF_ARGV_MAX_WAVES);
  float v;
  rf_argx_idx i;
  rf_argx_fold_partials<rf_dir_max>(partials, count, &v, &i);
  rf_prim_block_argmax_waves<rf_dir_max>(wave_vals, wave_idxs, &v, &i, RF_ARGV_NONE);
  if (threadIdx.x == 0) rf_argx_write<rf_dir_max>(n, v, i, out);
}

/* The block's winner of its chunk to partials[block], merged into *key by one 64-bit atomicMax
 * on (value key, inverted block) per block that saw a non-NaN (kernels/argext.h). */
__global__ void __launch_bounds__(RF_ARGV_MAX_BLOCK)
    rf_argv_keyed_kernel(const float *__restrict__ x, rf_vec4_u64 n, unsigned long long *key,
                         rf_argmax_out64 *partials) {
  RF_SHARED(float, wave_vals, RF_ARGV_MAX_WAVES);
  RF_SHARED(rf_argx_idx, wave_idxs, RF_ARGV_MAX_WAVES);
  float v;
  rf_argx_idx i;
  rf_argv_chunk_thread(x, n, &v, &i);
  rf_prim_block_argmax_waves<rf_dir_max>(wave_vals, wave_idxs, &v, &i, RF_ARGV_NONE);
  if (threadIdx.x == 0 && i != RF_ARGV_NONE) {
    rf_argx_put(partials, blockIdx.x, v, i);
    atomicMax(key, rf_prim_arg_block_key<rf_dir_max>(v, blockIdx.x));
  }
}

/* One thread decodes the key: the partial of the block it names. */
__global__ void rf_argv_decode_kernel(const rf_argmax_out64 *__restrict__ partials,
                                      const unsigned long long *key, rf_vec4_u64 n,
                                      rf_argmax_out64 *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) rf_argx_decode<rf_dir_max>(partials, *key, n, out);
}

/* Everything below is host code: kept out of clang's HIP device pass (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */

/* Whole waves of 32 or 64 lanes, block a power of two; any n (64-bit indices). */
static const char *rf_argv_pick_block(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  return rf_pick_block_pow2(cfg, RF_ARGV_DEFAULT_BLOCK, cfg->wave, RF_ARGV_MAX_BLOCK, 1);
}

/* A requested grid wins (1..65535); otherwise `want` blocks, at most ceil(n / (4*block)), at
 * least 1. */
static const char *rf_argv_pick_grid(rf_launch_cfg *cfg, uint64_t want) {
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n, 4 * (uint64_t)cfg->block);
    if (g > want) g = want;
    if (g > RF_ARGV_MAX_GRID) g = RF_ARGV_MAX_GRID;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > RF_ARGV_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_ARGV_MAX_GRID);
  }
  return NULL;
}

/* Two-stage: CUs x 2048/block blocks by default (max_vec4.hip says why). No items knob. */
static const char *rf_argv_configure_two_stage(rf_launch_cfg *cfg) {
  const char *why = rf_argv_pick_block(cfg);
  if (why) return why;
  cfg->items = 0;
  const uint64_t cus = cfg->num_cus ? cfg->num_cus : 1;
  const uint64_t per_cu = cfg->block >= RF_ARGV_CU_THREADS ? 1 : RF_ARGV_CU_THREADS / cfg->block;
  return rf_argv_pick_grid(cfg, cus * per_cu);
}

/* Keyed: `items` quads per thread (default 4), as sum/vec4. */
static const char *rf_argv_configure_keyed(rf_launch_cfg *cfg) {
  const char *why = rf_argv_pick_block(cfg);
  if (why) return why;
  if (cfg->items == 0) cfg->items = RF_ARGV_DEFAULT_ITEMS;
  if (cfg->items > RF_ARGV_MAX_ITEMS)
    return rf_reason("items %u is not supported (allowed: 1..%u)", cfg->items, RF_ARGV_MAX_ITEMS);
  return rf_argv_pick_grid(cfg, rf_div_ceil(cfg->n, 4 * (uint64_t)cfg->block * cfg->items));
}

static size_t rf_argv_partials_scratch(const rf_launch_cfg *cfg) {
  return cfg->n ? (size_t)cfg->grid * sizeof(rf_argmax_out64) : 0;
}

/* The key, then a partial a block (kernels/argext.h, rf_argx_keyed_partials). */
static size_t rf_argv_key_scratch(const rf_launch_cfg *cfg) {
  return RF_ARGX_KEYED_PARTIALS + (cfg->n ? (size_t)cfg->grid * sizeof(rf_argmax_out64) : 0);
}

/* ---- host: plans (comparisons on the longest path; informative, argmax is exact) ----------- */

/* As max_vec4.hip: k4 comparisons along a component chain (k4 = ceil(floor(n/4) / threads)),
 * two to merge the components, head and tail: k4 + 4; 2 with no quad. */
static uint64_t rf_argv_chain(uint64_t n, uint64_t threads) {
  const uint64_t k4 = rf_div_ceil(n / 4, threads);
  return k4 ? k4 + 4 : 2;
}

/* The second kernel is scalar: a chain of ceil(G/B) partials per thread. */
static void rf_argv_plan_two_stage(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t in_wave = rf_ceil_log2(cfg->wave), across = rf_ceil_log2(cfg->block / cfg->wave);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_argv_chain(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
}

static void rf_argv_plan_keyed(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_argv_chain(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* ---- host: launch -------------------------------------------------------------------------- */

/* Partials into scratch, then one block over them; n = 0 runs only the second (0 partials). */
static int rf_argv_launch_two_stage(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  rf_argmax_out64 *partials = (rf_argmax_out64 *)a->scratch;
  unsigned count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argv_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st,
                       a->x, (rf_vec4_u64)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_argv_final_kernel, dim3(1), dim3(a->cfg.block), 0, st,
                     (const rf_argmax_out64 *)partials, count, (rf_vec4_u64)a->cfg.n,
                     (rf_argmax_out64 *)a->out);
  return (int)hipGetLastError();
}

/* Key zeroed ("none"), blocks write their partials and merge into it, one thread decodes it
 * into the output. */
static int rf_argv_launch_keyed(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  unsigned long long *key = (unsigned long long *)a->scratch;
  rf_argmax_out64 *partials = rf_argx_keyed_partials(a->scratch);
  int err = (int)hipMemsetAsync(key, 0, sizeof(unsigned long long), st);
  if (err) return err;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_argv_keyed_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                       (rf_vec4_u64)a->cfg.n, key, partials);
    if ((err = (int)hipGetLastError())) return err;
  }
  hipLaunchKernelGGL(rf_argv_decode_kernel, dim3(1), dim3(1), 0, st,
                     (const rf_argmax_out64 *)partials, (const unsigned long long *)key,
                     (rf_vec4_u64)a->cfg.n, (rf_argmax_out64 *)a->out);
  return (int)hipGetLastError();
}

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_argv_vec4_variant = {
    .name = "argmax/vec4",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "scalar head to 16-byte alignment, grid-stride float4 quads (4 in flight, one "
        "(value, index) chain per component), scalar tail, wave shuffle of pairs + LDS into "
        "per-block partials; one block merges the partials",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "min(CUs*2048/block, ceil(n/(4*block)))); no items; any alignment; 64-bit indices",
    .configure = rf_argv_configure_two_stage,
    .scratch_bytes = rf_argv_partials_scratch,
    .plan = rf_argv_plan_two_stage,
    .launch = rf_argv_launch_two_stage,
    .index_bits = 64};

static const rf_variant rf_argv_vec4_keyed_variant = {
    .name = "argmax/vec4-keyed",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "the argmax/vec4 thread loop over a contiguous chunk of quads a block and its block "
        "reduction; the block winner to a partial, merged across blocks by one 64-bit atomicMax "
        "per block on (ordered value, inverted block); one thread decodes the key",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default "
        "ceil(n/(4*block*items))); items 1..65536 float4 per thread (default 4; only sets the "
        "default grid); any alignment; 64-bit indices",
    .configure = rf_argv_configure_keyed,
    .scratch_bytes = rf_argv_key_scratch,
    .plan = rf_argv_plan_keyed,
    .launch = rf_argv_launch_keyed,
    .index_bits = 64};

extern "C" const rf_variant *const rf_family_argmax_vec4[] = {
    &rf_argv_vec4_variant, &rf_argv_vec4_keyed_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
