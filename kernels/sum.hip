/* The sum variants: from one atomic per element to the deterministic two-stage reduction
 * (seed 000 §9.4, seed 002 v0..v4, seed 003 versions 1..3). Every plan counts the additions on
 * the longest path from an input to the output (docs/KERNELS_SUM.md has the formulas).
 *
 * The additive identity is -0, not +0: x + (-0) = x for every x, +0 included, while
 * (+0) + (-0) = +0 would turn a sum of only -0 into +0 (the exact answer is -0; IEEE 754-2019
 * §6.3, docs/ORACLE.md "Sum"). So padding, fold starts and the accumulated output start at -0;
 * an empty sum is +0. */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "reduce_prims.h"

#define RF_SUM_MAX_BLOCK 1024u
#define RF_SUM_MAX_WAVES 32u      /* 1024 threads / wave 32; wave 64 needs fewer */
#define RF_SUM_MAX_GRID 0x7fffffffu
#define RF_SUM_DEFAULT_BLOCK 256u
#define RF_SUM_DEFAULT_ITEMS 4u
#define RF_SUM_MAX_ITEMS 65536u
#define RF_SUM_TWO_PASS_MAX_GRID 1024u /* seed 002 §7.6: grid1 = min(grid, 1024) */

/* ---- device building blocks ---------------------------------------------------------------- */

static __device__ __forceinline__ size_t rf_sum_global_id() {
  return (size_t)blockIdx.x * blockDim.x + threadIdx.x;
}

/* ---- kernels ------------------------------------------------------------------------------- */

/* One thread writes -0: the start of an accumulated sum. */
__global__ void rf_sum_neg_zero_kernel(float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = -0.0f;
}

/* seed 002 v0 / seed 000 hip-atomic: every element straight into the output. */
__global__ void rf_sum_atomic_kernel(const float *__restrict__ x, size_t n, float *out) {
  const size_t i = rf_sum_global_id();
  if (i < n) atomicAdd(out, x[i]);
}

/* seed 003 version 1: interleaved addressing, t % (2s) == 0. */
__global__ void rf_sum_lds_interleaved_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, sd, RF_SUM_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const size_t i = rf_sum_global_id();
  sd[t] = i < n ? x[i] : -0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0) sd[t] += sd[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, sd[0]);
}

/* seed 000 hip-lds / seed 002 v1: sequential addressing, one atomic per block. */
__global__ void rf_sum_lds_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, sd, RF_SUM_MAX_BLOCK);
  const size_t i = rf_sum_global_id();
  sd[threadIdx.x] = i < n ? x[i] : -0.0f;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

/* seed 002 v2: LDS tree down to one wave's worth of values, then the first wave shuffles. */
__global__ void rf_sum_lds_wave_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, sd, RF_SUM_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const size_t i = rf_sum_global_id();
  sd[t] = i < n ? x[i] : -0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s >= (unsigned)warpSize; s >>= 1) {
    if (t < s) sd[t] += sd[t + s];
    __syncthreads();
  }
  if (t < (unsigned)warpSize) {   /* exactly the first wave: all of its lanes shuffle */
    const float v = rf_prim_wave_sum_down(sd[t], warpSize);
    if (t == 0) atomicAdd(out, v);
  }
}

/* seed 002 v3: grid-stride accumulation with four loads in flight per step. The adds stay in
 * index order, so the per-thread chain is one add per element. */
__global__ void rf_sum_unrolled_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, sd, RF_SUM_MAX_BLOCK);
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = rf_sum_global_id();
  float local = -0.0f;
  for (; i + 3 * stride < n; i += 4 * stride) {
    const float a = x[i], b = x[i + stride], c = x[i + 2 * stride], d = x[i + 3 * stride];
    local += a;
    local += b;
    local += c;
    local += d;
  }
  for (; i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

/* seed 002 v3 (float4): the input may start anywhere (the runner passes x+1), so the elements
 * before the first 16-byte boundary and the last n mod 4 after the quads are loaded as
 * scalars. Per thread: head element, quads summed pairwise, tail element. */
__global__ void rf_sum_vec4_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, wave_sums, RF_SUM_MAX_WAVES);
  const size_t past_boundary = ((uintptr_t)x / sizeof(float)) % 4;
  size_t head = (4 - past_boundary) % 4;
  if (head > n) head = n;
  const size_t quads = (n - head) / 4, tail_start = head + 4 * quads;
  const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
  const size_t g = rf_sum_global_id(), stride = (size_t)gridDim.x * blockDim.x;
  float local = -0.0f;
  if (g < head) local += x[g];
  for (size_t j = g; j < quads; j += stride) {
    const float4 v = x4[j];
    local += (v.x + v.y) + (v.z + v.w);
  }
  if (g < n - tail_start) local += x[tail_start + g];
  const float s = rf_prim_block_sum_waves(wave_sums, local);
  if (threadIdx.x == 0) atomicAdd(out, s);
}

/* seed 002 v4: grid-stride accumulation, LDS tree, out[blockIdx.x] = block sum. Run once over
 * the input, then as the single-block second pass over the partials (any count). */
__global__ void rf_sum_partials_lds_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, sd, RF_SUM_MAX_BLOCK);
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (size_t i = rf_sum_global_id(); i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) out[blockIdx.x] = sd[0];
}

/* seed 000 hip-two-stage (local_wave_partial_kernel): grid-stride accumulation, wave shuffle,
 * wave sums through LDS, the first wave finishes; out[blockIdx.x] = block sum. The same kernel
 * with one block is the second stage. */
__global__ void rf_sum_partials_wave_kernel(const float *__restrict__ x, size_t n, float *out) {
  RF_SHARED(float, wave_sums, RF_SUM_MAX_WAVES);
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (size_t i = rf_sum_global_id(); i < n; i += stride) local += x[i];
  const float s = rf_prim_block_sum_waves(wave_sums, local);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

/* Everything below is host code. clang's HIP device pass would emit the const variant tables
 * too (const globals are usable on the device) and its device link would then miss the host
 * functions they point to; it would also warn about the unused static host functions. */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */

typedef void (*rf_sum_kernel)(const float *, size_t, float *);

/* Variants without a grid knob cover the input with one element per thread; a requested grid
 * is ignored (the constraints text says so). */
static const char *rf_sum_grid_one_per_thread(rf_launch_cfg *cfg) {
  const uint64_t g = cfg->n ? rf_div_ceil(cfg->n, cfg->block) : 1;
  if (g > RF_SUM_MAX_GRID)
    return rf_reason("n %llu needs %llu blocks of %u (max grid %u)",
                     (unsigned long long)cfg->n, (unsigned long long)g, cfg->block,
                     RF_SUM_MAX_GRID);
  cfg->grid = (uint32_t)g;
  cfg->items = 0;
  return NULL;
}

/* Grid-stride variants: a requested grid wins; otherwise `items` elements per thread, capped
 * at `cap` blocks. `per_item` is how many floats one item is. */
static const char *rf_sum_grid_stride(rf_launch_cfg *cfg, uint64_t items, uint64_t cap,
                                      uint32_t per_item) {
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n, (uint64_t)cfg->block * items * per_item);
    if (g > cap) g = cap;
    if (g > RF_SUM_MAX_GRID) g = RF_SUM_MAX_GRID;
    cfg->grid = g ? (uint32_t)g : 1;
  } else if (cfg->grid > RF_SUM_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_SUM_MAX_GRID);
  }
  return NULL;
}

/* The items knob (grid-stride variants that have it): 0 picks the default. */
static const char *rf_sum_pick_items(rf_launch_cfg *cfg) {
  if (cfg->items == 0) cfg->items = RF_SUM_DEFAULT_ITEMS;
  if (cfg->items > RF_SUM_MAX_ITEMS)
    return rf_reason("items %u is not supported (allowed: 1..%u)", cfg->items, RF_SUM_MAX_ITEMS);
  return NULL;
}

static const char *rf_sum_configure_atomic(rf_launch_cfg *cfg) {
  if (cfg->block == 0) cfg->block = RF_SUM_DEFAULT_BLOCK;
  if (cfg->block > RF_SUM_MAX_BLOCK)   /* no tree: any block size works */
    return rf_reason("block %u is not supported (allowed: 1..%u)", cfg->block, RF_SUM_MAX_BLOCK);
  return rf_sum_grid_one_per_thread(cfg);
}

/* LDS trees without shuffles work for any power of two, 1 included. */
static const char *rf_sum_configure_lds(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_SUM_DEFAULT_BLOCK, 1, RF_SUM_MAX_BLOCK, 0);
  return why ? why : rf_sum_grid_one_per_thread(cfg);
}

/* Shuffle variants: whole waves only (the wave size comes from the device). */
static const char *rf_sum_pick_block_waves(rf_launch_cfg *cfg) {
  if (!rf_is_pow2(cfg->wave) || cfg->wave > RF_SUM_MAX_BLOCK)
    return rf_reason("wave size %u is not supported (allowed: power of two up to %u)", cfg->wave,
                     RF_SUM_MAX_BLOCK);
  return rf_pick_block_pow2(cfg, RF_SUM_DEFAULT_BLOCK, cfg->wave, RF_SUM_MAX_BLOCK, 1);
}

static const char *rf_sum_configure_lds_wave(rf_launch_cfg *cfg) {
  const char *why = rf_sum_pick_block_waves(cfg);
  return why ? why : rf_sum_grid_one_per_thread(cfg);
}

static const char *rf_sum_configure_unrolled(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_SUM_DEFAULT_BLOCK, 1, RF_SUM_MAX_BLOCK, 0);
  if (!why) why = rf_sum_pick_items(cfg);
  return why ? why : rf_sum_grid_stride(cfg, cfg->items, RF_SUM_MAX_GRID, 1);
}

static const char *rf_sum_configure_vec4(rf_launch_cfg *cfg) {
  const char *why = rf_sum_pick_block_waves(cfg);
  if (!why) why = rf_sum_pick_items(cfg);
  return why ? why : rf_sum_grid_stride(cfg, cfg->items, RF_SUM_MAX_GRID, 4);
}

/* Default grid: one element per thread, capped as in seed 002 §7.6. */
static const char *rf_sum_configure_two_pass(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_SUM_DEFAULT_BLOCK, 1, RF_SUM_MAX_BLOCK, 0);
  cfg->items = 0;
  return why ? why : rf_sum_grid_stride(cfg, 1, RF_SUM_TWO_PASS_MAX_GRID, 1);
}

/* Default grid: min(CUs x 8, blocks needed), seed 000 §9.4.3. */
static const char *rf_sum_configure_two_stage_wave(rf_launch_cfg *cfg) {
  const char *why = rf_sum_pick_block_waves(cfg);
  cfg->items = 0;
  const uint64_t cus = cfg->num_cus ? cfg->num_cus : 1;
  return why ? why : rf_sum_grid_stride(cfg, 1, cus * 8, 1);
}

static size_t rf_sum_no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }

/* The two-kernel variants keep one partial per first-kernel block. */
static size_t rf_sum_partials_scratch(const rf_launch_cfg *cfg) {
  return cfg->n ? (size_t)cfg->grid * sizeof(float) : 0;
}

/* ---- host: plans (longest addition chain from any input to the output) -------------------- */

/* Elements the busiest thread of a grid-stride loop adds, from 0: ceil(count / threads). */
static uint64_t rf_sum_chain(uint64_t count, const rf_launch_cfg *cfg) {
  return rf_div_ceil(count, (uint64_t)cfg->grid * cfg->block);
}

static void rf_sum_plan_atomic(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (cfg->n) rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->n);   /* output starts at 0: n adds */
}

static void rf_sum_plan_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

static void rf_sum_plan_lds_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

static void rf_sum_plan_unrolled(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_sum_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* The head length depends on the pointer, which the plan does not see: assume the worst. The
 * first quad's elements pass 2 pairwise adds, the k4 adds of quads into `local` and a tail
 * add; with no quad, a head element passes its own add and a tail add. */
static void rf_sum_plan_vec4(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint64_t k4 = rf_sum_chain(cfg->n / 4, cfg);
  rf_plan_add(p, RF_LEVEL_CHAIN, k4 ? k4 + 3 : 2);
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

/* The second kernel's level carries its own grid-stride chain over the partials. */
static void rf_sum_plan_two_pass(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_sum_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

static void rf_sum_plan_two_stage_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t in_wave = rf_ceil_log2(cfg->wave), across = rf_ceil_log2(cfg->block / cfg->wave);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_sum_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_WAVE, in_wave);
  rf_plan_add(p, RF_LEVEL_WAVE, across);
}

/* ---- host: launch -------------------------------------------------------------------------- */

static int rf_sum_zero_output(const rf_launch_args *a) {
  return (int)hipMemsetAsync(a->out, 0, sizeof(float), (hipStream_t)a->stream);
}

/* The output set to -0, the identity the blocks then add into (a memset can only give +0). */
static int rf_sum_neg_zero_output(const rf_launch_args *a) {
  hipLaunchKernelGGL(rf_sum_neg_zero_kernel, dim3(1), dim3(1), 0, (hipStream_t)a->stream,
                     (float *)a->out);
  return (int)hipGetLastError();
}

/* Output set to the identity (+0 for the empty sum, else -0), then one kernel whose blocks add
 * into it. */
static int rf_sum_launch_accumulating(const rf_launch_args *a, rf_sum_kernel k) {
  if (a->cfg.n == 0) return rf_sum_zero_output(a);
  int err = rf_sum_neg_zero_output(a);
  if (err) return err;
  hipLaunchKernelGGL(k, dim3(a->cfg.grid), dim3(a->cfg.block), 0, (hipStream_t)a->stream, a->x,
                     (size_t)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

/* Partials into scratch, then the same kernel as one block over the partials. */
static int rf_sum_launch_two_kernels(const rf_launch_args *a, rf_sum_kernel k) {
  if (a->cfg.n == 0) return rf_sum_zero_output(a);
  float *partials = (float *)a->scratch;
  hipLaunchKernelGGL(k, dim3(a->cfg.grid), dim3(a->cfg.block), 0, (hipStream_t)a->stream, a->x,
                     (size_t)a->cfg.n, partials);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(k, dim3(1), dim3(a->cfg.block), 0, (hipStream_t)a->stream,
                     (const float *)partials, (size_t)a->cfg.grid, (float *)a->out);
  return (int)hipGetLastError();
}

static int rf_sum_launch_atomic(const rf_launch_args *a) {
  return rf_sum_launch_accumulating(a, rf_sum_atomic_kernel);
}
static int rf_sum_launch_lds_interleaved(const rf_launch_args *a) {
  return rf_sum_launch_accumulating(a, rf_sum_lds_interleaved_kernel);
}
static int rf_sum_launch_lds(const rf_launch_args *a) {
  return rf_sum_launch_accumulating(a, rf_sum_lds_kernel);
}
static int rf_sum_launch_lds_wave(const rf_launch_args *a) {
  return rf_sum_launch_accumulating(a, rf_sum_lds_wave_kernel);
}
static int rf_sum_launch_unrolled(const rf_launch_args *a) {
  return rf_sum_launch_accumulating(a, rf_sum_unrolled_kernel);
}
static int rf_sum_launch_vec4(const rf_launch_args *a) {
  return rf_sum_launch_accumulating(a, rf_sum_vec4_kernel);
}
static int rf_sum_launch_two_pass(const rf_launch_args *a) {
  return rf_sum_launch_two_kernels(a, rf_sum_partials_lds_kernel);
}
static int rf_sum_launch_two_stage_wave(const rf_launch_args *a) {
  return rf_sum_launch_two_kernels(a, rf_sum_partials_wave_kernel);
}

/* ---- the family ---------------------------------------------------------------------------- */
/* Every sum starts from -0 (above), so each declares the strict IEEE zero sign
 * (RF_CONTRACT_SIGNED_ZERO) and is held to it. */

static const rf_variant rf_sum_atomic = {
    .name = "sum/atomic",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 0,
    .summary = "one atomicAdd per element into the output set to -0",
    .constraints = "block 1..1024 (any); grid = ceil(n/block), a requested grid is ignored; no "
        "items",
    .configure = rf_sum_configure_atomic,
    .scratch_bytes = rf_sum_no_scratch,
    .plan = rf_sum_plan_atomic,
    .launch = rf_sum_launch_atomic,
    /* Every element contends for one address: ~1.8 ms at 2^20 and 7.4 ms at 2^22 on an
     * H200, 25x a whole case of the other variants. Fuzzed up to 2^16 (~0.1 ms). */
    .fuzz_max_n = UINT64_C(1) << 16,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant rf_sum_lds_interleaved = {
    .name = "sum/lds-interleaved",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 0,
    .summary = "one element per thread, LDS tree with interleaved addressing (t % 2s), one atomic "
        "per block",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_sum_configure_lds,
    .scratch_bytes = rf_sum_no_scratch,
    .plan = rf_sum_plan_lds,
    .launch = rf_sum_launch_lds_interleaved,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant rf_sum_lds = {
    .name = "sum/lds",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 0,
    .summary = "one element per thread, sequential-addressing LDS tree, one atomic per block",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_sum_configure_lds,
    .scratch_bytes = rf_sum_no_scratch,
    .plan = rf_sum_plan_lds,
    .launch = rf_sum_launch_lds,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant rf_sum_lds_wave = {
    .name = "sum/lds-wave",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 0,
    .summary = "one element per thread, LDS tree down to one wave, __shfl_down, one atomic per "
        "block",
    .constraints = "block power of two, wave..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_sum_configure_lds_wave,
    .scratch_bytes = rf_sum_no_scratch,
    .plan = rf_sum_plan_lds_wave,
    .launch = rf_sum_launch_lds_wave,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant rf_sum_unrolled = {
    .name = "sum/unrolled",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 0,
    .summary = "grid-stride chain (4 loads in flight), LDS tree, one atomic per block",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default ceil(n/(block*items))); "
        "items 1..65536 (default 4; only sets the default grid)",
    .configure = rf_sum_configure_unrolled,
    .scratch_bytes = rf_sum_no_scratch,
    .plan = rf_sum_plan_unrolled,
    .launch = rf_sum_launch_unrolled,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant rf_sum_vec4 = {
    .name = "sum/vec4",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 0,
    .summary = "scalar head to 16-byte alignment, grid-stride float4 quads summed pairwise, "
        "scalar tail, wave shuffle + LDS, one atomic per block",
    .constraints = "block power of two, wave..1024; grid 1..2^31-1 (default "
        "ceil(n/(4*block*items))); items 1..65536 float4 per thread (default 4; only sets the "
        "default grid); any alignment",
    .configure = rf_sum_configure_vec4,
    .scratch_bytes = rf_sum_no_scratch,
    .plan = rf_sum_plan_vec4,
    .launch = rf_sum_launch_vec4,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant rf_sum_two_pass = {
    .name = "sum/two-pass",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride chain + LDS tree into per-block partials, then one block does the "
        "same over the partials",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_sum_configure_two_pass,
    .scratch_bytes = rf_sum_partials_scratch,
    .plan = rf_sum_plan_two_pass,
    .launch = rf_sum_launch_two_pass,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

static const rf_variant rf_sum_two_stage_wave = {
    .name = "sum/two-stage-wave",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "grid-stride chain, wave shuffle, wave sums via LDS, first wave finishes, into "
        "per-block partials; one block does the same over the partials",
    .constraints = "block power of two, wave..1024; grid 1..2^31-1 (default min(CUs*8, "
        "ceil(n/block))); no items",
    .configure = rf_sum_configure_two_stage_wave,
    .scratch_bytes = rf_sum_partials_scratch,
    .plan = rf_sum_plan_two_stage_wave,
    .launch = rf_sum_launch_two_stage_wave,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};

extern "C" const rf_variant *const rf_family_sum[] = {
    &rf_sum_atomic, &rf_sum_lds_interleaved, &rf_sum_lds, &rf_sum_lds_wave, &rf_sum_unrolled,
    &rf_sum_vec4, &rf_sum_two_pass, &rf_sum_two_stage_wave, NULL};
#endif
