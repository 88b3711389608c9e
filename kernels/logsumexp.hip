/* The logsumexp and log-softmax variants (docs/KERNELS_SOFTMAX.md, "Logsumexp and
 * log-softmax"): per row, m = max_j x_j, s = Σ_j exp(x_j - m), L = logf(s), then
 *   logsumexp   out[r]  = m + L;
 *   log-softmax y[r][j] = (x_j - m) - L.
 * One template per algorithm, LOGSM picking the op: the two differ only in the write and in
 * the special-value rules (docs/ORACLE.md), which the exp term and the online step carry:
 *  - logsumexp: a +inf gives +inf, a row of only -inf gives -inf, a NaN gives NaN. The term of
 *    an element equal to the maximum is 1 without an exp (exact: exp(0) = 1), which is what
 *    turns m = ±inf into m + logf(count) = ±inf instead of exp(inf - inf) = NaN; a NaN still
 *    meets an exp and poisons s.
 *  - log-softmax: a NaN, a +inf or a row of only -inf gives NaN everywhere, as softmax does:
 *    plain exp(x - m), whose exp(inf - inf) = NaN reaches s and so every output.
 * Masked lanes bring -inf to a max and 0 to a sum, never 0 to a max.
 * The online step and merge are reduce_prims.h's, LOGSM picking softmax's rule there.
 * Element types (issue 17): every kernel is a template over the input type DT and the output
 * type OT (rf_dtype numbers: 0 f32, 1 f16, 2 bf16). A 16-bit input is converted exactly to
 * float32 on load (rf_lse_load) and all the math stays float32; a 16-bit output is the float32
 * result rounded once more to its type (rf_lse_store). Bound: docs/TOLERANCES.md, "Logsumexp
 * and log-softmax", "Log-op output in a 16-bit type". */
#include "port.h"
#include "redfuzz/variant.h"
#include "launch_common.h"
#include "reduce_prims.h"
#include "model/dtype_bits.h"

#define RF_LSE_MAX_BLOCK 1024u
#define RF_LSE_MAX_WAVES 32u
#define RF_LSE_MAX_GRID 65535u
#define RF_LSE_DEFAULT_BLOCK 256u

typedef unsigned long long rf_lse_u64;

/* ---- device building blocks ---------------------------------------------------------------- */

/* Element i of an input of type DT as float32: exact for every type (docs/TOLERANCES.md,
 * "Inputs and outputs in 16-bit types", step 1). */
template <unsigned DT>
static __device__ __forceinline__ float rf_lse_load(const void *__restrict__ x, rf_lse_u64 i) {
  return DT == 0 ? ((const float *)x)[i] : rf_half_to_f32(DT, ((const uint16_t *)x)[i]);
}
/* v as element i of an output of type OT: float32 as is, a 16-bit type rounded once to
 * nearest even (overflow to infinity: f16 from 65520 on). */
template <unsigned OT>
static __device__ __forceinline__ void rf_lse_store(void *__restrict__ out, rf_lse_u64 i, float v) {
  if (OT == 0) ((float *)out)[i] = v;
  else ((uint16_t *)out)[i] = rf_f32_to_half(OT, v);
}

template <bool LOGSM>
static __device__ __forceinline__ float rf_lse_term(float x, float m) {
  return LOGSM ? expf(x - m) : (x == m ? 1.0f : expf(x - m));
}

/* The write: logsumexp one float per row (thread 0 of the row's threads), log-softmax every
 * element, (x - m) - L: the subtraction x - m is exact or one rounding of a value <= |y_j|,
 * which keeps the bound absolute (docs/TOLERANCES.md). */
template <bool LOGSM, unsigned DT, unsigned OT>
static __device__ __forceinline__ void rf_lse_write(const void *x, rf_lse_u64 r, unsigned cols,
                                                    float m, float L, void *out, unsigned t,
                                                    unsigned nt) {
  if (LOGSM) {
    const rf_lse_u64 base = r * cols;
    for (unsigned c = t; c < cols; c += nt)
      rf_lse_store<OT>(out, base + c, (rf_lse_load<DT>(x, base + c) - m) - L);
  } else if (t == 0) {
    rf_lse_store<OT>(out, r, m + L);
  }
}

/* ---- three kernels: one thread per row for the max, one per row for the sum and its log,
 * then the write (one thread per row for logsumexp, per element for log-softmax) ------------ */
template <unsigned DT>
__global__ void rf_lse3_max_kernel(const void *__restrict__ x, unsigned rows, unsigned cols,
                                   float *__restrict__ row_max) {
  const rf_lse_u64 stride = (rf_lse_u64)gridDim.x * blockDim.x;
  for (rf_lse_u64 r = (rf_lse_u64)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride) {
    float m = -INFINITY;
    for (unsigned c = 0; c < cols; c++) m = fmaxf(m, rf_lse_load<DT>(x, r * cols + c));
    row_max[r] = m;
  }
}

template <bool LOGSM, unsigned DT>
__global__ void rf_lse3_log_sum_kernel(const void *__restrict__ x, unsigned rows, unsigned cols,
                                       const float *__restrict__ row_max,
                                       float *__restrict__ row_log) {
  const rf_lse_u64 stride = (rf_lse_u64)gridDim.x * blockDim.x;
  for (rf_lse_u64 r = (rf_lse_u64)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride) {
    const float m = row_max[r];
    float s = 0.0f;
    for (unsigned c = 0; c < cols; c++) s += rf_lse_term<LOGSM>(rf_lse_load<DT>(x, r * cols + c), m);
    row_log[r] = logf(s);
  }
}

template <unsigned OT>
__global__ void rf_lse3_write_lse_kernel(unsigned rows, const float *__restrict__ row_max,
                                         const float *__restrict__ row_log, void *__restrict__ out) {
  const rf_lse_u64 stride = (rf_lse_u64)gridDim.x * blockDim.x;
  for (rf_lse_u64 r = (rf_lse_u64)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride)
    rf_lse_store<OT>(out, r, row_max[r] + row_log[r]);
}

template <unsigned DT, unsigned OT>
__global__ void rf_lse3_write_logsm_kernel(const void *__restrict__ x, unsigned rows,
                                           unsigned cols, const float *__restrict__ row_max,
                                           const float *__restrict__ row_log,
                                           void *__restrict__ y) {
  const rf_lse_u64 total = (rf_lse_u64)rows * cols, stride = (rf_lse_u64)gridDim.x * blockDim.x;
  for (rf_lse_u64 i = (rf_lse_u64)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const rf_lse_u64 r = i / cols;
    rf_lse_store<OT>(y, i, (rf_lse_load<DT>(x, i) - row_max[r]) - row_log[r]);
  }
}

/* ---- fused: one block per row, max and sum each by wave butterflies, the waves' values via
 * LDS, the first wave combines (the barrier reasoning of softmax.hip's block-wave kernel:
 * wave_part is rewritten only after the barrier that follows the first wave's reads, and
 * shared_row only after a barrier that follows everyone's read of it) ----------------------- */
template <bool LOGSM, unsigned DT, unsigned OT>
__global__ void rf_lse_block_kernel(const void *__restrict__ x, unsigned rows, unsigned cols,
                                    void *__restrict__ out) {
  RF_SHARED(float, wave_part, RF_LSE_MAX_WAVES);
  RF_SHARED(float, shared_row, 1);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const unsigned lane = t % warpSize, wave = t / warpSize, waves = nt / warpSize;
  for (rf_lse_u64 r = blockIdx.x; r < rows; r += gridDim.x) {
    const rf_lse_u64 base = r * cols;

    float m = -INFINITY;
    for (unsigned c = t; c < cols; c += nt) m = fmaxf(m, rf_lse_load<DT>(x, base + c));
    m = rf_prim_wave_max(m, warpSize);
    if (lane == 0) wave_part[wave] = m;
    __syncthreads();
    if (wave == 0) {
      m = rf_prim_wave_max(lane < waves ? wave_part[lane] : -INFINITY, waves);
      if (lane == 0) shared_row[0] = m;
    }
    __syncthreads();
    const float row_max = shared_row[0];

    float s = 0.0f;
    for (unsigned c = t; c < cols; c += nt)
      s += rf_lse_term<LOGSM>(rf_lse_load<DT>(x, base + c), row_max);
    s = rf_prim_wave_sum_xor(s, warpSize);
    if (lane == 0) wave_part[wave] = s;
    __syncthreads();   /* also the reader barrier of shared_row[0] (the max) */
    if (wave == 0) {
      s = rf_prim_wave_sum_xor(lane < waves ? wave_part[lane] : 0.0f, waves);
      if (lane == 0) shared_row[0] = logf(s);
    }
    __syncthreads();
    const float L = shared_row[0];
    /* No reader barrier: shared_row is rewritten only after the next row's first barrier,
     * which every thread reaches after reading it. */
    rf_lse_write<LOGSM, DT, OT>(x, r, cols, row_max, L, out, t, nt);
  }
}

/* ---- online: one pass of running (max, rescaled sum) per thread, pairs merged by wave
 * butterflies, the waves' pairs via LDS, the first wave merges them -------------------------- */
template <bool LOGSM, unsigned DT, unsigned OT>
__global__ void rf_lse_online_kernel(const void *__restrict__ x, unsigned rows, unsigned cols,
                                     void *__restrict__ out) {
  RF_SHARED(float, wave_m, RF_LSE_MAX_WAVES);
  RF_SHARED(float, wave_s, RF_LSE_MAX_WAVES);
  RF_SHARED(float, shared_row, 2);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const unsigned lane = t % warpSize, wave = t / warpSize, waves = nt / warpSize;
  for (rf_lse_u64 r = blockIdx.x; r < rows; r += gridDim.x) {
    const rf_lse_u64 base = r * cols;

    float m = -INFINITY, s = 0.0f;
    for (unsigned c = t; c < cols; c += nt)
      rf_prim_online_push<LOGSM>(&m, &s, rf_lse_load<DT>(x, base + c));
    rf_prim_wave_online<LOGSM>(&m, &s, warpSize);
    if (lane == 0) {
      wave_m[wave] = m;
      wave_s[wave] = s;
    }
    __syncthreads();
    if (wave == 0) {
      m = lane < waves ? wave_m[lane] : -INFINITY;
      s = lane < waves ? wave_s[lane] : 0.0f;
      rf_prim_wave_online<LOGSM>(&m, &s, waves);
      if (lane == 0) {
        shared_row[0] = m;
        shared_row[1] = logf(s);
      }
    }
    __syncthreads();
    const float row_max = shared_row[0], L = shared_row[1];
    rf_lse_write<LOGSM, DT, OT>(x, r, cols, row_max, L, out, t, nt);
  }
}

/* Every instance, named here so that a device-only compile (the gfx1201 check) emits them:
 * the launches that would otherwise instantiate them are host code. The (input, output) pairs
 * are the families' below: f32 -> f32, and each 16-bit type -> itself or f32. (The logsumexp
 * write kernel depends on the output type only: its <0>, <1>, <2> serve every pair.) */
#define RF_LSE_INSTANCES_OP(LOGSM, DT, OT)                                                       \
  template __global__ void rf_lse_block_kernel<LOGSM, DT, OT>(const void *__restrict__,         \
                                                              unsigned, unsigned,               \
                                                              void *__restrict__);              \
  template __global__ void rf_lse_online_kernel<LOGSM, DT, OT>(const void *__restrict__,        \
                                                               unsigned, unsigned,              \
                                                               void *__restrict__);
#define RF_LSE_INSTANCES_IO(DT, OT)                                                              \
  RF_LSE_INSTANCES_OP(false, DT, OT)                                                             \
  RF_LSE_INSTANCES_OP(true, DT, OT)                                                              \
  template __global__ void rf_lse3_write_logsm_kernel<DT, OT>(                                   \
      const void *__restrict__, unsigned, unsigned, const float *__restrict__,                   \
      const float *__restrict__, void *__restrict__);
#define RF_LSE_INSTANCES_IN(DT)                                                                  \
  template __global__ void rf_lse3_max_kernel<DT>(const void *__restrict__, unsigned, unsigned, \
                                                  float *__restrict__);                         \
  template __global__ void rf_lse3_log_sum_kernel<false, DT>(                                    \
      const void *__restrict__, unsigned, unsigned, const float *__restrict__,                   \
      float *__restrict__);                                                                      \
  template __global__ void rf_lse3_log_sum_kernel<true, DT>(                                     \
      const void *__restrict__, unsigned, unsigned, const float *__restrict__,                   \
      float *__restrict__);                                                                      \
  template __global__ void rf_lse3_write_lse_kernel<DT>(unsigned, const float *__restrict__,    \
                                                        const float *__restrict__,              \
                                                        void *__restrict__);                    \
  RF_LSE_INSTANCES_IO(DT, DT)
RF_LSE_INSTANCES_IN(0u)
RF_LSE_INSTANCES_IN(1u)
RF_LSE_INSTANCES_IN(2u)
RF_LSE_INSTANCES_IO(1u, 0u)
RF_LSE_INSTANCES_IO(2u, 0u)

/* Host code only below (see softmax.hip). */
#if !defined(__HIP_DEVICE_COMPILE__)

/* ---- host: configure ----------------------------------------------------------------------- */
static const char *rf_lse_pick_grid(rf_launch_cfg *cfg, uint64_t default_grid) {
  cfg->items = 0;
  if (cfg->grid == 0) {
    if (default_grid > RF_LSE_MAX_GRID) default_grid = RF_LSE_MAX_GRID;
    cfg->grid = default_grid ? (uint32_t)default_grid : 1;
  } else if (cfg->grid > RF_LSE_MAX_GRID) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_LSE_MAX_GRID);
  }
  return NULL;
}

static const char *rf_lse_configure_3kernel(rf_launch_cfg *cfg) {
  if (cfg->block == 0) cfg->block = RF_LSE_DEFAULT_BLOCK;
  if (cfg->block > RF_LSE_MAX_BLOCK)
    return rf_reason("block %u is not supported (allowed: 1..%u)", cfg->block, RF_LSE_MAX_BLOCK);
  return rf_lse_pick_grid(cfg, rf_div_ceil(cfg->rows, cfg->block));
}

static const char *rf_lse_configure_waves(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, RF_LSE_DEFAULT_BLOCK, cfg->wave, RF_LSE_MAX_BLOCK, 1);
  return why ? why : rf_lse_pick_grid(cfg, cfg->rows);
}

/* Row maxima, then the rows' logs. */
static size_t rf_lse_3kernel_scratch(const rf_launch_cfg *cfg) {
  return 2 * (size_t)cfg->rows * sizeof(float);
}
static size_t rf_lse_no_scratch(const rf_launch_cfg *cfg) {
  (void)cfg;
  return 0;
}

/* ---- host: plans (the row sum's tree and rescales: the softmax plans) ---------------------- */
static uint64_t rf_lse_chain(const rf_launch_cfg *cfg) { return rf_div_ceil(cfg->cols, cfg->block); }

static void rf_lse_plan_3kernel(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  rf_plan_add(p, RF_LEVEL_CHAIN, cfg->cols);
}

static void rf_lse_plan_block(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_lse_chain(cfg));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
}

/* A thread's first term is rescaled at most once per later element of the thread, then once
 * per combining level: chain - 1 + log2(block) (as softmax/online). */
static void rf_lse_plan_online(const rf_launch_cfg *cfg, rf_plan *p) {
  rf_lse_plan_block(cfg, p);
  if (!cfg->cols) return;
  p->rescales = rf_lse_chain(cfg) - 1 + rf_ceil_log2(cfg->block);
}

/* ---- host: launch -------------------------------------------------------------------------- */
template <bool LOGSM, unsigned DT, unsigned OT>
static int rf_lse_launch_3kernel(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || (LOGSM && c->cols == 0)) return 0;   /* nothing to write */
  const hipStream_t st = (hipStream_t)a->stream;
  const void *x = a->x;
  float *row_max = (float *)a->scratch, *row_log = row_max + c->rows;
  hipLaunchKernelGGL(rf_lse3_max_kernel<DT>, dim3(c->grid), dim3(c->block), 0, st, x, c->rows,
                     c->cols, row_max);
  int err = (int)hipGetLastError();
  if (err) return err;
  /* (Kernels with several template arguments go through a pointer: the launch macros split
   * their arguments at the commas of a template-id.) */
  const auto log_sum = &rf_lse3_log_sum_kernel<LOGSM, DT>;
  hipLaunchKernelGGL(log_sum, dim3(c->grid), dim3(c->block), 0, st, x, c->rows, c->cols,
                     (const float *)row_max, row_log);
  if ((err = (int)hipGetLastError())) return err;
  if (LOGSM) {
    uint64_t g = rf_div_ceil((uint64_t)c->rows * c->cols, c->block);
    if (g > RF_LSE_MAX_GRID) g = RF_LSE_MAX_GRID;
    const auto write = &rf_lse3_write_logsm_kernel<DT, OT>;
    hipLaunchKernelGGL(write, dim3((uint32_t)g), dim3(c->block), 0, st, x, c->rows, c->cols,
                       (const float *)row_max, (const float *)row_log, a->out);
  } else {
    hipLaunchKernelGGL(rf_lse3_write_lse_kernel<OT>, dim3(c->grid), dim3(c->block), 0, st,
                       c->rows, (const float *)row_max, (const float *)row_log, a->out);
  }
  return (int)hipGetLastError();
}

/* An empty row (cols 0) still has a logsumexp: -inf, the log of an empty sum. */
template <bool LOGSM, unsigned DT, unsigned OT>
static int rf_lse_launch_block(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || (LOGSM && c->cols == 0)) return 0;
  const auto kernel = &rf_lse_block_kernel<LOGSM, DT, OT>;
  hipLaunchKernelGGL(kernel, dim3(c->grid), dim3(c->block), 0, (hipStream_t)a->stream,
                     (const void *)a->x, c->rows, c->cols, a->out);
  return (int)hipGetLastError();
}

template <bool LOGSM, unsigned DT, unsigned OT>
static int rf_lse_launch_online(const rf_launch_args *a) {
  const rf_launch_cfg *c = &a->cfg;
  if (c->rows == 0 || (LOGSM && c->cols == 0)) return 0;
  const auto kernel = &rf_lse_online_kernel<LOGSM, DT, OT>;
  hipLaunchKernelGGL(kernel, dim3(c->grid), dim3(c->block), 0, (hipStream_t)a->stream,
                     (const void *)a->x, c->rows, c->cols, a->out);
  return (int)hipGetLastError();
}

/* ---- the families -------------------------------------------------------------------------- */
#define RF_LSE_C3 "block 1..1024 (any); grid 1..65535 for the per-row kernels (default " \
                  "ceil(rows/block)); no items"
#define RF_LSE_CW "wave 32 or 64; block power of two, wave..1024; grid 1..65535 (default rows; " \
                  "blocks stride over rows); no items"

/* The six variants of one (input, output) type pair: the three algorithms for each op. NAME
 * is the type prefix of the variant names ("" for float32, "f16-", "bf16-"), SUFFIX the
 * output's ("" for the input type, "-f32out"), LOAD how the summary says the input is read. */
#define RF_LSE_VARIANTS(tag, NAME, SUFFIX, LOAD, DT, OT)                                         \
  static const rf_variant rf_lse_3kernel_##tag = {                                              \
      .name = "logsumexp/" NAME "3kernel" SUFFIX,                                               \
      .op = RF_OP_LOGSUMEXP,                                                                    \
      .deterministic = 1,                                                                       \
      .is_mutant = 0,                                                                           \
      .summary = LOAD                                                                           \
          "one thread per row for the max, one per row for the serial exp-sum and its log, "    \
          "one per row writes m + log s",                                                       \
      .constraints = RF_LSE_C3,                                                                 \
      .configure = rf_lse_configure_3kernel,                                                    \
      .scratch_bytes = rf_lse_3kernel_scratch,                                                  \
      .plan = rf_lse_plan_3kernel,                                                              \
      .launch = rf_lse_launch_3kernel<false, DT, OT>,                                           \
      .fuzz_max_n = RF_ROW_PER_THREAD_FUZZ_MAX,                                                 \
      .in_dtype = (rf_dtype)DT,                                                                 \
      .out_dtype = (rf_dtype)OT                                                                 \
  };                                                                                            \
  static const rf_variant rf_lse_block_##tag = {                                                \
      .name = "logsumexp/" NAME "block" SUFFIX,                                                 \
      .op = RF_OP_LOGSUMEXP,                                                                    \
      .deterministic = 1,                                                                       \
      .is_mutant = 0,                                                                           \
      .summary = LOAD                                                                           \
          "one block per row: strided max and exp-sum, each by wave butterflies + first "       \
          "wave; m + log s",                                                                    \
      .constraints = RF_LSE_CW,                                                                 \
      .configure = rf_lse_configure_waves,                                                      \
      .scratch_bytes = rf_lse_no_scratch,                                                       \
      .plan = rf_lse_plan_block,                                                                \
      .launch = rf_lse_launch_block<false, DT, OT>,                                             \
      .in_dtype = (rf_dtype)DT,                                                                 \
      .out_dtype = (rf_dtype)OT                                                                 \
  };                                                                                            \
  static const rf_variant rf_lse_online_##tag = {                                               \
      .name = "logsumexp/" NAME "online" SUFFIX,                                                \
      .op = RF_OP_LOGSUMEXP,                                                                    \
      .deterministic = 1,                                                                       \
      .is_mutant = 0,                                                                           \
      .summary = LOAD                                                                           \
          "one block per row, one pass of running (max, rescaled sum) per thread, merged by "   \
          "wave butterflies + first wave; m + log s",                                           \
      .constraints = RF_LSE_CW,                                                                 \
      .configure = rf_lse_configure_waves,                                                      \
      .scratch_bytes = rf_lse_no_scratch,                                                       \
      .plan = rf_lse_plan_online,                                                               \
      .launch = rf_lse_launch_online<false, DT, OT>,                                            \
      .in_dtype = (rf_dtype)DT,                                                                 \
      .out_dtype = (rf_dtype)OT                                                                 \
  };                                                                                            \
  static const rf_variant rf_lsm_3kernel_##tag = {                                              \
      .name = "logsoftmax/" NAME "3kernel" SUFFIX,                                              \
      .op = RF_OP_LOGSOFTMAX,                                                                   \
      .deterministic = 1,                                                                       \
      .is_mutant = 0,                                                                           \
      .summary = LOAD                                                                           \
          "one thread per row for the max, one per row for the serial exp-sum and its log L, "  \
          "one per element writes (x - m) - L",                                                 \
      .constraints = RF_LSE_C3,                                                                 \
      .configure = rf_lse_configure_3kernel,                                                    \
      .scratch_bytes = rf_lse_3kernel_scratch,                                                  \
      .plan = rf_lse_plan_3kernel,                                                              \
      .launch = rf_lse_launch_3kernel<true, DT, OT>,                                            \
      .fuzz_max_n = RF_ROW_PER_THREAD_FUZZ_MAX,                                                 \
      .in_dtype = (rf_dtype)DT,                                                                 \
      .out_dtype = (rf_dtype)OT                                                                 \
  };                                                                                            \
  static const rf_variant rf_lsm_block_##tag = {                                                \
      .name = "logsoftmax/" NAME "block" SUFFIX,                                                \
      .op = RF_OP_LOGSOFTMAX,                                                                   \
      .deterministic = 1,                                                                       \
      .is_mutant = 0,                                                                           \
      .summary = LOAD                                                                           \
          "one block per row: strided max and exp-sum, each by wave butterflies + first "       \
          "wave; (x - m) - log s",                                                              \
      .constraints = RF_LSE_CW,                                                                 \
      .configure = rf_lse_configure_waves,                                                      \
      .scratch_bytes = rf_lse_no_scratch,                                                       \
      .plan = rf_lse_plan_block,                                                                \
      .launch = rf_lse_launch_block<true, DT, OT>,                                              \
      .in_dtype = (rf_dtype)DT,                                                                 \
      .out_dtype = (rf_dtype)OT                                                                 \
  };                                                                                            \
  static const rf_variant rf_lsm_online_##tag = {                                               \
      .name = "logsoftmax/" NAME "online" SUFFIX,                                               \
      .op = RF_OP_LOGSOFTMAX,                                                                   \
      .deterministic = 1,                                                                       \
      .is_mutant = 0,                                                                           \
      .summary = LOAD                                                                           \
          "one block per row, one pass of running (max, rescaled sum) per thread, merged by "   \
          "wave butterflies + first wave; (x - m) - log s",                                     \
      .constraints = RF_LSE_CW,                                                                 \
      .configure = rf_lse_configure_waves,                                                      \
      .scratch_bytes = rf_lse_no_scratch,                                                       \
      .plan = rf_lse_plan_online,                                                               \
      .launch = rf_lse_launch_online<true, DT, OT>,                                             \
      .in_dtype = (rf_dtype)DT,                                                                 \
      .out_dtype = (rf_dtype)OT                                                                 \
  };

#define RF_LSE_HALF_LOAD(t) t " loaded exactly to float32, float32 math, the result rounded " \
                            "once to the output type; "
RF_LSE_VARIANTS(f32, "", "", "", 0u, 0u)
RF_LSE_VARIANTS(f16, "f16-", "", RF_LSE_HALF_LOAD("f16"), 1u, 1u)
RF_LSE_VARIANTS(bf16, "bf16-", "", RF_LSE_HALF_LOAD("bf16"), 2u, 2u)
RF_LSE_VARIANTS(f16_f32, "f16-", "-f32out", RF_LSE_HALF_LOAD("f16"), 1u, 0u)
RF_LSE_VARIANTS(bf16_f32, "bf16-", "-f32out", RF_LSE_HALF_LOAD("bf16"), 2u, 0u)

extern "C" const rf_variant *const rf_family_logsumexp[] = {
    &rf_lse_3kernel_f32, &rf_lse_block_f32, &rf_lse_online_f32, NULL};
extern "C" const rf_variant *const rf_family_logsoftmax[] = {
    &rf_lsm_3kernel_f32, &rf_lsm_block_f32, &rf_lsm_online_f32, NULL};
/* 16-bit inputs: they run on f16 / bf16 cases only (the registry's half families). */
extern "C" const rf_variant *const rf_family_logsumexp_half[] = {
    &rf_lse_3kernel_f16,     &rf_lse_block_f16,     &rf_lse_online_f16,
    &rf_lse_3kernel_bf16,    &rf_lse_block_bf16,    &rf_lse_online_bf16,
    &rf_lse_3kernel_f16_f32, &rf_lse_block_f16_f32, &rf_lse_online_f16_f32,
    &rf_lse_3kernel_bf16_f32, &rf_lse_block_bf16_f32, &rf_lse_online_bf16_f32,
    &rf_lsm_3kernel_f16,     &rf_lsm_block_f16,     &rf_lsm_online_f16,
    &rf_lsm_3kernel_bf16,    &rf_lsm_block_bf16,    &rf_lsm_online_bf16,
    &rf_lsm_3kernel_f16_f32, &rf_lsm_block_f16_f32, &rf_lsm_online_f16_f32,
    &rf_lsm_3kernel_bf16_f32, &rf_lsm_block_bf16_f32, &rf_lsm_online_bf16_f32,
    NULL};

#endif /* !__HIP_DEVICE_COMPILE__ */
