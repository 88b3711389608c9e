/* Shared pieces of the known-bug mutants: the *correct* building blocks each mutant keeps
 * (so that every mutant departs from its correct design in exactly one place), and the host
 * helpers for configure and plan. The reduction trees themselves are the families' own
 * (../reduce_prims.h). Everything is static: each mutant file is its own unit. */
#ifndef RF_MUT_COMMON_H
#define RF_MUT_COMMON_H
#include "../port.h"
#include "redfuzz/variant.h"
#include "../launch_common.h"
#include "../reduce_prims.h"

#define RF_MUT_MAX_BLOCK 1024u
#define RF_MUT_DEFAULT_BLOCK 256u
#define RF_MUT_DEFAULT_ITEMS 4u
#define RF_MUT_MAX_ITEMS 65536u
#define RF_MUT_MAX_GRID 0x7fffffffu
#define RF_MUT_TWO_PASS_MAX_GRID 1024u  /* seed 002 §7.6: grid1 = min(grid, 1024) */
#define RF_MUT_ARGMAX_NONE 0x7fffffff   /* index of an empty argmax slot */

typedef unsigned long long rf_mut_u64;

/* ---- device: correct building blocks -------------------------------------------------------- */

static __device__ __forceinline__ rf_mut_u64 rf_mut_gid() {
  return (rf_mut_u64)blockIdx.x * blockDim.x + threadIdx.x;
}

/* One block's logsumexp of row xr (cols elements), in thread 0: max by LDS tree, reader
 * barrier, s = Σ exp(x - m) by LDS tree, m + log s. Idle lanes (t >= cols) put idle_max into
 * the max tree: -INFINITY, the max's identity, in the correct design. */
static __device__ __forceinline__ float rf_mut_lse_block_row(const float *xr, uint32_t cols,
                                                             float *sd, float idle_max) {
  const unsigned t = threadIdx.x;
  float m = -INFINITY;
  for (uint32_t c = t; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
  sd[t] = t < cols ? m : idle_max;
  rf_prim_lds_max_tree(sd);
  const float row_max = sd[0];
  __syncthreads();   /* everyone has read the max before sd holds the sums */
  float s = 0.0f;
  for (uint32_t c = t; c < cols; c += blockDim.x)
    s += xr[c] == row_max ? 1.0f : expf(xr[c] - row_max);
  sd[t] = s;
  rf_prim_lds_sum_tree(sd);
  return row_max + logf(sd[0]);
}

/* One thread writes -0: the start of an accumulated sum. */
__global__ static __attribute__((unused)) void rf_mut_neg_zero_kernel(float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = -0.0f;
}

/* ---- host: configure, scratch, plans ------------------------------------------------------- */
/* clang's HIP device pass must not see the host tables and functions (see kernels/sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

static inline const char *rf_mut_pick_block(rf_launch_cfg *cfg) {
  return rf_pick_block_pow2(cfg, RF_MUT_DEFAULT_BLOCK, 1, RF_MUT_MAX_BLOCK, 0);
}

/* One element per thread: grid = ceil(n / block) (a requested grid is ignored), no items. */
static inline const char *rf_mut_grid_one_per_thread(rf_launch_cfg *cfg) {
  const uint64_t g = cfg->n ? rf_div_ceil(cfg->n, cfg->block) : 1;
  if (g > RF_MUT_MAX_GRID)
    return rf_reason("n %llu needs %llu blocks of %u (max grid %u)", (unsigned long long)cfg->n,
                     (unsigned long long)g, cfg->block, RF_MUT_MAX_GRID);
  cfg->grid = (uint32_t)g;
  cfg->items = 0;
  return NULL;
}

/* Grid-stride: a requested grid wins (1..2^31-1); else ceil(n / (block*items*per_item)) capped
 * at `cap`, at least 1. */
static inline const char *rf_mut_grid_stride(rf_launch_cfg *cfg, uint64_t items, uint64_t cap,
                                             uint32_t per_item) {
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n, (uint64_t)cfg->block * items * per_item);
    if (g > cap) g = cap;
    if (g > RF_MUT_MAX_GRID) g = RF_MUT_MAX_GRID;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > RF_MUT_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_MUT_MAX_GRID);
  }
  return NULL;
}

static inline const char *rf_mut_pick_items(rf_launch_cfg *cfg) {
  if (cfg->items == 0) cfg->items = RF_MUT_DEFAULT_ITEMS;
  if (cfg->items > RF_MUT_MAX_ITEMS)
    return rf_reason("items %u is not supported (allowed: 1..%u)", cfg->items, RF_MUT_MAX_ITEMS);
  return NULL;
}

/* Block power of two 1..1024, one element per thread. */
static inline const char *rf_mut_configure_one_per_thread(rf_launch_cfg *cfg) {
  const char *why = rf_mut_pick_block(cfg);
  return why ? why : rf_mut_grid_one_per_thread(cfg);
}

/* Block power of two 1..1024, grid-stride with the items knob (default grid from items). */
static inline const char *rf_mut_configure_grid_stride(rf_launch_cfg *cfg, uint32_t per_item) {
  const char *why = rf_mut_pick_block(cfg);
  if (!why) why = rf_mut_pick_items(cfg);
  return why ? why : rf_mut_grid_stride(cfg, cfg->items, RF_MUT_MAX_GRID, per_item);
}

/* Two-kernel designs: grid-stride first kernel, default min(ceil(n/block), 1024) blocks. */
static inline const char *rf_mut_configure_two_pass(rf_launch_cfg *cfg) {
  const char *why = rf_mut_pick_block(cfg);
  cfg->items = 0;
  return why ? why : rf_mut_grid_stride(cfg, 1, RF_MUT_TWO_PASS_MAX_GRID, 1);
}

/* Softmax, one block per row: block power of two 1..1024, grid = rows. */
static inline const char *rf_mut_configure_row_per_block(rf_launch_cfg *cfg) {
  const char *why = rf_mut_pick_block(cfg);
  if (why) return why;
  if (cfg->rows > RF_MUT_MAX_GRID)
    return rf_reason("rows %u exceed the grid limit %u", cfg->rows, RF_MUT_MAX_GRID);
  cfg->grid = cfg->rows ? cfg->rows : 1;
  cfg->items = 0;
  return NULL;
}

/* The same, with the grid capped at cap blocks (the kernel strides over the rows, or not). */
static inline const char *rf_mut_configure_row_per_block_capped(rf_launch_cfg *cfg, uint32_t cap) {
  const char *why = rf_mut_configure_row_per_block(cfg);
  if (!why && cfg->grid > cap) cfg->grid = cap;
  return why;
}

static inline size_t rf_mut_no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* One float per first-kernel block. */
static inline size_t rf_mut_float_partials(const rf_launch_cfg *cfg) {
  return cfg->n ? (size_t)cfg->grid * sizeof(float) : 0;
}

/* Elements the busiest thread of a grid-stride loop adds, starting from 0. */
static inline uint64_t rf_mut_chain(uint64_t count, uint64_t grid, uint64_t block) {
  return rf_div_ceil(count, grid * block);
}

/* One element per thread, LDS tree, one atomic per block into the zeroed output. */
static inline void rf_mut_plan_lds_atomic(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* Grid-stride chain, LDS tree, one atomic per block. */
static inline void rf_mut_plan_chain_lds_atomic(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_mut_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* Grid-stride chain + LDS tree into partials, then one block: chain over the partials + tree. */
static inline void rf_mut_plan_two_pass(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_mut_chain(cfg->n, cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_mut_chain(cfg->grid, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

/* Softmax, one block per row, three passes: the row sum is a chain of ceil(cols/block) adds
 * per thread (from 0) and an LDS tree; y = e / s. */
static inline void rf_mut_plan_row_per_block(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  if (!cfg->rows || !cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_mut_chain(cfg->cols, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}

/* Row ops, one thread per row (the three-kernel variants' design fused into one kernel):
 * block 1..1024 (any), grid ceil(rows / block), rows grid-strided. */
static inline const char *rf_mut_configure_row_per_thread(rf_launch_cfg *cfg) {
  if (cfg->block == 0) cfg->block = RF_MUT_DEFAULT_BLOCK;
  if (cfg->block > RF_MUT_MAX_BLOCK)
    return rf_reason("block %u is not supported (allowed: 1..%u)", cfg->block, RF_MUT_MAX_BLOCK);
  cfg->grid = cfg->rows ? (uint32_t)rf_div_ceil(cfg->rows, cfg->block) : 1;
  cfg->items = 0;
  return NULL;
}
/* One serial chain of cols exps per row (logsumexp/3kernel's plan). */
static inline void rf_mut_plan_row_per_thread(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  rf_plan_add(p, RF_LEVEL_CHAIN, cfg->cols);
}

static inline int rf_mut_zero_output(const rf_launch_args *a) {
  return (int)hipMemsetAsync(a->out, 0, sizeof(float), (hipStream_t)a->stream);
}

/* The output set to -0, the sum's identity (kernels/sum.hip says why; a memset gives +0). */
static inline int rf_mut_neg_zero_output(const rf_launch_args *a) {
  hipLaunchKernelGGL(rf_mut_neg_zero_kernel, dim3(1), dim3(1), 0, (hipStream_t)a->stream,
                     (float *)a->out);
  return (int)hipGetLastError();
}

typedef void (*rf_mut_sum_kernel)(const float *, rf_mut_u64, float *);

/* The correct launch of an accumulating sum: the output set to +0 for n = 0 (the empty sum)
 * and to the identity -0 otherwise, then `grid` blocks add into it. */
static inline int rf_mut_launch_accumulating(const rf_launch_args *a, rf_mut_sum_kernel k,
                                             uint32_t grid) {
  int err = a->cfg.n == 0 ? rf_mut_zero_output(a) : rf_mut_neg_zero_output(a);
  if (err || a->cfg.n == 0 || grid == 0) return err;
  hipLaunchKernelGGL(k, dim3(grid), dim3(a->cfg.block), 0, (hipStream_t)a->stream, a->x,
                     (rf_mut_u64)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

#endif /* !__HIP_DEVICE_COMPILE__ */
#endif
