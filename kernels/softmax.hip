/* The softmax variants: y[r][c] = exp(x[r][c] - m_r) / Σ_j exp(x[r][j] - m_r), m_r the row
 * maximum (seed 004 §10.2). Every variant is deterministic (no atomics). docs/KERNELS_SOFTMAX.md
 * has the algorithms, the plans and the NaN policy.
 *
 * NaN policy (oracle/exact.h): a row holding NaN or +inf gives NaN everywhere. No special
 * case is needed: the max ignores NaN (fmaxf) but exp(NaN - m) puts NaN in the row sum, and a
 * +inf max makes exp(inf - inf) = NaN. Masked lanes contribute -inf to a max and 0 to a sum
 * (seed 004 §10.5.5), never 0 to a max. */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "reduce_prims.h"

#define RF_SM_MAX_BLOCK 1024u
#define RF_SM_MAX_WAVES 32u       /* 1024 threads / wave 32 */
#define RF_SM_MAX_GRID 65535u
#define RF_SM_DEFAULT_BLOCK 256u

typedef unsigned long long rf_sm_u64;

/* ---- kernels: softmax/3kernel (seed 004 §10.5.1 hip-baseline-3kernel) ---------------------- */

/* One thread per row, serial maximum. The seed starts from the lowest finite float; -inf is the
 * true identity (an all -inf row must not turn into a finite max). */
__global__ void rf_sm3_row_max_kernel(const float *__restrict__ x, unsigned rows, unsigned cols,
                                      float *__restrict__ row_max) {
  const rf_sm_u64 stride = (rf_sm_u64)gridDim.x * blockDim.x;
  for (rf_sm_u64 r = (rf_sm_u64)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride) {
    const float *row = x + r * cols;
    float m = -INFINITY;
    for (unsigned c = 0; c < cols; c++) m = fmaxf(m, row[c]);
    row_max[r] = m;
  }
}

/* One thread per row: exp(x - m) into the exp buffer and the serial row sum. */
__global__ void rf_sm3_exp_sum_kernel(const float *__restrict__ x, unsigned rows, unsigned cols,
                                      const float *__restrict__ row_max, float *__restrict__ exps,
                                      float *__restrict__ row_sum) {
  const rf_sm_u64 stride = (rf_sm_u64)gridDim.x * blockDim.x;
  for (rf_sm_u64 r = (rf_sm_u64)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride) {
    const float *row = x + r * cols;
    float *e = exps + r * cols;
    const float m = row_max[r];
    float s = 0.0f;
    for (unsigned c = 0; c < cols; c++) {
      const float v = expf(row[c] - m);
      e[c] = v;
      s += v;
    }
    row_sum[r] = s;
  }
}

/* One thread per element (grid-stride): y = e / s. */
__global__ void rf_sm3_normalize_kernel(const float *__restrict__ exps, unsigned rows,
                                        unsigned cols, const float *__restrict__ row_sum,
                                        float *__restrict__ y) {
  const rf_sm_u64 total = (rf_sm_u64)rows * cols, stride = (rf_sm_u64)gridDim.x * blockDim.x;
  for (rf_sm_u64 i = (rf_sm_u64)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride)
    y[i] = exps[i] / row_sum[i / cols];
}

/* ---- kernels: one block per row (grid-stride over rows when grid < rows) ------------------- */

/* seed 004 §10.5.2 hip-fused-block-lds, with its fix: strided local max, LDS max tree, reader
 * barrier, strided local sum of exp(x - m), the same LDS reused for the sum tree, normalize.
 * lds is dynamic: blockDim.x floats. The row loop is block-uniform, so every thread reaches
 * every barrier. */
__global__ void rf_sm_block_lds_kernel(const float *__restrict__ x, unsigned rows, unsigned cols,
                                       float *__restrict__ y) {
  RF_DYN_SHARED(float, lds);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  for (rf_sm_u64 r = blockIdx.x; r < rows; r += gridDim.x) {
    const float *row = x + r * cols;
    float *out = y + r * cols;

    float m = -INFINITY;
    for (unsigned c = t; c < cols; c += nt) m = fmaxf(m, row[c]);
    lds[t] = m;
    __syncthreads();
    for (unsigned s = nt / 2; s > 0; s >>= 1) {
      if (t < s) lds[t] = fmaxf(lds[t], lds[t + s]);
      __syncthreads();
    }
    const float row_max = lds[0];
    __syncthreads();   /* reader barrier (seed 004 §10.5.2): all have read the max before lds
                          is overwritten with the sums */

    float sum = 0.0f;
    for (unsigned c = t; c < cols; c += nt) sum += expf(row[c] - row_max);
    lds[t] = sum;
    __syncthreads();
    for (unsigned s = nt / 2; s > 0; s >>= 1) {
      if (t < s) lds[t] += lds[t + s];
      __syncthreads();
    }
    const float denom = lds[0];
    __syncthreads();   /* reader barrier: all have read the sum before the next row's max
                          overwrites lds */

    for (unsigned c = t; c < cols; c += nt) out[c] = expf(row[c] - row_max) / denom;
  }
}

/* The same three passes with wave-shuffle finishes: each wave reduces by butterfly, lane 0 puts
 * the wave's value in wave_part, the first wave combines them into `shared_row`.
 * Why no extra reader barrier is needed: wave_part is written (next phase) only after a barrier
 * that follows the first wave's read of it; shared_row[0] (the max) is overwritten by the sum
 * only after the barrier that follows everyone's read of the max, and the next row writes it
 * only after its first barrier, which follows everyone's read of the sum. */
__global__ void rf_sm_block_wave_kernel(const float *__restrict__ x, unsigned rows,
                                        unsigned cols, float *__restrict__ y) {
  RF_SHARED(float, wave_part, RF_SM_MAX_WAVES);
  RF_SHARED(float, shared_row, 1);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const unsigned lane = t % warpSize, wave = t / warpSize, waves = nt / warpSize;
  for (rf_sm_u64 r = blockIdx.x; r < rows; r += gridDim.x) {
    const float *row = x + r * cols;
    float *out = y + r * cols;

    float m = -INFINITY;
    for (unsigned c = t; c < cols; c += nt) m = fmaxf(m, row[c]);
    m = rf_prim_wave_max(m, warpSize);
    if (lane == 0) wave_part[wave] = m;
    __syncthreads();
    if (wave == 0) {   /* the whole first wave: every lane takes part in the shuffles */
      m = rf_prim_wave_max(lane < waves ? wave_part[lane] : -INFINITY, waves);
      if (lane == 0) shared_row[0] = m;
    }
    __syncthreads();
    const float row_max = shared_row[0];

    float sum = 0.0f;
    for (unsigned c = t; c < cols; c += nt) sum += expf(row[c] - row_max);
    sum = rf_prim_wave_sum_xor(sum, warpSize);
    if (lane == 0) wave_part[wave] = sum;
    __syncthreads();   /* also the reader barrier of shared_row[0] (the max) */
    if (wave == 0) {
      sum = rf_prim_wave_sum_xor(lane < waves ? wave_part[lane] : 0.0f, waves);
      if (lane == 0) shared_row[0] = sum;
    }
    __syncthreads();
    const float denom = shared_row[0];

    for (unsigned c = t; c < cols; c += nt) out[c] = expf(row[c] - row_max) / denom;
  }
}

/* Online softmax: one pass keeps a running (max, rescaled sum) per thread; the pairs combine by
 * butterfly in each wave, wave pairs through LDS, the first wave combines them; then 1/s once
 * and y = exp(x - m) * (1/s). Barrier reasoning as in rf_sm_block_wave_kernel. */
__global__ void rf_sm_online_kernel(const float *__restrict__ x, unsigned rows, unsigned cols,
                                    float *__restrict__ y) {
  RF_SHARED(float, wave_m, RF_SM_MAX_WAVES);
  RF_SHARED(float, wave_s, RF_SM_MAX_WAVES);
  RF_SHARED(float, shared_row, 2);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const unsigned lane = t % warpSize, wave = t / warpSize, waves = nt / warpSize;
  for (rf_sm_u64 r = blockIdx.x; r < rows; r += gridDim.x) {
    const float *row = x + r * cols;
    float *out = y + r * cols;

    float m = -INFINITY, s = 0.0f;
    for (unsigned c = t; c < cols; c += nt) rf_prim_online_push<true>(&m, &s, row[c]);
    rf_prim_wave_online<true>(&m, &s, warpSize);
    if (lane == 0) {
      wave_m[wave] = m;
      wave_s[wave] = s;
    }
    __syncthreads();
    if (wave == 0) {
      m = lane < waves ? wave_m[lane] : -INFINITY;
      s = lane < waves ? wave_s[lane] : 0.0f;
      rf_prim_wave_online<true>(&m, &s, waves);
      if (lane == 0) {
        shared_row[0] = m;
        shared_row[1] = s;
      }
    }
    __syncthreads();
    const float row_max = shared_row[0], inv = 1.0f / shared_row[1];

    for (unsigned c = t; c < cols; c += nt) out[c] = expf(row[c] - row_max) * inv;
  }
}

/* ---- kernels: softmax/row-reg (one block per row, the row held in registers) ------------- */

/* Float4 per thread: the most any launch uses (the row limit is block 1024 x 8 float4, plus
 * the scalar head and tail), and the default target: 4 each, as long as a block of at most
 * 1024 threads covers the row (4096 x 1024 runs at block 64). Measured on an H200 at
 * 4096 x 1024 (docs/BENCH.md): 1, 2, 4, 8 float4 a thread (block 256, 128, 64, 32) took
 * 0.0164, 0.0132, 0.0122, 0.0132 ms. */
#define RF_SMR_MAX_VEC 8u
#define RF_SMR_DEFAULT_VEC 4u

/* Each row is read once and written once. The row may start anywhere (the runner misaligns
 * the input by 0..3 floats and cols is arbitrary), so it splits into a scalar head up to its
 * first 16-byte boundary (< 4 elements), `quads` aligned float4 and a scalar tail (< 4).
 * Thread t holds quads t, t + B, ..., t + (V-1)B in registers (neighbouring threads read
 * neighbouring 16 bytes), plus head element t and tail element t where those exist (t < 3).
 * Then max, exp(x - m) in place, sum, and y = e / s (IEEE division) from the registers.
 * Per-thread sum order, for the plan: head, then per quad (e.x + e.y) + (e.z + e.w), then
 * tail. The launcher picks V so that V x B covers the quads. */
/* __launch_bounds__: every block size the launcher allows (up to 1024) must launch. Without
 * it nvcc gave the 8-float4 instance 74 registers, and 1024 x 74 exceeds the 64K registers
 * of an SM: block 1024 at > 16K columns failed with "too many resources requested for launch"
 * (found by the GPU fuzz campaign). The bound makes the compiler fit 64 registers a thread. */
template <unsigned V>
__global__ void __launch_bounds__(RF_SM_MAX_BLOCK) rf_sm_row_reg_kernel(const float *__restrict__ x, unsigned rows, unsigned cols,
                                     float *__restrict__ y) {
  RF_SHARED(float, wave_part, RF_SM_MAX_WAVES);
  RF_SHARED(float, shared_row, 1);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  for (rf_sm_u64 r = blockIdx.x; r < rows; r += gridDim.x) {   /* block-uniform loop */
    const float *row = x + r * cols;
    float *out = y + r * cols;
    unsigned head = (4u - (unsigned)(((uintptr_t)row / sizeof(float)) % 4u)) % 4u;
    if (head > cols) head = cols;
    const unsigned quads = (cols - head) / 4u, tail_start = head + 4u * quads;
    const bool has_head = t < head, has_tail = t < cols - tail_start;
    const float4 *row4 = reinterpret_cast<const float4 *>(row + head);

    /* Load once. Masked slots hold -inf, the max's identity; they are never summed. */
    float hv = has_head ? row[t] : -INFINITY;
    float tv = has_tail ? row[tail_start + t] : -INFINITY;
    float4 q[V];
#pragma unroll
    for (unsigned k = 0; k < V; k++) {
      const unsigned j = t + k * nt;
      q[k] = j < quads ? row4[j] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    }

    /* fmaxf ignores NaN; NaN comes back through exp below (policy at the top). */
    float m = fmaxf(hv, tv);
#pragma unroll
    for (unsigned k = 0; k < V; k++)
      m = fmaxf(m, fmaxf(fmaxf(q[k].x, q[k].y), fmaxf(q[k].z, q[k].w)));
    const float row_max = rf_prim_block_allreduce_waves<true>(m, wave_part, shared_row);

    /* exp in place; masked slots add nothing (0 into a sum, and no exp(-inf - m), which is
     * NaN when m = -inf). */
    float sum = 0.0f;
    if (has_head) {
      hv = expf(hv - row_max);
      sum += hv;
    }
#pragma unroll
    for (unsigned k = 0; k < V; k++) {
      if (t + k * nt < quads) {
        float4 &e = q[k];
        e = make_float4(expf(e.x - row_max), expf(e.y - row_max), expf(e.z - row_max),
                        expf(e.w - row_max));
        sum += (e.x + e.y) + (e.z + e.w);
      }
    }
    if (has_tail) {
      tv = expf(tv - row_max);
      sum += tv;
    }
    const float denom = rf_prim_block_allreduce_waves<false>(sum, wave_part, shared_row);

    /* The output row has its own alignment (out is 256-byte aligned, row r starts at r*cols):
     * float4 stores when it matches the input's split, which is block-uniform, else scalars. */
    const bool out_vec = ((uintptr_t)(out + head) % sizeof(float4)) == 0;
    if (has_head) out[t] = hv / denom;
#pragma unroll
    for (unsigned k = 0; k < V; k++) {
      const unsigned j = t + k * nt;
      if (j < quads) {
        const float4 o = make_float4(q[k].x / denom, q[k].y / denom, q[k].z / denom,
                                     q[k].w / denom);
        if (out_vec) {
          reinterpret_cast<float4 *>(out + head)[j] = o;
        } else {
          float *s = out + head + 4u * j;
          s[0] = o.x;
          s[1] = o.y;
          s[2] = o.z;
          s[3] = o.w;
        }
      }
    }
    if (has_tail) out[tail_start + t] = tv / denom;
  }
}

/* The instances the launcher picks from, instantiated here so that the device pass, which
 * does not see the host launcher below, emits them too. */
template __global__ void rf_sm_row_reg_kernel<1>(const float *__restrict__, unsigned, unsigned,
                                                 float *__restrict__);
template __global__ void rf_sm_row_reg_kernel<2>(const float *__restrict__, unsigned, unsigned,
                                                 float *__restrict__);
template __global__ void rf_sm_row_reg_kernel<4>(const float *__restrict__, unsigned, unsigned,
                                                 float *__restrict__);
template __global__ void rf_sm_row_reg_kernel<8>(const float *__restrict__, unsigned, unsigned,
                                                 float *__restrict__);

/* Everything below is host code: kept out of clang's HIP device pass, which would otherwise
 * emit the variant tables and miss the host functions they point to (see sum.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */

/* Grid for per-row kernels: a requested grid wins (blocks stride over the rows, extra blocks
 * idle); the default is one block per row, capped. No items knob. */
static const char *rf_sm_pick_grid(rf_launch_cfg *cfg, uint64_t default_grid) {
  cfg->items = 0;
  if (cfg->grid == 0) {
    if (default_grid > RF_SM_MAX_GRID) default_grid = RF_SM_MAX_GRID;
    cfg->grid = default_grid ? (uint32_t)default_grid : 1;
  } else if (cfg->grid > RF_SM_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_SM_MAX_GRID);
  }
  return NULL;
}

/* One thread per row and per element: no tree, any block size. */
static const char *rf_sm_configure_3kernel(rf_launch_cfg *cfg) {
  if (cfg->block == 0) cfg->block = RF_SM_DEFAULT_BLOCK;
  if (cfg->block > RF_SM_MAX_BLOCK)
    return rf_reason("block %u is not supported (allowed: 1..%u)", cfg->block, RF_SM_MAX_BLOCK);
  return rf_sm_pick_grid(cfg, rf_div_ceil(cfg->rows, cfg->block));
}

/* LDS trees work for any power of two block, 1 included. */
static const char *rf_sm_configure_block_lds(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, RF_SM_DEFAULT_BLOCK, 1, RF_SM_MAX_BLOCK, 0);
  return why ? why : rf_sm_pick_grid(cfg, cfg->rows);
}

/* Shuffle variants: whole waves of 32 or 64 lanes (the LDS holds up to 32 wave values). */
static const char *rf_sm_configure_waves(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, RF_SM_DEFAULT_BLOCK, cfg->wave, RF_SM_MAX_BLOCK, 1);
  return why ? why : rf_sm_pick_grid(cfg, cfg->rows);
}

/* row-reg: whole waves as above, and enough threads that RF_SMR_MAX_VEC float4 each cover the
 * row's quads. The head and tail are scalars, so the quads are at most cols / 4 (head 0). */
static const char *rf_sm_configure_row_reg(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const uint64_t quads = cfg->cols / 4, max_cols = 4ull * RF_SM_MAX_BLOCK * RF_SMR_MAX_VEC + 3;
  if (quads > (uint64_t)RF_SM_MAX_BLOCK * RF_SMR_MAX_VEC)
    return rf_reason("cols %u is not supported (allowed: 0..%llu: %u float4 per thread at "
                     "block %u, plus a scalar head and tail)",
                     cfg->cols, (unsigned long long)max_cols, RF_SMR_MAX_VEC, RF_SM_MAX_BLOCK);
  uint32_t least = cfg->wave;   /* the smallest block that fits the row */
  while ((uint64_t)least * RF_SMR_MAX_VEC < quads) least *= 2;
  uint32_t def = least;         /* default: RF_SMR_DEFAULT_VEC float4 each where possible */
  while (def < RF_SM_MAX_BLOCK && (uint64_t)def * RF_SMR_DEFAULT_VEC < quads) def *= 2;
  const char *why = rf_pick_block_pow2(cfg, def, cfg->wave, RF_SM_MAX_BLOCK, 1);
  if (why) return why;
  if (cfg->block < least)
    return rf_reason("block %u is too small for cols %u (allowed: power of two %u..%u: at "
                     "most %u float4 per thread)",
                     cfg->block, cfg->cols, least, RF_SM_MAX_BLOCK, RF_SMR_MAX_VEC);
  return rf_sm_pick_grid(cfg, cfg->rows);
}

/* Exp buffer (rows x cols), then the row maxima and the row sums. */
static size_t rf_sm_3kernel_scratch(const rf_launch_cfg *cfg) {
  return ((size_t)cfg->rows * cfg->cols + 2 * (size_t)cfg->rows) * sizeof(float);
}

static size_t rf_sm_no_scratch(const rf_launch_cfg *cfg) {
  (void)cfg;
  return 0;
}

/* ---- host: plans (per row: the row-sum tree; rescales; the division) ----------------------- */

/* Elements the busiest thread of a row adds, from 0: ceil(cols / block). */
static uint64_t rf_sm_chain(const rf_launch_cfg *cfg) { return rf_div_ceil(cfg->cols, cfg->block); }

/* One thread sums the whole row from 0: cols additions. */
static void rf_sm_plan_3kernel(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  rf_plan_add(p, RF_LEVEL_CHAIN, cfg->cols);
}

static void rf_sm_plan_block_lds(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_sm_chain(cfg));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}

static void rf_sm_plan_block_wave(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_sm_chain(cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
}

/* The sum has the block-wave shape. Rescales: a thread's first term is rescaled at most once
 * per later element of that thread (k - 1), then at most once per combining level (only the
 * side with the smaller max is multiplied): log2(wave) + log2(block / wave). */
static void rf_sm_plan_online(const rf_launch_cfg *cfg, rf_plan *p) {
  rf_sm_plan_block_wave(cfg, p);
  p->div = RF_DIV_RECIP_MUL;
  if (!cfg->cols) return;
  p->rescales = rf_sm_chain(cfg) - 1 + rf_ceil_log2(cfg->block);
}

/* row-reg, per thread (kernel comment): K quads, a head and a tail element. The first quad's
 * elements pass 2 pairwise adds, the add into the sum, K - 1 later quad adds and the tail add:
 * K + 3; the head element 1 + K + 1. With no quad: the head element 2, the tail 1. K is
 * largest for thread 0 when the row is aligned (head 0): ceil((cols / 4) / B). The head and
 * tail depend on the pointer, which the plan does not see: this is the worst over them. */
static void rf_sm_plan_row_reg(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  if (!cfg->cols) return;
  const uint64_t k = rf_div_ceil(cfg->cols / 4, cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, k ? k + 3 : 2);
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
}

/* ---- host: launch -------------------------------------------------------------------------- */

/* Threads of the normalize kernel: one element each, grid capped (it strides). */
static uint32_t rf_sm_normalize_grid(const rf_launch_cfg *cfg) {
  uint64_t g = rf_div_ceil((uint64_t)cfg->rows * cfg->cols, cfg->block);
  if (g > RF_SM_MAX_GRID) g = RF_SM_MAX_GRID;
  return (uint32_t)g;
}

static int rf_sm_launch_3kernel(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || c->cols == 0) return 0;   /* nothing to write */
  const hipStream_t st = (hipStream_t)a->stream;
  float *exps = (float *)a->scratch;
  float *row_max = exps + (size_t)c->rows * c->cols, *row_sum = row_max + c->rows;
  hipLaunchKernelGGL(rf_sm3_row_max_kernel, dim3(c->grid), dim3(c->block), 0, st, a->x, c->rows,
                     c->cols, row_max);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(rf_sm3_exp_sum_kernel, dim3(c->grid), dim3(c->block), 0, st, a->x, c->rows,
                     c->cols, (const float *)row_max, exps, row_sum);
  if ((err = (int)hipGetLastError())) return err;
  hipLaunchKernelGGL(rf_sm3_normalize_kernel, dim3(rf_sm_normalize_grid(c)), dim3(c->block), 0,
                     st, (const float *)exps, c->rows, c->cols, (const float *)row_sum,
                     (float *)a->out);
  return (int)hipGetLastError();
}

static int rf_sm_launch_block_lds(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || c->cols == 0) return 0;
  hipLaunchKernelGGL(rf_sm_block_lds_kernel, dim3(c->grid), dim3(c->block),
                     c->block * sizeof(float), (hipStream_t)a->stream, a->x, c->rows, c->cols,
                     (float *)a->out);
  return (int)hipGetLastError();
}

static int rf_sm_launch_block_wave(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || c->cols == 0) return 0;
  hipLaunchKernelGGL(rf_sm_block_wave_kernel, dim3(c->grid), dim3(c->block), 0,
                     (hipStream_t)a->stream, a->x, c->rows, c->cols, (float *)a->out);
  return (int)hipGetLastError();
}

static int rf_sm_launch_online(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || c->cols == 0) return 0;
  hipLaunchKernelGGL(rf_sm_online_kernel, dim3(c->grid), dim3(c->block), 0,
                     (hipStream_t)a->stream, a->x, c->rows, c->cols, (float *)a->out);
  return (int)hipGetLastError();
}

/* The smallest instance whose V float4 per thread cover the quads (configure capped them at
 * RF_SMR_MAX_VEC per thread): fewer registers, more blocks per CU. */
static int rf_sm_launch_row_reg(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || c->cols == 0) return 0;
  const uint64_t per_thread = rf_div_ceil(c->cols / 4, c->block);
  const hipStream_t st = (hipStream_t)a->stream;
  float *y = (float *)a->out;
  if (per_thread <= 1)
    hipLaunchKernelGGL(rf_sm_row_reg_kernel<1>, dim3(c->grid), dim3(c->block), 0, st, a->x,
                       c->rows, c->cols, y);
  else if (per_thread <= 2)
    hipLaunchKernelGGL(rf_sm_row_reg_kernel<2>, dim3(c->grid), dim3(c->block), 0, st, a->x,
                       c->rows, c->cols, y);
  else if (per_thread <= 4)
    hipLaunchKernelGGL(rf_sm_row_reg_kernel<4>, dim3(c->grid), dim3(c->block), 0, st, a->x,
                       c->rows, c->cols, y);
  else
    hipLaunchKernelGGL(rf_sm_row_reg_kernel<8>, dim3(c->grid), dim3(c->block), 0, st, a->x,
                       c->rows, c->cols, y);
  return (int)hipGetLastError();
}

/* ---- the family ---------------------------------------------------------------------------- */

static const rf_variant rf_sm_3kernel_variant = {
    .name = "softmax/3kernel",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "seed 004 baseline: one thread per row for the max, then for exp(x-m) into a "
        "scratch buffer + serial row sum; one thread per element divides",
    .constraints = "block 1..1024 (any); grid 1..65535 for the per-row kernels (default "
        "ceil(rows/block)); no items",
    .configure = rf_sm_configure_3kernel,
    .scratch_bytes = rf_sm_3kernel_scratch,
    .plan = rf_sm_plan_3kernel,
    .launch = rf_sm_launch_3kernel,
    .fuzz_max_n = RF_ROW_PER_THREAD_FUZZ_MAX};

static const rf_variant rf_sm_block_lds_variant = {
    .name = "softmax/block-lds",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "seed 004 fused: one block per row, strided max, LDS max tree, reader barrier, "
        "strided exp-sum, LDS reused for the sum tree, e/s",
    .constraints = "block power of two 1..1024; grid 1..65535 (default rows; blocks stride over "
        "rows); no items",
    .configure = rf_sm_configure_block_lds,
    .scratch_bytes = rf_sm_no_scratch,
    .plan = rf_sm_plan_block_lds,
    .launch = rf_sm_launch_block_lds};

static const rf_variant rf_sm_block_wave_variant = {
    .name = "softmax/block-wave",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "one block per row, strided max and exp-sum, each finished by wave butterflies, "
        "wave values via LDS, first wave combines; e/s",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default rows; "
        "blocks stride over rows); no items",
    .configure = rf_sm_configure_waves,
    .scratch_bytes = rf_sm_no_scratch,
    .plan = rf_sm_plan_block_wave,
    .launch = rf_sm_launch_block_wave};

static const rf_variant rf_sm_online_variant = {
    .name = "softmax/online",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "one block per row, one pass of running (max, rescaled sum) per thread, pairs "
        "combined with rescaling by wave butterflies then the first wave; e * (1/s)",
    .constraints = "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default rows; "
        "blocks stride over rows); no items",
    .configure = rf_sm_configure_waves,
    .scratch_bytes = rf_sm_no_scratch,
    .plan = rf_sm_plan_online,
    .launch = rf_sm_launch_online};

static const rf_variant rf_sm_row_reg_variant = {
    .name = "softmax/row-reg",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 0,
    .summary = "one block per row read once into registers (scalar head, float4 body, scalar "
        "tail), block max and sum by wave butterflies + first wave, e/s stored as float4 where "
        "aligned",
    .constraints = "wave 32 or 64; block power of two, wave..1024, >= cols/32 (8 float4 per "
        "thread; default 4 each); cols <= 32771; grid 1..65535 (default rows); no items",
    .configure = rf_sm_configure_row_reg,
    .scratch_bytes = rf_sm_no_scratch,
    .plan = rf_sm_plan_row_reg,
    .launch = rf_sm_launch_row_reg};

extern "C" const rf_variant *const rf_family_softmax[] = {
    &rf_sm_3kernel_variant, &rf_sm_block_lds_variant, &rf_sm_block_wave_variant,
    &rf_sm_online_variant, &rf_sm_row_reg_variant, NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
