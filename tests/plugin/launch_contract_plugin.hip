/* Simulator: the launch contract and state across launches on small plugin kernels
 * (run/launch_checks.h; docs/SIMULATOR.md, "The launch contract"). Two correct variants (one
 * declared deterministic, one not) that every check must leave alone, and one defect each:
 * a memset on the default stream, a stream synchronisation, a synchronous copy, a __device__
 * flag kept between launches in a variant not declared deterministic, and scratch read before
 * it is written in one not declared deterministic. The line numbers of the defects are matched
 * by tests/plugin/CMakeLists.txt: keep them where they are or update the tests. */
#include "kernels/port.h"
#include "kernels/launch_common.h"
#include "kernels/reduce_prims.h"
#include "redfuzz/plugin.h"

#define LC_MAX_BLOCK 1024u
#define LC_SLOTS 1024u   /* lc-partials-nd: partial slots, the most blocks it runs */

/* One partial per block: a grid-stride chain and an LDS tree. */
__global__ void lc_partials_kernel(const float *x, unsigned long long n, float *partials) {
  RF_SHARED(float, sd, LC_MAX_BLOCK);
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  float s = -0.0f;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    s += x[i];
  sd[threadIdx.x] = s;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = sd[0];
}

/* One block over count partials; count = 0 writes +0. */
__global__ void lc_final_kernel(const float *partials, unsigned long long count, float *out) {
  RF_SHARED(float, sd, LC_MAX_BLOCK);
  float s = -0.0f;
  for (unsigned long long k = threadIdx.x; k < count; k += blockDim.x) s += partials[k];
  sd[threadIdx.x] = s;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) out[0] = count ? sd[0] : 0.0f;
}

/* Each block adds its elements into out with one atomic (order: the blocks'). */
__global__ void lc_atomic_kernel(const float *x, unsigned long long n, float *out) {
  RF_SHARED(float, sd, LC_MAX_BLOCK);
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  sd[threadIdx.x] = i < n ? x[i] : -0.0f;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

/* The start of an accumulated sum: -0, the identity (a memset's +0 breaks signed-zero). */
__global__ void lc_neg_zero_kernel(float *out) { out[0] = -0.0f; }

/* lc-device-flag: out is set to -0 by the first launch of the process only. */
__device__ int lc_zeroed_once;
__global__ void lc_zero_once_kernel(float *out) {
  if (!lc_zeroed_once) out[0] = -0.0f;   /* the planted bug: a flag that outlives the launch */
  lc_zeroed_once = 1;
}

/* lc-partials-nd: a max over every slot, from NaN (fmaxf ignores it). */
__global__ void lc_max_kernel(const float *x, unsigned long long count, float *out) {
  RF_SHARED(float, sd, LC_MAX_BLOCK);
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  float m = rf_prim_max_identity();
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
       i < count; i += stride)
    m = fmaxf(m, x[i]);
  sd[threadIdx.x] = m;
  rf_prim_lds_max_tree(sd);
  if (threadIdx.x == 0) out[blockIdx.x] = sd[0];
}
__global__ void lc_neg_inf_kernel(float *out) {
  if (threadIdx.x == 0) out[0] = -INFINITY;
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* Block a power of two 32..1024 (default 256), grid: a requested one up to 1024, else
 * ceil(n / block) capped at 1024. */
static const char *configure(rf_launch_cfg *cfg) {
  const char *why = rf_pick_block_pow2(cfg, 256, 32, LC_MAX_BLOCK, 0);
  if (why) return why;
  if (cfg->grid == 0) {
    const uint64_t g = cfg->n ? rf_div_ceil(cfg->n, cfg->block) : 1;
    cfg->grid = g > LC_SLOTS ? LC_SLOTS : (uint32_t)g;
  } else if (cfg->grid > LC_SLOTS) {
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, LC_SLOTS);
  }
  cfg->items = 0;
  return NULL;
}
static size_t partial_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(float);
}
static size_t slot_scratch(const rf_launch_cfg *cfg) { (void)cfg; return LC_SLOTS * sizeof(float); }
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void plan_two_pass(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, (uint64_t)cfg->grid * cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}
static void plan_atomic(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

static int two_pass(const rf_launch_args *a, hipStream_t st) {
  float *partials = (float *)a->scratch;
  if (a->cfg.n) {
    hipLaunchKernelGGL(lc_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                       (unsigned long long)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
  }
  hipLaunchKernelGGL(lc_final_kernel, dim3(1), dim3(a->cfg.block), 0, st, partials,
                     (unsigned long long)(a->cfg.n ? a->cfg.grid : 0), (float *)a->out);
  return (int)hipGetLastError();
}

static int correct_launch(const rf_launch_args *a) { return two_pass(a, (hipStream_t)a->stream); }

/* One element a thread: the grid covers n (a requested grid is raised to it). */
static const char *configure_one_per_thread(rf_launch_cfg *cfg) {
  const char *why = configure(cfg);
  if (why) return why;
  const uint64_t g = cfg->n ? rf_div_ceil(cfg->n, cfg->block) : 1;
  if (g > LC_SLOTS)
    return rf_reason("n %llu needs more than %u blocks", (unsigned long long)cfg->n, LC_SLOTS);
  cfg->grid = (uint32_t)g;
  return NULL;
}

static int atomic_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  if (!a->cfg.n) return (int)hipMemsetAsync(a->out, 0, sizeof(float), st);
  hipLaunchKernelGGL(lc_neg_zero_kernel, dim3(1), dim3(1), 0, st, (float *)a->out);
  hipLaunchKernelGGL(lc_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                     (unsigned long long)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static int memset_default_launch(const rf_launch_args *a) {
  int err = (int)hipMemsetAsync(a->out, 0, sizeof(float));   /* defect: the default stream */
  return err ? err : two_pass(a, (hipStream_t)a->stream);
}

static int stream_sync_launch(const rf_launch_args *a) {
  int err = two_pass(a, (hipStream_t)a->stream);
  return err ? err : (int)hipStreamSynchronize((hipStream_t)a->stream);   /* defect */
}

static int memcpy_launch(const rf_launch_args *a) {
  int err = two_pass(a, (hipStream_t)a->stream);
  float host = 0;
  if (!err) err = (int)hipMemcpy(&host, a->out, sizeof host, hipMemcpyDeviceToHost);   /* defect */
  return err;
}

static int device_flag_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  if (!a->cfg.n) return (int)hipMemsetAsync(a->out, 0, sizeof(float), st);
  hipLaunchKernelGGL(lc_zero_once_kernel, dim3(1), dim3(1), 0, st, (float *)a->out);
  hipLaunchKernelGGL(lc_atomic_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                     (unsigned long long)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

static int partials_nd_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  if (!a->cfg.n) {
    hipLaunchKernelGGL(lc_neg_inf_kernel, dim3(1), dim3(1), 0, st, (float *)a->out);
    return (int)hipGetLastError();
  }
  float *slots = (float *)a->scratch;
  hipLaunchKernelGGL(lc_max_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                     (unsigned long long)a->cfg.n, slots);
  /* defect: every slot, the unwritten ones past the grid's too */
  hipLaunchKernelGGL(lc_max_kernel, dim3(1), dim3(a->cfg.block), 0, st, slots,
                     (unsigned long long)LC_SLOTS, (float *)a->out);
  return (int)hipGetLastError();
}

#define LC_SUM(var, name, det, defect, summary, cfg, scratch, plan, launch)                    \
  static const rf_variant var = {name, RF_OP_SUM, det, defect, summary, "block 32..1024", cfg, \
                                 scratch, plan, launch, 0, RF_DTYPE_F32, RF_DTYPE_F32,         \
                                 RF_CONTRACT_SIGNED_ZERO, 0};
LC_SUM(lc_correct, "sum/lc-correct", 1, 0, "two-pass sum, the contract kept", configure,
       partial_scratch, plan_two_pass, correct_launch)
LC_SUM(lc_correct_nd, "sum/lc-correct-nd", 0, 0, "one atomic a block, the contract kept",
       configure_one_per_thread, no_scratch, plan_atomic, atomic_launch)
LC_SUM(lc_memset_default, "sum/lc-memset-default", 1, 1, "a memset on the default stream",
       configure, partial_scratch, plan_two_pass, memset_default_launch)
LC_SUM(lc_stream_sync, "sum/lc-stream-sync", 1, 1, "hipStreamSynchronize inside launch", configure,
       partial_scratch, plan_two_pass, stream_sync_launch)
LC_SUM(lc_memcpy, "sum/lc-memcpy", 1, 1, "a synchronous hipMemcpy inside launch", configure,
       partial_scratch, plan_two_pass, memcpy_launch)
LC_SUM(lc_device_flag, "sum/lc-device-flag", 0, 1, "out zeroed by the first launch only (a flag)",
       configure_one_per_thread, no_scratch, plan_atomic, device_flag_launch)
static const rf_variant lc_partials_nd = {
    "max/lc-partials-nd", RF_OP_MAX, 0, 1, "a max over every partial slot, unwritten ones too",
    "block 32..1024", configure, slot_scratch, plan_two_pass, partials_nd_launch, 0,
    RF_DTYPE_F32, RF_DTYPE_F32, 0, 0};

static const rf_variant *const variants[] = {&lc_correct,     &lc_correct_nd, &lc_memset_default,
                                             &lc_stream_sync, &lc_memcpy,     &lc_device_flag,
                                             &lc_partials_nd};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof variants / sizeof variants[0];
  return variants;
}
#endif
